package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
)

type tTensor struct {
	Name       string
	Dimensions []int64
	Format     *string `json:"Format"`
	Datatype   *string `json:"Datatype"`
	FormatDT   *string `json:"Format/Datatype"`
}

type tLayer struct {
	Name      string
	LayerType string
	Inputs    []tTensor
	Outputs   []tTensor
	Subgraph  *int `json:"_subgraph"`
}

type tIO struct {
	Name   string
	IOMode string
}

type tDump struct {
	layers    []tLayer
	names     []string
	bindings  []string
	ioTensors []tIO
	list      bool
}

type tRecord struct {
	Count      *int     `json:"count"`
	Name       *string  `json:"name"`
	TimeMs     float64  `json:"timeMs"`
	AverageMs  float64  `json:"averageMs"`
	MedianMs   *float64 `json:"medianMs"`
	Percentage float64  `json:"percentage"`
}

func generate(t testing.TB, o Options) (layers, profile []byte) {
	t.Helper()
	var lb, pb bytes.Buffer
	if err := Generate(o, &lb, &pb); err != nil {
		t.Fatalf("Generate(%+v): %v", o, err)
	}
	return lb.Bytes(), pb.Bytes()
}

func decodeLayers(t *testing.T, b []byte) tDump {
	t.Helper()
	var d tDump
	if bytes.HasPrefix(b, []byte("[")) {
		d.list = true
		if err := json.Unmarshal(b, &d.layers); err != nil {
			t.Fatalf("decode list root: %v", err)
		}
		for _, l := range d.layers {
			d.names = append(d.names, l.Name)
		}
		return d
	}
	var root struct {
		Layers    json.RawMessage
		Bindings  []string
		IOTensors []tIO `json:"I/O Tensors"`
	}
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatalf("decode object root: %v", err)
	}
	d.bindings, d.ioTensors = root.Bindings, root.IOTensors
	if err := json.Unmarshal(root.Layers, &d.layers); err != nil {
		if err2 := json.Unmarshal(root.Layers, &d.names); err2 != nil {
			t.Fatalf("decode Layers: %v / %v", err, err2)
		}
		d.layers = nil
		return d
	}
	for _, l := range d.layers {
		d.names = append(d.names, l.Name)
	}
	return d
}

// decodeProfiles splits concatenated trtexec arrays.
func decodeProfiles(t *testing.T, b []byte) [][]tRecord {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	var out [][]tRecord
	for dec.More() {
		var recs []tRecord
		if err := dec.Decode(&recs); err != nil {
			t.Fatalf("decode profile: %v", err)
		}
		out = append(out, recs)
	}
	return out
}

// graphFacts checks the dump by tensor names: dangling inputs (neither a
// declared input nor produced anywhere), duplicate producers, DAG-ness, and
// whether a declared input is produced by a layer.
type graphFacts struct {
	dangling, dupProducers int
	dag, inputProduced     bool
}

func facts(d tDump) graphFacts {
	var g graphFacts
	inputs := map[string]bool{}
	for _, b := range d.bindings {
		inputs[b] = true // Bindings do not say direction; enough for the dangling check
	}
	declaredIn := map[string]bool{}
	for _, io := range d.ioTensors {
		inputs[io.Name] = true
		if io.IOMode == "Input" {
			declaredIn[io.Name] = true
		}
	}
	prod := map[string][]int{}
	for i, l := range d.layers {
		for _, o := range l.Outputs {
			prod[o.Name] = append(prod[o.Name], i)
		}
	}
	for n, ps := range prod {
		if len(ps) > 1 {
			g.dupProducers++
		}
		if declaredIn[n] && len(d.ioTensors) > 0 {
			g.inputProduced = true
		}
	}
	if len(d.bindings) > 0 && len(prod[d.bindings[0]]) > 0 {
		// Bindings list inputs first: the first binding is always an input.
		g.inputProduced = true
	}
	indeg := make([]int, len(d.layers))
	succ := make([][]int, len(d.layers))
	for i, l := range d.layers {
		for _, in := range l.Inputs {
			ps, ok := prod[in.Name]
			if !ok && !inputs[in.Name] {
				g.dangling++
			}
			for _, p := range ps {
				succ[p] = append(succ[p], i)
				indeg[i]++
			}
		}
	}
	var queue []int
	for i, n := range indeg {
		if n == 0 {
			queue = append(queue, i)
		}
	}
	seen := 0
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		seen++
		for _, s := range succ[v] {
			if indeg[s]--; indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	g.dag = seen == len(d.layers)
	return g
}

func checkProfile(t *testing.T, names []string, recs []tRecord, o Options) {
	t.Helper()
	var body []tRecord
	count := 0
	for _, r := range recs {
		if r.Count != nil {
			count = *r.Count
			continue
		}
		body = append(body, r)
	}
	if len(body) != len(names) {
		t.Fatalf("profile has %d records, layer info %d layers", len(body), len(names))
	}
	sum := 0.0
	mismatches := 0
	for i, r := range body {
		if *r.Name != names[i] {
			mismatches++
		}
		sum += r.Percentage
		if math.IsNaN(r.AverageMs) || r.AverageMs < 0 {
			t.Fatalf("record %d: averageMs %v", i, r.AverageMs)
		}
		if count > 0 && math.Abs(r.TimeMs-r.AverageMs*float64(count)) > 1e-5*math.Max(r.TimeMs, 1e-3) {
			t.Errorf("record %d: timeMs %v != averageMs %v × count %d", i, r.TimeMs, r.AverageMs, count)
		}
		if r.MedianMs != nil && math.Abs(*r.MedianMs-r.AverageMs) > math.Max(0.1*r.AverageMs, timerTick) {
			t.Errorf("record %d: medianMs %v far from averageMs %v", i, *r.MedianMs, r.AverageMs)
		}
		if o.NoMedian == (r.MedianMs != nil) {
			t.Errorf("record %d: medianMs present = %v with NoMedian = %v", i, r.MedianMs != nil, o.NoMedian)
		}
	}
	if math.Abs(sum-100) > 0.01 {
		t.Errorf("percentages sum to %v, want 100", sum)
	}
	if mismatches != o.MismatchNames {
		t.Errorf("%d profile names differ from the layer info, want %d", mismatches, o.MismatchNames)
	}
	if o.NoCount == (count > 0) {
		t.Errorf("count header present = %v with NoCount = %v", count > 0, o.NoCount)
	}
}

func TestShapesAndEras(t *testing.T) {
	for _, shape := range Shapes {
		for _, era := range Eras {
			for _, prec := range Precisions {
				for _, n := range []int{MinLayers, 57, 400} {
					o := Options{Shape: shape, Era: era, Precision: prec, Layers: n, Seed: 7}
					t.Run(fmt.Sprintf("%s/%s/%s/%d", shape, era, prec, n), func(t *testing.T) {
						lb, pb := generate(t, o)
						d := decodeLayers(t, lb)
						if len(d.layers) != n {
							t.Fatalf("%d layers, want %d", len(d.layers), n)
						}
						g := facts(d)
						if g.dangling != 0 || !g.dag || g.dupProducers != 0 || g.inputProduced {
							t.Errorf("graph facts %+v, want a clean connected DAG", g)
						}
						checkProfile(t, d.names, decodeProfiles(t, pb)[0], o)
						checkEra(t, lb, d, era)
					})
				}
			}
		}
	}
}

func checkEra(t *testing.T, lb []byte, d tDump, era string) {
	t.Helper()
	s := string(lb)
	switch era {
	case "trt11":
		if len(d.ioTensors) == 0 || d.bindings != nil {
			t.Errorf("trt11: want I/O Tensors and no Bindings")
		}
		for _, l := range d.layers {
			for _, x := range append(l.Inputs, l.Outputs...) {
				if x.Format == nil || x.Datatype == nil || x.FormatDT != nil {
					t.Fatalf("trt11 tensor %q: want split Format + Datatype", x.Name)
				}
			}
		}
	case "trt10":
		if !mylRE.MatchString(s) || strings.Contains(s, "ForeignNode") {
			t.Errorf("trt10: want _myl<G>_<K> kernels and no ForeignNode")
		}
	case "trt8":
		if mylRE.MatchString(s) {
			t.Errorf("trt8: Myelin kernels must be grouped into ForeignNode regions")
		}
	}
}

var mylRE = regexp.MustCompile(`_myl\d+_\d+"`)

func TestVariants(t *testing.T) {
	base := func(shape string) Options { return Options{Shape: shape, Layers: 200, Seed: 3} }
	type tc struct {
		name  string
		mod   func(*Options)
		check func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, profiles [][]tRecord, pb []byte)
	}
	cases := []tc{
		{"names-only", func(o *Options) { o.NamesOnly = true }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			if d.layers != nil || len(d.names) != o.Layers || len(d.bindings) == 0 {
				t.Errorf("want %d name strings and Bindings, got %d layers/%d names", o.Layers, len(d.layers), len(d.names))
			}
			if !bytes.HasPrefix(lb, []byte(`{"Layers": ["`)) {
				t.Errorf("names-only layout: %q", lb[:20])
			}
		}},
		{"list-root", func(o *Options) { o.Root = "list" }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			if !d.list || len(d.layers) != o.Layers {
				t.Errorf("want a bare list of %d layers", o.Layers)
			}
		}},
		{"opt-profiles", func(o *Options) { o.OptProfiles = 3 }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			if len(d.layers) != 3*o.Layers {
				t.Fatalf("%d layers, want %d", len(d.layers), 3*o.Layers)
			}
			for i, l := range d.layers {
				want := map[int]string{0: "", 1: " [profile 1]", 2: " [profile 2]"}[i/o.Layers]
				if base := d.layers[i%o.Layers].Name; l.Name != base+want {
					t.Fatalf("layer %d %q, want %q", i, l.Name, base+want)
				}
			}
			if nb := len(d.bindings); nb%3 != 0 || !strings.HasSuffix(d.bindings[nb-1], " [profile 2]") || strings.Contains(d.bindings[nb/3-1], "[profile") {
				t.Errorf("bindings %q", d.bindings)
			}
			if !g.dag || g.dangling != 0 {
				t.Errorf("graph %+v", g)
			}
		}},
		{"subgraphs", func(o *Options) { o.Subgraphs = 4 }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			ids := map[int]int{}
			for _, l := range d.layers {
				if l.Subgraph == nil {
					t.Fatalf("layer %q has no _subgraph", l.Name)
				}
				ids[*l.Subgraph]++
			}
			if len(ids) != 4 {
				t.Errorf("subgraph ids %v, want 4", ids)
			}
		}},
		{"repeat-names", func(o *Options) { o.RepeatNames = 5 }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			seen := map[string]int{}
			dups := 0
			for _, n := range d.names {
				if seen[n]++; seen[n] == 2 {
					dups++
				}
			}
			if dups != 5 {
				t.Errorf("%d repeated names, want 5", dups)
			}
		}},
		{"dynamic", func(o *Options) { o.DynamicDims = true }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			neg := 0
			for _, l := range d.layers {
				for _, x := range l.Outputs {
					if len(x.Dimensions) > 0 && x.Dimensions[0] == -1 {
						neg++
					}
				}
			}
			if neg == 0 {
				t.Errorf("no -1 batch dims")
			}
			if o.Shape == "cnn" && !bytes.Contains(lb, []byte("N/A due to dynamic shapes")) {
				t.Errorf("no N/A formats")
			}
		}},
		{"cycle", func(o *Options) { o.Cycle = true }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			if g.dag {
				t.Errorf("graph is still a DAG")
			}
		}},
		{"duplicate-producers", func(o *Options) { o.DuplicateProducers = 3 }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			if g.dupProducers != 3 || !g.dag {
				t.Errorf("graph %+v, want 3 duplicate producers and still a DAG", g)
			}
		}},
		{"mismatch-names", func(o *Options) { o.MismatchNames = 4 }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			known := map[string]bool{}
			for _, n := range d.names {
				known[n] = true
			}
			miss := 0
			for _, r := range p[0] {
				if r.Name != nil && !known[*r.Name] {
					miss++
				}
			}
			if miss != 4 {
				t.Errorf("%d profile names unknown to the layer info, want 4", miss)
			}
		}},
		{"input-produced", func(o *Options) { o.InputProducedByLayer = true }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			if !g.inputProduced || !g.dag {
				t.Errorf("graph %+v, want a declared input produced by a layer, still a DAG", g)
			}
		}},
		{"trt11-input-produced", func(o *Options) { o.InputProducedByLayer = true; o.Era = "trt11" }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			if !g.inputProduced {
				t.Errorf("no declared Input produced by a layer")
			}
		}},
		{"no-median-no-count", func(o *Options) { o.NoMedian, o.NoCount = true, true }, nil},
		{"count-1", func(o *Options) { o.Count = 1 }, nil},
		{"concatenated", func(o *Options) { o.Concatenated = 7 }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, pb []byte) {
			if len(p) != 7 {
				t.Errorf("%d documents, want 7", len(p))
			}
			if json.Valid(pb) {
				t.Errorf("a concatenated profile must not be one valid JSON document")
			}
		}},
		{"control-chars-trt8", func(o *Options) { o.Era, o.ControlChars = "trt8", true }, func(t *testing.T, o Options, lb []byte, d tDump, g graphFacts, p [][]tRecord, _ []byte) {
			if o.Shape == "cnn" && !bytes.Contains(lb, []byte(`\u001e`)) {
				t.Errorf("no U+001E in Metadata")
			}
		}},
	}
	for _, shape := range Shapes {
		for _, c := range cases {
			t.Run(shape+"/"+c.name, func(t *testing.T) {
				o := base(shape)
				c.mod(&o)
				lb, pb := generate(t, o)
				d := decodeLayers(t, lb)
				g := facts(d)
				profiles := decodeProfiles(t, pb)
				for i, p := range profiles {
					if i == 0 || o.Concatenated > 1 {
						checkProfile(t, d.names, p, o)
					}
				}
				if c.check != nil {
					c.check(t, o, lb, d, g, profiles, pb)
				}
			})
		}
	}
}

func TestLatencyKinds(t *testing.T) {
	for _, kind := range []string{"latency", "latency-pairs"} {
		t.Run(kind, func(t *testing.T) {
			o := Options{Shape: "cnn", Layers: 60, Seed: 2, ProfileKind: kind, Count: 5}
			lb, pb := generate(t, o)
			d := decodeLayers(t, lb)
			var m map[string][]json.RawMessage
			if err := json.Unmarshal(pb, &m); err != nil {
				t.Fatalf("decode latency dict: %v", err)
			}
			if len(m) != len(d.names) {
				t.Fatalf("%d keys, want %d", len(m), len(d.names))
			}
			for _, n := range d.names {
				s := m[n]
				if len(s) != 5 {
					t.Fatalf("%q: %d samples, want 5", n, len(s))
				}
				if pair := s[0][0] == '['; pair != (kind == "latency-pairs") {
					t.Fatalf("%q: sample %s has the wrong shape for %s", n, s[0], kind)
				}
			}
		})
	}
	o := Options{Shape: "cnn", Layers: 60, ProfileKind: "none"}
	_, pb := generate(t, o)
	if len(pb) != 0 {
		t.Errorf("profile kind none wrote %d bytes", len(pb))
	}
}

func TestDeterministic(t *testing.T) {
	for _, shape := range Shapes {
		o := Options{Shape: shape, Layers: 300, Seed: 42, Cycle: true, RepeatNames: 2, OptProfiles: 2}
		l1, p1 := generate(t, o)
		l2, p2 := generate(t, o)
		if !bytes.Equal(l1, l2) || !bytes.Equal(p1, p2) {
			t.Errorf("%s: same seed gave different bytes", shape)
		}
		o.Seed = 43
		l3, _ := generate(t, o)
		if bytes.Equal(l1, l3) {
			t.Errorf("%s: different seeds gave the same layer info", shape)
		}
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []Options{
		{Layers: 100},
		{Shape: "rnn", Layers: 100},
		{Shape: "llm", Layers: 3},
		{Shape: "llm", Layers: 100, Era: "trt9"},
		{Shape: "llm", Layers: 100, Precision: "fp4"},
		{Shape: "llm", Layers: 100, RepeatNames: 80},
		{Shape: "llm", Layers: 100, Concatenated: 2, ProfileKind: "latency"},
		{Shape: "llm", Layers: 100, Subgraphs: 200},
	} {
		if err := Generate(o, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("Generate(%+v) accepted impossible options", o)
		}
	}
}
