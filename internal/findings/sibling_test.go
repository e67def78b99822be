package findings

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
)

// siblingPair evaluates a backend and a faster sibling build of the same
// model whose convolutions run in sibPrec, as the analysis does.
func siblingPair(t *testing.T, sibPrec string, sibMs float64) *contract.Backend {
	t.Helper()
	own := build("fp16", chain("conv", 8, 64))
	evaluatePair(own, build("sib", chain("conv", 8, 64)), "FP16", 0.8, sibPrec, sibMs)
	return own
}

// chain is a generated network of n convolutions named prefix0.., with
// outMaps output channels.
func chain(prefix string, n int, outMaps int) []L {
	var layers []L
	for i := range n {
		l := L{Name: fmt.Sprintf("%s%d", prefix, i), Type: "CaskConvolution", Tactic: tcF6, Ms: 0.1, Params: fmt.Sprintf(`{"OutMaps":%d,"Groups":1}`, outMaps),
			InDims: []int64{1, int64(outMaps), 56, 56}, OutDims: []int64{1, int64(outMaps), 56, 56}}
		if i > 0 {
			l.From = []int{i - 1}
		}
		layers = append(layers, l)
	}
	return layers
}

// evaluatePair evaluates two generated backends and their sibling
// evidence as the analysis does (the comparison's layer alignment).
// Both take the same input shape.
func evaluatePair(own, sib *contract.Backend, ownPrec string, ownMs float64, sibPrec string, sibMs float64) {
	for _, p := range []struct {
		b    *contract.Backend
		prec string
		ms   float64
	}{{own, ownPrec, ownMs}, {sib, sibPrec, sibMs}} {
		issues, _, diag, _ := Evaluate(p.b)
		p.b.Issues, p.b.Diagnosis = issues, diag
		p.b.PrecisionBreakdown = []contract.Breakdown{{Name: p.prec, TimeMs: p.ms}}
		p.b.Diagnosis.ReferenceMs, p.b.Diagnosis.LayerSumMs = p.ms, p.ms
		p.b.Model.InputShapes = []contract.InputShape{{Name: "input", Dimensions: []int64{1, 3, 224, 224}}}
	}
	EvaluateSiblings([]*contract.Backend{own, sib}, nil, compare.SameWorkPct)
}

// Two backends are siblings only with evidence: a faster backend of another
// model (same input shape, nothing aligns) or on another GPU prices
// nothing, and the overview says why; a build of the same model does.
func TestSiblingsNeedEvidence(t *testing.T) {
	for _, c := range []struct {
		name    string
		other   []L
		device  string
		sibling bool
		wantWhy string
	}{
		{"same model, same device", chain("conv", 8, 64), "NVIDIA A100-SXM4-80GB", true, ""},
		{"another model with the same input shape", chain("block", 8, 96), "NVIDIA A100-SXM4-80GB", false, "compute layers align"},
		{"same model on another GPU", chain("conv", 8, 64), "NVIDIA GeForce RTX 3060", false, "another GPU"},
	} {
		t.Run(c.name, func(t *testing.T) {
			own := build("fp16", chain("conv", 8, 64))
			sib := build("sib", c.other)
			own.Device = &contract.Device{Name: "NVIDIA A100-SXM4-80GB"}
			sib.Device = &contract.Device{Name: c.device}
			evaluatePair(own, sib, "FP16", 0.8, "FP16", 0.4)
			_, f := findByID(own.Issues, "sibling_delta")
			if (f != nil) != c.sibling {
				t.Fatalf("sibling_delta %v, want %v: %+v", f != nil, c.sibling, own.Issues)
			}
			i := slices.IndexFunc(own.Overview, func(o contract.OverviewItem) bool { return o.ID == OverviewNoSibling })
			switch {
			case c.sibling && i >= 0:
				t.Errorf("a sibling build is said not to be one: %v", own.Overview[i].Evidence)
			case !c.sibling && (i < 0 || !strings.Contains(strings.Join(own.Overview[i].Evidence, " "), c.wantWhy)):
				t.Errorf("no overview item saying why %q is no sibling (%q): %+v", sib.Label, c.wantWhy, own.Overview)
			}
		})
	}
}

// A faster sibling at the same precision is a fix for this build; a faster
// sibling at a narrower precision is an accuracy trade-off, ranked by a
// tenth of its share and said to be one.
func TestSiblingDeltaAccuracyTradeoff(t *testing.T) {
	for _, c := range []struct {
		prec     string
		tradeoff bool
		conf     string
	}{
		{"FP16", false, contract.ConfidenceMedium},
		{"INT8", true, contract.ConfidenceLow},
	} {
		t.Run(c.prec, func(t *testing.T) {
			b := siblingPair(t, c.prec, 0.5)
			_, f := findByID(b.Issues, "sibling_delta")
			if f == nil {
				t.Fatalf("no sibling_delta finding: %+v", b.Issues)
			}
			if got := f.Metrics[MetricAccuracyTradeoff] > 0; got != c.tradeoff {
				t.Errorf("accuracy_tradeoff %v, want %v", got, c.tradeoff)
			}
			if f.Confidence != c.conf {
				t.Errorf("confidence %s, want %s", f.Confidence, c.conf)
			}
			want := f.RecoverableShare / 100 * certainty[c.conf]
			if c.tradeoff {
				want *= limits.accuracyTradeoffWeight
			}
			if !near(f.Score, want, 1e-4) {
				t.Errorf("score %v, want %v", f.Score, want)
			}
			if !near(f.RecoverableShare, 37.5, 0.01) {
				t.Errorf("recoverable share %v, want the measured 37.5%%", f.RecoverableShare)
			}
		})
	}
}

func findByID(fs []contract.Finding, id string) (int, *contract.Finding) {
	for i := range fs {
		if fs[i].ID == id {
			return i, &fs[i]
		}
	}
	return -1, nil
}

func near(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }

// The rest of a sibling's measured gain, after this build's own findings,
// counts only the findings the sibling fixed: a cost both builds pay is
// not in the difference, and a rest within the fixed findings' high
// prices is their estimates' error, not a second cause.
func TestSiblingDeltaRest(t *testing.T) {
	prologue := func(ms, high float64) contract.Finding {
		return contract.Finding{ID: "input_prologue", RecoverableMs: ms, RecoverableHighMs: high}
	}
	for _, c := range []struct {
		name       string
		ref, sibMs float64
		sibIssues  []contract.Finding
		want       float64 // sibling_delta's price, 0: none
	}{
		{"shared prologue: the whole difference", 4.0, 2.2, []contract.Finding{prologue(0.19, 0.22)}, 1.8},
		{"fixed prologue: the difference beyond it", 4.0, 2.2, nil, 1.6},
		{"sibling pays under half: fixed", 4.0, 2.2, []contract.Finding{prologue(0.09, 0.1)}, 1.6},
		{"rest within the fixed finding's range: none", 1.0, 0.76, nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			own := &contract.Backend{Label: "fp16", Diagnosis: &contract.Diagnosis{ReferenceMs: c.ref, LayerSumMs: c.ref},
				PrecisionBreakdown: []contract.Breakdown{{Name: "FP16", TimeMs: c.ref}}, Issues: []contract.Finding{prologue(0.2, 0.3)}}
			sib := &contract.Backend{Label: "sib", Diagnosis: &contract.Diagnosis{ReferenceMs: c.sibMs, LayerSumMs: c.sibMs},
				PrecisionBreakdown: []contract.Breakdown{{Name: "FP16", TimeMs: c.sibMs}}, Issues: c.sibIssues}
			applySibling(own, sibling{b: sib, mine: c.ref, their: c.sibMs, measure: "measured GPU compute time"}, nil)
			_, f := findByID(own.Issues, "sibling_delta")
			switch {
			case c.want == 0 && f != nil:
				t.Errorf("sibling_delta %v ms, want none", f.RecoverableMs)
			case c.want > 0 && (f == nil || !near(f.RecoverableMs, c.want, 1e-6)):
				t.Errorf("sibling_delta %+v, want %v ms", f, c.want)
			}
		})
	}
}

// TestSiblingThresholdIsCompares: the analysis calls two backends sibling
// builds from the same share of same-work layers from which compare
// compares them layer by layer (one rule for "one model").
func TestSiblingThresholdIsCompares(t *testing.T) {
	if limits.siblingMinAlignedPct != compare.MinSameWorkPct {
		t.Errorf("findings calls backends siblings from %g %% same-work layers, compare from %g %%", limits.siblingMinAlignedPct, compare.MinSameWorkPct)
	}
}

// Layer-only builds (layer info, no profile: the records are dropped and
// the reference is the predicted time) are siblings by their layer info
// alone, as profiled ones are by their records; a layer-only sibling is
// named in the overview and prices nothing, another model (the same input
// shape) is still told apart.
func TestLayerOnlySiblings(t *testing.T) {
	for _, c := range []struct {
		name    string
		other   []L
		sibling bool
		wantWhy string
	}{
		{"same model", chain("conv", 8, 64), true, ""},
		{"another model with the same input shape", chain("block", 8, 96), false, "compute layers align"},
	} {
		t.Run(c.name, func(t *testing.T) {
			own, sib := build("fp32", chain("conv", 8, 64)), build("fp16", c.other)
			for _, p := range []struct {
				b  *contract.Backend
				ms float64
			}{{own, 0.8}, {sib, 0.4}} {
				issues, _, diag, _ := Evaluate(p.b)
				p.b.Issues, p.b.Diagnosis = issues, diag
				p.b.Diagnosis.ReferenceMs, p.b.Diagnosis.LayerSumMs, p.b.Diagnosis.ReferenceSource = p.ms, p.ms, RefPredicted
				p.b.Validation.AnalysisMode, p.b.Records = contract.ModeLayerOnly, nil
				p.b.Model.InputShapes = []contract.InputShape{{Name: "input", Dimensions: []int64{1, 3, 224, 224}}}
			}
			EvaluateSiblings([]*contract.Backend{own, sib}, nil, compare.SameWorkPct)
			for _, f := range own.Issues {
				if f.PriceBasis == "sibling_measured" || f.ID == "sibling_delta" {
					t.Errorf("%s priced on a predicted sibling difference (%s)", f.ID, f.PriceBasis)
				}
			}
			kin := slices.IndexFunc(own.Overview, func(o contract.OverviewItem) bool { return o.ID == OverviewPredictedSibling })
			stranger := slices.IndexFunc(own.Overview, func(o contract.OverviewItem) bool { return o.ID == OverviewNoSibling })
			switch {
			case c.sibling && (kin < 0 || stranger >= 0):
				t.Errorf("a layer-only build of the same model is not named a sibling: %+v", own.Overview)
			case !c.sibling && (kin >= 0 || stranger < 0 || !strings.Contains(strings.Join(own.Overview[stranger].Evidence, " "), c.wantWhy)):
				t.Errorf("another model in layer-only form is not told apart (%q): %+v", c.wantWhy, own.Overview)
			}
		})
	}
}
