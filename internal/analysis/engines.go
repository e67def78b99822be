package analysis

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// enginesFor gathers partition hints. Only `_subgraph` ids prove several
// engines in one dump: two StreamIds are one engine on two streams, and two
// engine files of one model are usually builds of different precisions.
func enginesFor(scope *discover.Scope, ls []engine.Layer, facts []layerfacts.Facts, recs []contract.Record, total float64, optProfiles []int) contract.Engines {
	e := contract.Engines{
		EngineFiles: nonNil(slices.Clone(scope.EngineFiles)), MyelinGraphs: []int{}, Streams: []int{},
		Subgraphs: []string{}, OptProfiles: optProfiles, Partitions: []contract.Partition{},
		InferredCount: 1, Source: "single",
	}
	if e.OptProfiles == nil {
		e.OptProfiles = []int{0}
	}
	seenG, seenS, seenSub := map[int]bool{}, map[int]bool{}, map[string]bool{}
	for i := range ls {
		if g := facts[i].MyelinGraph; g >= 0 && !seenG[g] {
			seenG[g] = true
			e.MyelinGraphs = append(e.MyelinGraphs, g)
		}
		if ls[i].HasStreamID && !seenS[ls[i].StreamID] {
			seenS[ls[i].StreamID] = true
			e.Streams = append(e.Streams, ls[i].StreamID)
		}
		if sub := ls[i].Subgraph; sub != "" && !seenSub[sub] {
			seenSub[sub] = true
			e.Subgraphs = append(e.Subgraphs, sub)
		}
	}
	slices.Sort(e.MyelinGraphs)
	slices.Sort(e.Streams)
	if len(e.Subgraphs) > 1 {
		e.InferredCount = len(e.Subgraphs)
		e.Source = "subgraph"
	}
	// Partitions: per subgraph, and per Myelin graph, with their time.
	type acc struct {
		layers int
		ms     float64
	}
	subAcc, myAcc := map[string]*acc{}, map[int]*acc{}
	for i := range ls {
		if sub := ls[i].Subgraph; sub != "" {
			if subAcc[sub] == nil {
				subAcc[sub] = &acc{}
			}
			subAcc[sub].layers++
		}
		if g := facts[i].MyelinGraph; g >= 0 {
			if myAcc[g] == nil {
				myAcc[g] = &acc{}
			}
			myAcc[g].layers++
		}
	}
	for _, r := range recs {
		if r.Layer < 0 {
			continue
		}
		if sub := ls[r.Layer].Subgraph; sub != "" {
			subAcc[sub].ms += r.AvgMs
		}
		if g := facts[r.Layer].MyelinGraph; g >= 0 {
			myAcc[g].ms += r.AvgMs
		}
	}
	for _, sub := range e.Subgraphs {
		a := subAcc[sub]
		e.Partitions = append(e.Partitions, contract.Partition{ID: sub, Kind: "subgraph", LayerCount: a.layers, TimeMs: a.ms, Percentage: share(a.ms, total)})
	}
	for _, g := range e.MyelinGraphs {
		a := myAcc[g]
		e.Partitions = append(e.Partitions, contract.Partition{ID: strconv.Itoa(g), Kind: "myelin_graph", LayerCount: a.layers, TimeMs: a.ms, Percentage: share(a.ms, total)})
	}
	slices.SortStableFunc(e.Partitions, func(a, b contract.Partition) int {
		if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return cmp.Compare(b.TimeMs, a.TimeMs)
	})
	return e
}
