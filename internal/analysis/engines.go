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
	// Layers of one Myelin graph, stream or subgraph are contiguous in a
	// dump: remembering the last value seen skips the map on almost every
	// layer of a 10^5-layer engine.
	seenG, seenS, seenSub := map[int]bool{}, map[int]bool{}, map[string]bool{}
	lastG, lastS, lastSub := -1, -1, ""
	for i := range ls {
		if g := facts[i].MyelinGraph; g >= 0 && g != lastG {
			lastG = g
			if !seenG[g] {
				seenG[g] = true
				e.MyelinGraphs = append(e.MyelinGraphs, g)
			}
		}
		if ls[i].HasStreamID && ls[i].StreamID != lastS {
			lastS = ls[i].StreamID
			if !seenS[lastS] {
				seenS[lastS] = true
				e.Streams = append(e.Streams, lastS)
			}
		}
		if sub := ls[i].Subgraph; sub != "" && sub != lastSub {
			lastSub = sub
			if !seenSub[sub] {
				seenSub[sub] = true
				e.Subgraphs = append(e.Subgraphs, sub)
			}
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
	subIdx, myIdx := map[string]int{}, map[int]int{}
	for i, sub := range e.Subgraphs {
		subIdx[sub] = i
	}
	for i, g := range e.MyelinGraphs {
		myIdx[g] = i
	}
	subAcc, myAcc := make([]acc, len(e.Subgraphs)), make([]acc, len(e.MyelinGraphs))
	// Per layer, the partition slots (-1: none), found with the same
	// last-value shortcut.
	subOf, myOf := make([]int32, len(ls)), make([]int32, len(ls))
	lastG, lastSub = -1, ""
	gSlot, subSlot := int32(-1), int32(-1)
	for i := range ls {
		subOf[i], myOf[i] = -1, -1
		if sub := ls[i].Subgraph; sub != "" {
			if sub != lastSub {
				lastSub, subSlot = sub, int32(subIdx[sub])
			}
			subOf[i] = subSlot
			subAcc[subSlot].layers++
		}
		if g := facts[i].MyelinGraph; g >= 0 {
			if g != lastG {
				lastG, gSlot = g, int32(myIdx[g])
			}
			myOf[i] = gSlot
			myAcc[gSlot].layers++
		}
	}
	// Records by pointer: only Layer and AvgMs are read (the roofline
	// fields are written meanwhile, beside this; see analyzeBackend).
	for i := range recs {
		r := &recs[i]
		if r.Layer < 0 {
			continue
		}
		if s := subOf[r.Layer]; s >= 0 {
			subAcc[s].ms += r.AvgMs
		}
		if s := myOf[r.Layer]; s >= 0 {
			myAcc[s].ms += r.AvgMs
		}
	}
	for i, sub := range e.Subgraphs {
		a := subAcc[i]
		e.Partitions = append(e.Partitions, contract.Partition{ID: sub, Kind: "subgraph", LayerCount: a.layers, TimeMs: a.ms, Percentage: share(a.ms, total)})
	}
	for i, g := range e.MyelinGraphs {
		a := myAcc[i]
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
