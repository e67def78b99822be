package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// TestMeasuredOnlyBackends: two trtexec logs holding only a performance
// summary (written here by the test, TensorRT 8.4 layout) are measured_only
// backends — failed, no report, but their measured GPU compute is compared
// end to end and says it cannot say why; a log with nothing measured stays
// unusable.
func TestMeasuredOnlyBackends(t *testing.T) {
	dir := t.TempDir()
	summary := func(gpu string) string {
		return "[I] === Performance summary ===\n[I] Throughput: 280 qps\n" +
			"[I] Latency: min = 4 ms, max = 4.2 ms, mean = 4.1 ms, median = 4.1 ms, percentile(99%) = 4.2 ms\n" +
			"[I] GPU Compute Time: min = " + gpu + " ms, max = " + gpu + " ms, mean = " + gpu + " ms, median = " + gpu + " ms, percentile(99%) = " + gpu + " ms\n"
	}
	for name, text := range map[string]string{
		"log_old.txt":   summary("3.73"),
		"log_new.txt":   summary("3.52"),
		"log_empty.txt": "&&&& RUNNING TensorRT.trtexec [TensorRT v8402] # trtexec --onnx=m.onnx\n[I] === Model Options ===\n[I] Format: ONNX\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := analyzeDir(t, dir)
	modes := map[string]string{}
	for _, b := range d.Results {
		modes[b.Label] = b.Validation.Status + " " + b.Validation.AnalysisMode
	}
	if modes["old"] != "failed measured_only" || modes["new"] != "failed measured_only" || modes["empty"] != "failed unusable" {
		t.Errorf("modes %v", modes)
	}
	c := d.Comparison
	if c == nil || c.Baseline != "new" || len(c.Pairs) != 1 {
		t.Fatalf("comparison %+v", c)
	}
	p := c.Pairs[0]
	if p.Measure != contract.MeasureGPUCompute || p.Verdict != contract.VerdictBSlower || len(p.Rows) != 0 || !strings.Contains(p.Summary, "not why") {
		t.Errorf("pair %s %s rows %d: %s", p.Measure, p.Verdict, len(p.Rows), p.Summary)
	}
	keepsContract(t, d)
}

// TestLogWithoutTableAlreadyDumped: a pasted run whose command has
// --dumpProfile lost its table in the paste; the error says to paste the
// whole output rather than to add the flag it already has. The twin
// without the flag is told to add it.
func TestLogWithoutTableAlreadyDumped(t *testing.T) {
	for _, tc := range []struct {
		flags, want string
	}{
		{" --dumpProfile", "already asked for --dumpProfile"},
		{"", "rerun trtexec with --dumpProfile"},
	} {
		dir := t.TempDir()
		text := "./trtexec --onnx=m.onnx --fp16" + tc.flags + "\n[06/17/2021-18:54:01] [I] GPU Compute\n[06/17/2021-18:54:01] [I] median: 9.17 ms\n"
		if err := os.WriteFile(filepath.Join(dir, "log_fp16.txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		d := analyzeDir(t, dir)
		if m := d.Results[0].Validation.Messages; len(m) == 0 || !strings.Contains(m[0].Message, tc.want) {
			t.Errorf("flags %q: messages %+v lack %q", tc.flags, m, tc.want)
		}
	}
}
