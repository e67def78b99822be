package compare

import (
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// partial is a profile_only backend whose rows hold pct % of its time (a
// pasted fragment).
func partial(label string, pct float64, recs ...lay) *contract.Backend {
	b := profileOnly(label, recs...)
	b.Timing.PercentageSum = pct
	return b
}

// TestRowPairOfPartialTables: pasted fragments of two engines' tables
// compare on the rows both hold — by name, else by the one operation one
// row of each names — never as engines; a row of no time runs no kernel.
func TestRowPairOfPartialTables(t *testing.T) {
	onnx := partial("onnx", 0.1, lay{name: "PWN(val_9, PWN(node_prelu))", ms: 0.0095})
	torch := partial("torch", 0.3,
		lay{name: "__myl_Cast_myl3_1", ms: 0.0088},
		lay{name: "m.0.adn.A/_prelu_kernel_constant_1", ms: 0},
		lay{name: "PWN([PARAMETRIC_RELU]-[aten_ops._prelu_kernel.default]-[m.0.adn.A/_prelu_kernel])", ms: 0.0264})
	if why := contract.WhyNoRowComparison(torch, onnx); why != "" {
		t.Fatalf("rows of two partial tables not comparable: %s", why)
	}
	rc := RowPair(torch, onnx)
	if rc.A != "onnx" || rc.B != "torch" {
		t.Errorf("a %s, b %s: a must be the side whose shared rows take less", rc.A, rc.B)
	}
	if len(rc.Rows) != 1 || rc.Rows[0].Match != contract.RowMatchOp || rc.Rows[0].Op != "prelu" || rc.Rows[0].BRecord != 2 {
		t.Fatalf("rows %+v, want the PReLU rows paired by op prelu", rc.Rows)
	}
	if !near(rc.BTimeRatio, 0.0264/0.0095) || !slices.Equal(rc.OnlyB, []int{0}) || len(rc.OnlyA) != 0 {
		t.Errorf("ratio %v, only_a %v, only_b %v; want 2.78, none, the Cast row (the constant of no time is no row)", rc.BTimeRatio, rc.OnlyA, rc.OnlyB)
	}
	if !strings.Contains(rc.Summary, "These rows only, not the engines") || !strings.Contains(rc.Summary, "__myl_Cast_myl3_1") {
		t.Errorf("summary %q does not say it compares rows only, or omits the row of one table", rc.Summary)
	}

	// The same names pair first, Myelin numbering aside.
	x := partial("x", 20, lay{name: "Conv_0 + Relu_1", ms: 1}, lay{name: "__myl_Add_myl0_3", ms: 0.2})
	y := partial("y", 30, lay{name: "__myl_Add_myl1_7", ms: 0.1}, lay{name: "Conv_0 + Relu_1", ms: 2})
	rc = RowPair(x, y)
	if len(rc.Rows) != 2 || rc.Rows[0].Match != contract.RowMatchName || rc.Rows[1].Match != contract.RowMatchName || rc.AMs != 1.2 {
		t.Errorf("rows %+v a_ms %v, want two rows by name, 1.2 ms in x", rc.Rows, rc.AMs)
	}

	// An operation two rows of one table name pairs nothing: a guess.
	p := partial("p", 5, lay{name: "relu_a", ms: 1})
	q := partial("q", 5, lay{name: "relu_b", ms: 1}, lay{name: "relu_c", ms: 2})
	if rc := RowPair(p, q); len(rc.Rows) != 0 {
		t.Errorf("ambiguous op paired: %+v", rc.Rows)
	}

	// Two whole tables are compared as engines, not row by row.
	w1 := partial("w1", 100, lay{name: "Conv_0", ms: 1})
	w2 := partial("w2", 100, lay{name: "Conv_0", ms: 2})
	d := &contract.AnalyzeData{Results: []contract.Backend{*onnx, *torch, *w1, *w2}}
	rcs := RowSection(d)
	var pairs []string
	for _, r := range rcs {
		pairs = append(pairs, r.A+"/"+r.B)
	}
	if !slices.Equal(pairs, []string{"onnx/torch"}) {
		t.Errorf("row comparisons %q, want only onnx/torch (w1/w2 are whole; the others share no row)", pairs)
	}
}

// TestMeasuredOnlySides: a build with measured time only compares on
// measured time with builds that have it, and is left out (no error)
// when another build has no measured time.
func TestMeasuredOnlySides(t *testing.T) {
	measuredOnlyBackend := func(label string, gpu float64) contract.Backend {
		return contract.Backend{Label: label,
			Validation: contract.BackendValidation{Status: contract.StatusFailed, AnalysisMode: contract.ModeMeasuredOnly},
			Timing:     &contract.Timing{Measured: &contract.Measured{GPUComputeMs: contract.Stats{Median: &gpu}}}}
	}
	d := &contract.AnalyzeData{Results: []contract.Backend{measuredOnlyBackend("a", 3.7), measuredOnlyBackend("b", 3.5)}}
	c, err := Section(d, "")
	if err != nil || c == nil || c.Baseline != "b" || len(c.Pairs) != 1 || c.Pairs[0].Measure != contract.MeasureGPUCompute || LayerByLayer(&c.Pairs[0]) {
		t.Fatalf("measured-only pair: %+v, %v", c, err)
	}
	// A profile without measured time shares no measure with them.
	d.Results = append(d.Results, *partial("p", 100, lay{name: "Conv_0", ms: 1}))
	c, err = Section(d, "")
	if err != nil || c != nil {
		t.Errorf("a measured-only side kept beside a side without measured time: %+v, %v", c, err)
	}
}
