package findings

import (
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// siblingPair evaluates a backend and a faster sibling build of the same
// model whose convolutions run in sibPrec, as the analysis does.
func siblingPair(t *testing.T, sibPrec string, sibMs float64) *contract.Backend {
	t.Helper()
	var layers []L
	for i := range 8 {
		l := L{Name: "conv" + string(rune('a'+i)), Type: "CaskConvolution", Tactic: tcF6, Ms: 0.1}
		if i > 0 {
			l.From = []int{i - 1}
		}
		layers = append(layers, l)
	}
	own := build("fp16", layers)
	sib := build("sib", layers)
	for _, p := range []struct {
		b    *contract.Backend
		prec string
		ms   float64
	}{{own, "FP16", 0.8}, {sib, sibPrec, sibMs}} {
		issues, _, diag, _ := Evaluate(p.b)
		p.b.Issues, p.b.Diagnosis = issues, diag
		p.b.PrecisionBreakdown = []contract.Breakdown{{Name: p.prec, TimeMs: p.ms}}
		p.b.Diagnosis.ReferenceMs, p.b.Diagnosis.LayerSumMs = p.ms, p.ms
	}
	EvaluateSiblings([]*contract.Backend{own, sib}, nil)
	return own
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
