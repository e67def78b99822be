// Package graph builds the data-flow graph of an engine's layers from tensor
// names: who produces and who consumes each tensor, a topological order,
// cycles, and ambiguity. It knows nothing of timing or findings.
package graph

import (
	"cmp"
	"slices"

	"github.com/trtperf/trtperf/internal/engine"
)

// Dup is a tensor written by several layers, or a declared graph input that
// a layer also writes.
type Dup struct {
	Tensor    string
	Producers []int // layer indexes, ascending
}

// Graph is the producer→consumer graph over layer indexes.
type Graph struct {
	N     int
	Edges [][2]int // deduplicated, sorted by (producer, consumer)
	// Topo is a topological order (smallest index first among ready layers);
	// nil when the graph has a cycle.
	Topo []int
	// Cycle is one cycle as layer indexes, first index repeated at the end;
	// nil for a DAG.
	Cycle []int
	// DuplicateProducers lists tensors with more than one producer, in order
	// of first appearance. They make the graph ambiguous, not invalid.
	DuplicateProducers []Dup
	// InputsProducedByLayer lists declared graph inputs that a layer writes:
	// broken input.
	InputsProducedByLayer []Dup
	// ExternalInputs are tensors consumed but produced by no layer, in order
	// of first use.
	ExternalInputs []string
	// Outputs are tensors produced but consumed by no layer, plus declared
	// outputs, in layer order.
	Outputs []string

	// Tensor ids, so later stages key per-tensor facts by index instead of
	// hashing names again: a tensor is a name within its engine
	// (`_subgraph`); ids run from 0 to Tensors()-1 in order of first
	// reference (outputs of all layers, then inputs).
	tensorNames []string // id → name (without the subgraph scope)
	outRefs     []int32  // tensor ids of every layer's outputs, layer after layer
	inRefs      []int32  // likewise for inputs
	outStart    []int32  // layer i's outputs are outRefs[outStart[i]:outStart[i+1]]
	inStart     []int32
	// nameIDs maps a tensor id to the id of its name alone, shared by the
	// tensors of several engines that have the same name; nil when the
	// dump has one engine (the name id is the tensor id).
	nameIDs []int32
	names   int
}

// Tensors is the number of distinct tensors.
func (g *Graph) Tensors() int { return len(g.tensorNames) }

// OutputIDs are the tensor ids of layer i's outputs, in the layer's order.
func (g *Graph) OutputIDs(i int) []int32 { return g.outRefs[g.outStart[i]:g.outStart[i+1]] }

// InputIDs are the tensor ids of layer i's inputs, in the layer's order.
func (g *Graph) InputIDs(i int) []int32 { return g.inRefs[g.inStart[i]:g.inStart[i+1]] }

// Names is the number of distinct tensor names; NameID(id) runs from 0 to
// Names()-1. It differs from Tensors only when several engines of one dump
// use the same name.
func (g *Graph) Names() int { return g.names }

// NameID is the id of tensor id's name alone, for facts kept per name
// across the engines of a dump.
func (g *Graph) NameID(id int32) int32 {
	if g.nameIDs == nil {
		return id
	}
	return g.nameIDs[id]
}

// IsDAG reports whether the graph has no cycle.
func (g *Graph) IsDAG() bool { return g.Cycle == nil }

// Ambiguous reports whether some tensor has several producers.
func (g *Graph) Ambiguous() bool { return len(g.DuplicateProducers) > 0 }

// Build computes the graph. declared are the engine's declared I/O tensors
// (Bindings or I/O Tensors); a binding without IOMode counts as an input
// when no layer produces it and as an output otherwise.
func Build(layers []engine.Layer, declared []engine.IOTensor) *Graph {
	g := &Graph{N: len(layers)}
	x := indexTensors(layers)
	names, outIDs, inIDs, outStart, inStart := x.names, x.outIDs, x.inIDs, x.outStart, x.inStart
	// first producer per tensor id (-1: none); further producers, rare, in more.
	first := make([]int32, len(names))
	for i := range first {
		first[i] = -1
	}
	more := map[int32][]int32{}
	consumed := make([]bool, len(names))
	for i := range layers {
		for _, tid := range outIDs[outStart[i]:outStart[i+1]] {
			switch {
			case first[tid] < 0:
				first[tid] = int32(i)
			case first[tid] == int32(i):
				// the same layer listing an output twice is one producer
			default:
				m := more[tid]
				if n := len(m); n == 0 || m[n-1] != int32(i) {
					more[tid] = append(m, int32(i))
				}
			}
		}
	}
	edgeSet := make([][2]int, 0, len(inIDs))
	var external []string
	externalSeen := make([]bool, len(names))
	for i := range layers {
		for _, tid := range inIDs[inStart[i]:inStart[i+1]] {
			consumed[tid] = true
			if first[tid] < 0 {
				if !externalSeen[tid] {
					externalSeen[tid] = true
					external = append(external, names[tid])
				}
				continue
			}
			edgeSet = append(edgeSet, [2]int{int(first[tid]), i})
			for _, p := range more[tid] {
				edgeSet = append(edgeSet, [2]int{int(p), i})
			}
		}
	}
	slices.SortFunc(edgeSet, func(a, b [2]int) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	g.Edges = slices.Compact(edgeSet)
	g.ExternalInputs = external

	producersOf := func(tid int32) []int {
		if first[tid] < 0 {
			return nil
		}
		out := append([]int{int(first[tid])}, toInts(more[tid])...)
		slices.Sort(out)
		return out
	}
	for tid := range more {
		g.DuplicateProducers = append(g.DuplicateProducers, Dup{Tensor: names[tid], Producers: producersOf(tid)})
	}
	slices.SortFunc(g.DuplicateProducers, func(a, b Dup) int {
		if c := cmp.Compare(a.Producers[0], b.Producers[0]); c != 0 {
			return c
		}
		return cmp.Compare(a.Tensor, b.Tensor)
	})

	var subgraphs []string
	if len(declared) > 0 {
		seen := map[string]bool{}
		for i := range layers {
			if sub := layers[i].Subgraph; !seen[sub] {
				seen[sub] = true
				subgraphs = append(subgraphs, sub)
			}
		}
	}
	declaredOut := make(map[string]bool)
	for _, d := range declared {
		if d.IOMode == "Output" {
			declaredOut[d.Name] = true
			continue
		}
		// Declared inputs live in the dump's unscoped namespace; check the
		// plain name (and every subgraph's copy) for a producer.
		if d.IOMode == "Input" {
			if ps := producersOfAnyScope(x, producersOf, subgraphs, d.Name); len(ps) > 0 {
				g.InputsProducedByLayer = append(g.InputsProducedByLayer, Dup{Tensor: d.Name, Producers: ps})
			}
			continue
		}
		// A plain binding: an output when a layer writes it.
		if ps := producersOfAnyScope(x, producersOf, subgraphs, d.Name); len(ps) > 0 {
			declaredOut[d.Name] = true
		}
	}
	outSeen := make(map[int32]bool)
	for _, tid := range outIDs {
		if outSeen[tid] {
			continue
		}
		if !consumed[tid] || declaredOut[names[tid]] {
			outSeen[tid] = true
			g.Outputs = append(g.Outputs, names[tid])
		}
	}
	g.tensorNames, g.outRefs, g.inRefs, g.outStart, g.inStart = names, outIDs, inIDs, outStart, inStart
	g.nameIDs, g.names = nameIDsOf(layers, names)
	g.order()
	return g
}

// nameIDsOf numbers the distinct names of the tensors (see Graph.nameIDs):
// nil and the tensor count when no layer belongs to a `_subgraph`, as
// every tensor id is then a distinct name.
func nameIDsOf(layers []engine.Layer, names []string) ([]int32, int) {
	scoped := false
	for i := range layers {
		if layers[i].Subgraph != "" {
			scoped = true
			break
		}
	}
	if !scoped {
		return nil, len(names)
	}
	byName := make(map[string]int32, len(names))
	ids := make([]int32, len(names))
	for tid, n := range names {
		v, ok := byName[n]
		if !ok {
			v = int32(len(byName))
			byName[n] = v
		}
		ids[tid] = v
	}
	return ids, len(byName)
}

func producersOfAnyScope(x *tensorIndex, producersOf func(int32) []int, subgraphs []string, name string) []int {
	var out []int
	for _, sub := range subgraphs {
		if tid, ok := x.lookup(sub, name); ok {
			out = append(out, producersOf(tid)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func toInts(v []int32) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}
