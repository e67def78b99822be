package analysis

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/inputs"
)

// TestLogOverviewItems: each log item fires on a generated log that holds
// its evidence and stays silent on a twin that does not.
func TestLogOverviewItems(t *testing.T) {
	perf := func(gpu, lat, enq string) string {
		return "[I] === Performance summary ===\n" +
			"[I] Latency: min = " + lat + " ms, max = " + lat + " ms, mean = " + lat + " ms, median = " + lat + " ms, percentile(99%) = " + lat + " ms\n" +
			"[I] Enqueue Time: min = " + enq + " ms, max = " + enq + " ms, mean = " + enq + " ms, median = " + enq + " ms, percentile(99%) = " + enq + " ms\n" +
			"[I] GPU Compute Time: min = " + gpu + " ms, max = " + gpu + " ms, mean = " + gpu + " ms, median = " + gpu + " ms, percentile(99%) = " + gpu + " ms\n"
	}
	tests := []struct {
		id        string
		fire, not string
		titleHas  string
	}{
		{OverviewLogTransfers, perf("3.4", "7.0", "0.5"), perf("3.4", "3.6", "0.5"), "3.6 of 7 ms"},
		{OverviewLogEnqueue, perf("9.2", "9.4", "10.2"), perf("9.2", "9.4", "1.0"), "launch-bound"},
		{OverviewLogMeasured, perf("3.5", "3.6", "0.5"), "[I] === Model Options ===\n[I] Format: ONNX\n", "3.5 ms"},
		{OverviewLogMeasured, "[I] Latency: min = 7 ms, max = 7 ms, mean = 7 ms, median = 7 ms, percentile(99%) = 7 ms\n", "[I] === Model Options ===\n[I] Format: ONNX\n", "Only host-side latency"},
		{OverviewLogInt8Only, "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx --int8\n", "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx --int8 --fp16\n", "INT8 but not FP16"},
		{OverviewLogInt8Only, "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx --int8\n", "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=m.engine --int8\n", "INT8 but not FP16"},
		{OverviewLogInputBytes, "[I] === Inference Options ===\n[I] Input inference shape : x=1x48x1600x2560\n", "[I] === Inference Options ===\n[I] Input inference shape : x=1x3x224x224\n", "786 MB"},
		{OverviewLogPluginFP32, "[V] [TRT] *************** Autotuning format combination: Float(1,2) -> Float(1,2) ***************\n[MyConvPlugin::enqueue] start\n", "[V] [TRT] *************** Autotuning format combination: Half(1,2) -> Half(1,2) ***************\n[MyConvPlugin::enqueue] start\n", "MyConvPlugin"},
		{OverviewLogInstanceNorm, "[V] [TRT] Parsing node: n1 [InstanceNormalization]\n", "[V] [TRT] Parsing node: n1 [Conv]\n[V] [TRT] Parsing node: n2 [Relu]\n", "import path"},
		{OverviewLogLayerPrec, "Layer(CaskConvolution): conv, Tactic: 0x1, a[Int8(1,64,8,8)] -> b[Half(1,2,8,8)]\n", "Layer(CaskConvolution): conv, Tactic: 0x1, a[Int8(1,64,8,8)] -> b[Int8(1,2,8,8)]\n", "Int8 to Half"},
		{OverviewLogAutotune, "[V] [TRT] *************** Autotuning format combination: Half(1,2) -> Half(1,2) ***************\n[V] [TRT] --------------- Timing Runner: p1 (PluginV2)\n[V] [TRT] Tactic: 0x0 Time: 0.9\n[V] [TRT] *************** Autotuning format combination: Float(1,2) -> Float(1,2) ***************\n[V] [TRT] --------------- Timing Runner: p1 (PluginV2)\n[V] [TRT] Tactic: 0x0 Time: 0.5\n",
			"[V] [TRT] *************** Autotuning format combination: Half(1,2) -> Half(1,2) ***************\n[V] [TRT] --------------- Timing Runner: p1 (PluginV2)\n[V] [TRT] Tactic: 0x0 Time: 0.3\n[V] [TRT] *************** Autotuning format combination: Float(1,2) -> Float(1,2) ***************\n[V] [TRT] --------------- Timing Runner: p1 (PluginV2)\n[V] [TRT] Tactic: 0x0 Time: 0.5\n", "p1"},
		{OverviewLogBuildWarnings, "[TensorRT] INFO: --------------- Layers running on DLA: \n[TensorRT] INFO: {conv1,relu1}, {conv2}, \n[TensorRT] INFO: --------------- Layers running on GPU: \n[TensorRT] INFO: fc1, prob, \n", "[TensorRT] INFO: --------------- Layers running on DLA: \n[TensorRT] INFO: \n[TensorRT] INFO: --------------- Layers running on GPU: \n[TensorRT] INFO: fc1, prob, \n", "Builder warnings"},
		{OverviewLogBuildWarnings, "[W] [TRT] Half2 support requested on hardware without native FP16 support, performance will be negatively affected.\n", "[W] [TRT] Some other warning about nothing.\n[I] [TRT] x\n", "Builder warnings"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			items := func(text string) []contract.OverviewItem {
				runs, err := dump.ParseTrtexecLog([]byte(text))
				if err != nil {
					return nil
				}
				lr := logRun{"log_x.txt", &runs[0]}
				var out []contract.OverviewItem
				for _, f := range []func(logRun) []contract.OverviewItem{transferItems, inputBytesItem, int8OnlyItem, enqueueItem, pluginItem, autotuneItem, instanceNormItem, layerPrecisionItem, builderWarningItem, measuredItem} {
					out = append(out, f(lr)...)
				}
				return out
			}
			find := func(items []contract.OverviewItem) *contract.OverviewItem {
				for i := range items {
					if items[i].ID == tt.id {
						return &items[i]
					}
				}
				return nil
			}
			got := find(items(tt.fire))
			if got == nil {
				t.Fatalf("%s does not fire", tt.id)
			}
			if !strings.Contains(got.Title, tt.titleHas) {
				t.Errorf("title %q lacks %q", got.Title, tt.titleHas)
			}
			if !strings.Contains(strings.Join(got.Evidence, " "), "line") {
				t.Errorf("evidence quotes no line: %q", got.Evidence)
			}
			if find(items(tt.not)) != nil {
				t.Errorf("%s fires on its twin", tt.id)
			}
		})
	}
}

// TestLogMeasuredCompared: two log backends' GPU compute medians are set
// side by side, within 2% as fast.
func TestLogMeasuredCompared(t *testing.T) {
	mk := func(label string, g float64) contract.Backend {
		return contract.Backend{Label: label, Overview: []contract.OverviewItem{{ID: OverviewLogMeasured, Metrics: map[string]float64{"gpu_compute_ms": g}}}}
	}
	rs := []contract.Backend{mk("a", 3.73), mk("b", 3.52), mk("c", 3.53)}
	compareLogMeasured(rs)
	if o := rs[1].Overview[0]; o.ID != OverviewLogCompared || !strings.Contains(o.Title, "faster than a") || !strings.Contains(o.Title, "as fast as c") {
		t.Errorf("b: %q", o.Title)
	}
	if o := rs[0].Overview[0]; !strings.Contains(o.Title, "slower than b") {
		t.Errorf("a: %q", o.Title)
	}
	one := []contract.Backend{mk("a", 1)}
	compareLogMeasured(one)
	if len(one[0].Overview) != 1 {
		t.Error("a single backend was compared")
	}
}

// TestLogSweepRuns: a log of two trtexec runs, each with its per-layer
// table, analyses the first table and lists both runs with their layer
// sums and measured GPU compute.
func TestLogSweepRuns(t *testing.T) {
	text := "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=a.engine --dumpProfile\n" +
		"[I] GPU Compute Time: min = 1 ms, max = 1 ms, mean = 1 ms, median = 1 ms, percentile(99%) = 1 ms\n" +
		"[I] === Profile (100 iterations ) ===\n[I]    Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer\n" +
		"[I]       60.00       0.6000       0.6000      60.0   conv1\n[I]       40.00       0.4000       0.4000      40.0   pool1\n" +
		"&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=a.engine --dumpProfile\n" +
		"[I] GPU Compute Time: min = 2 ms, max = 2 ms, mean = 2 ms, median = 2 ms, percentile(99%) = 2 ms\n" +
		"[I] === Profile (100 iterations ) ===\n[I]    Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer\n" +
		"[I]      120.00       1.2000       1.2000      60.0   conv1\n[I]       80.00       0.8000       0.8000      40.0   pool1\n"
	runs, err := dump.ParseTrtexecLog([]byte(text))
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	const path = "/x/sweep.log"
	in := inputs.Backend{Logs: []inputs.Companion{{Path: path, Runs: runs}},
		ProfileLog: path, Profile: &runs[0].Log.Tables[0].Profile, ProfileTable: &runs[0].Log.Tables[0], ProfileRun: 1}
	sc := &discover.Scope{Backends: []discover.Backend{{Label: "sweep", LogPaths: []string{path}, FromLog: true}}}
	d, err := AnalyzeParsed(sc, inputs.InMemory(nil, in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := d.Results[0]
	if b.Validation.AnalysisMode != contract.ModeProfileOnly || len(b.Runs) != 2 {
		t.Fatalf("mode %s, %d runs", b.Validation.AnalysisMode, len(b.Runs))
	}
	if !b.Runs[0].Analysed || b.Runs[1].Analysed || *b.Runs[1].LayerSumMs != 2 || *b.Runs[1].GPUComputeMedianMs != 2 {
		t.Errorf("runs %+v %+v", b.Runs[0], b.Runs[1])
	}
	if src := b.Timing.Measured.Source; src.Lines == nil || *src.Lines != "2" {
		t.Errorf("measured source %+v", src)
	}
}
