package render

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/golden"
	"github.com/trtperf/trtperf/internal/load"
)

func backend(label, prec string, ms float64) *contract.Backend {
	return &contract.Backend{
		Label:      label,
		Validation: contract.BackendValidation{Status: contract.StatusPassed, AnalysisMode: contract.ModeLayerProfile},
		Timing:     &contract.Timing{AverageInferenceMs: ms},
		Layers:     []contract.Layer{{Name: "conv1", LayerType: "CaskConvolution"}},
		Records:    []contract.Record{{Name: "conv1", LayerType: "CaskConvolution", Precision: prec, AvgMs: ms}},
	}
}

func TestWriteFormats(t *testing.T) {
	p, err := compare.Pair(compare.Side{Name: "a", Backend: backend("a", "FP32", 2)}, compare.Side{Name: "b", Backend: backend("b", "FP16", 1)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := &contract.Comparison{Baseline: "a", BaselineReason: "chosen", Pairs: []contract.ComparisonPair{*p}}
	for _, f := range Formats {
		var buf bytes.Buffer
		if err := Write(&buf, c, f, 5); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, want := range []string{"conv1", "FP32"} {
			if !strings.Contains(buf.String(), want) {
				t.Errorf("%s output lacks %q:\n%s", f, want, buf.String())
			}
		}
	}
	if err := Write(&bytes.Buffer{}, c, "yaml", 5); err == nil {
		t.Error("unknown format accepted")
	}
}

// TestGoldens pins the rendered comparison of two generated CNN builds of
// one model (FP16 and INT8, same seed) in every format.
func TestGoldens(t *testing.T) {
	dir := t.TempDir()
	for _, prec := range []string{"fp16", "int8"} {
		if _, _, err := gen.WriteFolder(dir, prec, gen.Options{Shape: "cnn", Layers: 60, Seed: 5, Precision: prec}); err != nil {
			t.Fatal(err)
		}
	}
	sc, err := discover.Folder(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := analysis.AnalyzeParsed(sc, load.Source(sc), analysis.Options{Baseline: "fp16"})
	if err != nil {
		t.Fatal(err)
	}
	if r := contract.ValidateData(d, nil); len(r.Semantic) > 0 {
		t.Fatalf("semantic problems: %v", r.Semantic)
	}
	for _, f := range Formats {
		var buf bytes.Buffer
		if err := Write(&buf, d.Comparison, f, 8); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "cnn-fp16-int8."+map[string]string{"text": "txt", "markdown": "md", "csv": "csv", "json": "json"}[f]), buf.Bytes())
	}
}
