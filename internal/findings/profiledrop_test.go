package findings_test

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/findings"
)

// expertFirstCause is, per corpus backend whose layer names suffice, the
// cause DIAGNOSIS.md names first, as the profile-only item that says it.
// Backends whose first cause needs layer info (an FP32 build, a batch-1
// GEMV, a sibling's measured gain) or that are clean get no cause item.
var expertFirstCause = map[string]string{
	"trex-resnet18-a100-fp32-fp16/fp16":                      findings.ProfilePrologue, // FP32→FP16 input reformat ~8 %
	"trex-resnet18-a100-qat/int8-qat":                        findings.ProfileStandaloneQDQ,
	"trex-resnet18-a100-qat/int8-qat-residual":               findings.ProfilePrologue, // the graph-input QuantizeLinear
	"trex-resnet18-a100-qat/int8-qat-residual-qgap":          findings.ProfilePrologue,
	"trex-tf-resnet50-rtx3090/fp16":                          findings.ProfilePrologue, // NHWC transpose + Pad
	"trex-tf-resnet50-rtx3090/int8-qat":                      findings.ProfilePrologue,
	"trex-mobilenetv2-qat-titanrtx/int8-qat":                 findings.ProfileStandaloneQDQ,
	"fuzzy-mobilenetv2-torch-trt-rtx3060/torch-trt":          findings.ProfileUnfusedPointwise, // standalone clamps
	"fuzzy-mobilenetv2-jetson-orin-nano-torch-trt/torch-trt": findings.ProfileUnfusedPointwise,
	"controlnet-sd15-trt86-fp16/fp16":                        findings.ProfileDecomposedNorm,
	"detr-resnet50-int8-layer-names-only/int8":               "profile_decomposed_attention",
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
// its profile alone (profile_only), and where the names suffice the first
// item of its diagnosis is the expert's first cause; clean backends get no
// cause; every item's records are its own (no record in two items but the
// descriptive DLA one) and its numbers add up.
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
			var causes []contract.OverviewItem
			for _, o := range b.Overview {
				if strings.HasPrefix(o.ID, "profile_") && o.ID != "profile_dla" {
					causes = append(causes, o)
				}
			}
			first := ""
			if len(causes) > 0 {
				first = causes[0].ID
			}
			t.Logf("%s: first %q of %d items", key, first, len(causes))
			if want, ok := expertFirstCause[key]; ok {
				seen[key] = true
				if first != want {
					t.Errorf("%s: first cause %q, want the expert's %q", key, first, want)
				}
			}
			if clean[key] && len(causes) > 0 {
				t.Errorf("%s is clean, got %q", key, causes[0].Title)
			}
			checkItems(t, key, b, causes)
		}
	}
	for k := range expertFirstCause {
		if !seen[k] {
			t.Errorf("%s: not analysed", k)
		}
	}
}

// checkItems: shares are time over the layer sum, the items' times add up
// to at most the layer sum, and the cause items of profileCauses hold
// disjoint records (by name and time: profile_only records have no layer).
func checkItems(t *testing.T, key string, b *contract.Backend, items []contract.OverviewItem) {
	t.Helper()
	total, sum := b.Timing.AverageInferenceMs, 0.0
	for _, o := range items {
		ms, pct := o.Metrics["time_ms"], o.Metrics["share_pct"]
		if d := ms/total*100 - pct; d > 1e-2 || d < -1e-2 {
			t.Errorf("%s %s: share %v%% is not %v ms of %v ms", key, o.ID, pct, ms, total)
		}
		sum += ms
	}
	if sum > total*(1+1e-9) {
		t.Errorf("%s: items take %v ms, more than the layer sum %v ms: a record counted twice", key, sum, total)
	}
}
