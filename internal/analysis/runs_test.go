package analysis

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/load"
)

// When layer info sits beside a profile file of several runs and a log of
// the same sweep, the run whose layer names match the layer info is
// analysed, and its measured timing comes from the same run of the log, not
// from the log's first run.
func TestMeasuredTimingFollowsTheAnalysedRun(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.Companions)
	src := filepath.Join(corpus, "trex-resnet18-a100-fp32-fp16")
	layers, err := os.ReadFile(filepath.Join(src, "layers_fp16.json"))
	if err != nil {
		t.Fatal(err)
	}
	profile, err := os.ReadFile(filepath.Join(src, "profile_fp16.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Run 1 profiles another engine (renamed layers); run 2 is this one.
	other := bytes.ReplaceAll(profile, []byte(`"name" : "`), []byte(`"name" : "other engine `))
	if bytes.Equal(other, profile) {
		other = bytes.ReplaceAll(profile, []byte(`"name": "`), []byte(`"name": "other engine `))
	}
	if bytes.Equal(other, profile) {
		t.Fatal("could not rename the profile's layers; its key spelling changed")
	}
	// Two runs of a trtexec log with different GPU compute medians.
	logText, err := os.ReadFile(filepath.Join(corpus, "jetson-trt7-googlenet-int8-batch-sweep-concat", "log_int8-trtexec.txt"))
	if err != nil {
		t.Fatal(err)
	}
	runs := strings.SplitAfter(string(logText), "&&&& PASSED")
	if len(runs) < 3 {
		t.Fatalf("the sweep log has %d runs, want at least 2", len(runs)-1)
	}
	second := runs[1]
	if i := strings.Index(second, "&&&& RUNNING"); i >= 0 {
		second = second[i:]
	}
	twoRuns := runs[0] + second[:strings.LastIndex(second, "&&&& PASSED")] + "&&&& PASSED\n"

	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"layers_fp16.json":  layers,
		"profile_fp16.json": append(append(other, '\n'), profile...),
		"log_fp16.txt":      []byte(twoRuns),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := backendByLabel(t, analyzeFolder(t, dir), "fp16")
	if len(b.Runs) != 2 || !b.Runs[1].Analysed || b.Runs[0].Analysed {
		t.Fatalf("runs %+v, want 2 with the second analysed", b.Runs)
	}
	m := b.Timing.Measured
	if m == nil || m.GPUComputeMs.Median == nil {
		t.Fatalf("no measured GPU compute median: %+v", m)
	}
	want, first := b.Runs[1].GPUComputeMedianMs, b.Runs[0].GPUComputeMedianMs
	if want == nil || first == nil || *want == *first {
		t.Fatalf("the two runs' GPU compute medians %v and %v must differ for this test", want, first)
	}
	if *m.GPUComputeMs.Median != *want {
		t.Errorf("measured GPU compute median %v, want run 2's %v (run 1: %v)", *m.GPUComputeMs.Median, *want, *first)
	}
}

// A times file holding as many concatenated lists as the profile holds
// runs gives the analysed run's end-to-end latency (the TensorRT 7 sweep:
// run 1, batch 1, 1520 inferences), not a warning that it was left out.
func TestConcatenatedTimesFollowTheAnalysedRun(t *testing.T) {
	dir := filepath.Join(corpustest.Dir(t, corpustest.Companions), "jetson-trt7-googlenet-int8-batch-sweep-concat")
	b := &analyzeFolder(t, dir).Results[0]
	e := b.Timing.EndToEnd
	if e == nil {
		t.Fatalf("no end-to-end latency; messages %+v", b.Validation.Messages)
	}
	if e.Iterations != 1520 {
		t.Errorf("end to end over %d inferences, want run 1's 1520", e.Iterations)
	}
	for _, m := range b.Validation.Messages {
		if strings.Contains(m.Message, "end-to-end latency is left out") {
			t.Errorf("still warns: %s", m.Message)
		}
	}
}

// Options.Run analyses the run asked for of a file of several runs: its
// records, its measured time and the runs table's mark follow it; a run
// the file does not hold falls back to the first and says so.
func TestRunOption(t *testing.T) {
	dir := filepath.Join(corpustest.Dir(t, corpustest.Companions), "jetson-trt7-googlenet-int8-batch-sweep-concat")
	analyse := func(run int) *contract.Backend {
		sc, err := discover.Folder(dir)
		if err != nil {
			t.Fatal(err)
		}
		d, err := AnalyzeParsed(sc, load.Source(sc), Options{Run: run})
		if err != nil {
			t.Fatal(err)
		}
		if !keepsContract(t, d) {
			t.FailNow()
		}
		return &d.Results[0]
	}
	analysed := func(b *contract.Backend) int {
		for _, r := range b.Runs {
			if r.Analysed {
				return r.Run
			}
		}
		return 0
	}
	for _, c := range []struct{ run, want int }{{0, 1}, {7, 7}, {3, 3}, {9, 1}} {
		b := analyse(c.run)
		if got := analysed(b); got != c.want {
			t.Errorf("--run %d: run %d marked analysed, want %d", c.run, got, c.want)
			continue
		}
		row := b.Runs[c.want-1]
		sum := 0.0
		for _, r := range b.Records {
			sum += r.AvgMs
		}
		if row.LayerSumMs == nil || math.Abs(sum-*row.LayerSumMs) > 1e-6*sum {
			t.Errorf("--run %d: records sum to %v ms, the runs table's run %d %v", c.run, sum, c.want, row.LayerSumMs)
		}
		said := false
		for _, m := range b.Validation.Messages {
			said = said || strings.Contains(m.Message, "was asked for but the file holds 7 runs")
		}
		if said != (c.run > 7) {
			t.Errorf("--run %d: says the run is missing %v, want %v", c.run, said, c.run > 7)
		}
	}
}
