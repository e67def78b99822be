package contract

import (
	"math"
	"strconv"
)

// Semantic rules of the comparison section:
//   - the baseline and both sides of every pair are backends with
//     comparable timing (WhyNotComparable); every pair's a is the baseline
//     and no b repeats;
//   - delta_ms = b_ms − a_ms, delta_pct and b_time_ratio agree with them; on
//     layer_sum, a_ms and b_ms are the sides' sums of layer averages and the
//     scales are 1;
//   - by_type, by_precision and by_region each sum to a_ms, b_ms and
//     delta_ms and count every record; the listed rows plus
//     rows_omitted_delta_ms sum to delta_ms;
//   - rows reference existing layers; the alignment's counts fit the record
//     counts; the verdict agrees with delta_pct, the noise and same_engine.
func (c *checker) comparison(d *AnalyzeData, labels map[string]int) {
	cmp := d.Comparison
	usable := func(ptr, label string) *Backend {
		i, ok := labels[label]
		if !ok {
			c.add(ptr, "%q is not a backend label of results", label)
			return nil
		}
		b := &d.Results[i]
		if why := WhyNotComparable(b); why != "" {
			c.add(ptr, "backend %q cannot be compared: %s", label, why)
			return nil
		}
		return b
	}
	usable("/comparison/baseline", cmp.Baseline)
	seen := map[string]bool{}
	for i := range cmp.Pairs {
		p := &cmp.Pairs[i]
		ptr := "/comparison/pairs/" + strconv.Itoa(i)
		if p.A != cmp.Baseline {
			c.add(ptr+"/a", "a is %q but the baseline is %q", p.A, cmp.Baseline)
		}
		if p.B == p.A || seen[p.B] {
			c.add(ptr+"/b", "b %q repeats the baseline or another pair", p.B)
		}
		seen[p.B] = true
		a, b := usable(ptr+"/a", p.A), usable(ptr+"/b", p.B)
		c.pair(ptr, p, a, b)
	}
}

func (c *checker) pair(ptr string, p *ComparisonPair, a, b *Backend) {
	if !near(p.DeltaMs, p.BMs-p.AMs, relTol) {
		c.add(ptr+"/delta_ms", "delta_ms %g is not b_ms − a_ms (%g)", p.DeltaMs, p.BMs-p.AMs)
	}
	if p.AMs > 0 && !near(p.DeltaPct, p.DeltaMs/p.AMs*100, relTol) {
		c.add(ptr+"/delta_pct", "delta_pct %g is not delta_ms / a_ms × 100 (%g)", p.DeltaPct, p.DeltaMs/p.AMs*100)
	}
	if p.AMs > 0 && !near(p.BTimeRatio, p.BMs/p.AMs, relTol) {
		c.add(ptr+"/b_time_ratio", "b_time_ratio %g is not b_ms / a_ms (%g)", p.BTimeRatio, p.BMs/p.AMs)
	}
	for _, s := range []*Backend{a, b} {
		if s != nil && s.Validation.AnalysisMode == ModeMeasuredOnly && p.Measure != MeasureGPUCompute && p.Measure != MeasureEndToEnd {
			c.add(ptr+"/measure", "backend %s has measured time only, so the pair's measure must be gpu_compute or end_to_end, not %s", s.Label, p.Measure)
		}
	}
	if a != nil && b != nil && p.Measure == MeasureLayerSum {
		if !near(p.AMs, a.Timing.AverageInferenceMs, relTol) || !near(p.BMs, b.Timing.AverageInferenceMs, relTol) {
			c.add(ptr+"/a_ms", "on layer_sum a_ms/b_ms (%g/%g) must be the backends' average_inference_ms (%g/%g)", p.AMs, p.BMs, a.Timing.AverageInferenceMs, b.Timing.AverageInferenceMs)
		}
		if p.AScale != 1 || p.BScale != 1 {
			c.add(ptr+"/a_scale", "on layer_sum the scales must be 1 (got %g, %g)", p.AScale, p.BScale)
		}
	}
	// Two different models keep only their totals: no rows, no breakdowns,
	// every aligned group counted as omitted.
	// So do pairs with a side of measured time only (no records).
	endToEnd := len(p.Rows) == 0 && (p.RowsOmitted > 0 || p.Alignment.ALayers == 0 || p.Alignment.BLayers == 0) && len(p.ByType)+len(p.ByPrec)+len(p.ByRegion) == 0
	for _, g := range []struct {
		name string
		rows []GroupDelta
	}{{"by_type", p.ByType}, {"by_precision", p.ByPrec}, {"by_region", p.ByRegion}} {
		if endToEnd {
			break
		}
		var am, bm, dm float64
		var an, bn int
		for _, r := range g.rows {
			am, bm, dm = am+r.AMs, bm+r.BMs, dm+r.DeltaMs
			an, bn = an+r.ACount, bn+r.BCount
		}
		if !nearAbs(am, p.AMs) || !nearAbs(bm, p.BMs) || !nearAbs(dm, p.DeltaMs) {
			c.add(ptr+"/"+g.name, "rows sum to a %g, b %g, delta %g; the pair says %g, %g, %g", am, bm, dm, p.AMs, p.BMs, p.DeltaMs)
		}
		if an != p.Alignment.ALayers || bn != p.Alignment.BLayers {
			c.add(ptr+"/"+g.name, "rows count %d and %d layers; the alignment says %d and %d", an, bn, p.Alignment.ALayers, p.Alignment.BLayers)
		}
	}
	sum := p.RowsOmittedDeltaMs
	for k, r := range p.Rows {
		sum += r.DeltaMs
		rp := ptr + "/rows/" + strconv.Itoa(k)
		if !nearAbs(r.DeltaMs, r.BMs-r.AMs) {
			c.add(rp+"/delta_ms", "delta_ms %g is not b_ms − a_ms", r.DeltaMs)
		}
		for _, s := range []struct {
			name string
			idx  []int
			b    *Backend
		}{{"a_layers", r.ALayers, a}, {"b_layers", r.BLayers, b}} {
			for _, l := range s.idx {
				if s.b != nil && (l < 0 || l >= len(s.b.Layers)) {
					c.add(rp+"/"+s.name, "layer %d is out of range (%d layers)", l, len(s.b.Layers))
				}
			}
		}
	}
	if !nearAbs(sum, p.DeltaMs) {
		c.add(ptr+"/rows", "rows plus rows_omitted_delta_ms sum to %g, delta_ms is %g", sum, p.DeltaMs)
	}
	al := &p.Alignment
	if a != nil && b != nil && (al.ALayers != ComparedRecords(a) || al.BLayers != ComparedRecords(b)) {
		c.add(ptr+"/alignment", "a_layers/b_layers %d/%d, the backends have %d/%d records", al.ALayers, al.BLayers, ComparedRecords(a), ComparedRecords(b))
	}
	if al.Matched+al.Split+al.Merged+al.Regrouped+al.OnlyA > al.ALayers || al.Matched+al.Split+al.Merged+al.Regrouped+al.OnlyB > al.BLayers ||
		al.ByName+al.BySourceOp+al.ByStructure+al.OnlyA != al.ALayers {
		c.add(ptr+"/alignment", "group counts do not fit %d and %d layers (stages %d+%d+%d plus %d only in A)", al.ALayers, al.BLayers, al.ByName, al.BySourceOp, al.ByStructure, al.OnlyA)
	}
	if n := al.AComputeLayers + al.BComputeLayers; n > 0 && math.Abs(al.ComputeAlignedPct-float64(al.ComputeAligned)/float64(n)*100) > 0.01 {
		c.add(ptr+"/alignment/compute_aligned_pct", "%g is not compute_aligned / compute layers × 100", al.ComputeAlignedPct)
	}
	within := math.Abs(p.DeltaPct) <= p.Noise.Pct
	want := VerdictWithinNoise
	switch {
	case within && p.SameEngine:
		want = VerdictSameEngine
	case within:
	case p.DeltaMs < 0:
		want = VerdictBFaster
	default:
		want = VerdictBSlower
	}
	if p.Verdict != want {
		c.add(ptr+"/verdict", "verdict %q, but delta %+.2f %% against noise ±%.2f %% (same engine %v) means %q", p.Verdict, p.DeltaPct, p.Noise.Pct, p.SameEngine, want)
	}
}

// nearAbs compares sums of small ms values, which lose precision in the
// last digits when added in another order.
func nearAbs(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9+1e-9*math.Max(math.Abs(a), math.Abs(b))
}
