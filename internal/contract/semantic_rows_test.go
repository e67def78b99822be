package contract

import (
	"strings"
	"testing"
)

// rowsDoc is two pasted fragments (profile_only, rows holding a fraction
// of their time) and the row comparison of the one row they share.
func rowsDoc() *AnalyzeData {
	part := func(label string, pct float64, recs ...Record) Backend {
		return Backend{Label: label, Validation: BackendValidation{Status: StatusFailed, AnalysisMode: ModeProfileOnly},
			Timing: &Timing{PercentageSum: pct}, Records: recs}
	}
	return &AnalyzeData{
		Results: []Backend{
			part("a", 0.1, Record{Name: "PWN(node_prelu)", Layer: -1, AvgMs: 0.01}),
			part("b", 0.3, Record{Name: "cast", Layer: -1, AvgMs: 0.008}, Record{Name: "PWN(prelu_kernel)", Layer: -1, AvgMs: 0.026}),
		},
		RowComparisons: []RowComparison{{A: "a", B: "b", Why: "partial",
			Rows: []SharedRow{{ARecord: 0, BRecord: 1, AName: "PWN(node_prelu)", BName: "PWN(prelu_kernel)", Match: RowMatchOp, Op: "prelu",
				AMs: 0.01, BMs: 0.026, DeltaMs: 0.016, BTimeRatio: 2.6}},
			AMs: 0.01, BMs: 0.026, DeltaMs: 0.016, BTimeRatio: 2.6, OnlyA: []int{}, OnlyB: []int{0}, OnlyBMs: 0.008}},
	}
}

func rowProblems(d *AnalyzeData) []string {
	c := &checker{}
	labels := map[string]int{}
	for i := range d.Results {
		labels[d.Results[i].Label] = i
	}
	c.rowComparisons(d, labels)
	var out []string
	for _, p := range c.problems {
		out = append(out, p.Pointer+": "+p.Message)
	}
	return out
}

func TestRowComparisonSemantics(t *testing.T) {
	if ps := rowProblems(rowsDoc()); len(ps) > 0 {
		t.Fatalf("valid row comparison rejected: %q", ps)
	}
	for _, tc := range []struct {
		name   string
		change func(d *AnalyzeData)
		want   string
	}{
		{"two whole tables", func(d *AnalyzeData) { d.Results[0].Timing.PercentageSum, d.Results[1].Timing.PercentageSum = 100, 100 }, "compared as engines"},
		{"row time not the record's", func(d *AnalyzeData) { d.RowComparisons[0].Rows[0].BMs = 0.03 }, "/rows/0"},
		{"total not the rows' sum", func(d *AnalyzeData) { d.RowComparisons[0].BMs = 0.034 }, "/a_ms"},
		{"ratio", func(d *AnalyzeData) { d.RowComparisons[0].BTimeRatio = 2 }, "/b_time_ratio"},
		{"record used twice", func(d *AnalyzeData) { d.RowComparisons[0].OnlyB = []int{1} }, "used twice"},
		{"record out of range", func(d *AnalyzeData) { d.RowComparisons[0].Rows[0].BRecord = 5 }, "out of range"},
		{"only sum", func(d *AnalyzeData) { d.RowComparisons[0].OnlyBMs = 0 }, "/only_b_ms"},
		{"op without match op", func(d *AnalyzeData) { d.RowComparisons[0].Rows[0].Match = RowMatchName }, "/op"},
		{"unknown label", func(d *AnalyzeData) { d.RowComparisons[0].B = "c" }, "/b"},
		{"pair twice", func(d *AnalyzeData) {
			rc := d.RowComparisons[0]
			rc.A, rc.B = "b", "a"
			d.RowComparisons = append(d.RowComparisons, rc)
		}, "repeats"},
	} {
		d := rowsDoc()
		tc.change(d)
		ps := rowProblems(d)
		if !strings.Contains(strings.Join(ps, "\n"), tc.want) {
			t.Errorf("%s: problems %q lack %q", tc.name, ps, tc.want)
		}
	}
}
