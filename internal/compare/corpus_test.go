package compare_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/load"
)

func analyze(t testing.TB, dir string) *contract.AnalyzeData {
	t.Helper()
	sc, err := discover.Folder(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := analysis.AnalyzeParsed(sc, load.Source(sc), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := contract.ValidateData(d, nil); len(r.Semantic) > 0 {
		t.Fatalf("%s: semantic problems: %v", dir, r.Semantic)
	}
	return d
}

func pairOf(t *testing.T, d *contract.AnalyzeData, b string) *contract.ComparisonPair {
	t.Helper()
	if d.Comparison == nil {
		t.Fatal("no comparison section")
	}
	for i := range d.Comparison.Pairs {
		if d.Comparison.Pairs[i].B == b {
			return &d.Comparison.Pairs[i]
		}
	}
	t.Fatalf("no pair for %s against %s", b, d.Comparison.Baseline)
	return nil
}

// The acceptance cases of issue 11 on the real corpus: most compute layers
// aligned, the time accounted for, the top differences named.
func TestCorpusComparisons(t *testing.T) {
	dir := corpustest.Dir(t, corpustest.Comparison)
	for _, c := range []struct {
		folder, baseline string
		pairs            map[string][]string // b → words the reasons must hold, in order of importance
		verdict          string
	}{
		{"trex-mobilenetv2-qat-titanrtx", "int8-qat-residuals",
			map[string][]string{"int8-qat": {"standalone Q/DQ layers run in int8-qat only"}}, contract.VerdictBSlower},
		{"trex-resnet18-a100-qat", "int8-qat-residual-qgap", map[string][]string{
			"int8-qat":          {"fused differently", "CUDA cores", "standalone Q/DQ layers run in int8-qat only", "reformat/copy layers run in int8-qat only"},
			"int8-qat-residual": {"standalone Q/DQ layers run in int8-qat-residual only"},
		}, ""},
		{"fuzzy-resnet18-rtx3060-three-paths", "trtexec", map[string][]string{
			"onnx-trt":  {"run FP16 in trtexec and FP32 in onnx-trt", "onnx-trt an FP32 build"},
			"torch-trt": {},
		}, contract.VerdictBSlower},
		{"fuzzy-mobilenetv2-torch-trt-rtx3060", "trtexec",
			map[string][]string{"torch-trt": {"kgen layers run in torch-trt only"}}, contract.VerdictBSlower},
	} {
		t.Run(c.folder, func(t *testing.T) {
			d := analyze(t, filepath.Join(dir, c.folder))
			if d.Comparison.Baseline != c.baseline || d.Comparison.BaselineReason != "fastest" {
				t.Errorf("baseline %s (%s), want the fastest, %s", d.Comparison.Baseline, d.Comparison.BaselineReason, c.baseline)
			}
			for b, words := range c.pairs {
				p := pairOf(t, d, b)
				minAligned := 90.0
				if strings.Contains(c.folder, "torch-trt") {
					// Torch-TensorRT runs 45 ReLU6 clamps and the residual
					// adds as Myelin kernels of their own (nameless) that the
					// trtexec build fuses into its convolutions: one-sided by
					// nature (55 of 57 trtexec layers pair).
					minAligned = 65
				}
				if p.Alignment.ComputeAlignedPct < minAligned-1e-9 {
					t.Errorf("%s: %.1f %% of compute layers aligned, want ≥ %.1f (%+v)", b, p.Alignment.ComputeAlignedPct, minAligned, p.Alignment)
				}
				reasons := strings.Join(p.Reasons, "\n")
				for _, w := range words {
					if !strings.Contains(reasons, w) {
						t.Errorf("%s: reasons do not name %q:\n%s", b, w, reasons)
					}
				}
				if c.verdict != "" && p.Verdict != c.verdict {
					t.Errorf("%s: verdict %s, want %s: %s", b, p.Verdict, c.verdict, p.Summary)
				}
				if !strings.Contains(p.Summary, b) || !strings.Contains(p.Summary, c.baseline) {
					t.Errorf("%s: the summary names neither side: %s", b, p.Summary)
				}
			}
		})
	}
}

// The three export paths of ResNet-18 pair through source ops (their
// names differ completely between ONNX and Torch-TensorRT).
func TestCorpusThreePathsAlignBySourceOps(t *testing.T) {
	d := analyze(t, filepath.Join(corpustest.Dir(t, corpustest.Comparison), "fuzzy-resnet18-rtx3060-three-paths"))
	p := pairOf(t, d, "torch-trt")
	if p.Alignment.ByName != 0 || p.Alignment.BySourceOp < 20 {
		t.Errorf("trtexec ↔ torch-trt aligned by name %d, by source op %d; want none by name and ≥ 20 by source op", p.Alignment.ByName, p.Alignment.BySourceOp)
	}
	onnx := pairOf(t, d, "onnx-trt")
	if !strings.Contains(onnx.Summary, "onnx-trt is") || !strings.Contains(onnx.Summary, "slower than trtexec") || !strings.Contains(onnx.Summary, "FP32") {
		t.Errorf("the verdict must name the fastest path and why: %s", onnx.Summary)
	}
}

// The same engine profiled twice, times moved within noise: "same engine".
func TestSameEngineProfiledTwice(t *testing.T) {
	dir := t.TempDir()
	opt := gen.Options{Shape: "cnn", Layers: 300, Seed: 7}
	for _, label := range []string{"run1", "run2"} {
		if _, _, err := gen.WriteFolder(dir, label, opt); err != nil {
			t.Fatal(err)
		}
	}
	perturbProfile(t, filepath.Join(dir, "profile_run2.json"), 0.006)
	d := analyze(t, dir)
	p := &d.Comparison.Pairs[0]
	if p.Verdict != contract.VerdictSameEngine || !p.SameEngine || !strings.HasPrefix(p.Summary, "Same engine") {
		t.Errorf("verdict %s same %v: %s", p.Verdict, p.SameEngine, p.Summary)
	}
	if p.DeltaMs == 0 {
		t.Error("the perturbation did not reach the comparison")
	}
}

// perturbProfile scales each record's times by 1 ± f (alternating), as a
// second profiling run of the same engine would.
func perturbProfile(t *testing.T, path string, f float64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		k := 1 + f*math.Sin(float64(i))
		for _, key := range []string{"timeMs", "averageMs", "medianMs"} {
			if v, ok := r[key].(float64); ok {
				r[key] = v * k
			}
		}
	}
	out, err := json.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// From layer info alone (profiles dropped at test time) a comparison runs
// on predicted times, but how each layer was built is known: the reasons
// name the same build differences the measured comparison names (the
// baseline is the predicted fastest, which need not be the measured one).
func TestCorpusComparisonsFromLayerInfoAlone(t *testing.T) {
	src := corpustest.Dir(t, corpustest.Comparison)
	for _, c := range []struct {
		folder string
		pairs  map[string]string // b → words its reasons must hold
	}{
		{"trex-resnet18-a100-fp32-fp16", map[string]string{"fp32": "run FP16 in fp16 and TF32 in fp32"}},
		{"fuzzy-resnet18-rtx3060-three-paths", map[string]string{"onnx-trt": "and FP32 in onnx-trt"}},
		{"trex-mobilenetv2-qat-titanrtx", map[string]string{"int8-qat": "standalone Q/DQ layers run in int8-qat only"}},
	} {
		t.Run(c.folder, func(t *testing.T) {
			dir := t.TempDir()
			layers, err := filepath.Glob(filepath.Join(src, c.folder, "layers_*.json"))
			if err != nil || len(layers) < 2 {
				t.Fatalf("layer info of %s: %v %v", c.folder, layers, err)
			}
			for _, f := range layers {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d := analyze(t, dir)
			for b, words := range c.pairs {
				p := pairOf(t, d, b)
				if p.Measure != contract.MeasurePredicted {
					t.Errorf("%s: measure %s, want predicted", b, p.Measure)
				}
				if reasons := strings.Join(p.Reasons, "\n"); !strings.Contains(reasons, words) {
					t.Errorf("%s: reasons do not name %q:\n%s", b, words, reasons)
				}
			}
		})
	}
}
