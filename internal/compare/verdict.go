package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/costmodel"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// Noise floors: even a perfectly repeated run of the same engine moves
// by about this much (clocks, temperature, other work on the GPU). Sums of
// per-layer profiles move more than measured latency (CUDA-event overhead
// per layer).
const (
	measuredFloorPct = 1.0
	layerSumFloorPct = 2.0
	// fewRunsPct is the noise of a single profiled iteration; it shrinks
	// with the square root of the iterations.
	fewRunsPct = 10.0
)

// noise estimates, per side, how much the chosen measure moves from run
// to run, and combines the two.
func noise(a, b Side, p *contract.ComparisonPair) contract.Noise {
	n := contract.Noise{Basis: []string{}}
	var basis string
	n.APct, basis = sideNoise(a, b, p.Measure)
	n.Basis = append(n.Basis, basis)
	n.BPct, basis = sideNoise(b, a, p.Measure)
	n.Basis = append(n.Basis, basis)
	n.APct, n.BPct = round2(n.APct), round2(n.BPct)
	n.Pct = round2(math.Hypot(n.APct, n.BPct))
	n.Ms = n.Pct / 100 * p.AMs
	return n
}

func sideNoise(s, other Side, measure string) (float64, string) {
	b := s.Backend
	if measure == contract.MeasurePredicted {
		if o := other.Backend.Prediction; b.Prediction.DeviceSource == contract.PredictionDeviceDefault && o != nil && o.Device == b.Prediction.Device {
			// Both sides are predicted for the same assumed GPU: how far
			// its bandwidth, peaks and floor are from the real GPU's moves
			// both alike, so each side's error is the model's on a GPU it
			// knows.
			return costmodel.ErrorPct, fmt.Sprintf("%s: the cost model's median error on a known GPU, %.0f %% (both sides are predicted for the same assumed %s, which moves them alike)", s.Name, costmodel.ErrorPct, b.Prediction.Device)
		}
		return b.Prediction.ErrorPct, fmt.Sprintf("%s: the cost model's median error, %.0f %%", s.Name, b.Prediction.ErrorPct)
	}
	if measure != contract.MeasureLayerSum {
		if pct, basis, ok := measuredNoise(s, measure); ok {
			return pct, basis
		}
	}
	iters := int64(1)
	if b.Count != nil && *b.Count > 0 {
		iters = *b.Count
	}
	pct := max(layerSumFloorPct, fewRunsPct/math.Sqrt(float64(iters)))
	text := fmt.Sprintf("%s: %d profiled iterations", s.Name, iters)
	if t := b.Timing; t.MedianInferenceMs != nil && t.AverageInferenceMs > 0 {
		skew := math.Abs(t.AverageInferenceMs-*t.MedianInferenceMs) / t.AverageInferenceMs * 100
		pct = max(pct, skew)
		text += fmt.Sprintf(", layer means %.1f %% from layer medians", skew)
	}
	return pct, text
}

func verdict(p *contract.ComparisonPair) string {
	switch {
	case math.Abs(p.DeltaPct) <= p.Noise.Pct && p.SameEngine:
		return contract.VerdictSameEngine
	case math.Abs(p.DeltaPct) <= p.Noise.Pct:
		return contract.VerdictWithinNoise
	case p.DeltaMs < 0:
		return contract.VerdictBFaster
	}
	return contract.VerdictBSlower
}

// FailAbove reports whether B is slower than A by more than pct percent
// beyond the noise (for `compare --fail-above`).
func FailAbove(p *contract.ComparisonPair, pct float64) bool {
	return p.DeltaPct-p.Noise.Pct > pct
}

type reason struct {
	text string
	ms   float64 // share of delta_ms (B − A)
}

// reasons names where the difference comes from, largest first: layers
// on one side only, precision and tensor-core changes, different fusion,
// tactic changes, and what is left on layers built the same way.
func (v *pairView) reasons(aName, bName, measure string) []string {
	var rs []reason
	type agg struct {
		n  int
		ms float64
	}
	groups := map[string]*agg{}
	var order []string
	add := func(k string, n int, ms float64) {
		g := groups[k]
		if g == nil {
			g = &agg{}
			groups[k] = g
			order = append(order, k)
		}
		g.n += n
		g.ms += ms
	}
	var fused []row
	for _, r := range v.rowsAll {
		d := r.bMs - r.aMs
		switch r.kind {
		case "only_a", "only_b":
			s, idx, ms, who, other := v.al.A, r.g.a, v.msA, aName, bName
			sign := -1.0
			if r.kind == "only_b" {
				s, idx, ms, who, other, sign = v.al.B, r.g.b, v.msB, bName, aName, 1
			}
			for _, i := range idx {
				what := s.recs[i].LayerType + " layers"
				switch s.recs[i].LayerType {
				case layerfacts.KindDLATransfer:
					what = "DLA hand-over and wait records (the DLA's run time as the GPU waits for it)"
				case layerfacts.KindDLA:
					what = "DLA subgraph records"
				}
				switch overheadKind(&s.recs[i]) {
				case "qdq":
					what = "standalone Q/DQ layers"
				case "reformat":
					what = "reformat/copy layers"
				}
				add(fmt.Sprintf("%%d %s run in %s only, not in %s", what, who, other), 1, sign*ms[i])
			}
		case "split", "merged", "regrouped":
			fused = append(fused, r)
		case "matched":
			pa, pb := v.al.A.recs[r.g.a[0]].Precision, v.al.B.recs[r.g.b[0]].Precision
			unknown := pa == "unknown" || pb == "unknown" || pa == ""
			switch {
			case unknown:
				// A side without detailed layer info (profile_only, or
				// predicted records): how the layers were built is unknown,
				// unless both builds' facts state their precisions.
				if note, ok := buildFactsNote(v, aName, bName); ok {
					add("%d matched layers take different time — "+note, 1, d)
					break
				}
				add("%d matched layers (build unknown without detailed layer info) take different time", 1, d)
			case r.chg.precision:
				ra, rb := &v.al.A.recs[r.g.a[0]], &v.al.B.recs[r.g.b[0]]
				add(fmt.Sprintf("%%d matched layers run %s in %s and %s in %s", ra.Precision, aName, rb.Precision, bName)+buildNote(v, aName, bName), 1, d)
			case r.chg.tensorCore:
				ra, rb := &v.al.A.recs[r.g.a[0]], &v.al.B.recs[r.g.b[0]]
				from, to := coreName(ra.TensorCore), coreName(rb.TensorCore)
				add(fmt.Sprintf("%%d matched layers move from %s to %s", from, to), 1, d)
			case r.chg.tactic:
				ra, rb := &v.al.A.recs[r.g.a[0]], &v.al.B.recs[r.g.b[0]]
				add(fmt.Sprintf("%%d matched layers change tactic family (%s → %s)", familyName(ra.TacticFamily), familyName(rb.TacticFamily)), 1, d)
			case r.chg.format:
				add("%d matched layers write another output format", 1, d)
			case measure == contract.MeasurePredicted:
				// Same build facts: the cost model sees other shapes or
				// bytes, not a measured difference.
				add("%d matched layers built the same way are predicted to take different time (other shapes or bytes)", 1, d)
			default:
				add("%d matched layers built the same way take different time", 1, d)
			}
		}
	}
	for _, k := range order {
		g := groups[k]
		rs = append(rs, reason{text: fmt.Sprintf(k, g.n), ms: g.ms})
	}
	// The groups fused differently: the largest named one by one, the rest
	// together.
	slices.SortStableFunc(fused, func(x, y row) int { return cmp.Compare(math.Abs(y.bMs-y.aMs), math.Abs(x.bMs-x.aMs)) })
	rest := reason{}
	for k, r := range fused {
		if k < 3 {
			da, db := describe(v.al.A, r.g.a), describe(v.al.B, r.g.b)
			text := fmt.Sprintf("%s is fused differently: %s runs %s, %s runs %s", summaryName(v.al.A.recs[r.g.a[0]].Name), aName, da, bName, db)
			if da == db {
				text = fmt.Sprintf("%s and its neighbours are fused differently: the same kernels (%s) with the ops spread over them another way", summaryName(v.al.A.recs[r.g.a[0]].Name), da)
			}
			rs = append(rs, reason{ms: r.bMs - r.aMs, text: text})
			continue
		}
		rest.ms += r.bMs - r.aMs
		rest.text = fmt.Sprintf("%d more groups of layers are fused differently", len(fused)-3)
	}
	if rest.text != "" {
		rs = append(rs, rest)
	}
	slices.SortStableFunc(rs, func(x, y reason) int { return cmp.Compare(math.Abs(y.ms), math.Abs(x.ms)) })
	out := []string{}
	for _, r := range rs {
		if len(out) == 5 || math.Abs(r.ms) < 5e-5 {
			break
		}
		out = append(out, fmt.Sprintf("%s (%+.4f ms)", r.text, r.ms))
	}
	return out
}

func summarize(p *contract.ComparisonPair) string {
	on := measureWords(p.Measure)
	// Two predictions differ by more than chance only beyond the cost
	// model's error, which is what Noise holds for them (sideNoise).
	noise := "noise"
	if p.Measure == contract.MeasurePredicted {
		noise = "the model's error"
	}
	why := ""
	if len(p.Reasons) > 0 {
		why = "; largest difference: " + p.Reasons[0]
	}
	switch p.Verdict {
	case contract.VerdictSameEngine:
		return fmt.Sprintf("Same engine: %s and %s have the same layers, tactics and formats; the difference (%+.1f %% %s) is run-to-run noise (±%.1f %%).",
			p.A, p.B, p.DeltaPct, on, p.Noise.Pct)
	case contract.VerdictWithinNoise:
		return fmt.Sprintf("%s and %s are equally fast within %s (%+.1f %% %s, %s ±%.1f %%)%s.",
			p.B, p.A, noise, p.DeltaPct, on, noise, p.Noise.Pct, why)
	}
	// "1.59× slower" is b_time_ratio; "1.36× faster" its inverse.
	dir, f := "slower", p.BTimeRatio
	if p.Verdict != contract.VerdictBSlower {
		dir = "faster"
		if p.BTimeRatio > 0 {
			f = 1 / p.BTimeRatio
		}
	}
	same := ""
	if p.SameEngine {
		same = " although the engines are the same (the GPU ran differently: clocks, load)"
	}
	return fmt.Sprintf("%s is %.2f× %s than %s (%+.4f ms, %+.1f %% %s, beyond %s ±%.1f %%)%s%s.",
		p.B, f, dir, p.A, p.DeltaMs, p.DeltaPct, on, noise, p.Noise.Pct, same, why)
}

func measureWords(m string) string {
	switch m {
	case contract.MeasureGPUCompute:
		return "in measured GPU compute time"
	case contract.MeasureEndToEnd:
		return "in measured " + contract.HostLatencyWords
	case contract.MeasurePredicted:
		return "in PREDICTED layer sums (cost model, not measured)"
	}
	return "in summed layer times"
}

// describe lists what a group's layers are: "2 layers (CaskConvolution INT8
// on CUDA cores, TiledPooling FP32)".
func describe(s *side, idx []int) string {
	parts := []string{}
	count := map[string]int{}
	for _, i := range idx {
		r := &s.recs[i]
		p := r.LayerType + " " + r.Precision
		if slices.Contains(r.Tags, layerfacts.TagConv) || slices.Contains(r.Tags, layerfacts.TagGemm) {
			p += " on " + coreName(r.TensorCore)
			if r.TacticFamily != "" && r.TacticFamily != "none" {
				p += " (" + r.TacticFamily + ")"
			}
		}
		if count[p] == 0 {
			parts = append(parts, p)
		}
		count[p]++
	}
	for k, p := range parts {
		if count[p] > 1 {
			parts[k] = fmt.Sprintf("%d× %s", count[p], p)
		}
	}
	if len(parts) > 3 {
		parts = append(parts[:3], "…")
	}
	n := "1 layer"
	if len(idx) != 1 {
		n = fmt.Sprintf("%d layers", len(idx))
	}
	return n + " (" + strings.Join(parts, ", ") + ")"
}

func summaryName(n string) string {
	const max = 60
	if len([]rune(n)) <= max {
		return strconv.Quote(n)
	}
	return strconv.Quote(string([]rune(n)[:max-1]) + "…")
}

// buildNote says which side is built for which precision when most of the
// compute time of the two sides runs in different precisions.
func buildNote(v *pairView, aName, bName string) string {
	pa, pb := dominantPrecision(v.al.A, v.msA), dominantPrecision(v.al.B, v.msB)
	if pa == "" || pb == "" || pa == pb {
		return ""
	}
	return fmt.Sprintf(" — %s is %s build and %s %s build (precision of most compute time)", aName, article(pa), bName, article(pb))
}

// buildFactsNote says how the two builds were built when both sides'
// build facts state their precision sets (layerfacts.BuildPrecision: a
// build log's or TREx build metadata's "Precision", never a --loadEngine
// run's defaults): "fp32 is an FP32 build, fp16 an FP16 build (from build
// metadata)". ok is false when either is unknown.
func buildFactsNote(v *pairView, aName, bName string) (string, bool) {
	pa, okA := layerfacts.BuildPrecision(v.al.A.b.Build)
	pb, okB := layerfacts.BuildPrecision(v.al.B.b.Build)
	if !okA || !okB {
		return "", false
	}
	logs := 0
	for _, e := range []string{pa.Evidence, pb.Evidence} {
		if strings.Contains(e, " line ") {
			logs++
		}
	}
	from := "build metadata"
	switch logs {
	case 2:
		from = "the build logs"
	case 1:
		from = "build metadata and a build log"
	}
	if pa.Narrowest == pb.Narrowest {
		return fmt.Sprintf("%s and %s are both %s builds (from %s)", bName, aName, pa.Narrowest, from), true
	}
	return fmt.Sprintf("%s is %s, %s %s (from %s)", bName, pb.Describe(), aName, pa.Describe(), from), true
}

// dominantPrecision is the precision of most compute-layer time.
func dominantPrecision(s *side, ms []float64) string {
	t := map[string]float64{}
	total := 0.0
	for i := range s.recs {
		if isCompute(&s.recs[i]) {
			t[s.recs[i].Precision] += ms[i]
			total += ms[i]
		}
	}
	best, bestMs := "", 0.0
	for p, m := range t {
		if m > bestMs || m == bestMs && p < best {
			best, bestMs = p, m
		}
	}
	if total == 0 || bestMs < 0.5*total {
		return ""
	}
	return best
}

// article puts "a" or "an" before a precision name: "an FP16", "a BF16".
func article(w string) string {
	if w != "" && strings.ContainsRune("AEFHILMNORSX", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

// measuredNoise is the noise of a measured median: its spread (p90 over
// the median, else 1.28 × the coefficient of variation), at least
// measuredFloorPct, larger when there are few samples.
func measuredNoise(s Side, measure string) (float64, string, bool) {
	t := s.Backend.Timing
	var median, p90 float64
	var cv *float64
	samples, source := 0, ""
	what := "GPU compute"
	switch {
	case t.Measured != nil:
		st := t.Measured.GPUComputeMs
		if measure == contract.MeasureEndToEnd {
			st, what = t.Measured.LatencyMs, "latency"
		}
		median, p90, cv = deref(st.Median), deref(st.P90), t.Measured.CV
		if t.Measured.Samples != nil {
			samples = *t.Measured.Samples
		}
		source = t.Measured.Source.Kind
	case t.EndToEnd != nil:
		median, p90, samples, source, what = t.EndToEnd.MedianMs, t.EndToEnd.P90Ms, t.EndToEnd.Iterations, "export_times", "latency"
	default:
		return 0, "", false
	}
	if median <= 0 {
		return 0, "", false
	}
	spread, how := 0.0, "no spread recorded"
	switch {
	case p90 > 0:
		spread, how = (p90-median)/median*100, fmt.Sprintf("%s p90 %+.1f %% over the median", what, (p90-median)/median*100)
	case cv != nil:
		spread, how = 1.28**cv*100, fmt.Sprintf("%s cv %.1f %%", what, *cv*100)
	}
	pct := max(measuredFloorPct, spread)
	n := "an unknown number of"
	if samples > 0 {
		n = strconv.Itoa(samples)
		if samples < 10 {
			pct *= math.Sqrt(10 / float64(samples))
		}
	}
	return pct, fmt.Sprintf("%s: %s measured inferences (%s), %s", s.Name, n, source, how), true
}
