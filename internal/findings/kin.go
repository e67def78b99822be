package findings

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// OverviewNoSibling is the overview item of a backend beside others that
// are not builds of the same model on the same device: it says why no
// measured difference to them prices anything.
const OverviewNoSibling = "no_sibling"

// OverviewPredictedSibling is the overview item of a backend beside sibling
// builds of the same model when one side has no profile (layer_only): the
// two are compared on the cost model's predicted times only, so their
// difference prices no finding.
const OverviewPredictedSibling = "sibling_predicted"

// kin answers whether two backends are sibling builds, aligning each pair
// once.
type kin struct {
	of      Kinship
	aligned map[[2]*contract.Backend][2]float64 // pct, compute layers
}

func newKin(of Kinship) *kin {
	return &kin{of: of, aligned: map[[2]*contract.Backend][2]float64{}}
}

func (k *kin) alignedPct(a, b *contract.Backend) (float64, int) {
	if v, ok := k.aligned[[2]*contract.Backend{a, b}]; ok {
		return v[0], int(v[1])
	}
	if v, ok := k.aligned[[2]*contract.Backend{b, a}]; ok {
		return v[0], int(v[1])
	}
	pct, n := k.of(a, b)
	k.aligned[[2]*contract.Backend{a, b}] = [2]float64{pct, float64(n)}
	return pct, n
}

// related: a and b are builds of one model, with evidence: the same input
// shapes (when both know them), the same device (when both name one), and
// at least limits.siblingMinAlignedPct of their compute layers aligned
// with a layer doing the same work.
// Without any of it, their measured difference says nothing about either.
// The reason is said from a's side.
func (k *kin) related(a, b *contract.Backend) (bool, string) {
	if !sameInputs(a, b) {
		return false, fmt.Sprintf("its inputs differ (%s there, %s here)", shapesOf(b), shapesOf(a))
	}
	if da, db := deviceName(a), deviceName(b); da != "" && db != "" && !strings.EqualFold(da, db) {
		return false, fmt.Sprintf("it ran on another GPU (%s there, %s here)", db, da)
	}
	if k.of == nil {
		return false, "no layer alignment is known to show it is the same model"
	}
	pct, n := k.alignedPct(a, b)
	if n == 0 {
		return false, "neither has compute layers to align"
	}
	if pct < limits.siblingMinAlignedPct {
		return false, fmt.Sprintf("only %.0f%% of the two builds' %d compute layers align with a layer doing the same work (builds of one model align at least %.0f%%), so it is another model", pct, n, limits.siblingMinAlignedPct)
	}
	return true, ""
}

func deviceName(b *contract.Backend) string {
	if b.Device == nil {
		return ""
	}
	return b.Device.Name
}

func shapesOf(b *contract.Backend) string {
	if len(b.Model.InputShapes) == 0 {
		return "unknown"
	}
	parts := make([]string, len(b.Model.InputShapes))
	for i, s := range b.Model.InputShapes {
		dims := make([]string, len(s.Dimensions))
		for j, d := range s.Dimensions {
			dims[j] = fmt.Sprint(d)
		}
		parts[i] = s.Name + "=" + strings.Join(dims, "x")
	}
	return strings.Join(parts, ", ")
}

// noteStrangers adds to b an overview item naming the timed backends
// beside it that are not its siblings, and why: their measured times price
// nothing here.
func noteStrangers(b *contract.Backend, bs []*contract.Backend, k *kin) {
	var ev []string
	for _, o := range bs {
		if o == b || o.Diagnosis == nil || o.Diagnosis.ReferenceMs <= 0 {
			continue
		}
		if ok, why := k.related(b, o); !ok {
			ev = append(ev, fmt.Sprintf("%q is not a build of this model to measure against: %s.", o.Label, why))
		}
	}
	if len(ev) == 0 {
		return
	}
	ev = append(ev, "No finding here is priced on their measured times.")
	b.Overview = append(b.Overview, contract.OverviewItem{ID: OverviewNoSibling,
		Title:    fmt.Sprintf("%d other backend(s) in this folder are not sibling builds", len(ev)-1),
		Evidence: ev, Metrics: map[string]float64{"backends": float64(len(ev) - 1)}, Layers: []int{}})
}

// notePredictedKin adds to b an overview item naming its sibling builds
// that only the cost model times (b or they are layer_only): they are the
// same model, but a predicted difference is no measurement, and the model
// already prices the findings of a layer_only build.
func notePredictedKin(b *contract.Backend, bs []*contract.Backend, k *kin) {
	var ev []string
	for _, o := range bs {
		if o == b || o.Diagnosis == nil || o.Diagnosis.ReferenceMs <= 0 {
			continue
		}
		pb, po := b.Diagnosis.ReferenceSource == RefPredicted, o.Diagnosis.ReferenceSource == RefPredicted
		if !pb && !po {
			continue
		}
		if ok, _ := k.related(b, o); !ok {
			continue
		}
		pct, n := k.alignedPct(b, o)
		say := fmt.Sprintf("%q is a build of this model (%.0f%% of the two builds' %d compute layers do the same work)", o.Label, pct, n)
		switch {
		case pb && po:
			say += fmt.Sprintf(": PREDICTED %.4f ms there vs %.4f ms here (cost model; neither has a profile).", o.Diagnosis.ReferenceMs, b.Diagnosis.ReferenceMs)
		case po:
			say += ", but it has no profile: only the cost model times it."
		default:
			say += ", but this backend has no profile: only the cost model times it."
		}
		ev = append(ev, say)
	}
	if len(ev) == 0 {
		return
	}
	ev = append(ev, "Builds without a profile are compared on predicted times only (the comparison's measure \"predicted\"): no finding here is priced on a difference to them.")
	b.Overview = append(b.Overview, contract.OverviewItem{ID: OverviewPredictedSibling,
		Title:    fmt.Sprintf("%d sibling build(s) of this model, compared on predicted times only", len(ev)-1),
		Evidence: ev, Metrics: map[string]float64{"backends": float64(len(ev) - 1)}, Layers: []int{}})
}
