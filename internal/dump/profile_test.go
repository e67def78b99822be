package dump

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

func mustProfile(t *testing.T, src string) *engine.Profile {
	t.Helper()
	p, err := ParseProfile([]byte(src))
	if err != nil {
		t.Fatalf("ParseProfile: %v", err)
	}
	return p
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

func TestProfileTrtexec(t *testing.T) {
	p := mustProfile(t, `[
  { "count" : 100 }
, { "name" : "Conv_0 + Relu_1", "timeMs" : 11.16, "averageMs" : 0.1116, "medianMs" : 0.11, "percentage" : 10.97 }
, { "name" : "fc [profile 1]", "timeMs" : 0, "averageMs" : 0, "medianMs" : 0, "percentage" : 0 }
]`)
	if p.Kind != engine.ProfileTrtexec || !p.HasCount || p.Count != 100 || len(p.Records) != 2 {
		t.Fatalf("%+v", p)
	}
	r := p.Records[0]
	if r.Name != "Conv_0 + Relu_1" || r.TimeMs != 11.16 || r.AverageMs != 0.1116 || r.MedianMs != 0.11 || !r.HasMedian || r.Percentage != 10.97 || !r.HasPercent || r.Samples != 0 {
		t.Errorf("%+v", r)
	}
	if p.Records[1].Name != "fc" || p.Records[1].OptProfile != 1 {
		t.Errorf("%+v", p.Records[1])
	}
}

func TestProfileTRT7NoCountNoMedian(t *testing.T) {
	p := mustProfile(t, `[{ "name" : "prob", "timeMs" : 18.6035, "averageMs" : 0.0122392, "percentage" : 0.623382 },
{ "name" : "x", "timeMs" : 1, "averageMs" : 0.5, "medianMs": null, "percentage" : 1, "extra": [1] }]`)
	if p.HasCount || p.Count != 0 || len(p.Records) != 2 {
		t.Fatalf("%+v", p)
	}
	for _, r := range p.Records {
		if r.HasMedian || !r.HasPercent {
			t.Errorf("%+v", r)
		}
	}
}

func TestProfileLatencyDict(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
	}{
		{"floats", `{"b": [0.3, 0.1, 0.2], "a\u001e": [1.0, 2.0, 3.0, 6.0]}`},
		{"pairs", `{"b": [[0.3, "12:00:01"], [0.1, "t"], [0.2, "t"]], "a\u001e": [[1, "t"], [2, "t"], [3, "t", {"x": 1}], [6, "t"]]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustProfile(t, tc.src)
			if p.Kind != engine.ProfileLatencyDict || len(p.Records) != 2 || p.HasCount {
				t.Fatalf("%+v", p)
			}
			b, a := p.Records[0], p.Records[1]
			if b.Name != "b" || a.Name != "a␞" {
				t.Errorf("order/names %q %q", b.Name, a.Name)
			}
			if !near(b.AverageMs, 0.2) || !near(b.MedianMs, 0.2) || !near(b.TimeMs, 0.6) || b.Samples != 3 {
				t.Errorf("b = %+v", b)
			}
			if !near(a.AverageMs, 3) || !near(a.MedianMs, 2.5) || !near(a.TimeMs, 12) || a.Samples != 4 {
				t.Errorf("a = %+v", a)
			}
			if !near(b.Percentage, 0.2/3.2*100) || !near(a.Percentage, 3/3.2*100) || !a.HasMedian || !a.HasPercent {
				t.Errorf("percentages %v %v", b.Percentage, a.Percentage)
			}
		})
	}
	p := mustProfile(t, `{"x": [1, 2], "y": [4, 4], "x": [3, 3]}`)
	if !p.HasCount || p.Count != 2 || len(p.Records) != 3 || p.Records[2].Name != "x" {
		t.Errorf("equal sample counts: %+v", p)
	}
}

// TestProfileUserTables reads per-layer tables a user's IProfiler writes:
// a list of {name, ms fields in any naming}, by content.
func TestProfileUserTables(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		avg, med  []float64
	}{
		{"avg_ms", `[{"name": "conv1", "avg_ms": 0.5, "min_ms": 0.4}, {"name": "fc", "avg_ms": 1.5}]`, []float64{0.5, 1.5}, nil},
		{"layer and mean_ms", `[{"layer": "conv1", "mean_ms": 0.5, "median_ms": 0.45}, {"layer": "fc", "mean_ms": 1.5, "median_ms": 1.4}]`, []float64{0.5, 1.5}, []float64{0.45, 1.4}},
		{"camel case", `[{"layerName": "conv1", "avgMs": 0.5}, {"layerName": "fc", "avgMs": 1.5}]`, []float64{0.5, 1.5}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if k := Sniff([]byte(tc.src)); k != KindProfile {
				t.Fatalf("sniffed %s, want a profile", k)
			}
			p := mustProfile(t, tc.src)
			if len(p.Records) != 2 || p.HasCount || !p.AveragesOnly {
				t.Fatalf("%+v", p)
			}
			for i, r := range p.Records {
				if !near(r.AverageMs, tc.avg[i]) || !near(r.TimeMs, tc.avg[i]) || r.HasMedian != (tc.med != nil) || tc.med != nil && !near(r.MedianMs, tc.med[i]) {
					t.Errorf("record %d = %+v", i, r)
				}
			}
		})
	}
}

func TestProfileErrors(t *testing.T) {
	tests := []struct {
		name, src, code, detail string
		docs                    int
	}{
		{"empty", "", CodeEmpty, "empty", 0},
		{"no records", `[{"count": 5}]`, CodeEmpty, "no per-layer records", 0},
		{"empty dict", `{}`, CodeEmpty, "no per-layer records", 0},
		{"concatenated", "[\n  { \"count\" : 1 }\n, { \"name\" : \"a\", \"timeMs\" : 1, \"averageMs\" : 1, \"percentage\" : 100 }\n]\n[\n  { \"count\" : 2 }\n]\n", CodeConcatenated, "2 concatenated JSON documents (the second starts at line 5, column 1)", 2},
		{"malformed", "[{\"name\": \"a\", \"timeMs\": 1,,}]", CodeMalformed, "line 1, column 28 (byte 27)", 0},
		{"NaN", `[{"name": "a", "timeMs": NaN, "averageMs": 1}]`, CodeNonFinite, "NaN", 0},
		{"Infinity sample", `{"a": [1, Infinity]}`, CodeNonFinite, "Infinity", 0},
		{"NaN in pair", `{"a": [[NaN, "t"]]}`, CodeNonFinite, "NaN", 0},
		{"overflow", `[{"name": "a", "timeMs": 1e400, "averageMs": 1}]`, CodeNonFinite, "1e400", 0},
		{"missing averageMs", `[{"count": 1}, {"name": "a", "timeMs": 1}]`, CodeMissingField, `profile entry 1 has no "averageMs"`, 0},
		{"missing name", `[{"timeMs": 1, "averageMs": 1}]`, CodeMissingField, `profile entry 0 has no "name"`, 0},
		{"late count", `[{"name": "a", "timeMs": 1, "averageMs": 1}, {"count": 3}]`, CodeMissingField, `entry 1 has no "name"`, 0},
		{"string number", `[{"name": "a", "timeMs": "1", "averageMs": 1}]`, CodeMissingField, `"timeMs" of profile entry 0 is a string`, 0},
		{"fractional count", `[{"count": 2.5}]`, CodeMissingField, "whole number", 0},
		{"layer info list", `[{"Name": "a", "LayerType": "Shuffle"}]`, CodeNotProfile, "layer info", 0},
		{"layer info object", `{"Layers": [], "Bindings": []}`, CodeNotProfile, "layer info", 0},
		{"metadata object", `{"performance_summary": {"Throughput": 1}}`, CodeNotProfile, "trtexec metadata", 0},
		{"list of lists", `[[1, 2]]`, CodeNotProfile, "entry 0", 0},
		{"root number", `12`, CodeNotProfile, "a number", 0},
		{"empty samples", `{"a": []}`, CodeMissingField, "no latency samples", 0},
		{"string sample", `{"a": ["0.1"]}`, CodeNotProfile, "sample 0", 0},
		{"pair without number", `{"a": [["t", 0.1]]}`, CodeNotProfile, "sample 0", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseProfile([]byte(tc.src))
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want *FormatError", err)
			}
			if fe.Code != tc.code || !strings.Contains(fe.Detail, tc.detail) || fe.Documents != tc.docs {
				t.Errorf("got %s (%d docs): %s\nwant %s containing %q", fe.Code, fe.Documents, fe.Detail, tc.code, tc.detail)
			}
		})
	}
}

func TestReadErrorsWrapPath(t *testing.T) {
	_, err := ReadProfile("/nonexistent/profile_x.json")
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/profile_x.json") {
		t.Errorf("ReadProfile: %v", err)
	}
	_, err = ReadLayerInfo("/nonexistent/layers_x.json")
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/layers_x.json") {
		t.Errorf("ReadLayerInfo: %v", err)
	}
}
