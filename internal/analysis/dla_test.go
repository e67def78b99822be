package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// TestDLAProfiles is issue 21's acceptance 3 on generated TensorRT 7 and 8
// DLA profiles: the subgraph record is DLA work (never FullyConnected), the
// GPU's wait for it is DLA time (never reformat or copy), the layers of each
// device come from the subgraph names, and a placement with no GPU layer
// says so.
func TestDLAProfiles(t *testing.T) {
	dir := t.TempDir()
	for label := range gen.DLAProfiles {
		if err := gen.WriteDLAProfile(dir, label); err != nil {
			t.Fatal(err)
		}
	}
	d := analyzeFolder(t, dir)
	keepsContract(t, d)
	for _, tc := range []struct {
		label                string
		dlaMs, gpuMs         float64
		dlaLayers, gpuLayers int
		reformatMs           float64 // records typed Reformat
	}{
		{"trt7-dla", 0.021 + 0.018 + 1.912 + 0.030 + 0.006, 0.011, 7, 1, 0},
		{"trt7-split", 0.021 + 0.015 + 1.105 + 0.028 + 0.005, 0.120 + 0.041 + 0.011, 4, 3, 0},
		{"trt7-all", 0.021 + 0.019 + 1.930 + 0.012 + 0.006, 0, 8, 0, 0},
		{"trt8-dla", 0.019 + 0.022 + 0.004 + 1.604 + 0.006, 0.010, 2, 1, 0.012},
		{"trt8-fallback", 0.019 + 0.021 + 0.912 + 0.004 + 0.005, 0.120 + 0.041 + 0.011, 2, 3, 0.140 + 0.090},
		{"trt8-heads", 0.085 + 0.0085 + 7.693 + 0.0017 + 0.0029 + 0.0072 + 0.0026 + 0.0107 + 0.0025, 0, 2, 0, 0},
	} {
		t.Run(tc.label, func(t *testing.T) {
			b := backendByLabel(t, d, tc.label)
			if b.Validation.AnalysisMode != contract.ModeProfileOnly {
				t.Fatalf("mode %s", b.Validation.AnalysisMode)
			}
			reformat := 0.0
			for _, r := range b.Records {
				if strings.HasPrefix(r.Name, "{") && r.LayerType != layerfacts.KindDLA && r.LayerType != layerfacts.KindDLATransfer {
					t.Errorf("DLA record %q typed %s", r.Name, r.LayerType)
				}
				if r.LayerType == "Reformat" {
					reformat += r.AvgMs
				}
				if want := layerfacts.GuessedTags(r.LayerType); !slices.Equal(r.Tags, want) {
					t.Errorf("%q (%s) tagged %v, want its kind's tags %v", r.Name, r.LayerType, r.Tags, want)
				}
			}
			if !near(reformat, tc.reformatMs) {
				t.Errorf("reformat time %v, want %v (the DLA wait is not a reformat)", reformat, tc.reformatMs)
			}
			// The GPU's hand-over to and wait for the DLA is DLA time: no
			// finding prices it (as a reformat or anything else).
			for _, f := range b.Issues {
				for _, j := range f.Records {
					if k := b.Records[j].LayerType; k == layerfacts.KindDLA || k == layerfacts.KindDLATransfer {
						t.Errorf("finding %s prices DLA record %q (%s)", f.ID, b.Records[j].Name, k)
					}
				}
			}
			var item *contract.OverviewItem
			for i := range b.Overview {
				if b.Overview[i].ID == "profile_dla" {
					item = &b.Overview[i]
				}
			}
			if item == nil {
				t.Fatalf("no profile_dla item in %+v", b.Overview)
			}
			m := item.Metrics
			if !near(m["time_ms"], tc.dlaMs) || !near(m["gpu_ms"], tc.gpuMs) || int(m["dla_layers"]) != tc.dlaLayers || int(m["gpu_layers"]) != tc.gpuLayers {
				t.Errorf("metrics %v, want DLA %v ms, GPU %v ms, %d DLA layers, %d GPU layers", m, tc.dlaMs, tc.gpuMs, tc.dlaLayers, tc.gpuLayers)
			}
			ev := strings.Join(item.Evidence, " ")
			if !strings.Contains(ev, "not a reformat or copy") {
				t.Errorf("evidence does not say the wait is DLA time: %q", item.Evidence)
			}
			if noGPU := strings.Contains(ev, "No layer ran on the GPU"); noGPU != (tc.gpuLayers == 0) {
				t.Errorf("evidence says no GPU layer: %v, want %v: %q", noGPU, tc.gpuLayers == 0, ev)
			}
		})
	}
}

func near(a, b float64) bool {
	d := a - b
	return d < 1e-6 && d > -1e-6
}
