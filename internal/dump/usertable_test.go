package dump

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

// TestProfileUserShapes reads per-layer times in the shapes a user's own
// profiler writes, by content: name → ms, name → samples, name → record,
// lists of records with units in their keys, and those under a wrapper.
func TestProfileUserShapes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		names     []string
		avg, med  []float64 // med nil: no median
		count     int64     // 0: unknown
		kind      string
		read      string // in Profile.Read
	}{
		{"name to ms", `{"conv1": 0.12, "relu1": 0.03, "fc": 0.5}`, []string{"conv1", "relu1", "fc"}, []float64{0.12, 0.03, 0.5}, nil, 0, engine.ProfileTrtexec, "layer name → time; no unit named, so ms assumed"},
		{"total row left out", `{"conv1": 0.12, "fc": 0.5, "Total": 0.62}`, []string{"conv1", "fc"}, []float64{0.12, 0.5}, nil, 0, engine.ProfileTrtexec, `"Total" row left out`},
		{"layer names with field words", `{"time_embedding.linear_1": 0.2, "conv_in": 0.1}`, []string{"time_embedding.linear_1", "conv_in"}, []float64{0.2, 0.1}, nil, 0, engine.ProfileTrtexec, "ms assumed"},
		{"unit member after the table", `{"layers": {"conv1": 120, "fc": 500}, "unit": "us"}`, []string{"conv1", "fc"}, []float64{0.12, 0.5}, nil, 0, engine.ProfileTrtexec, "times in µs, converted to ms"},
		{"unit in the wrapper key", `{"layer_times_ns": {"conv1": 120000.5, "fc": 500000}}`, []string{"conv1", "fc"}, []float64{0.1200005, 0.5}, nil, 0, engine.ProfileTrtexec, "times in ns"},
		{"seconds, nested twice", `{"unit": "s", "results": {"layers": {"a": 0.00012, "b": 0.0005}}}`, []string{"a", "b"}, []float64{0.12, 0.5}, nil, 0, engine.ProfileTrtexec, "under \"results\" → \"layers\"; times in s"},
		{"samples in us", `{"unit": "us", "layers": {"a": [100, 300, 200], "b": [10, 30]}}`, []string{"a", "b"}, []float64{0.2, 0.02}, []float64{0.2, 0.02}, 0, engine.ProfileLatencyDict, "samples under \"layers\"; times in µs"},
		{"name to record", `{"conv1": {"avg_ms": 0.12, "median_ms": 0.11}, "fc": {"mean_us": 500, "median_us": 450, "p99_us": 900}}`, []string{"conv1", "fc"}, []float64{0.12, 0.5}, []float64{0.11, 0.45}, 0, engine.ProfileTrtexec, "layer name → record; times in ms, µs, converted to ms"},
		{"list of samples", `[{"name": "conv1", "times": [0.1, 0.3, 0.2]}, {"name": "fc", "times": [0.5, 0.5, 0.5]}]`, []string{"conv1", "fc"}, []float64{0.2, 0.5}, []float64{0.2, 0.5}, 3, engine.ProfileLatencyDict, "list of per-layer records; no unit named"},
		{"wrapped list with iterations", `{"model": "resnet", "iterations": 100, "layers": [{"layer": "conv1", "time_us": 120.5}, {"layer": "fc", "time_us": 50}]}`, []string{"conv1", "fc"}, []float64{0.1205, 0.05}, nil, 100, engine.ProfileTrtexec, `"layers"`},
		{"camel case units", `[{"layerName": "a", "avgUs": 120}, {"layerName": "b", "avgUs": 80, "percent": 40}]`, []string{"a", "b"}, []float64{0.12, 0.08}, nil, 0, engine.ProfileTrtexec, "µs"},
		{"total beside the average", `[{"name": "a", "time_ms": 12, "avg_ms": 0.12, "calls": 100}, {"name": "b", "time_ms": 5, "avg_ms": 0.05, "calls": 100}]`, []string{"a", "b"}, []float64{0.12, 0.05}, nil, 100, engine.ProfileTrtexec, "times in ms"},
		{"pandas columns, layer index", `{"avg_ms": {"conv1": 0.12, "fc": 0.05}, "median_ms": {"conv1": 0.11, "fc": 0.05}, "pct": {"conv1": 70, "fc": 30}}`, []string{"conv1", "fc"}, []float64{0.12, 0.05}, []float64{0.11, 0.05}, 0, engine.ProfileTrtexec, "an object of columns"},
		{"pandas columns, row numbers", `{"results": {"name": {"0": "conv1", "1": "fc"}, "mean_us": {"0": 120, "1": 50}}}`, []string{"conv1", "fc"}, []float64{0.12, 0.05}, nil, 0, engine.ProfileTrtexec, "columns (as pandas' to_json writes) under \"results\"; times in µs"},
		{"total and count only", `[{"name": "a", "total_us": 1200, "count": 10}, {"name": "b", "total_us": 500, "count": 10}]`, []string{"a", "b"}, []float64{0.12, 0.05}, nil, 10, engine.ProfileTrtexec, "µs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustProfile(t, tc.src)
			if len(p.Records) != len(tc.names) || p.Kind != tc.kind {
				t.Fatalf("%d records of kind %q: %+v", len(p.Records), p.Kind, p)
			}
			if !strings.Contains(p.Read, tc.read) {
				t.Errorf("Read = %q, want it to say %q", p.Read, tc.read)
			}
			if got := p.Count; tc.count != 0 && (!p.HasCount || got != tc.count) || tc.count == 0 && p.HasCount {
				t.Errorf("count %d (%v), want %d", got, p.HasCount, tc.count)
			}
			if p.AveragesOnly != (tc.count == 0 && tc.kind == engine.ProfileTrtexec) {
				t.Errorf("AveragesOnly = %v", p.AveragesOnly)
			}
			for i, r := range p.Records {
				if r.Name != tc.names[i] || !near(r.AverageMs, tc.avg[i]) || r.HasMedian != (tc.med != nil) || tc.med != nil && !near(r.MedianMs, tc.med[i]) {
					t.Errorf("record %d = %+v", i, r)
				}
				if want := tc.avg[i] * float64(max(tc.count, 1)); tc.kind == engine.ProfileTrtexec && !near(r.TimeMs, want) {
					t.Errorf("record %d total %v, want %v", i, r.TimeMs, want)
				}
			}
		})
	}
}

// TestProfileUserShapeRefusals: an object that is not per-layer times is
// refused with the reason, never read as layers.
func TestProfileUserShapeRefusals(t *testing.T) {
	for _, tc := range []struct{ name, src, detail string }{
		{"settings", `{"batch": 1, "workspace": 4096}`, `("batch")`},
		{"settings with fractions", `{"conv1": 0.1, "fc": 0.2, "batch_size": 8}`, `"batch_size"`},
		{"end-to-end summary", `{"latency_ms": 0.86, "throughput": 1155.3}`, `"latency_ms"`},
		{"whole numbers", `{"conv1": 1, "fc": 2}`, "whole number"},
		{"one layer", `{"conv1": 0.5}`, "single layer"},
		{"records of builds", `{"fp16": {"avg_ms": 0.5}, "int8": {"avg_ms": 0.3}}`, `"fp16"`},
		{"a summary of several cases", `{"case-a": {"fp16": {"count": 10, "sum_avg_ms": 1.5}}, "case-b": {"int8": {"count": 5, "sum_avg_ms": 0.5}}}`, "2 nested objects"},
		{"negative", `{"conv1": -0.1, "fc": 0.2}`, "never negative"},
		{"unknown unit", `{"unit": "furlongs", "layers": {"a": 1, "b": 2}}`, `"furlongs" is not a time unit`},
		{"nested settings", `{"options": {"batch": 1, "streams": 2}}`, "settings or end-to-end numbers"},
		{"metadata", `{"model_options": {"Format": "ONNX"}}`, "trtexec metadata"},
		{"strings", `{"a": ["0.1"]}`, "sample 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseProfile([]byte(tc.src))
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("read as %+v, err %v", p, err)
			}
			if fe.Code != CodeNotProfile && fe.Code != CodeMissingField || !strings.Contains(fe.Detail, tc.detail) {
				t.Errorf("%s: %s\nwant it to say %q", fe.Code, fe.Detail, tc.detail)
			}
		})
	}
}

func TestTimeField(t *testing.T) {
	for _, tc := range []struct {
		key   string
		stat  fieldStat
		unit  string
		scale float64
	}{
		{"averageMs", fieldAvg, "ms", 1}, {"avg_ms", fieldAvg, "ms", 1}, {"Avg. Time (ms)", fieldAvg, "ms", 1},
		{"mean [us]", fieldAvg, "µs", 1e-3}, {"meanUs", fieldAvg, "µs", 1e-3}, {"median_ns", fieldMedian, "ns", 1e-6},
		{"Time (ms)", fieldTime, "ms", 1}, {"Time %", fieldPercent, "", 1}, {"ms", fieldTime, "ms", 1},
		{"timems", fieldTime, "ms", 1}, {"Time(µs)", fieldTime, "µs", 1e-3}, {"duration_s", fieldTime, "s", 1e3},
		{"Layer", fieldName, "", 1}, {"layer_name", fieldName, "", 1}, {"LayerType", fieldOther, "", 1},
		{"layer_ms", fieldTime, "ms", 1}, {"p99_ms", fieldSpread, "ms", 1}, {"max (us)", fieldSpread, "µs", 1e-3},
		{"calls", fieldCount, "", 1}, {"times", fieldSamples, "", 1}, {"samples_us", fieldSamples, "µs", 1e-3},
		{"total_ms", fieldTotal, "ms", 1}, {"percentage", fieldPercent, "", 1}, {"kernel", fieldOther, "", 1},
		{"precision", fieldOther, "", 1},
	} {
		f := timeField(tc.key)
		if f.stat != tc.stat || f.unit != tc.unit || f.scale != tc.scale {
			t.Errorf("timeField(%q) = %+v, want %v %q %v", tc.key, f, tc.stat, tc.unit, tc.scale)
		}
	}
}

// TestLayerNamesWithFieldWords: layer names that hold the words of fields
// ("GlobalAveragePool", "MaxPool", "time_embedding") stay layer names.
func TestLayerNamesWithFieldWords(t *testing.T) {
	src := `{"unit": "us", "layers": {"GlobalAveragePool_47": 5, "MaxPool_2": 62, "time_embedding.linear_1": 3, "Mean_12": 4}}`
	p := mustProfile(t, src)
	if len(p.Records) != 4 || p.Records[0].Name != "GlobalAveragePool_47" || !near(p.Records[1].AverageMs, 0.062) {
		t.Errorf("%+v", p)
	}
}

// TestMappedUserTables: a user's table read from a mapped file keeps no
// reference into it (names, total rows and wrapper keys are copied).
func TestMappedUserTables(t *testing.T) {
	mapEverything(t)
	dir := t.TempDir()
	var files []string
	for i, src := range []string{
		`{"unit": "us", "run \u00e9": {"conv\u0031": 120.5, "fc": [1, 2], "Total": 3}}`,
		`[{"Layer name": "a \"b\"", "Avg (us)": 12.5, "samples": 10}, {"Layer name": "c", "Avg (us)": 2}]`,
		`{"conv1": {"mean_ns": 1200, "times_ns": [1, 2]}, "fc": {"mean_ns": 300}}`,
	} {
		p := filepath.Join(dir, fmt.Sprintf("t%d.json", i))
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	checkMappedParse(t, nil, files)
}
