package dump

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
)

func TestParseTimes(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		latency  []float64
		compute  []float64
		wantCode string
	}{
		{"trt8", `[{"startEnqMs":1,"h2dMs":0,"computeMs":0.8,"d2hMs":0,"latencyMs":0.9},{"computeMs":0.7,"latencyMs":0.8}]`, []float64{0.9, 0.8}, []float64{0.8, 0.7}, ""},
		{"trt7 keys", `[{"inMs":0.09,"computeMs":4.5,"outMs":0.04,"latencyMs":4.6,"endToEndMs":4.7}]`, []float64{4.6}, []float64{4.5}, ""},
		{"no computeMs", `[{"latencyMs":1},{"latencyMs":2,"computeMs":1}]`, []float64{1, 2}, nil, ""},
		{"missing latency", `[{"computeMs":1}]`, nil, nil, CodeMissingField},
		{"negative", `[{"latencyMs":-1}]`, nil, nil, CodeNonFinite},
		{"empty", `[]`, nil, nil, CodeEmpty},
		{"concatenated", `[{"latencyMs":1}][{"latencyMs":2}]`, nil, nil, CodeConcatenated},
		{"not a list", `{"latencyMs":1}`, nil, nil, CodeMalformed},
		{"garbage", `[{"latencyMs":`, nil, nil, CodeMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTimes([]byte(tt.in))
			if tt.wantCode != "" {
				var fe *FormatError
				if !errors.As(err, &fe) || fe.Code != tt.wantCode {
					t.Fatalf("error %v, want code %s", err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.LatencyMs, tt.latency) || !reflect.DeepEqual(got.ComputeMs, tt.compute) {
				t.Errorf("got %v / %v, want %v / %v", got.LatencyMs, got.ComputeMs, tt.latency, tt.compute)
			}
			if want := strings.Contains(tt.in, "inMs"); got.TRT7Keys != want {
				t.Errorf("TRT7Keys %v, want %v", got.TRT7Keys, want)
			}
		})
	}
}

// Every single-document times file of the corpus reads; the TensorRT 7 one
// holding 7 concatenated runs is reported as such.
func TestCorpusTimes(t *testing.T) {
	dir := corpustest.Dir(t, corpustest.Companions)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "times_*.json"))
	if len(files) == 0 {
		t.Fatal("no times files in the corpus")
	}
	for _, f := range files {
		tm, err := ReadTimes(f)
		var fe *FormatError
		switch {
		case errors.As(err, &fe) && fe.Code == CodeConcatenated && filepath.Base(filepath.Dir(f)) == "jetson-trt7-googlenet-int8-batch-sweep-concat":
		case err != nil:
			t.Errorf("%s: %v", f, err)
		case len(tm.LatencyMs) == 0 || len(tm.ComputeMs) != len(tm.LatencyMs):
			t.Errorf("%s: %d latencies, %d compute times", f, len(tm.LatencyMs), len(tm.ComputeMs))
		}
	}
}

func FuzzParseTimes(f *testing.F) {
	f.Add([]byte(`[{"computeMs":0.8,"latencyMs":0.9}]`))
	f.Add([]byte(`[{"latencyMs":1}][`))
	f.Add([]byte(`[{"latencyMs":1}]
[{"latencyMs":2,"computeMs":1.5}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tm, err := ParseTimes(data)
		if err == nil && (len(tm.LatencyMs) == 0 || (tm.ComputeMs != nil && len(tm.ComputeMs) != len(tm.LatencyMs))) {
			t.Fatalf("accepted %q with %d latencies and %d compute times", data, len(tm.LatencyMs), len(tm.ComputeMs))
		}
		// Splitting agrees with parsing: a whole list is one run, equal to it.
		runs := TimesRunsOf(data)
		if err == nil && (len(runs) != 1 || !slices.Equal(runs[0].LatencyMs, tm.LatencyMs)) {
			t.Fatalf("%q parses as one list but splits into %d runs", data, len(runs))
		}
		for i, r := range runs {
			if len(r.LatencyMs) == 0 {
				t.Fatalf("run %d of %q has no latencies", i, data)
			}
		}
	})
}

// Lists appended to one file (a sweep script's --exportTimes) split into one
// run each; a broken list ends the split.
func TestTimesRunsOf(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int // latencies per run
	}{
		{`[{"latencyMs":1}]`, []int{1}},
		{`[{"latencyMs":1},{"latencyMs":2}]
[{"latencyMs":3}]  [{"latencyMs":4}]`, []int{2, 1, 1}},
		{`[{"latencyMs":1}][{"computeMs":2}]`, []int{1}}, // no latencyMs: ends the split
		{`[{"latencyMs":1}][`, []int{1}},
		{`{}`, nil},
	} {
		var got []int
		for _, r := range TimesRunsOf([]byte(c.in)) {
			got = append(got, len(r.LatencyMs))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("TimesRunsOf(%q) runs %v, want %v", c.in, got, c.want)
		}
	}
}

// TestTimesNumbersInRange: a time beyond float64 or a non-zero one too
// small for it is refused, not read as Inf or 0; the same text inside a
// string is not a number.
func TestTimesNumbersInRange(t *testing.T) {
	for _, tt := range []struct {
		data string
		ok   bool
	}{
		{`[{"latencyMs":1.5,"computeMs":1e-3}]`, true},
		{`[{"latencyMs":1.5,"note":"1e-99999999"}]`, true},
		{`[{"latencyMs":-1e-99999999}]`, false},
		{`[{"latencyMs":1,"computeMs":1e400}]`, false},
	} {
		_, err := ParseTimes([]byte(tt.data))
		var fe *FormatError
		if tt.ok != (err == nil) || !tt.ok && (!errors.As(err, &fe) || fe.Code != CodeNonFinite) {
			t.Errorf("%s: %v", tt.data, err)
		}
	}
}

// TestTimesEndToEnd: endToEndMs (TensorRT 7.0-8.2) is read beside
// latencyMs (host latency), never in its place; a column only some
// records carry is dropped.
func TestTimesEndToEnd(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		latency  []float64
		e2e      []float64
	}{
		{"trt7", `[{"inMs":0.09,"computeMs":4.5,"outMs":0.04,"latencyMs":4.63,"endToEndMs":4.67},{"latencyMs":2.87,"endToEndMs":2.9}]`, []float64{4.63, 2.87}, []float64{4.67, 2.9}},
		{"trt8.2", `[{"h2dMs":0.1,"computeMs":1,"d2hMs":0.1,"latencyMs":1.2,"endToEndMs":1.5}]`, []float64{1.2}, []float64{1.5}},
		{"trt10", `[{"h2dMs":0.1,"computeMs":1,"d2hMs":0.1,"latencyMs":1.2}]`, []float64{1.2}, nil},
		{"partial", `[{"latencyMs":1.2,"endToEndMs":1.5},{"latencyMs":1.3}]`, []float64{1.2, 1.3}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTimes([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.LatencyMs, tc.latency) || !reflect.DeepEqual(got.EndToEndMs, tc.e2e) {
				t.Errorf("latency %v end to end %v, want %v / %v", got.LatencyMs, got.EndToEndMs, tc.latency, tc.e2e)
			}
		})
	}
}
