package analysis

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
)

// TestRowsOverview: the two pasted fragments that share a PReLU row each
// get an item comparing that row (never the engines); a third fragment
// sharing no name or operation says so; a whole table gets neither.
func TestRowsOverview(t *testing.T) {
	part := func(label string, pct float64, recs ...contract.Record) contract.Backend {
		return contract.Backend{Label: label, Validation: contract.BackendValidation{Status: contract.StatusFailed, AnalysisMode: contract.ModeProfileOnly},
			Timing: &contract.Timing{PercentageSum: pct}, Records: recs}
	}
	d := &contract.AnalyzeData{Results: []contract.Backend{
		part("a", 0.1, contract.Record{Name: "PWN(val_9, PWN(node_prelu))", Layer: -1, AvgMs: 0.0095}),
		part("b", 0.3, contract.Record{Name: "__myl_Cast_myl3_1", Layer: -1, AvgMs: 0.0088}, contract.Record{Name: "PWN([PARAMETRIC_RELU]-[aten_ops._prelu_kernel])", Layer: -1, AvgMs: 0.0264}),
		part("c", 0.1, contract.Record{Name: "__myl_MulGtrSele_myl3_1", Layer: -1, AvgMs: 0.0088}),
		part("whole", 100, contract.Record{Name: "Conv_0", Layer: -1, AvgMs: 1}),
	}}
	d.RowComparisons = compare.RowSection(d)
	rowsOverview(d.Results, d.RowComparisons)
	title := func(i int) string {
		if len(d.Results[i].Overview) == 0 {
			return ""
		}
		return d.Results[i].Overview[0].Title
	}
	if s := title(1); !strings.Contains(s, "takes 2.78× a's") || !strings.Contains(s, "__myl_Cast_myl3_1") || !strings.Contains(s, "not engine times") {
		t.Errorf("b: %q", s)
	}
	if s := title(0); !strings.Contains(s, "takes 0.36× b's") {
		t.Errorf("a: %q", s)
	}
	if s := title(2); !strings.Contains(s, "shares no row with") || !strings.Contains(s, "mul") {
		t.Errorf("c: %q", s)
	}
	if s := title(3); s != "" {
		t.Errorf("a whole table got %q", s)
	}
}
