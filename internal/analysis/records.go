package analysis

import (
	"runtime"
	"sync"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// deriveFacts computes every layer's facts, split over the CPUs: it is pure
// per layer, and engines reach 10^5 layers.
func deriveFacts(ls []engine.Layer) []layerfacts.Facts {
	out := make([]layerfacts.Facts, len(ls))
	workers := runtime.GOMAXPROCS(0)
	if len(ls) < 4096 || workers < 2 {
		d := layerfacts.NewDeriver()
		for i := range ls {
			out[i] = d.Derive(&ls[i])
		}
		return out
	}
	var wg sync.WaitGroup
	chunk := (len(ls) + workers - 1) / workers
	for start := 0; start < len(ls); start += chunk {
		end := min(start+chunk, len(ls))
		wg.Go(func() {
			d := layerfacts.NewDeriver() // one per goroutine
			for i := start; i < end; i++ {
				out[i] = d.Derive(&ls[i])
			}
		})
	}
	wg.Wait()
	return out
}

// buildRecords makes one record per profile record, in profile order, each
// pointing at its matched layer.
func buildRecords(recs []engine.ProfileRecord, layerOf []int, ls []engine.Layer, facts []layerfacts.Facts) []contract.Record {
	out := make([]contract.Record, len(recs))
	medians := make([]float64, len(recs))
	work := make([]layerfacts.Work, len(recs))
	for i := range recs {
		r := &recs[i]
		idx := layerOf[i]
		c := &out[i]
		c.Name = r.Name
		c.Layer = idx
		c.TimeMs = r.TimeMs
		c.AvgMs = r.AverageMs
		c.Percentage = r.Percentage
		if r.HasMedian {
			medians[i] = r.MedianMs
			c.MedianMs = &medians[i]
		}
		if idx < 0 {
			c.InputTypes, c.OutputTypes, c.Tags = []string{}, []string{}, []string{}
			continue
		}
		f := &facts[idx]
		l := &ls[idx]
		c.LayerType = f.DerivedType
		c.RawLayerType = l.Type
		c.Precision = f.Precision
		c.InputTypes = nonNil(f.InputTypes)
		c.OutputTypes = nonNil(f.OutputTypes)
		c.Tactic = l.TacticName
		c.TacticFamily = f.TacticFamily
		c.TensorCore = f.TensorCore.Bool()
		if f.MyelinGraph >= 0 {
			g := f.MyelinGraph
			c.MyelinGraph = &g
		}
		c.FusedOps = f.FusedOps
		c.Tags = nonNil(f.Tags)
		if wk, ok := layerfacts.LayerWork(l); ok {
			work[i] = wk
			c.FLOPs, c.Bytes = &work[i].FLOPs, &work[i].Bytes
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// shadowRecords are one record per layer, in layer order, with no time:
// what the rules read of a layer_only backend once the cost model's
// predictions fill the times (see evaluatePredicted).
func shadowRecords(ls []engine.Layer, facts []layerfacts.Facts) []contract.Record {
	recs := make([]engine.ProfileRecord, len(ls))
	layerOf := make([]int, len(ls))
	for i := range ls {
		recs[i].Name = ls[i].Name
		layerOf[i] = i
	}
	return buildRecords(recs, layerOf, ls, facts)
}
