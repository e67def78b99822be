package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogTableMatchingLayerInfo: a log of two runs of different engines
// (written here by the test, TensorRT 8.2 layout) beside the layer info of
// the second: as for a profile file of several runs, the table whose names
// match the layer info is analysed — not the first — and the runs table
// lists both.
func TestLogTableMatchingLayerInfo(t *testing.T) {
	dir := t.TempDir()
	run := func(names []string, gpu float64) string {
		var b strings.Builder
		b.WriteString("&&&& RUNNING TensorRT.trtexec [TensorRT v8203] # trtexec --loadEngine=m.engine --dumpProfile\n")
		b.WriteString("[I] === Profile (100 iterations ) ===\n[I]                 Layer   Time (ms)   Avg. Time (ms)   Time %\n")
		for i, n := range names {
			fmt.Fprintf(&b, "[I] %22s %11.2f %16.4f %8.1f\n", n, float64(i+1)*10, float64(i+1)/10, float64(i+1)/3*100)
		}
		fmt.Fprintf(&b, "[I] === Performance summary ===\n[I] GPU Compute Time: min = %g ms, max = %g ms, mean = %g ms, median = %g ms, percentile(99%%) = %g ms\n", gpu, gpu, gpu, gpu, gpu)
		b.WriteString("&&&& PASSED TensorRT.trtexec [TensorRT v8203] # trtexec\n")
		return b.String()
	}
	const layers = `{"Layers": [
 {"Name": "Conv_10", "LayerType": "CaskConvolution", "Inputs": [{"Name": "x", "Dimensions": [1,8,8,8], "Format/Datatype": "Row major linear FP16 format"}], "Outputs": [{"Name": "y", "Dimensions": [1,8,8,8], "Format/Datatype": "Row major linear FP16 format"}]},
 {"Name": "Gemm_11", "LayerType": "CaskGemmMatrixMultiply", "Inputs": [{"Name": "y", "Dimensions": [1,8,8,8], "Format/Datatype": "Row major linear FP16 format"}], "Outputs": [{"Name": "z", "Dimensions": [1,8,8,8], "Format/Datatype": "Row major linear FP16 format"}]}],
 "Bindings": ["x", "z"]}`
	for name, text := range map[string]string{
		"log_x.txt":     run([]string{"Conv_0 + Relu_1", "Conv_2"}, 2) + run([]string{"Conv_10", "Gemm_11"}, 4),
		"layers_x.json": layers,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := analyzeDir(t, dir)
	b := d.Results[0]
	if b.Validation.AnalysisMode != "layer_profile" || len(b.Records) != 2 || b.Records[0].Name != "Conv_10" {
		t.Fatalf("mode %s, records %+v: the second table is not the profile", b.Validation.AnalysisMode, b.Records)
	}
	if len(b.Runs) != 2 || !b.Runs[1].Analysed || b.Runs[0].Analysed || b.Runs[0].LayerSumMs == nil {
		t.Errorf("runs %+v", b.Runs)
	}
	var msg string
	for _, m := range b.Validation.Messages {
		msg += m.Message + "\n"
	}
	if !strings.Contains(msg, "table 2 (lines") || !strings.Contains(msg, "match 2 of the layer info's 2") {
		t.Errorf("messages do not say which table is analysed:\n%s", msg)
	}
	if m := b.Timing.Measured; m == nil || m.GPUComputeMs.Median == nil || *m.GPUComputeMs.Median != 4 {
		t.Errorf("measured time is not the analysed run's: %+v", m)
	}
	keepsContract(t, d)

	// Without the layer info the first table is analysed, and the second,
	// which times other layers, is named as another engine's run.
	if err := os.Remove(filepath.Join(dir, "layers_x.json")); err != nil {
		t.Fatal(err)
	}
	d = analyzeDir(t, dir)
	msg = ""
	for _, m := range d.Results[0].Validation.Messages {
		msg += m.Message + "\n"
	}
	if d.Results[0].Records[0].Name != "Conv_0 + Relu_1" || !strings.Contains(msg, "table 2 (lines") || !strings.Contains(msg, "times other layers") {
		t.Errorf("records %q, messages:\n%s", d.Results[0].Records[0].Name, msg)
	}
}
