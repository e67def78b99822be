package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/findings"
	"github.com/trtperf/trtperf/internal/gen"
)

// Layer-only builds (layer info, no profile) are told apart by their layer
// info alone: two builds of one generated model are siblings, compared on
// predicted times and priced on none of it; two generated models are not.
// The folders are generated here (gen, ProfileKind "none").
func TestLayerOnlyKinship(t *testing.T) {
	for _, c := range []struct {
		name    string
		a, b    gen.Options
		sibling bool
	}{
		{"one cnn in fp16 and fp32", gen.Options{Shape: "cnn", Layers: 60, Seed: 3}, gen.Options{Shape: "cnn", Layers: 60, Seed: 3, Precision: "fp32"}, true},
		{"one bert in fp16 and int8", gen.Options{Shape: "bert", Layers: 60, Seed: 5}, gen.Options{Shape: "bert", Layers: 60, Seed: 5, Precision: "int8"}, true},
		{"a cnn and a unet", gen.Options{Shape: "cnn", Layers: 60, Seed: 3}, gen.Options{Shape: "unet", Layers: 60, Seed: 3, Precision: "fp32"}, false},
		{"a bert and an llm", gen.Options{Shape: "bert", Layers: 60, Seed: 3}, gen.Options{Shape: "llm", Layers: 60, Seed: 3}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for label, o := range map[string]gen.Options{"a": c.a, "b": c.b} {
				o.ProfileKind = "none"
				if _, _, err := gen.WriteFolder(dir, label, o); err != nil {
					t.Fatal(err)
				}
			}
			d := analyzeDir(t, dir)
			for i := range d.Results {
				b := &d.Results[i]
				if b.Validation.AnalysisMode != contract.ModeLayerOnly || b.Diagnosis == nil {
					t.Fatalf("%s: %s, diagnosis %v: want a diagnosed layer_only backend", b.Label, b.Validation.AnalysisMode, b.Diagnosis)
				}
				kin := slices.IndexFunc(b.Overview, func(o contract.OverviewItem) bool { return o.ID == findings.OverviewPredictedSibling })
				stranger := slices.IndexFunc(b.Overview, func(o contract.OverviewItem) bool { return o.ID == findings.OverviewNoSibling })
				if (kin >= 0) != c.sibling || (stranger >= 0) == c.sibling {
					t.Errorf("%s: overview %v: want sibling %v", b.Label, overviewIDs(b), c.sibling)
				}
				if stranger >= 0 {
					t.Logf("%s", strings.Join(b.Overview[stranger].Evidence, " "))
				}
				for _, f := range b.Issues {
					if f.PriceBasis == "sibling_measured" || f.ID == "sibling_delta" {
						t.Errorf("%s: %s priced on a sibling (%s) without any measured time", b.Label, f.ID, f.PriceBasis)
					}
					for _, e := range f.Evidence {
						if strings.Contains(e, "of the profile") {
							t.Errorf("%s: %s speaks of a profile it has not: %s", b.Label, f.ID, e)
						}
					}
				}
			}
		})
	}
}
