package findings_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/findings"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// expertFirstCause is, per corpus backend whose layer names suffice, the
// cause DIAGNOSIS.md names first, as the profile-only item that says it.
// An FP32 build is read off its build facts (TREx build metadata), not
// its names. Backends whose first cause needs layer info (a batch-1 GEMV,
// a sibling's measured gain) or that are clean get no cause item.
var expertFirstCause = map[string]string{
	"trex-resnet18-a100-fp32-fp16/fp16":                      "input_prologue", // FP32→FP16 input reformat ~8 %
	"trex-resnet18-a100-fp32-fp16/fp32":                      "fp32_engine",    // Precision FP32 in its build metadata
	"trex-tf-resnet50-rtx3090/fp32":                          "fp32_engine",
	"trex-resnet18-a100-qat/int8-qat":                        "qdq_placement",
	"trex-resnet18-a100-qat/int8-qat-residual":               "input_quantize", // the graph-input QuantizeLinear
	"trex-resnet18-a100-qat/int8-qat-residual-qgap":          "input_quantize",
	"trex-tf-resnet50-rtx3090/fp16":                          "input_prologue", // NHWC transpose + Pad
	"trex-tf-resnet50-rtx3090/int8-qat":                      "input_prologue",
	"trex-mobilenetv2-qat-titanrtx/int8-qat":                 "qdq_placement",
	"fuzzy-mobilenetv2-torch-trt-rtx3060/torch-trt":          "unfused_epilogue", // standalone clamps
	"fuzzy-mobilenetv2-jetson-orin-nano-torch-trt/torch-trt": "unfused_epilogue",
	"controlnet-sd15-trt86-fp16/fp16":                        "decomposed_norm",
	"detr-resnet50-int8-layer-names-only/int8":               "attention_unfused",
}

// clean are the backends DIAGNOSIS.md calls clean: no cause item.
var clean = map[string]bool{
	"trex-mobilenetv2-qat-titanrtx/int8-qat-residuals": true,
	"fuzzy-resnet18-rtx3060-three-paths/trtexec":       true,
	"fuzzy-resnet18-rtx3060-three-paths/torch-trt":     true,
	"fuzzy-mobilenetv2-torch-trt-rtx3060/trtexec":      true,
}

// layerInfo is a layer-info file of the corpus.
func layerInfo(file string) bool { return strings.HasPrefix(file, "layers_") }

// TestProfileOnlyFirstCause is issue 21's perturbation "drop the layer
// info": every corpus case without its layer info files is analysed from
// its profile alone (profile_only), and where the names suffice its first
// finding is the expert's first cause, priced on the records' measured
// time; clean backends get no finding; and the findings keep every
// property of findings with layer info (CheckFindings: no record owned
// twice, Σ recoverable within the reference, numbers recomputable from
// the JSON, parts partitioning the owned records, every place named).
func TestProfileOnlyFirstCause(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range corpusCases(t) {
		d := perturbedCase(t, name, layerInfo)
		for i := range d.Results {
			b := &d.Results[i]
			key := name + "/" + b.Label
			if b.Validation.AnalysisMode != contract.ModeProfileOnly {
				t.Errorf("%s: mode %s without layer info", key, b.Validation.AnalysisMode)
				continue
			}
			first := ""
			if len(b.Issues) > 0 {
				first = b.Issues[0].ID
				t.Logf("%s: first %s recovers %.4f ms (%.2f%%) of %d findings", key, first, b.Issues[0].RecoverableMs, b.Issues[0].RecoverableShare, len(b.Issues))
			}
			if want, ok := expertFirstCause[key]; ok {
				seen[key] = true
				if first != want {
					t.Errorf("%s: first finding %q, want the expert's %q", key, first, want)
				}
			}
			if clean[key] && len(b.Issues) > 0 {
				t.Errorf("%s is clean, got %q", key, b.Issues[0].Title)
			}
			findings.CheckFindings(t, b, b.Issues, b.Diagnosis)
			for _, f := range b.Issues {
				if bound, ok := f.Metrics[findings.MetricSiblingBound]; ok {
					t.Logf("%s: %s %.4f ms bounded by a faster sibling's %.4f ms", key, f.ID, f.RecoverableMs, bound)
				}
			}
			// A measured GPU time is the prices' reference, as with layer info.
			if m := b.Timing.Measured; m != nil && m.GPUComputeMs.Median != nil && *m.GPUComputeMs.Median > 0 && (b.Diagnosis == nil || b.Diagnosis.ReferenceSource != findings.RefGPUComputeMedian) {
				t.Errorf("%s: measured GPU median %v ms, but the prices' reference is %+v", key, *m.GPUComputeMs.Median, b.Diagnosis)
			}
		}
	}
	for k := range expertFirstCause {
		if !seen[k] {
			t.Errorf("%s: not analysed", k)
		}
	}
}

// TestProfileOnlyFindingsKeepProperties holds every profile_only backend
// the project meets besides the perturbed corpus (TestProfileOnlyFirstCause)
// to the properties of findings with layer info (CheckFindings): the
// generated TensorRT 7 and 8 DLA profiles, and the pasted logs and bare
// profiles of ../shared/issues. No DLA record is priced.
func TestProfileOnlyFindingsKeepProperties(t *testing.T) {
	dla := t.TempDir()
	for label := range gen.DLAProfiles {
		if err := gen.WriteDLAProfile(dla, label); err != nil {
			t.Fatal(err)
		}
	}
	folders := []string{dla}
	issues, _ := filepath.Glob(filepath.Join(corpustest.IssuesDir(t, corpustest.Issues), "*", "PROVENANCE.md"))
	for _, p := range issues {
		folders = append(folders, filepath.Dir(p))
	}
	n, priced := 0, 0
	for _, dir := range folders {
		d := analyzeFolder(t, dir)
		for i := range d.Results {
			b := &d.Results[i]
			if b.Validation.AnalysisMode != contract.ModeProfileOnly {
				continue
			}
			n++
			t.Run(filepath.Base(dir)+"/"+b.Label, func(t *testing.T) {
				findings.CheckFindings(t, b, b.Issues, b.Diagnosis)
				for _, f := range b.Issues {
					priced++
					for _, j := range f.Records {
						if k := b.Records[j].LayerType; k == layerfacts.KindDLA || k == layerfacts.KindDLATransfer {
							t.Errorf("%s prices DLA record %q", f.ID, b.Records[j].Name)
						}
					}
				}
			})
		}
	}
	t.Logf("%d profile_only backends, %d findings", n, priced)
	if n < len(gen.DLAProfiles) {
		t.Errorf("only %d profile_only backends", n)
	}
}
