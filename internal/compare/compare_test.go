package compare

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

func backend(label string, recs ...contract.Record) *contract.Backend {
	total := 0.0
	for _, r := range recs {
		total += r.AvgMs
	}
	return &contract.Backend{
		Label:      label,
		Validation: contract.BackendValidation{Status: contract.StatusPassed, AnalysisMode: contract.ModeLayerProfile},
		Timing:     &contract.Timing{AverageInferenceMs: total},
		Records:    recs,
	}
}

func rec(name, typ, prec string, ms float64) contract.Record {
	return contract.Record{Name: name, LayerType: typ, Precision: prec, AvgMs: ms}
}

func TestCompare(t *testing.T) {
	a := backend("fp32",
		rec("conv1", "CaskConvolution", "FP32", 2.0),
		rec("conv1", "CaskConvolution", "FP32", 1.0), // repeated name: matched by occurrence
		rec("gemm_myl3_7", "gemm", "FP32", 1.0),
		rec("reformat_a", "Reformat", "FP32", 0.5),
	)
	b := backend("fp16",
		rec("conv1", "CaskConvolution", "FP16", 0.5),
		rec("conv1", "CaskConvolution", "FP16", 0.4),
		rec("gemm_myl9_2", "gemm", "FP16", 0.3), // renumbered Myelin kernel
		rec("pool", "CaskPooling", "FP16", 0.3),
	)
	r, err := Compare(Side{Name: "A", Backend: a}, Side{Name: "B", Backend: b}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Speedup-4.5/1.5) > 1e-12 {
		t.Errorf("speedup %g, want 3", r.Speedup)
	}
	if r.Matched != 3 {
		t.Errorf("matched %d layers, want 3 (two by occurrence, one by stripped Myelin suffix)", r.Matched)
	}
	if len(r.OnlyA) != 1 || r.OnlyA[0].Name != "reformat_a" || len(r.OnlyB) != 1 || r.OnlyB[0].Name != "pool" {
		t.Errorf("only-A %v only-B %v", r.OnlyA, r.OnlyB)
	}
	if r.Layers[0].Name != "conv1" || math.Abs(r.Layers[0].DeltaMs+1.5) > 1e-12 {
		t.Errorf("largest change first: got %+v", r.Layers[0])
	}
	if r.Types[0].Name != "CaskConvolution" || r.Types[0].ACount != 2 || math.Abs(r.Types[0].DeltaMs+2.1) > 1e-12 {
		t.Errorf("type rows: %+v", r.Types)
	}
	for _, f := range Formats {
		var buf bytes.Buffer
		if err := Write(&buf, r, f); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !strings.Contains(buf.String(), "conv1") {
			t.Errorf("%s output lacks the layer table:\n%s", f, buf.String())
		}
	}
}

func TestCompareRefusesUninterpretableBackends(t *testing.T) {
	ok := backend("ok", rec("x", "t", "FP16", 1))
	failed := backend("bad")
	failed.Validation.Status = contract.StatusFailed
	failed.Validation.AnalysisMode = contract.ModeUnusable
	failed.Validation.Messages = []contract.Message{{Level: contract.LevelError, Code: "name_mismatch"}}
	layerOnly := backend("lo")
	layerOnly.Validation.AnalysisMode = contract.ModeLayerOnly
	for _, b := range []*contract.Backend{failed, layerOnly} {
		if _, err := Compare(Side{Name: "a", Backend: ok}, Side{Name: "b", Backend: b}, 5); err == nil {
			t.Errorf("%s: comparing a backend without usable timing must fail", b.Label)
		}
	}
}

func TestStripMyelinSuffix(t *testing.T) {
	for in, want := range map[string]string{
		"/a/Gemm_myl9_2": "/a/Gemm", "__myl_Add_myl0_128": "__myl_Add", "conv_myl": "conv_myl",
		"x_myl3_": "x_myl3_", "plain": "plain", "a_mylX_1": "a_mylX_1",
	} {
		if got := stripMyelinSuffix(in); got != want {
			t.Errorf("stripMyelinSuffix(%q) = %q, want %q", in, got, want)
		}
	}
}
