package graph

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

// idsByMap is the plain definition indexTensors implements: one id per
// (engine, name), handed out in order of first reference, outputs first.
func idsByMap(layers []engine.Layer) (names []string, outIDs, inIDs []int32) {
	ids := map[key]int32{}
	id := func(sub, name string) int32 {
		if v, ok := ids[key{sub, name}]; ok {
			return v
		}
		ids[key{sub, name}] = int32(len(names))
		names = append(names, name)
		return int32(len(names) - 1)
	}
	for _, l := range layers {
		for _, t := range l.Outputs {
			outIDs = append(outIDs, id(l.Subgraph, t.Name))
		}
	}
	for _, l := range layers {
		for _, t := range l.Inputs {
			inIDs = append(inIDs, id(l.Subgraph, t.Name))
		}
	}
	return names, outIDs, inIDs
}

// randomLayers reads outputs of layers near and far back, graph inputs,
// names several layers write (more than maxRunScan of them for one name),
// names of another engine, and outputs of later layers.
func randomLayers(r *rand.Rand, n int) []engine.Layer {
	name := func(i int) string { return fmt.Sprintf("/model/layers.%d/out", i) }
	ls := make([]engine.Layer, n)
	for i := range ls {
		l := engine.Layer{Name: fmt.Sprint("l", i), Outputs: []engine.Tensor{{Name: name(i)}}}
		if i%3 == 0 {
			l.Outputs = append(l.Outputs, engine.Tensor{Name: name(i) + ":1"})
		}
		switch {
		case i%13 == 12:
			l.Outputs = append(l.Outputs, engine.Tensor{Name: "shared"}) // written by many layers
		case i%17 == 16:
			l.Outputs = append(l.Outputs, engine.Tensor{Name: name(i - 3)}) // a second producer
		}
		if i >= n/2 && i%5 == 0 {
			l.Subgraph = "1"
		}
		for range 1 + r.IntN(4) {
			switch k := r.IntN(20); {
			case k == 0:
				l.Inputs = append(l.Inputs, engine.Tensor{Name: fmt.Sprint("input", r.IntN(3))})
			case k == 1:
				l.Inputs = append(l.Inputs, engine.Tensor{Name: "shared"})
			case k == 2:
				l.Inputs = append(l.Inputs, engine.Tensor{Name: name(r.IntN(n))}) // anywhere, also later
			case k < 6:
				l.Inputs = append(l.Inputs, engine.Tensor{Name: name(max(0, i-recentLayers-1-r.IntN(50)))})
			default:
				l.Inputs = append(l.Inputs, engine.Tensor{Name: name(max(0, i-1-r.IntN(recentLayers)))})
			}
		}
		ls[i] = l
	}
	return ls
}

// TestIndexTensorsSameAsByMap: the index hands out the same ids as a map
// from (engine, name) would, in the same order.
func TestIndexTensorsSameAsByMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 20 {
		ls := randomLayers(r, 50+r.IntN(400))
		x := indexTensors(ls)
		names, outIDs, inIDs := idsByMap(ls)
		if !reflect.DeepEqual(x.names, names) || !reflect.DeepEqual(x.outIDs, outIDs) || !reflect.DeepEqual(x.inIDs, inIDs) {
			t.Fatalf("case %d: ids differ from the map's\nnames %q\nwant  %q\nout %v\nwant %v\nin %v\nwant %v", i, x.names, names, x.outIDs, outIDs, x.inIDs, inIDs)
		}
		for j, l := range ls {
			for k, tn := range l.Inputs {
				if id, ok := x.lookup(l.Subgraph, tn.Name); !ok || id != x.inIDs[x.inStart[j]+int32(k)] {
					t.Fatalf("case %d: lookup(%q, %q) = %d, %v", i, l.Subgraph, tn.Name, id, ok)
				}
			}
		}
		if _, ok := x.lookup("", "no such tensor"); ok {
			t.Fatalf("case %d: lookup found a tensor no layer reads or writes", i)
		}
	}
}

// TestIndexTensorsHashCollisions: outputs whose hashes collide are still
// told apart by name (all hashes forced equal through a fixed seed is not
// possible, so the run logic is driven directly).
func TestIndexTensorsHashCollisions(t *testing.T) {
	ls := []engine.Layer{
		layer("a", nil, []string{"x", "y"}),
		layer("b", nil, []string{"x"}),
		layer("c", nil, []string{"z", "y", "x"}),
		layer("d", nil, []string{"x", "w", "z", "y"}),
		layer("e", nil, []string{"y", "x", "v"}),
	}
	ls[2].Subgraph = "1"
	x := indexTensors(ls)
	for _, n := range []int{maxRunScan, maxRunScan + 3} { // pairwise and by map
		if n > len(x.outIDs) {
			t.Fatalf("%d outputs, too few for a run of %d", len(x.outIDs), n)
		}
		var run []uint64
		for k := range n {
			run = append(run, 7<<x.refBits|uint64(k))
		}
		first := make([]int32, len(x.outIDs))
		x.firstRefs(run, first)
		for a := range int32(n) {
			want := a
			for b := range a {
				if x.outKey(b) == x.outKey(a) {
					want = min(want, b)
				}
			}
			if first[a] != want {
				t.Errorf("run of %d: first reference of %d (%v) is %d, want %d", n, a, x.outKey(a), first[a], want)
			}
		}
	}
}
