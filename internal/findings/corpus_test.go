package findings_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/findings"
)

func analyzeCase(t *testing.T, name string) *contract.AnalyzeData {
	t.Helper()
	dir := filepath.Join(corpustest.Dir(t), name)
	sc, err := discover.Folder(dir)
	if err != nil {
		t.Fatalf("discover %s: %v", dir, err)
	}
	d, err := analysis.Analyze(sc, analysis.Options{})
	if err != nil {
		t.Fatalf("analyze %s: %v", dir, err)
	}
	return d
}

func backend(t *testing.T, d *contract.AnalyzeData, label string) *contract.Backend {
	t.Helper()
	for i := range d.Results {
		if d.Results[i].Label == label {
			b := &d.Results[i]
			if b.Validation.Status != contract.StatusPassed || b.Validation.AnalysisMode != contract.ModeLayerProfile {
				t.Fatalf("backend %s: %s %s, want passed layer_profile", label, b.Validation.Status, b.Validation.AnalysisMode)
			}
			return b
		}
	}
	t.Fatalf("no backend %q", label)
	return nil
}

func find(b *contract.Backend, id string) (int, *contract.Finding) {
	for i := range b.Issues {
		if b.Issues[i].ID == id {
			return i, &b.Issues[i]
		}
	}
	return -1, nil
}

// Issue 3, acceptance 1.
func TestCorpusQATReformatIsTopFinding(t *testing.T) {
	b := backend(t, analyzeCase(t, "trex-resnet18-a100-qat"), "int8-qat")
	i, f := find(b, "reformat_overhead")
	if f == nil {
		t.Fatalf("no reformat_overhead finding; findings: %v", ids(b))
	}
	if i != 0 {
		t.Errorf("reformat_overhead ranked %d, want first; findings: %v", i+1, ids(b))
	}
	if f.Share < 22 || f.Share > 28 {
		t.Errorf("reformat share %.2f%%, want about 25%%", f.Share)
	}
}

func TestCorpusFP16ResNetHasNoFallback(t *testing.T) {
	b := backend(t, analyzeCase(t, "trex-resnet18-a100-fp32-fp16"), "fp16")
	if _, f := find(b, "precision_fallback"); f != nil {
		t.Errorf("precision_fallback on the FP16 ResNet18: %v", f.Evidence)
	}
	if !slices.ContainsFunc(b.Positives, func(p contract.Positive) bool { return p.ID == "no_precision_fallback" }) {
		t.Errorf("no no_precision_fallback positive: %+v", b.Positives)
	}
}

func TestCorpusFP32EngineSaysWhyNoTensorCores(t *testing.T) {
	b := backend(t, analyzeCase(t, "trex-tf-resnet50-rtx3090"), "fp32")
	if _, f := find(b, "no_tensor_core"); f != nil {
		t.Errorf("FP32 engine complains about tensor cores: %v", f.Evidence)
	}
	_, f := find(b, "fp32_engine")
	if f == nil || !strings.Contains(strings.Join(f.Evidence, " "), "cannot use FP16/INT8 tensor cores") {
		t.Errorf("FP32 engine does not say FP32 math cannot use tensor cores: %+v", f)
	}
}

func TestCorpusControlNetIsDiffusionWithMyelinHotspots(t *testing.T) {
	b := backend(t, analyzeCase(t, "controlnet-sd15-trt86-fp16"), "fp16")
	if b.Model.Category != findings.CatDiffusionUNet {
		t.Errorf("category %s (%+v), want %s", b.Model.Category, b.Model.CategoryEvidence, findings.CatDiffusionUNet)
	}
	_, f := find(b, "hotspot_type")
	if f == nil || !strings.HasPrefix(f.Title, "Myelin") {
		t.Fatalf("no Myelin hotspot_type finding: %v", ids(b))
	}
	for _, l := range f.Layers {
		if b.Layers[l].LayerType != "Myelin" {
			t.Errorf("hotspot layer %d is %s", l, b.Layers[l].LayerType)
		}
	}
	if !strings.Contains(strings.Join(f.Evidence, " "), "ForeignNode[input_blocks.1.1") {
		t.Errorf("hot spot evidence does not name the Myelin regions: %v", f.Evidence)
	}
}

// Every finding of every corpus backend: numbers recomputed from the JSON.
func TestCorpusFindingsRecompute(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join(corpustest.Dir(t), "*", "PROVENANCE.md"))
	n := 0
	for _, c := range cases {
		name := filepath.Base(filepath.Dir(c))
		d := analyzeCase(t, name)
		for i := range d.Results {
			b := &d.Results[i]
			if b.Validation.Status != contract.StatusPassed || b.Validation.AnalysisMode != contract.ModeLayerProfile {
				continue
			}
			t.Run(name+"/"+b.Label, func(t *testing.T) {
				findings.CheckFindings(t, b, b.Issues)
				for _, f := range b.Issues {
					t.Logf("%-24s %6.2f%% score %.4f %s", f.ID, f.Share, f.Score, f.Confidence)
				}
				t.Logf("category %s (%s)", b.Model.Category, b.Model.CategoryConfidence)
			})
			n++
		}
	}
	if n < 15 {
		t.Errorf("only %d passed backends in the corpus", n)
	}
}

func ids(b *contract.Backend) []string {
	out := []string{}
	for _, f := range b.Issues {
		out = append(out, f.ID)
	}
	return out
}
