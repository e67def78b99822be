package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// sibling is a comparable backend and its time on a measure shared with the
// backend it is compared to.
type sibling struct {
	b           *contract.Backend
	mine, their float64 // ms on the shared measure
	measure     string  // "measured GPU time", "profiled layer sum"
	cross       bool    // layer sums from different profilers
}

// Kinship is the evidence that two backends are builds of one model: the
// share of their compute layers that align with a layer of the other doing
// the same work (percent, both sides counted) and how many compute layers
// there are. The analysis supplies it (the
// comparison's alignment); nil means no alignment is known, so no backend
// is anyone's sibling.
type Kinship func(a, b *contract.Backend) (alignedPct float64, computeLayers int)

// EvaluateSiblings prices what a faster sibling build of the same model in
// the same folder measures: an FP32 engine's fp32_engine finding takes the
// measured difference to a reduced-precision sibling; otherwise the part of
// the difference no other finding explains becomes a sibling_delta finding.
// Two backends are siblings only with evidence (see related); a backend
// beside others that are not says why in an overview item. Backends must
// already have been evaluated (Evaluate); it re-ranks their findings and
// re-sums their diagnosis.
func EvaluateSiblings(bs []*contract.Backend, cmp *contract.Comparison, kin Kinship) {
	k := newKin(kin)
	// A profile_only backend's findings are priced on guessed kinds and
	// its layers' precisions are unknown: whether a faster sibling's gain
	// is a fix or an accuracy trade-off cannot be told, so it takes no
	// sibling_delta and gives none (compare states the measured
	// difference). Two prices it does take: when its build facts state an
	// FP32 build, its fp32_engine finding takes the measured difference to
	// a sibling whose facts allow reduced precision (priceFP32BySibling);
	// and a faster sibling bounds its Q/DQ placement estimate from above,
	// as it does with layer info.
	var priced, guessed []*contract.Backend
	for _, b := range bs {
		if b.Validation.AnalysisMode == contract.ModeProfileOnly {
			guessed = append(guessed, b)
		} else {
			priced = append(priced, b)
		}
	}
	for _, b := range guessed {
		if b.Diagnosis == nil || b.Diagnosis.ReferenceMs <= 0 {
			continue
		}
		priceFP32BySibling(b, bs, k, false)
		if s, ok := bestSibling(b, bs, k); ok {
			say, delta := siblingGain(b, s)
			for i := range b.Issues {
				if f := &b.Issues[i]; f.ID == "qdq_placement" {
					boundBySibling(f, say, delta, b.Diagnosis.ReferenceMs)
				}
			}
		}
		rank(b.Issues)
		resum(b)
	}
	bs = priced
	for _, b := range bs {
		if b.Diagnosis == nil || b.Diagnosis.ReferenceMs <= 0 {
			continue
		}
		corroborateFusion(b, bs, k)
		noteStrangers(b, bs, k)
		notePredictedKin(b, bs, k)
		s, ok := bestSibling(b, bs, k)
		if !ok {
			// An FP32 build whose only faster sibling of the same work is
			// profile_only with an FP16 build: its measured time prices
			// fp32_engine (the sibling's build facts say FP16), nothing
			// else (its precisions are unknown, so no sibling_delta).
			if priceFP32BySibling(b, append([]*contract.Backend{b}, guessed...), k, true) {
				rank(b.Issues)
				resum(b)
			}
			continue
		}
		applySibling(b, s, pairOf(cmp, s.b.Label, b.Label))
		rank(b.Issues)
		resum(b)
	}
}

func bestSibling(b *contract.Backend, bs []*contract.Backend, k *kin) (sibling, bool) {
	fp32 := isFP32Build(b)
	var best sibling
	found := false
	for _, o := range bs {
		if o == b || o.Diagnosis == nil || o.Diagnosis.ReferenceMs <= 0 {
			continue
		}
		if ok, _ := k.related(b, o); !ok {
			continue
		}
		s, ok := shared(b, o)
		if !ok || s.their >= s.mine*(1-limits.siblingMinGainPct/100) {
			continue
		}
		if s.cross && s.mine/s.their < limits.siblingCrossMeasureRatio {
			continue
		}
		// An FP32 build is compared with an FP16/BF16 sibling first: that
		// is the step --fp16 takes, without calibration.
		better := !found || s.their/s.mine < best.their/best.mine
		if fp32 && found {
			if half(o) != half(best.b) {
				better = half(o)
			}
		}
		if better {
			best, found = s, true
		}
	}
	return best, found
}

// shared puts two backends on one measure: measured GPU time when both have
// it; else their profiled layer sums (marked cross when the profilers differ).
// A layer_only backend has neither: its times are the cost model's
// predictions, which price its findings already (notePredictedKin says so).
func shared(b, o *contract.Backend) (sibling, bool) {
	db, do := b.Diagnosis, o.Diagnosis
	if db.ReferenceSource == RefPredicted || do.ReferenceSource == RefPredicted {
		return sibling{}, false
	}
	if db.ReferenceSource != RefLayerSum && db.ReferenceSource == do.ReferenceSource {
		return sibling{b: o, mine: db.ReferenceMs, their: do.ReferenceMs, measure: "measured " + humanSource(db.ReferenceSource)}, true
	}
	if db.LayerSumMs <= 0 || do.LayerSumMs <= 0 {
		return sibling{}, false
	}
	return sibling{b: o, mine: db.LayerSumMs, their: do.LayerSumMs, measure: "profiled layer sum", cross: b.ProfileKind != o.ProfileKind}, true
}

func humanSource(s string) string {
	switch s {
	case RefGPUComputeMedian:
		return "GPU compute time"
	case RefLatencyMedian:
		return "latency"
	}
	return "layer sum"
}

// sameInputs: both builds take the same input shapes (when both know them).
func sameInputs(a, b *contract.Backend) bool {
	ai, bi := a.Model.InputShapes, b.Model.InputShapes
	if len(ai) == 0 || len(bi) == 0 {
		return true
	}
	if len(ai) != len(bi) {
		return false
	}
	for i := range ai {
		if !slices.Equal(ai[i].Dimensions, bi[i].Dimensions) {
			return false
		}
	}
	return true
}

func isFP32Build(b *contract.Backend) bool {
	for i := range b.Issues {
		if b.Issues[i].ID == "fp32_engine" {
			return true
		}
	}
	return false
}

// half: the build computes mostly in FP16/BF16 (from its precision
// breakdown), or, when its layers' precisions are unknown (profile_only),
// its build facts allow FP16/BF16.
func half(b *contract.Backend) bool {
	best, bestMs := "", 0.0
	for _, p := range b.PrecisionBreakdown {
		if p.TimeMs > bestMs {
			best, bestMs = p.Name, p.TimeMs
		}
	}
	if precisionRank(best) == 0 {
		bp, ok := layerfacts.BuildPrecision(b.Build)
		return ok && bp.Half
	}
	return best == "FP16" || best == "BF16"
}

// pairOf is the comparison pair of b against baseline a, nil when the
// folder's comparison has none.
func pairOf(cmp *contract.Comparison, a, b string) *contract.ComparisonPair {
	if cmp == nil {
		return nil
	}
	for i := range cmp.Pairs {
		if p := &cmp.Pairs[i]; p.A == a && p.B == b {
			return p
		}
	}
	return nil
}

// siblingGain says how much faster the sibling is and gives the
// difference on this backend's reference (ms).
func siblingGain(b *contract.Backend, s sibling) (say string, delta float64) {
	gain := (s.mine - s.their) / s.mine
	say = fmt.Sprintf("The %q build in this folder takes %.4f ms vs %.4f ms here (%s): %.0f%% faster.", s.b.Label, s.their, s.mine, s.measure, gain*100)
	if s.cross {
		say += " The two profiles come from different profilers, so only a difference this large counts."
	}
	return say, gain * b.Diagnosis.ReferenceMs
}

// boundBySibling bounds a root cause's price by a faster sibling's
// measured difference: a measured sibling shows how far its fix can go,
// so the estimate is quoted beside it, the range reaches it and none of
// it exceeds it (rules.go: the sibling bounds it from above).
func boundBySibling(f *contract.Finding, say string, delta, ref float64) {
	f.Evidence = append(f.Evidence, fmt.Sprintf("%s This estimate: %.4f ms (%.1f%%).", say, f.RecoverableMs, f.RecoverableShare))
	bound := round(min(ref, delta), 6)
	f.Metrics[MetricSiblingBound] = bound
	if f.RecoverableMs > bound {
		f.Evidence = append(f.Evidence, fmt.Sprintf("The estimate is capped at the sibling's measured difference, %.4f ms.", bound))
	}
	f.RecoverableLowMs, f.RecoverableMs = min(f.RecoverableLowMs, bound), min(f.RecoverableMs, bound)
	f.RecoverableHighMs = bound
	reshare(f, ref)
}

func applySibling(b *contract.Backend, s sibling, pair *contract.ComparisonPair) {
	d := b.Diagnosis
	gain := (s.mine - s.their) / s.mine
	say, delta := siblingGain(b, s)
	for i := range b.Issues {
		f := &b.Issues[i]
		if f.ID == "fp32_engine" && half(s.b) {
			fp32BySibling(f, b, s)
			return
		}
	}
	// The difference holds the fixes of this build's findings that the
	// sibling fixed, not of those it pays for too (see
	// limits.siblingSharedRatio). Up to the fixed findings' high prices,
	// what the difference holds beyond their estimates is those estimates'
	// error, not another cause.
	explained, slack := 0.0, 0.0
	scale := d.ReferenceMs / s.mine // the sibling's prices in this backend's units
	for i := range b.Issues {
		f := &b.Issues[i]
		if theirs, ok := candidateMs(s.b, f.ID); !ok || theirs*scale < limits.siblingSharedRatio*f.RecoverableMs {
			explained += f.RecoverableMs
			slack += f.RecoverableHighMs - f.RecoverableMs
		}
		if f := &b.Issues[i]; f.ID == "qdq_placement" {
			boundBySibling(f, say, delta, d.ReferenceMs)
		}
	}
	rest := delta - explained
	if rest <= slack || rest/d.ReferenceMs*100 < limits.minFindingPct {
		return
	}
	conf := contract.ConfidenceMedium
	narrower := precisionRank(dominant(s.b)) < precisionRank(dominant(b))
	if narrower {
		conf = contract.ConfidenceLow // a narrower build: needs calibration or QAT, and accuracy checks
	}
	f := contract.Finding{ID: "sibling_delta", Confidence: conf,
		Title:       fmt.Sprintf("The %s build in this folder is %.0f%% faster (measured)", s.b.Label, gain*100),
		PriceBasis:  "sibling_measured",
		PriceFactor: fmt.Sprintf("measured difference %.4f ms (on the reference) minus %.4f ms already priced by this backend's other findings that the sibling does not share", delta, explained),
		Evidence:    []string{say, siblingDiff(b, s.b)},
		Metrics:     map[string]float64{"sibling_ms": round(s.their, 6), "own_ms": round(s.mine, 6), "sibling_gain_pct": round(gain*100, 3), "explained_ms": round(explained, 6)},
		Layers:      []int{},
		Action:      fmt.Sprintf("Build this model the way %q was built (see the differences above), or use that build.", s.b.Label),
		NextCheck:   fmt.Sprintf("Run trtperf compare on the two backends (this one and %s) to see which layers make the difference.", s.b.Label),
	}
	if narrower {
		// A trade-off, not a defect of this build: ranked after the fixes
		// that keep its numerics (weight).
		f.Metrics[MetricAccuracyTradeoff] = 1
		f.Title = fmt.Sprintf("The %s build in this folder is %.0f%% faster (measured) by running %s: an accuracy trade-off", s.b.Label, gain*100, dominant(s.b))
		f.Action = fmt.Sprintf("If %s accuracy is acceptable for this model, build it the way %q was built%s, or use that build; fix this build's own findings first.", dominant(s.b), s.b.Label, narrowingHow(dominant(s.b)))
		f.NextCheck = fmt.Sprintf("Check %q's accuracy on your validation set, then run trtperf compare on the two backends (this one and %s) to see which layers make the difference.", s.b.Label, s.b.Label)
	}
	if pair != nil && len(pair.Reasons) > 0 {
		// The aligned comparison names where the difference is; the other
		// findings price some of it, this finding the rest.
		rs := pair.Reasons[:min(3, len(pair.Reasons))]
		f.Evidence = append(f.Evidence, fmt.Sprintf("Where the difference is (aligned layers, %s): %s.", strings.ReplaceAll(pair.Measure, "_", " "), strings.Join(rs, "; ")))
	}
	f.RecoverableLowMs, f.RecoverableMs, f.RecoverableHighMs = round(rest*0.8, 6), round(rest, 6), round(rest, 6)
	reshare(&f, d.ReferenceMs)
	b.Issues = append(b.Issues, f)
}

// fp32BySibling prices an fp32_engine finding on the measured difference
// to a reduced-precision sibling build.
func fp32BySibling(f *contract.Finding, b *contract.Backend, s sibling) {
	d := b.Diagnosis
	gain := (s.mine - s.their) / s.mine
	say, delta := siblingGain(b, s)
	f.RecoverableLowMs, f.RecoverableMs, f.RecoverableHighMs = round(delta*0.9, 6), round(delta, 6), round(min(d.ReferenceMs, delta*1.1), 6)
	f.PriceBasis = "sibling_measured"
	f.PriceFactor = fmt.Sprintf("measured difference to the %q sibling build: (%.4f − %.4f) / %.4f × reference %.4f ms", s.b.Label, s.mine, s.their, s.mine, d.ReferenceMs)
	f.Title = fmt.Sprintf("Built without reduced precision: the %s build in this folder is %.0f%% faster", s.b.Label, gain*100)
	f.Evidence = append([]string{say}, f.Evidence...)
	f.Metrics["sibling_gain_pct"] = round(gain*100, 3)
	reshare(f, d.ReferenceMs)
}

// narrowingHow says how a build reaches precision p: integer and 8-bit or
// narrower float precisions (INT8, FP8, INT4, FP4) need scales —
// calibration or quantization-aware training; FP16 and BF16 need neither,
// only the builder's precision flag or a model exported in it.
func narrowingHow(p string) string {
	switch r := precisionRank(p); {
	case r == 1 || r == 2:
		return " (calibration or quantization-aware training)"
	case r == 3:
		return " (the " + p + " builder flag, or a model exported in " + p + ": no calibration needed)"
	}
	return ""
}

// MetricSiblingBound is the issues[].metrics key of the measured
// difference to a faster sibling build that bounds a finding's price from
// above (recoverable_ms and recoverable_high_ms never exceed it).
const MetricSiblingBound = "sibling_bound_ms"

func reshare(f *contract.Finding, ref float64) {
	f.RecoverableShare = round(min(100, f.RecoverableMs/ref*100), 3)
	f.Score = round(min(1, f.RecoverableShare/100*weight(f)), 4)
}

// dominant is the precision carrying the most time of a backend.
func dominant(b *contract.Backend) string {
	best, bestMs := "", 0.0
	for _, p := range b.PrecisionBreakdown {
		if p.TimeMs > bestMs && precisionRank(p.Name) > 0 {
			best, bestMs = p.Name, p.TimeMs
		}
	}
	return best
}

// siblingDiff says in one sentence how the two builds differ.
func siblingDiff(b, o *contract.Backend) string {
	count := func(x *contract.Backend, raw string) int {
		n := 0
		for i := range x.Records {
			if x.Records[i].RawLayerType == raw && x.Records[i].AvgMs > 0 {
				n++
			}
		}
		return n
	}
	return fmt.Sprintf("Here: %d timed layers, mostly %s, %d reformats; %s: %d timed layers, mostly %s, %d reformats.",
		timed(b), dominant(b), count(b, "Reformat"), o.Label, timed(o), dominant(o), count(o, "Reformat"))
}

func timed(b *contract.Backend) int {
	n := 0
	for i := range b.Records {
		if b.Records[i].AvgMs > 0 {
			n++
		}
	}
	return n
}

// resum recomputes a backend's diagnosis totals from its findings.
func resum(b *contract.Backend) {
	d := b.Diagnosis
	sum := 0.0
	for i := range b.Issues {
		sum += b.Issues[i].RecoverableMs
	}
	d.RecoverableMs = round(min(sum, d.ReferenceMs), 6)
	d.RecoverableShare = round(min(100, d.RecoverableMs/d.ReferenceMs*100), 3)
}

// corroborateFusion adds to an unfused_epilogue finding the sibling builds
// of the same model whose activations are all fused (no such finding, not
// even an unscored one): evidence that the fusion is possible, whatever
// the two profilers measure.
func corroborateFusion(b *contract.Backend, bs []*contract.Backend, k *kin) {
	i := slices.IndexFunc(b.Issues, func(f contract.Finding) bool { return f.ID == "unfused_epilogue" })
	if i < 0 {
		return
	}
	f := &b.Issues[i]
	for _, o := range bs {
		if o == b || o.Diagnosis == nil || o.Validation.Status != contract.StatusPassed || hasCandidate(o, "unfused_epilogue") {
			continue
		}
		if ok, _ := k.related(b, o); !ok {
			continue
		}
		sum := "layer sum"
		if b.Diagnosis.ReferenceSource == RefPredicted || o.Diagnosis.ReferenceSource == RefPredicted {
			sum = "layer sum, predicted where there is no profile,"
		}
		say := fmt.Sprintf("The %q build of the same model in this folder runs no activation alone after its convolutions/GEMMs: TensorRT fused them there (its %s %.4f ms vs %.4f ms here", o.Label, sum, o.Diagnosis.LayerSumMs, b.Diagnosis.LayerSumMs)
		if b.ProfileKind != o.ProfileKind {
			say += ", measured by a different profiler"
		}
		f.Evidence = append(f.Evidence, say+").")
	}
}

// hasCandidate: the backend has a finding with the id, scored or listed as
// a minor item.
func hasCandidate(b *contract.Backend, id string) bool {
	_, ok := candidateMs(b, id)
	return ok
}

// candidateMs is the price of b's finding id, scored or listed as a minor
// item; ok is false when b has none.
func candidateMs(b *contract.Backend, id string) (ms float64, ok bool) {
	if i := slices.IndexFunc(b.Issues, func(f contract.Finding) bool { return f.ID == id }); i >= 0 {
		return b.Issues[i].RecoverableMs, true
	}
	for _, o := range b.Overview {
		if ms, ok := o.Metrics[id+"_ms"]; ok && o.ID == contract.OverviewMinorItems {
			return ms, true
		}
	}
	return 0, false
}
