package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/dump"
)

// TestRangeFromTableLayout: a pasted per-layer table dates its trtexec by
// its layout alone, whether or not the paste kept the "=== Profile (N
// iterations ) ===" line and the column header (tables written here by the
// test in each release's layout, samples/common/sampleReporting.cpp), and
// the layer-info advice names only flags of the whole range.
func TestRangeFromTableLayout(t *testing.T) {
	nameFirst := []string{
		"[I]                 Layer   Time (ms)   Avg. Time (ms)   Time %",
		"[I]       conv1 + relu1       96.17           0.1569     60.0",
		"[I]               pool1       64.11           0.1046     40.0",
	}
	trt70 := []string{
		"[I]       conv1 + relu1       96.17             0.16     60.0",
		"[I]               pool1       64.11             0.10     40.0",
	}
	median := []string{
		"[I]                 Layer   Time (ms)   Avg. Time (ms)   Median Time (ms)   Time %",
		"[I]       conv1 + relu1       96.17           0.1569             0.1560     60.0",
		"[I]               pool1       64.11           0.1046             0.1040     40.0",
	}
	numbers := []string{
		"[I]    Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer",
		"[I]       96.17       0.1569       0.1560      60.0   conv1 + relu1",
		"[I]       64.11       0.1046       0.1040      40.0   pool1",
	}
	for _, tc := range []struct {
		name     string
		lines    []string
		min, max string
	}{
		{"name first with count", append([]string{"[I] === Profile (613 iterations ) ==="}, nameFirst...), "7.2", "8.2"},
		{"name first without count", nameFirst, "7.2", "8.2"},
		{"name first rows only", nameFirst[1:], "7.2", "8.2"},
		{"name first, 2-decimal averages", trt70, "7.0", "7.1"},
		{"median rows only", median[1:], "8.4", "8.6"},
		{"numbers first rows only", numbers[1:], "8.6", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "log_a.txt"), []byte(strings.Join(tc.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			d := analyzeDir(t, dir)
			b := backendByLabel(t, d, "a")
			r := b.TensorRTRange
			if r == nil {
				t.Fatalf("no range; messages %+v", b.Validation.Messages)
			}
			max := ""
			if r.Max != nil {
				max = *r.Max
			}
			if r.Min != tc.min || max != tc.max {
				t.Errorf("range %s–%s, want %s–%s", r.Min, max, tc.min, tc.max)
			}
			first := ""
			for _, m := range b.Validation.Messages {
				if strings.Contains(m.Message, "no layer info") {
					first = m.Message
				}
			}
			if first == "" {
				t.Fatalf("no 'no layer info' message: %+v", b.Validation.Messages)
			}
			if strings.HasPrefix(tc.min, "7.") && strings.Contains(first, "--loadEngine=ENGINE --profilingVerbosity") {
				t.Errorf("advice for a range from TensorRT 7 names 8.2-only flags as if they ran: %q", first)
			}
			if tc.max == "7.1" && !strings.Contains(first, "these files fit TensorRT 7.0–7.1 (inferred from the file formats), whose trtexec cannot") {
				t.Errorf("a range wholly before 8.2 is not said to be unable to export: %q", first)
			}
			// Verbosity is fixed at build: a --loadEngine export is advised
			// only for an engine built detailed, a rebuild otherwise.
			if !strings.HasPrefix(tc.min, "7.") && (!strings.Contains(first, "if the engine was built with --profilingVerbosity=detailed") || !strings.Contains(first, "otherwise rebuild")) {
				t.Errorf("advice does not tell a detailed build from a default one: %q", first)
			}
		})
	}
}

// TestTimesMeasuresNamed: a TensorRT 7 --exportTimes file's latencyMs is
// host latency and its endToEndMs end to end; the note names each (the
// corpus TRT 7 Jetson case: latencyMs mean 2.0816, endToEndMs mean
// 2.0958 ms, read here from its file).
func TestTimesMeasuresNamed(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.Companions)
	d := analyzeFolder(t, filepath.Join(corpus, "jetson-trt7-googlenet-int8-batch-sweep-concat"))
	b := backendByLabel(t, d, "int8-concat7")
	if b.Timing == nil || b.Timing.EndToEnd == nil {
		t.Fatal("no times summary")
	}
	e := b.Timing.EndToEnd
	note := ""
	for _, n := range b.Timing.Notes {
		if strings.HasPrefix(n, e.Source+":") {
			note = n
		}
	}
	if !strings.Contains(note, contract.HostLatencyWords) || !strings.Contains(note, "endToEndMs") {
		t.Fatalf("note %q does not name host latency and endToEndMs", note)
	}
	if strings.Contains(note, fmt.Sprintf("%.4g ms on average end to end", e.MeanMs)) {
		t.Errorf("host latency called end to end: %q", note)
	}
	data, err := os.ReadFile(filepath.Join(corpus, "jetson-trt7-googlenet-int8-batch-sweep-concat", e.Source))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tm := range dump.TimesRunsOf(data) {
		var sum float64
		for _, v := range tm.EndToEndMs {
			sum += v
		}
		found = found || len(tm.EndToEndMs) == e.Iterations && strings.Contains(note, fmt.Sprintf("is %.4g ms on average", sum/float64(len(tm.EndToEndMs))))
	}
	if !found {
		t.Errorf("endToEndMs mean of the file not in %q", note)
	}
}
