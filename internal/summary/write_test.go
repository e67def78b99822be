package summary

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trtperf/trtperf/internal/contract"
)

func TestShorten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdefghijklmnopqrstuvwxyz", 9, "abcd…wxyz"},
		{"abcdefghijklmnopqrstuvwxyz", 10, "abcd…vwxyz"},
		{"ааааббббвввв", 5, "аа…вв"},
	} {
		got := Shorten(tc.in, tc.n)
		if got != tc.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
		if utf8.RuneCountInString(got) > max(tc.n, utf8.RuneCountInString(tc.in)) {
			t.Errorf("Shorten(%q, %d) too long", tc.in, tc.n)
		}
	}
}

func sample() *contract.AnalyzeData {
	total := 4.0
	return &contract.AnalyzeData{
		ModelName:  "m",
		Validation: contract.Validation{Status: contract.StatusPartial, BackendCount: 2, PassedCount: 1, FailedCount: 1},
		Results: []contract.Backend{
			{
				Label: "fp16", LayerCount: 3, ProfileCount: 3,
				Validation: contract.BackendValidation{Status: contract.StatusPassed, AnalysisMode: contract.ModeLayerProfile},
				Timing:     &contract.Timing{AverageInferenceMs: total},
				Records: []contract.Record{
					{Name: "small", AvgMs: 1, LayerType: "Reformat", Precision: "FP32"},
					{Name: strings.Repeat("x", 100) + "_end", AvgMs: 3, LayerType: "CaskConvolution", Precision: "FP16"},
					{Name: "zero", AvgMs: 0, LayerType: "NoOp", Precision: "FP16"},
				},
				TypeBreakdown: []contract.Breakdown{{Name: "CaskConvolution", Count: 1, TimeMs: 3, Percentage: 75}, {Name: "Reformat", Count: 1, TimeMs: 1, Percentage: 25}},
				Issues: []contract.Finding{{ID: "reformat_overhead", Title: "Reformat | copy", Score: 0.25, Confidence: "high", Share: 25,
					Evidence: []string{"1 layer"}, Metrics: map[string]float64{"time_ms": 1}, NextCheck: "try x", Layers: []int{0}}},
			},
			{
				Label:      "int8",
				Validation: contract.BackendValidation{Status: contract.StatusFailed, AnalysisMode: contract.ModeUnusable, Messages: []contract.Message{{Level: "error", Code: "names_only", Message: "rebuild with --profilingVerbosity=detailed"}}},
			},
		},
	}
}

func TestWriteText(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, sample(), Options{Top: 2, NameWidth: 20}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"backend fp16: passed layer_profile",
		"3.0000  75.00%   75.00%  1  CaskConvolution  FP16       xxxxxxxxx…xxxxxx_end",
		"1.0000  25.00%  100.00%  2  Reformat         FP32       small",
		"top 2 of 3 layers",
		"backend int8: failed unusable",
		"error: rebuild with --profilingVerbosity=detailed",
		"next: try x",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour without Color option")
	}
	buf.Reset()
	_ = Write(&buf, sample(), Options{Color: true})
	if !strings.Contains(buf.String(), "\x1b[") {
		t.Error("no colour with Color option")
	}
}

func TestWriteFormats(t *testing.T) {
	for _, f := range Formats {
		var buf bytes.Buffer
		if err := Write(&buf, sample(), Options{Format: f, By: "type"}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if buf.Len() == 0 {
			t.Errorf("%s: empty output", f)
		}
	}
	var buf bytes.Buffer
	_ = Write(&buf, sample(), Options{Format: "markdown"})
	if !strings.Contains(buf.String(), `Reformat \| copy`) {
		t.Errorf("markdown does not escape |:\n%s", buf.String())
	}
	if err := Write(&buf, sample(), Options{Format: "yaml"}); err == nil {
		t.Error("unknown format accepted")
	}
	if err := Write(&buf, sample(), Options{By: "colour"}); err == nil {
		t.Error("unknown breakdown accepted")
	}
}

// TestTopTableLeavesOutUntimedRecords: a record with no time (a constant or
// no-op TensorRT lists but does not run, as in pasted profile JSON) printed
// a row of zeros in the top table; it is named on one line instead, in
// every format that prints the table.
func TestTopTableLeavesOutUntimedRecords(t *testing.T) {
	for _, format := range []string{"text", "markdown"} {
		var buf bytes.Buffer
		if err := Write(&buf, sample(), Options{Format: format, Top: 10}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if strings.Contains(out, "0.0000") {
			t.Errorf("%s: a row of zeros is printed:\n%s", format, out)
		}
		if !strings.Contains(out, "1 record(s) take no time and are not listed: zero") {
			t.Errorf("%s: the untimed record is not named:\n%s", format, out)
		}
		if !strings.Contains(strings.ToLower(out), "top 2 of 3 layers") {
			t.Errorf("%s: header does not count the timed rows shown of all records:\n%s", format, out)
		}
	}
}

// TestEveryFormatPrintsWhatTextPrints: markdown printed a layer_only
// backend without its PREDICTED top table and overview (and an empty
// "Tactics:" line), and a profile_only backend without its overview; csv
// printed a profile_only backend as a status row alone.
func TestEveryFormatPrintsWhatTextPrints(t *testing.T) {
	over := []contract.OverviewItem{{Title: "conv converts Int8 to Half", Evidence: []string{"line 1"}}}
	d := &contract.AnalyzeData{Results: []contract.Backend{
		{
			Label: "lo", LayerCount: 1,
			Validation: contract.BackendValidation{Status: contract.StatusPassed, AnalysisMode: contract.ModeLayerOnly},
			Layers:     []contract.Layer{{Name: "conv", LayerType: "CaskConvolution"}},
			Prediction: &contract.Prediction{TotalMs: 0.5, LayerMs: []float64{0.5}, LayerBound: []string{"launch"}, Device: "A10G"},
			Overview:   over,
		},
		{
			Label: "po", ProfileCount: 1,
			Validation: contract.BackendValidation{Status: contract.StatusFailed, AnalysisMode: contract.ModeProfileOnly},
			Timing:     &contract.Timing{AverageInferenceMs: 2},
			Records:    []contract.Record{{Name: "guessed_conv", AvgMs: 2, LayerType: "Convolution"}},
			Overview:   over,
		},
	}}
	var md bytes.Buffer
	if err := Write(&md, d, Options{Format: "markdown"}); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	if !strings.Contains(out, "| 1 | 0.5000 | 100.00% | 100.00% | CaskConvolution | launch | conv |") {
		t.Errorf("markdown lacks the PREDICTED top row:\n%s", out)
	}
	if strings.Count(out, "**conv converts Int8 to Half**: line 1") != 2 {
		t.Errorf("markdown does not give both backends their overview:\n%s", out)
	}
	if strings.Contains(out, "Tactics: \n") {
		t.Errorf("markdown prints an empty tactics line:\n%s", out)
	}
	var csv bytes.Buffer
	if err := Write(&csv, d, Options{Format: "csv"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csv.String(), "po,top,1,guessed_conv,Convolution") {
		t.Errorf("csv lacks the profile_only backend's rows:\n%s", csv.String())
	}
}
