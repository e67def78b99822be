package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// dlaRecord is one record of a generated DLA profile.
type dlaRecord struct {
	name string
	ms   float64
}

// DLA profiles generated the way trtexec --useDLACore=0 [--allowGPUFallback]
// writes them (NVIDIA's "Working with DLA": a network, or the part of it
// the DLA supports, is compiled into DLA loadables; the GPU copies inputs
// into the DLA's memory, launches the loadable and waits for its outputs).
// The record names are TensorRT's (trtexec's Profiler in
// samples/common/sampleReporting.cpp stores the name reportLayerTime is
// given), checked against real profiles:
//   - TensorRT 7 names a subgraph by its layers, "{a,b,c}", beside
//     "… output reformatter 0" records (a TensorRT 7 trtexec profile of a
//     ResNet18 on a Xavier DLA with GPU fallback, NVIDIA developer forum
//     thread 167341 "Profiling a network running on the DLA", 2021);
//   - TensorRT 8 names it "{ForeignNode[first...last]}" (also
//     samples/sampleCudla/README.md in NVIDIA/TensorRT: "[DlaLayer]
//     {ForeignNode[…]}"), in the order "<input> to nvm", the foreign node,
//     "<output> from nvm", "<input> copy finish", "<output> copy finish",
//     then "from nvm"/"copy finish" per further output (the --dumpProfile
//     table of a three-head YOLO on an Orin DLA in NVIDIA/TensorRT issue
//     3143, 2023: "head_3 from nvm" holds 98.4 % of the time, the foreign
//     node 0.1 %).
//
// The DLA runs asynchronously, so most of its time lands in the wait
// record.
var dlaProfiles = map[string][]dlaRecord{
	// TensorRT 7: the whole LeNet on DLA but the softmax.
	"trt7-dla": {
		{"data to nvm", 0.021},
		{"{conv1,pool1,conv2,pool2,ip1,relu1,ip2}", 0.018},
		{"{conv1,pool1,conv2,pool2,ip1,relu1,ip2} output reformatter 0", 1.912},
		{"ip2 from nvm", 0.030},
		{"ip2 copy finish", 0.006},
		{"prob", 0.011},
	},
	// TensorRT 7, partial placement: the first half on DLA, the rest on the
	// GPU.
	"trt7-split": {
		{"data to nvm", 0.021},
		{"{conv1,pool1,conv2,pool2}", 0.015},
		{"{conv1,pool1,conv2,pool2} output reformatter 0", 1.105},
		{"pool2 from nvm", 0.028},
		{"pool2 copy finish", 0.005},
		{"ip1 + relu1", 0.120},
		{"ip2", 0.041},
		{"prob", 0.011},
	},
	// TensorRT 7, every layer on DLA (the softmax too): no GPU layer.
	"trt7-all": {
		{"data to nvm", 0.021},
		{"{conv1,pool1,conv2,pool2,ip1,relu1,ip2,prob}", 0.019},
		{"{conv1,pool1,conv2,pool2,ip1,relu1,ip2,prob} output reformatter 0", 1.930},
		{"prob from nvm", 0.012},
		{"prob copy finish", 0.006},
	},
	// TensorRT 8, in issue 3143's order: the subgraph is a foreign node
	// named by its range; a GPU reformat feeds it, a GPU softmax follows.
	"trt8-dla": {
		{"Reformatting CopyNode for Input Tensor 0 to {ForeignNode[conv1...ip2]}", 0.012},
		{"data to nvm", 0.019},
		{"{ForeignNode[conv1...ip2]}", 0.022},
		{"ip2 from nvm", 1.604},
		{"data copy finish", 0.004},
		{"ip2 copy finish", 0.006},
		{"prob", 0.010},
	},
	// TensorRT 8, the whole network on DLA with three outputs (issue
	// 3143's shape): the wait lands on the first output's "from nvm".
	"trt8-heads": {
		{"images to nvm", 0.085},
		{"{ForeignNode[Conv_0...Concat_198]}", 0.0085},
		{"head_3 from nvm", 7.693},
		{"images copy finish", 0.0017},
		{"head_3 copy finish", 0.0029},
		{"head_2 from nvm", 0.0072},
		{"head_2 copy finish", 0.0026},
		{"head_1 from nvm", 0.0107},
		{"head_1 copy finish", 0.0025},
	},
}

// writeDLAProfile writes a generated profile in the release's shape:
// without medianMs for TensorRT 7, with it from 8 on.
func writeDLAProfile(t *testing.T, dir, label string, recs []dlaRecord) {
	t.Helper()
	const count = 500
	var b strings.Builder
	fmt.Fprintf(&b, "[\n  { \"count\" : %d }\n", count)
	total := 0.0
	for _, r := range recs {
		total += r.ms
	}
	for _, r := range recs {
		pct := r.ms / total * 100
		if strings.HasPrefix(label, "trt7") {
			fmt.Fprintf(&b, ", { \"name\" : %q, \"timeMs\" : %g, \"averageMs\" : %g, \"percentage\" : %g }\n", r.name, r.ms*count, r.ms, pct)
		} else {
			fmt.Fprintf(&b, ", { \"name\" : %q, \"timeMs\" : %g, \"averageMs\" : %g, \"medianMs\" : %g, \"percentage\" : %g }\n", r.name, r.ms*count, r.ms, r.ms, pct)
		}
	}
	b.WriteString("]\n")
	if err := os.WriteFile(filepath.Join(dir, "profile_"+label+".json"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDLAProfiles is issue 21's acceptance 3 on generated TensorRT 7 and 8
// DLA profiles: the subgraph record is DLA work (never FullyConnected), the
// GPU's wait for it is DLA time (never reformat or copy), the layers of each
// device come from the subgraph names, and a placement with no GPU layer
// says so.
func TestDLAProfiles(t *testing.T) {
	dir := t.TempDir()
	for label, recs := range dlaProfiles {
		writeDLAProfile(t, dir, label, recs)
	}
	d := analyzeFolder(t, dir)
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
			}
			if !near(reformat, tc.reformatMs) {
				t.Errorf("reformat time %v, want %v (the DLA wait is not a reformat)", reformat, tc.reformatMs)
			}
			var item *contract.OverviewItem
			for i := range b.Overview {
				if b.Overview[i].ID == "profile_dla" {
					item = &b.Overview[i]
				}
				if b.Overview[i].ID == "profile_conversions" && tc.reformatMs == 0 {
					t.Errorf("a reformat item without reformat records: %s", b.Overview[i].Title)
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
