package graph

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

// layer makes a layer reading ins and writing outs.
func layer(name string, ins, outs []string) engine.Layer {
	l := engine.Layer{Name: name}
	for _, n := range ins {
		l.Inputs = append(l.Inputs, engine.Tensor{Name: n})
	}
	for _, n := range outs {
		l.Outputs = append(l.Outputs, engine.Tensor{Name: n})
	}
	return l
}

func TestBuild(t *testing.T) {
	s := func(v ...string) []string { return v }
	tests := []struct {
		name     string
		layers   []engine.Layer
		declared []engine.IOTensor
		edges    [][2]int
		topo     []int
		cycle    []int
		dups     []Dup
		inputBad []Dup
		external []string
		outputs  []string
	}{
		{
			name: "chain with residual",
			layers: []engine.Layer{
				layer("a", s("x"), s("t1")),
				layer("b", s("t1"), s("t2")),
				layer("c", s("t1", "t2"), s("y")),
			},
			declared: []engine.IOTensor{{Name: "x"}, {Name: "y"}},
			edges:    [][2]int{{0, 1}, {0, 2}, {1, 2}},
			topo:     []int{0, 1, 2},
			external: s("x"),
			outputs:  s("y"),
		},
		{
			name: "out of order dump still sorts",
			layers: []engine.Layer{
				layer("b", s("t1"), s("y")),
				layer("a", s("x"), s("t1")),
			},
			edges:    [][2]int{{1, 0}},
			topo:     []int{1, 0},
			external: s("x"),
			outputs:  s("y"),
		},
		{
			name: "cycle is reported with names in order",
			layers: []engine.Layer{
				layer("a", s("x", "t3"), s("t1")),
				layer("b", s("t1"), s("t2")),
				layer("c", s("t2"), s("t3")),
			},
			edges:    [][2]int{{0, 1}, {1, 2}, {2, 0}},
			cycle:    []int{0, 1, 2, 0},
			external: s("x"),
		},
		{
			name:   "self loop",
			layers: []engine.Layer{layer("a", s("t"), s("t"))},
			edges:  [][2]int{{0, 0}},
			cycle:  []int{0, 0},
		},
		{
			name: "duplicate producer is ambiguous, not cyclic",
			layers: []engine.Layer{
				layer("a", s("x"), s("t")),
				layer("b", s("x"), s("t")),
				layer("c", s("t"), s("y")),
			},
			edges:    [][2]int{{0, 2}, {1, 2}},
			topo:     []int{0, 1, 2},
			dups:     []Dup{{Tensor: "t", Producers: []int{0, 1}}},
			external: s("x"),
			outputs:  s("y"),
		},
		{
			name: "declared input produced by a layer",
			layers: []engine.Layer{
				layer("a", s("x"), s("in")),
				layer("b", s("in"), s("y")),
			},
			declared: []engine.IOTensor{{Name: "in", IOMode: "Input"}},
			edges:    [][2]int{{0, 1}},
			topo:     []int{0, 1},
			inputBad: []Dup{{Tensor: "in", Producers: []int{0}}},
			external: s("x"),
			outputs:  s("y"),
		},
		{
			name: "declared output feeding another layer stays an output",
			layers: []engine.Layer{
				layer("a", s("x"), s("mid")),
				layer("b", s("mid"), s("y")),
			},
			declared: []engine.IOTensor{{Name: "x", IOMode: "Input"}, {Name: "mid", IOMode: "Output"}, {Name: "y", IOMode: "Output"}},
			edges:    [][2]int{{0, 1}},
			topo:     []int{0, 1},
			external: s("x"),
			outputs:  s("mid", "y"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Build(tt.layers, tt.declared)
			check := func(what string, got, want any) {
				t.Helper()
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %v, want %v", what, got, want)
				}
			}
			check("edges", g.Edges, tt.edges)
			check("topo", g.Topo, tt.topo)
			check("cycle", g.Cycle, tt.cycle)
			check("dups", g.DuplicateProducers, tt.dups)
			check("inputs produced", g.InputsProducedByLayer, tt.inputBad)
			check("external", g.ExternalInputs, tt.external)
			check("outputs", g.Outputs, tt.outputs)
			check("is_dag", g.IsDAG(), tt.cycle == nil)
		})
	}
}

func TestSubgraphsScopeTensorNames(t *testing.T) {
	a := layer("a", []string{"input"}, []string{"output"})
	a.Subgraph = "0"
	b := layer("b", []string{"input"}, []string{"output"})
	b.Subgraph = "1"
	g := Build([]engine.Layer{a, b}, nil)
	if g.Ambiguous() || len(g.Edges) != 0 || !g.IsDAG() {
		t.Fatalf("two engines reusing tensor names must not collide: dups=%v edges=%v", g.DuplicateProducers, g.Edges)
	}
}

// chain builds n layers in a line with a residual edge every 4 layers, the
// shape of a transformer engine.
func chain(n int) []engine.Layer {
	ls := make([]engine.Layer, n)
	for i := range ls {
		in := []string{fmt.Sprintf("t%d", i)}
		if i >= 4 && i%4 == 0 {
			in = append(in, fmt.Sprintf("t%d", i-3))
		}
		ls[i] = layer(fmt.Sprintf("l%d", i), in, []string{fmt.Sprintf("t%d", i+1)})
	}
	return ls
}

func TestLargeReversedChainIsOrdered(t *testing.T) {
	ls := chain(5000)
	// Reverse the dump order: the fast path no longer applies.
	for i, j := 0, len(ls)-1; i < j; i, j = i+1, j-1 {
		ls[i], ls[j] = ls[j], ls[i]
	}
	g := Build(ls, nil)
	if !g.IsDAG() || len(g.Topo) != len(ls) {
		t.Fatalf("want a full topological order, got %d of %d (cycle %v)", len(g.Topo), len(ls), g.Cycle)
	}
	pos := make([]int, len(ls))
	for i, v := range g.Topo {
		pos[v] = i
	}
	for _, e := range g.Edges {
		if pos[e[0]] >= pos[e[1]] {
			t.Fatalf("edge %v out of order", e)
		}
	}
}

func BenchmarkBuild200k(b *testing.B) {
	ls := chain(200000)
	b.ReportAllocs()
	for b.Loop() {
		Build(ls, nil)
	}
}

// TestTensorIDs: every reference to one tensor has one id, the engines of a
// `_subgraph` dump have their own tensors, and NameID joins those by name.
func TestTensorIDs(t *testing.T) {
	s := func(v ...string) []string { return v }
	ls := []engine.Layer{
		layer("a", s("x"), s("t")),
		layer("b", s("t", "x"), s("y")),
		layer("c", s("x"), s("t")),
	}
	ls[2].Subgraph = "1"
	g := Build(ls, nil)
	x, t0 := g.InputIDs(0)[0], g.OutputIDs(0)[0]
	if got := g.InputIDs(1); !reflect.DeepEqual(got, []int32{t0, x}) {
		t.Errorf("inputs of b %v, want [t x] = [%d %d]", got, t0, x)
	}
	if g.Tensors() != 5 || g.Names() != 3 {
		t.Errorf("%d tensors and %d names, want 5 (x, t, y; x and t of engine 1) and 3", g.Tensors(), g.Names())
	}
	x1, t1 := g.InputIDs(2)[0], g.OutputIDs(2)[0]
	if x1 == x || t1 == t0 || g.NameID(x1) != g.NameID(x) || g.NameID(t1) != g.NameID(t0) || g.NameID(x) == g.NameID(t0) {
		t.Errorf("engine 1's x, t = %d, %d (names %d, %d); engine 0's %d, %d (names %d, %d)", x1, t1, g.NameID(x1), g.NameID(t1), x, t0, g.NameID(x), g.NameID(t0))
	}
	for id := range int32(g.Tensors()) {
		if n := g.NameID(id); n < 0 || int(n) >= g.Names() {
			t.Errorf("NameID(%d) = %d out of range", id, n)
		}
	}
}
