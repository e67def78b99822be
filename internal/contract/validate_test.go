package contract

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract/internal/fastjson"
)

func TestValidateAcceptsValid(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  *AnalyzeData
	}{{"small", smallDoc()}, {"big", bigDoc(2000)}} {
		t.Run(tc.name, func(t *testing.T) {
			r := Validate(encode(t, tc.doc))
			if !r.SchemaOK() || !r.SemanticOK() {
				t.Fatalf("valid document rejected:\nschema: %v\nsemantic: %v", r.Schema, r.Semantic)
			}
			if rd := ValidateData(tc.doc, encode(t, tc.doc)); !rd.SchemaOK() || !rd.SemanticOK() || rd.Data != tc.doc {
				t.Fatalf("ValidateData rejected a valid document:\nschema: %v\nsemantic: %v", rd.Schema, rd.Semantic)
			}
			if r.Data == nil || len(r.Data.Results) != len(tc.doc.Results) {
				t.Error("Report.Data not filled")
			}
		})
	}
}

// tamper decodes doc generically, applies edit at the JSON pointer ptr
// (value deleted when del), and re-encodes.
func tamper(t testing.TB, doc []byte, ptr string, del bool, value any) []byte {
	t.Helper()
	var root any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		t.Fatal(err)
	}
	toks := strings.Split(ptr, "/")[1:]
	for i := range toks {
		toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(toks[i])
	}
	parent := root
	for _, tok := range toks[:len(toks)-1] {
		switch p := parent.(type) {
		case map[string]any:
			parent = p[tok]
		case []any:
			i, _ := strconv.Atoi(tok)
			parent = p[i]
		}
	}
	last := toks[len(toks)-1]
	switch p := parent.(type) {
	case map[string]any:
		if _, ok := p[last]; !ok && del {
			t.Fatalf("tamper: %s does not exist", ptr)
		}
		if del {
			delete(p, last)
		} else {
			p[last] = value
		}
	case []any:
		i, _ := strconv.Atoi(last)
		if del {
			t.Fatal("tamper: cannot delete an array element")
		}
		p[i] = value
	default:
		t.Fatalf("tamper: no container at %s", ptr)
	}
	out, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type tamperCase struct {
	name     string
	ptr      string
	del      bool
	value    any
	schema   string // pointer expected among schema problems ("-" none expected)
	semantic string // pointer expected among semantic problems
}

func pointers(ps []Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Pointer
	}
	return out
}

func runTamper(t *testing.T, doc []byte, cases []tamperCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tampered := tamper(t, doc, tc.ptr, tc.del, tc.value)
			r := Validate(tampered)
			// ValidateData must agree wherever the document decodes.
			if r.Data != nil {
				rd := ValidateData(r.Data, tampered)
				if !reflect.DeepEqual(rd.Schema, r.Schema) || !reflect.DeepEqual(rd.Semantic, r.Semantic) {
					t.Errorf("ValidateData = %q / %q, Validate = %q / %q", rd.Schema, rd.Semantic, r.Schema, r.Semantic)
				}
			}
			if tc.schema != "" && !slices.Contains(pointers(r.Schema), tc.schema) {
				t.Errorf("schema problems %q lack %s", r.Schema, tc.schema)
			}
			if tc.semantic != "" && !slices.Contains(pointers(r.Semantic), tc.semantic) {
				t.Errorf("semantic problems %q lack %s", r.Semantic, tc.semantic)
			}
			if r.SchemaOK() && r.SemanticOK() {
				t.Error("tampered document passed")
			}
		})
	}
}

func TestValidateTamperedSmall(t *testing.T) {
	doc := encode(t, smallDoc())
	runTamper(t, doc, []tamperCase{
		{name: "required field removed", ptr: "/results/0/records/2/percentage", del: true, schema: "/results/0/records/2/percentage"},
		{name: "required layer key removed", ptr: "/results/0/layers/1/Outputs/0/Format~1Datatype", del: true, schema: "/results/0/layers/1/Outputs/0/Format~1Datatype"},
		{name: "wrong type", ptr: "/results/0/records/1/avg_ms", value: "fast", schema: "/results/0/records/1/avg_ms"},
		{name: "enum", ptr: "/results/0/validation/status", value: "ok", schema: "/results/0/validation/status"},
		{name: "enum top", ptr: "/validation/status", value: "mixed", schema: "/validation/status"},
		{name: "unknown member", ptr: "/results/0/records/0/bogus", value: 1, schema: "/results/0/records/0/bogus"},
		{name: "negative time", ptr: "/results/0/records/0/time_ms", value: -1, schema: "/results/0/records/0/time_ms"},
		{name: "null timing total", ptr: "/results/0/timing/total_ms", value: nil, schema: "/results/0/timing/total_ms"},
		{name: "status flipped", ptr: "/results/1/validation/status", value: "passed", semantic: "/results/1/validation/status"},
		{name: "status flipped counts", ptr: "/results/1/validation/status", value: "passed", semantic: "/validation/passed_count"},
		{name: "top status", ptr: "/validation/status", value: "passed", semantic: "/validation/status"},
		{name: "percentage changed", ptr: "/results/0/records/2/percentage", value: 70, semantic: "/results/0/records/2/percentage"},
		{name: "percentage sum", ptr: "/results/0/records/2/percentage", value: 70, semantic: "/results/0/timing/percentage_sum"},
		{name: "average total", ptr: "/results/0/timing/average_inference_ms", value: 2.5, semantic: "/results/0/timing/average_inference_ms"},
		{name: "layer count", ptr: "/results/0/layer_count", value: 5, semantic: "/results/0/layer_count"},
		{name: "profile overhead not recomputable", ptr: "/results/0/timing/measured/profile_overhead", value: 2.0, semantic: "/results/0/timing/measured/profile_overhead"},
		{name: "overhead basis without median", ptr: "/results/0/timing/measured/gpu_compute_ms/median", value: nil, semantic: "/results/0/timing/measured/profile_overhead_basis"},
		{name: "measured source not first", ptr: "/results/0/timing/measured/source/file", value: "other.json", semantic: "/results/0/timing/measured/source"},
		{name: "measured median above max", ptr: "/results/0/timing/measured/gpu_compute_ms/median", value: 3.0, semantic: "/results/0/timing/measured/gpu_compute_ms"},
		{name: "per-iteration points without indices", ptr: "/results/0/timing/measured/per_iteration", value: map[string]any{"of": "latency", "source": "t.json", "iterations": 3, "median_ms": 1, "p99_ms": 2, "downsampled": false, "index": []int{0, 1, 2}, "ms": []float64{1, 2}}, semantic: "/results/0/timing/measured/per_iteration/ms"},
		{name: "per-iteration index backwards", ptr: "/results/0/timing/measured/per_iteration", value: map[string]any{"of": "latency", "source": "t.json", "iterations": 9, "median_ms": 1, "p99_ms": 2, "downsampled": true, "index": []int{0, 5, 3}, "ms": []float64{1, 2, 3}}, semantic: "/results/0/timing/measured/per_iteration/index/2"},
		{name: "per-iteration samples dropped silently", ptr: "/results/0/timing/measured/per_iteration", value: map[string]any{"of": "latency", "source": "t.json", "iterations": 9, "median_ms": 1, "p99_ms": 2, "downsampled": false, "index": []int{0, 1}, "ms": []float64{1, 2}}, semantic: "/results/0/timing/measured/per_iteration/downsampled"},
		{name: "per-iteration of unknown", ptr: "/results/0/timing/measured/per_iteration", value: map[string]any{"of": "wall", "source": "t.json", "iterations": 1, "median_ms": 1, "p99_ms": 1, "downsampled": false, "index": []int{0}, "ms": []float64{1}}, schema: "/results/0/timing/measured/per_iteration/of"},
		{name: "cv without cv_of", ptr: "/results/0/timing/measured/cv_of", value: "", semantic: "/results/0/timing/measured/cv_of"},
		{name: "profile_only passed", ptr: "/results/0/validation/analysis_mode", value: "profile_only", semantic: "/results/0/validation/analysis_mode"},
		{name: "measured_only passed", ptr: "/results/0/validation/analysis_mode", value: "measured_only", semantic: "/results/0/validation/analysis_mode"},
		{name: "measured_only without measured time", ptr: "/results/1/validation/analysis_mode", value: "measured_only", semantic: "/results/1/timing/measured"},
		{name: "bad compute capability", ptr: "/results/0/device/compute_capability", value: "eight", semantic: "/results/0/device/compute_capability"},
		{name: "unknown measured kind", ptr: "/results/0/timing/measured/sources/1/kind", value: "stopwatch", schema: "/results/0/timing/measured/sources/1/kind"},
		{name: "record layer out of range", ptr: "/results/0/records/3/layer", value: 9, semantic: "/results/0/records/3/layer"},
		{name: "record name mismatch", ptr: "/results/0/records/0/name", value: "Conv_0", semantic: "/results/0/records/0/name"},
		{name: "record matched twice", ptr: "/results/0/records/3/layer", value: 2, semantic: "/results/0/records/3/layer"},
		{name: "cycle with is_dag", ptr: "/results/1/graph/is_dag", value: true, semantic: "/results/1/graph/cycle"},
		{name: "dag without topo", ptr: "/results/0/graph/topo_order", value: nil, semantic: "/results/0/graph/topo_order"},
		{name: "topo against edges", ptr: "/results/0/graph/topo_order", value: []int{3, 2, 1, 0}, semantic: "/results/0/graph/edges/0"},
		{name: "edge out of range", ptr: "/results/0/graph/edges/0", value: []int{0, 9}, semantic: "/results/0/graph/edges/0"},
		{name: "ambiguous without producers", ptr: "/results/0/graph/ambiguous", value: true, semantic: "/results/0/graph/ambiguous"},
		{name: "breakdown percentage", ptr: "/results/0/type_breakdown/0/percentage", value: 50, semantic: "/results/0/type_breakdown/0/percentage"},
		{name: "breakdown count", ptr: "/results/0/precision_breakdown/1/count", value: 2, semantic: "/results/0/precision_breakdown/1/count"},
		{name: "issues unsorted", ptr: "/results/0/issues/1/score", value: 0.9, semantic: "/results/0/issues/1/score"},
		{name: "issue layer out of range", ptr: "/results/0/issues/0/layers/0", value: 4, semantic: "/results/0/issues/0/layers/0"},
		{name: "layer_only with records", ptr: "/results/0/validation/analysis_mode", value: "layer_only", semantic: "/results/0/records"},
		{name: "failed but usable", ptr: "/results/1/validation/analysis_mode", value: "layer_only", semantic: "/results/1/validation/analysis_mode"},
		{name: "roofline rate not flops/time", ptr: "/results/0/records/0/roofline/achieved_tflops", value: 150, semantic: "/results/0/records/0/roofline/achieved_tflops"},
		{name: "roofline time off basis", ptr: "/results/0/records/0/roofline/time_ms", value: 0.4, semantic: "/results/0/records/0/roofline/time_ms"},
		{name: "roofline bound wrong side", ptr: "/results/0/records/0/roofline/bound", value: "memory", semantic: "/results/0/records/0/roofline/bound"},
		{name: "roofline bound word", ptr: "/results/0/records/0/roofline/bound", value: "latency", semantic: "/results/0/records/0/roofline/bound"},
		{name: "roofline attainable above peak", ptr: "/results/0/records/0/roofline/attainable_tflops", value: 400, semantic: "/results/0/records/0/roofline/attainable_tflops"},
		{name: "roofline peak the device lacks", ptr: "/results/0/records/0/roofline/peak_precision", value: "int8", semantic: "/results/0/records/0/roofline/peak_precision"},
		{name: "roofline without work", ptr: "/results/0/records/0/flops", value: nil, semantic: "/results/0/records/0/roofline"},
		{name: "roofline totals", ptr: "/results/0/roofline/layers", value: 2, semantic: "/results/0/roofline/layers"},
		{name: "activation not the producer's", ptr: "/results/0/memory/largest_activations/0/producer", value: 1, semantic: "/results/0/memory/largest_activations/0/producer"},
		{name: "activations not largest first", ptr: "/results/0/memory/largest_activations/1/bytes", value: 2e6, semantic: "/results/0/memory/largest_activations/1/bytes"},
		{name: "activation listed twice", ptr: "/results/0/memory/largest_activations/1/name", value: "t2", semantic: "/results/0/memory/largest_activations/1/name"},
		{name: "roofline basis", ptr: "/results/0/roofline/time_basis", value: "wall", schema: "/results/0/roofline/time_basis"},
	})
}

// The big document sends elements past fastjson.KeepHead through the fast checker.
func TestValidateTamperedBig(t *testing.T) {
	doc := encode(t, bigDoc(2000))
	runTamper(t, doc, []tamperCase{
		{name: "required field removed", ptr: "/results/0/records/1500/percentage", del: true, schema: "/results/0/records/1500/percentage"},
		{name: "required tensor key removed", ptr: "/results/0/layers/1200/Inputs/1/Dimensions", del: true, schema: "/results/0/layers/1200/Inputs/1/Dimensions"},
		{name: "fractional dimension", ptr: "/results/0/layers/1700/Inputs/1/Dimensions/2", value: 1.5, schema: "/results/0/layers/1700/Inputs/1/Dimensions/2"},
		{name: "wrong type", ptr: "/results/0/records/1999/layer_type", value: 5, schema: "/results/0/records/1999/layer_type"},
		{name: "string stream", ptr: "/results/0/layers/100/StreamId", value: "0", schema: "/results/0/layers/100/StreamId"},
		{name: "edge triple", ptr: "/results/0/graph/edges/500", value: []int{1, 2, 3}, schema: "/results/0/graph/edges/500/2"},
		{name: "edge single", ptr: "/results/0/graph/edges/501", value: []int{1}, schema: "/results/0/graph/edges/501"},
		{name: "unknown member", ptr: "/results/0/layers/50/Inputs/0/Color", value: "red", schema: "/results/0/layers/50/Inputs/0/Color"},
		{name: "below minimum", ptr: "/results/0/records/1800/myelin_graph", value: -1, schema: "/results/0/records/1800/myelin_graph"},
		{name: "negative topo entry", ptr: "/results/0/graph/topo_order/1000", value: -5, schema: "/results/0/graph/topo_order/1000"},
		{name: "percentage over 100.5", ptr: "/results/0/records/20/percentage", value: 101, schema: "/results/0/records/20/percentage"},
		{name: "percentage changed", ptr: "/results/0/records/1234/percentage", value: 30, semantic: "/results/0/records/1234/percentage"},
		{name: "record layer out of range", ptr: "/results/0/records/1900/layer", value: 2000, semantic: "/results/0/records/1900/layer"},
		{name: "null where object", ptr: "/results/0/layers/30", value: nil, schema: "/results/0/layers/30"},
	})
}

// TestFastAgreesWithGeneric checks that the cut-down schema pass reports the
// same pointers as the generic validator run on the whole document.
func TestFastAgreesWithGeneric(t *testing.T) {
	sch, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	doc := encode(t, bigDoc(300))
	for _, edit := range []struct {
		ptr   string
		del   bool
		value any
	}{
		{"/results/0/records/100/tags", true, nil},
		{"/results/0/records/101/tensor_core", false, "yes"},
		{"/results/0/records/102/median_ms", false, map[string]any{}},
		{"/results/0/layers/200/Outputs", false, []any{map[string]any{"Name": "x"}}},
		{"/results/0/layers/201/OptimizationProfile", false, -2},
		{"/results/0/layers/202/Parameters", false, []int{}},
		{"/results/0/graph/edges/250", false, []any{1, "2"}},
		{"/results/0/graph/topo_order/299", false, 2.5},
		{"/results/0/graph/topo_order/298", false, json.Number("-1e300")},
	} {
		data := tamper(t, doc, edit.ptr, edit.del, edit.value)
		generic, err := fastjson.CheckSchemaGeneric(sch, data)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, p := range generic {
			want = append(want, p.Pointer)
		}
		got := pointers(checkSchema(data))
		slices.Sort(want)
		slices.Sort(got)
		want, got = slices.Compact(want), slices.Compact(got)
		if !slices.Equal(got, want) || len(got) == 0 {
			t.Errorf("%s: fast+cut %q, generic %q", edit.ptr, got, want)
		}
	}
}

// TestBigArraysUseFastPath guards speed: if a schema edit puts a keyword the
// fast checker does not know into these definitions, validating a 200k-layer
// file would fall back to the slow generic validator.
func TestBigArraysUseFastPath(t *testing.T) {
	sch, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	results := fastjson.Child(sch, "results")
	backend := fastjson.ItemsOf(results, 0)
	for _, path := range [][]string{{"layers"}, {"records"}, {"graph", "edges"}, {"graph", "topo_order"}} {
		s := backend
		for _, p := range path {
			s = fastjson.Child(s, p)
		}
		if !fastjson.UsesFastPath(s) {
			t.Errorf("%v: elements would not go through the fast checker", path)
		}
	}
}

func TestValidateNotJSON(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"text", "hello"},
		{"empty", ""},
		{"truncated", `{"schema_version":"1.0","results":[`},
		{"two documents", `{} {}`},
		{"duplicate key", `{"folder":null,"folder":null}`},
	} {
		r := Validate([]byte(tc.in))
		if r.SchemaOK() || r.SemanticOK() {
			t.Errorf("%s: got schema %v semantic %v, want both to fail", tc.name, r.Schema, r.Semantic)
		}
	}
	doc := encode(t, smallDoc())
	if r := Validate(append(doc, doc...)); r.SchemaOK() || !strings.Contains(r.Schema[0].Message, "concatenated") {
		t.Errorf("two concatenated documents: %v", r.Schema)
	}
}

// TestValidateHugeNumbers: a number beyond float64 is a schema problem at
// its pointer wherever it is (the generic validator's head of an array or
// the fast checker's tail), never a panic in the schema library.
func TestValidateHugeNumbers(t *testing.T) {
	doc := encode(t, bigDoc(40))
	for _, tc := range []struct{ ptr, num string }{
		{"/results/0/records/1/time_ms", "1e9999999999"},
		{"/results/0/records/30/time_ms", "1e9999999999"},
		{"/results/0/records/2/layer", "-1e400"},
		{"/results/0/layers/35/Inputs/0/Dimensions/0", "9e999"},
		{"/results/0/graph/topo_order/3", "1" + strings.Repeat("0", 400)},
		{"/validation/backend_count", "1E+99999"},
		// Underflow: a non-zero number float64 rounds to 0 (or a
		// subnormal) is out of range too; the schema library's big.Rat
		// cannot even hold -1e-99999999.
		{"/results/0/records/1/time_ms", "-1e-99999999"},
		{"/results/0/records/30/time_ms", "-1e-99999999"},
		{"/results/0/records/2/time_ms", "1e-99999"},
		{"/results/0/records/31/time_ms", "5e-324"},
	} {
		data := tamper(t, doc, tc.ptr, false, json.Number(tc.num))
		r := Validate(data)
		if !slices.Contains(pointers(r.Schema), tc.ptr) {
			t.Errorf("%s = %s: schema problems %q lack it", tc.ptr, tc.num, r.Schema)
		}
		if r.SemanticOK() {
			t.Errorf("%s = %s: semantic check passed", tc.ptr, tc.num)
		}
	}
	// Zero written with an exponent, and the smallest normal float, are
	// in range.
	for _, num := range []string{"0e-5", "2.2250738585072014e-308"} {
		if r := Validate(tamper(t, doc, "/results/0/records/1/time_ms", false, json.Number(num))); !r.SchemaOK() {
			t.Errorf("%s: %q", num, r.Schema)
		}
	}
}

func FuzzValidate(f *testing.F) {
	doc := encode(f, smallDoc())
	f.Add(doc)
	// Seeds stay small (a few KB) so the fuzzer and its minimiser run
	// thousands of executions per second; 20 elements reach the fast path.
	f.Add(encode(f, bigDoc(fastjson.KeepHead+4)))
	f.Add([]byte(`{"results":[{"records":[{"time_ms":1e9999999999}]}]}`))
	f.Add(tamper(f, doc, "/results/0/records/1/avg_ms", false, "x"))
	f.Add(tamper(f, doc, "/results/0/graph/edges/0", false, []int{7, -3}))
	f.Add([]byte(`{"results":[{"records":[{"layer":1e99}],"layers":[],"graph":{"is_dag":true,"topo_order":[5]}}]}`))
	f.Add([]byte("[]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := Validate(data)
		if r.SchemaOK() && r.SemanticOK() {
			if _, err := Decode(data); err != nil {
				t.Errorf("passed validation but Decode fails: %v", err)
			}
		}
	})
}
