package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// evalOverview describes where the time goes, unscored: the largest
// layers, the dominant layer type, Myelin regions, tiny kernels and the
// profiling overhead. None of it is a cause a user can change.
func evalOverview(c *evaluation) []contract.OverviewItem {
	out := []contract.OverviewItem{}
	all := c.timed
	if len(all) == 0 {
		return out
	}
	// Largest layers.
	var hot []*contract.Record
	for _, r := range all {
		if c.pct(r.AvgMs) >= limits.hotLayerPct {
			hot = append(hot, r)
		}
	}
	if len(hot) > 0 {
		o := contract.OverviewItem{ID: "largest_layers", Title: fmt.Sprintf("%d layers take at least %.0f%% each", len(hot), limits.hotLayerPct),
			Metrics: map[string]float64{"time_ms": round(sumMs(hot), 6), "share_pct": round(c.pct(sumMs(hot)), 3), "layer_count": float64(len(hot))},
			Layers:  layerIndexes(hot)}
		for i, r := range hot {
			if i == 5 {
				break
			}
			s := fmt.Sprintf("%s: %.2f%% (%.4f ms), %s, %s, tactic %s", short(r.Name), c.pct(r.AvgMs), r.AvgMs, r.LayerType, r.Precision, tacticWords(r))
			if id := c.cause[r.Layer]; id != "" {
				s += " (see finding " + id + ")"
			}
			o.Evidence = append(o.Evidence, s+".")
		}
		out = append(out, o)
	}
	// Dominant type.
	ms := make([]float64, len(c.typeNames))
	for j := range c.tinfo {
		ms[c.tinfo[j].typ] += c.tinfo[j].avg
	}
	best, bestID, bestMs := "", int32(-1), 0.0
	for _, id := range c.typesByName() {
		if ms[id] > bestMs {
			best, bestID, bestMs = c.typeNames[id], id, ms[id]
		}
	}
	if best != "" && c.pct(bestMs) >= limits.hotTypePct {
		var recs []*contract.Record
		for j := range c.tinfo {
			if c.tinfo[j].typ == bestID {
				recs = append(recs, c.timed[j])
			}
		}
		out = append(out, contract.OverviewItem{ID: "dominant_type", Title: fmt.Sprintf("%s layers take %.1f%% of the time", best, c.pct(bestMs)),
			Evidence: []string{fmt.Sprintf("%d %s layers take %.4f ms (%.2f%% of %.4f ms). Largest: %s.", len(recs), best, bestMs, c.pct(bestMs), c.total, c.topNames(recs, 3))},
			Metrics:  map[string]float64{"time_ms": round(bestMs, 6), "share_pct": round(c.pct(bestMs), 3), "layer_count": float64(len(recs))},
			Layers:   layerIndexes(recs)})
	}
	// Myelin regions.
	var myl []*contract.Record
	for _, r := range all {
		if r.RawLayerType == "Myelin" || c.hasTag(r, tgMyelin) {
			myl = append(myl, r)
		}
	}
	if len(myl) > 0 && c.pct(sumMs(myl)) >= 1 {
		// A region is opaque when the profile times it as one "Myelin"
		// layer; a dump that lists Myelin's kernels one by one shows them.
		opaque := 0
		for _, r := range myl {
			if r.RawLayerType == "Myelin" {
				opaque++
			}
		}
		inside := "Their inside is compiled by Myelin; profile with nsys or rebuild with TensorRT 10+ and detailed verbosity to see kernels."
		if opaque == 0 {
			inside = "The dump lists Myelin's kernels one by one, so each is timed and priced on its own."
		}
		out = append(out, contract.OverviewItem{ID: "myelin_regions", Title: fmt.Sprintf("Myelin-compiled layers take %.1f%% of the time", c.pct(sumMs(myl))),
			Evidence: []string{fmt.Sprintf("%d Myelin layers/kernels: %s. %s", len(myl), c.topNames(myl, 3), inside)},
			Metrics:  map[string]float64{"time_ms": round(sumMs(myl), 6), "share_pct": round(c.pct(sumMs(myl)), 3), "layer_count": float64(len(myl))},
			Layers:   layerIndexes(myl)})
	}
	// Tiny kernels: a description; launch_bound is the finding when the
	// host is measured to be the bottleneck.
	var tiny []*contract.Record
	for _, r := range all {
		if r.AvgMs < limits.tinyMs {
			tiny = append(tiny, r)
		}
	}
	if len(tiny) >= 20 {
		out = append(out, contract.OverviewItem{ID: "small_kernels", Title: fmt.Sprintf("%d of %d timed layers run under %.0f µs", len(tiny), len(all), limits.tinyMs*1000),
			Evidence: []string{fmt.Sprintf("Together %.4f ms (%.2f%% of the profile). Small kernels are a cause only when the host cannot launch them fast enough (measured enqueue time close to GPU time).", sumMs(tiny), c.pct(sumMs(tiny)))},
			Metrics:  map[string]float64{"time_ms": round(sumMs(tiny), 6), "share_pct": round(c.pct(sumMs(tiny)), 3), "layer_count": float64(len(tiny))},
			Layers:   []int{}})
	}
	if o, ok := minorItems(c); ok {
		out = append(out, o)
	}
	if o, ok := profilingOverhead(c); ok {
		out = append(out, o)
	}
	return out
}

func tacticWords(r *contract.Record) string {
	if r.Tactic == "" {
		return "none named"
	}
	tc := "tensor cores unknown"
	if r.TensorCore != nil {
		tc = "no tensor cores"
		if *r.TensorCore {
			tc = "tensor cores"
		}
	}
	return fmt.Sprintf("%s (%s)", r.TacticFamily, tc)
}

// minorItems lists the candidate findings too small to score; those under
// limits.minorListPct are only counted.
func minorItems(c *evaluation) (contract.OverviewItem, bool) {
	var minor []contract.Finding
	unlisted := 0
	for _, f := range c.minor {
		if f.RecoverableShare >= limits.minorListPct {
			minor = append(minor, f)
		} else {
			unlisted++
		}
	}
	if len(minor) == 0 {
		return contract.OverviewItem{}, false
	}
	// Said once for the list: the cut-off is the spread of medians between
	// separate runs (limits.minFindingPct), not this run's own variation.
	o := contract.OverviewItem{ID: contract.OverviewMinorItems, Title: fmt.Sprintf("%d possible change(s) worth under %.0f%% each (not scored)", len(minor), limits.minFindingPct),
		Layers: []int{}}
	o.Evidence = append(o.Evidence, fmt.Sprintf("Medians of separate runs typically differ by 1–%.0f%%, so a re-measurement is unlikely to confirm gains this small: worth doing alongside a larger change, not alone.", limits.minFindingPct))
	sum := 0.0
	for _, f := range minor {
		sum += f.RecoverableMs
		o.Evidence = append(o.Evidence, fmt.Sprintf("%s (%s): about %.4f ms, %.2f%% of %.4f ms.", f.Title, f.ID, f.RecoverableMs, f.RecoverableShare, c.ref))
		o.Layers = append(o.Layers, f.Layers...)
	}
	if unlisted > 0 {
		o.Evidence = append(o.Evidence, fmt.Sprintf("%d more under %.1f%% each, not listed.", unlisted, limits.minorListPct))
	}
	slices.Sort(o.Layers)
	o.Layers = slices.Compact(o.Layers)
	o.Metrics = map[string]float64{"recoverable_ms": round(sum, 6), "share_pct": round(sum/max(c.ref, 1e-12)*100, 3), "item_count": float64(len(minor))}
	for _, f := range minor { // each item's price, citable by id
		o.Metrics[f.ID+"_ms"] = round(f.RecoverableMs, 6)
		o.Metrics[f.ID+"_share_pct"] = round(f.RecoverableShare, 3)
	}
	return o, true
}

// profilingOverhead says how far the per-layer sum overstates the
// measured time, when a measured time is the reference.
func profilingOverhead(c *evaluation) (contract.OverviewItem, bool) {
	if c.refSource == RefLayerSum || c.ref <= 0 {
		return contract.OverviewItem{}, false
	}
	ratio := c.total / c.ref
	return contract.OverviewItem{ID: "profiling_overhead", Title: fmt.Sprintf("The per-layer profile sums to %.2f× the measured GPU time", ratio),
		Evidence: []string{fmt.Sprintf("Layer sum %.4f ms vs measured %.4f ms (%s). Per-layer profiling adds event overhead per kernel; it is information, not a problem to fix. Findings are priced on the measured time.", c.total, c.ref, strings.ReplaceAll(c.refSource, "_", " "))},
		Metrics:  map[string]float64{"layer_sum_ms": round(c.total, 6), "reference_ms": round(c.ref, 6), "ratio": round(ratio, 4)},
		Layers:   []int{}}, true
}
