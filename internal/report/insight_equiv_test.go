package report

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// edgeLabelsByName is the plain definition edgeLabels implements faster:
// every input's producer looked up by name, every producer→consumer pair
// labelled once, in input order.
func edgeLabelsByName(b *contract.Backend, st *stringTable) []int32 {
	producer := firstProducers(b.Layers)
	type pair struct{ u, v int }
	label := map[pair]int32{}
	for v := range b.Layers {
		for _, t := range b.Layers[v].Inputs {
			u, ok := producer[t.Name]
			if !ok {
				continue
			}
			if _, seen := label[pair{u, v}]; !seen {
				label[pair{u, v}] = st.id(dims(t.Dimensions) + "|" + layerfacts.FormatLabel(t.Format))
			}
		}
	}
	out := make([]int32, len(b.Graph.Edges))
	for k, e := range b.Graph.Edges {
		id, ok := label[pair{e[0], e[1]}]
		if !ok {
			id = -1
		}
		out[k] = id
	}
	return out
}

// randomBackend makes layers reading earlier layers' outputs (and a few
// graph inputs), with the edges the analysis would derive, then applies
// twist: repeated output names, other engines' names, edges that do not
// match the layers, wide fan-in.
func randomBackend(r *rand.Rand, n int, twist string) *contract.Backend {
	b := &contract.Backend{}
	name := func(i int) string { return fmt.Sprintf("/model/layers.%d/out", i) }
	formats := []string{"Row major linear FP16 format", "Channel major FP16 format where channel % 8 == 0"}
	ten := func(nm string) contract.Tensor {
		return contract.Tensor{Name: nm, Dimensions: []int64{1, int64(1 + r.IntN(4))}, Format: formats[r.IntN(2)]}
	}
	for i := range n {
		l := contract.Layer{Name: fmt.Sprint("l", i), Outputs: []contract.Tensor{ten(name(i))}}
		fanIn := 1 + r.IntN(3)
		if twist == "wide" && i%7 == 6 {
			fanIn = 40
		}
		for range fanIn {
			if i == 0 || r.IntN(10) == 0 {
				l.Inputs = append(l.Inputs, ten(fmt.Sprint("input", r.IntN(3))))
			} else {
				l.Inputs = append(l.Inputs, ten(name(max(0, i-1-r.IntN(min(i, 20))))))
			}
		}
		switch {
		case twist == "repeated" && i%5 == 4:
			l.Outputs = append(l.Outputs, ten(name(i-2))) // a second producer of an earlier name
		case twist == "repeated" && i%11 == 10:
			l.Outputs = append(l.Outputs, ten(name(i))) // one layer writing a name twice
		}
		b.Layers = append(b.Layers, l)
	}
	// The edges: first producer per name, as the analysis derives them.
	producer := firstProducers(b.Layers)
	seen := map[[2]int]bool{}
	for v, l := range b.Layers {
		for _, t := range l.Inputs {
			if u, ok := producer[t.Name]; ok && !seen[[2]int{u, v}] {
				seen[[2]int{u, v}] = true
				b.Graph.Edges = append(b.Graph.Edges, [2]int{u, v})
			}
		}
	}
	if twist == "mismatched" {
		// Drop some edges, add some that carry no tensor, one out of range.
		var kept [][2]int
		for k, e := range b.Graph.Edges {
			if k%4 != 0 {
				kept = append(kept, e)
			}
		}
		kept = append(kept, [2]int{0, n - 1}, [2]int{n - 2, n + 5})
		b.Graph.Edges = kept
	}
	sortEdges(b.Graph.Edges)
	return b
}

func sortEdges(e [][2]int) {
	for i := 1; i < len(e); i++ {
		for j := i; j > 0 && (e[j][0] < e[j-1][0] || e[j][0] == e[j-1][0] && e[j][1] < e[j-1][1]); j-- {
			e[j], e[j-1] = e[j-1], e[j]
		}
	}
}

// TestEdgeLabelsSameAsByName: the fast path gives every edge the label, and
// the string table the ids in the order, of the plain lookup by name.
func TestEdgeLabelsSameAsByName(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := map[string]*contract.Backend{"conv": convBackend()}
	for _, twist := range []string{"", "repeated", "mismatched", "wide"} {
		for i := range 3 {
			cases[fmt.Sprintf("%s-%d", twist, i)] = randomBackend(r, 300, twist)
		}
	}
	sub := randomBackend(r, 200, "")
	for i := range sub.Layers[100:] {
		sub.Layers[100+i].Subgraph = "1" // names of engine 0 read by engine 1, no edge
	}
	var kept [][2]int
	for _, e := range sub.Graph.Edges {
		if (e[0] < 100) == (e[1] < 100) {
			kept = append(kept, e)
		}
	}
	sub.Graph.Edges = kept
	cases["subgraphs"] = sub
	cases["synthetic"] = &reporttest.Synthetic(reporttest.Options{Layers: 3000}).Results[0]
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			st, want := &stringTable{ids: map[string]int32{}}, &stringTable{ids: map[string]int32{}}
			st.id("x") // ids continue a table other columns began
			want.id("x")
			got, wantLabels := edgeLabels(b, st), edgeLabelsByName(b, want)
			if !reflect.DeepEqual(got, wantLabels) || !reflect.DeepEqual(st.list, want.list) {
				t.Errorf("labels %v\nwant   %v\nstrings %q\nwant    %q", got, wantLabels, st.list, want.list)
			}
		})
	}
}

// BenchmarkBuildColumns derives the layer columns (names, types, edge
// labels...) of a 100k-layer synthetic analysis, as package does per
// backend before writing layers-<b>.js.
func BenchmarkBuildColumns(b *testing.B) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 100000})
	b.ReportAllocs()
	for b.Loop() {
		buildColumns(&d.Results[0])
	}
}

// TestTopLayersSameAsSort: keeping the k slowest while streaming gives the
// first k of all records sorted slowest first (ties by layer, then record).
func TestTopLayersSameAsSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for c := range 50 {
		n := r.IntN(200)
		b := &contract.Backend{Validation: contract.BackendValidation{AnalysisMode: contract.ModeLayerProfile}, Layers: make([]contract.Layer, n)}
		for i := range n + r.IntN(5) {
			l := r.IntN(n+2) - 1 // some records without a layer (-1, n)
			b.Records = append(b.Records, contract.Record{Name: fmt.Sprint("r", i), Layer: l, AvgMs: float64(r.IntN(20)) / 8})
		}
		k := r.IntN(40)
		var idx []int
		for i, rec := range b.Records {
			if rec.Layer >= 0 && rec.Layer < n {
				idx = append(idx, i)
			}
		}
		slices.SortStableFunc(idx, func(x, y int) int {
			return cmp.Or(cmp.Compare(b.Records[y].AvgMs, b.Records[x].AvgMs), cmp.Compare(b.Records[x].Layer, b.Records[y].Layer))
		})
		var want []string
		for _, i := range idx[:min(k, len(idx))] {
			want = append(want, b.Records[i].Name)
		}
		var got []string
		for _, x := range topLayers(b, k) {
			got = append(got, x.Name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d (k %d): top %q, want %q", c, k, got, want)
		}
	}
}
