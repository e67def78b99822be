package gen

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DLARecord is one record of a generated DLA profile: its name and its
// average time per inference (ms).
type DLARecord struct {
	Name string
	Ms   float64
}

// DLAProfiles are DLA profiles, by label, generated the way trtexec --useDLACore=0 [--allowGPUFallback]
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
var DLAProfiles = map[string][]DLARecord{
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
	// TensorRT 8 with GPU fallback: the GPU converts the input to the
	// DLA's format and reformats the DLA's output for the fully connected
	// layers it runs itself. Those two reformats are GPU work; the
	// hand-over and wait records are not.
	"trt8-fallback": {
		{"Reformatting CopyNode for Input Tensor 0 to {ForeignNode[conv1...pool2]}", 0.140},
		{"data to nvm", 0.019},
		{"{ForeignNode[conv1...pool2]}", 0.021},
		{"pool2 from nvm", 0.912},
		{"data copy finish", 0.004},
		{"pool2 copy finish", 0.005},
		{"Reformatting CopyNode for Input Tensor 0 to ip1 + relu1", 0.090},
		{"ip1 + relu1", 0.120},
		{"ip2", 0.041},
		{"prob", 0.011},
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

// WriteDLAProfile writes the DLA profile of label (a key of DLAProfiles)
// to dir as profile_<label>.json, in its release's shape: without medianMs
// for TensorRT 7 (a "trt7" label), with it from 8 on. The folder then
// holds a profile_only backend (TensorRT's DLA runs have no layer info to
// export beside them in TensorRT 7).
func WriteDLAProfile(dir, label string) error {
	recs, ok := DLAProfiles[label]
	if !ok {
		return fmt.Errorf("no generated DLA profile %q (known: %s)", label, strings.Join(slices.Sorted(maps.Keys(DLAProfiles)), ", "))
	}
	const count = 500
	var b strings.Builder
	fmt.Fprintf(&b, "[\n  { \"count\" : %d }\n", count)
	total := 0.0
	for _, r := range recs {
		total += r.Ms
	}
	for _, r := range recs {
		pct := r.Ms / total * 100
		if strings.HasPrefix(label, "trt7") {
			fmt.Fprintf(&b, ", { \"name\" : %q, \"timeMs\" : %g, \"averageMs\" : %g, \"percentage\" : %g }\n", r.Name, r.Ms*count, r.Ms, pct)
		} else {
			fmt.Fprintf(&b, ", { \"name\" : %q, \"timeMs\" : %g, \"averageMs\" : %g, \"medianMs\" : %g, \"percentage\" : %g }\n", r.Name, r.Ms*count, r.Ms, r.Ms, pct)
		}
	}
	b.WriteString("]\n")
	return os.WriteFile(filepath.Join(dir, "profile_"+label+".json"), []byte(b.String()), 0o644)
}
