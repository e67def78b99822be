package findings

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// Hotspot thresholds: a layer is hot from 5 % of the time; a type from 30 %.
const (
	hotLayerPct = 5.0
	hotTypePct  = 30.0
	// tinyMs: a kernel under 10 µs is mostly launch overhead.
	tinyMs = 0.010
	// hotStake: tuning a hot spot rarely removes more than half its time,
	// and a hot spot is where time goes, not proof of waste.
	hotStake = 0.5
)

// Hotspots are where time goes, not necessarily waste: low confidence, so
// they rank below problems that cost the same time.
func evalHotspotLayers(c *ctx) *contract.Finding {
	recs := c.selectTimed(func(_ *contract.Record, t *timedInfo) bool { return c.pct(t.avg) >= hotLayerPct })
	if len(recs) == 0 {
		return nil
	}
	f := c.newFindingStake("hotspot_layers", contract.ConfidenceLow, recs, hotStake)
	f.Evidence = append(f.Evidence, fmt.Sprintf("%d layers take at least %.0f%% each, %.2f%% together (%.4f of %.4f ms).",
		len(recs), hotLayerPct, c.pct(sumMs(recs)), sumMs(recs), c.total))
	for i, r := range recs {
		if i == 5 {
			break
		}
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s: %.2f%% (%.4f ms), %s, %s, tactic %s.",
			short(r.Name), c.pct(r.AvgMs), r.AvgMs, r.LayerType, r.Precision, tacticWords(r)))
	}
	f.Metrics["top_layer_pct"] = round(c.pct(recs[0].AvgMs), 3)
	if myelin := countIf(recs, func(r *contract.Record) bool { return r.RawLayerType == "Myelin" || c.hasTag(r, tgMyelin) }); myelin > 0 {
		f.Metrics["myelin_layers"] = float64(myelin)
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d of them are Myelin regions: their inside is one opaque layer in this dump.", myelin))
		f.NextCheck = "Look inside the Myelin regions: profile with nsys (the kernels inside each region), or rebuild with TensorRT 10+ and --profilingVerbosity=detailed, which lists Myelin kernels one by one."
	}
	return f
}

func tacticWords(r *contract.Record) string {
	if r.Tactic == "" {
		return "none named"
	}
	tc := "no tensor cores"
	if r.TensorCore {
		tc = "tensor cores"
	}
	return fmt.Sprintf("%s (%s)", r.TacticFamily, tc)
}

func countIf(recs []*contract.Record, f func(*contract.Record) bool) int {
	n := 0
	for _, r := range recs {
		if f(r) {
			n++
		}
	}
	return n
}

func evalHotspotType(c *ctx) *contract.Finding {
	// Sums per type in time order, as sumMs over each type's records.
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
	if best == "" || c.pct(bestMs) < hotTypePct {
		return nil
	}
	recs := c.selectTimed(func(_ *contract.Record, t *timedInfo) bool { return t.typ == bestID })
	f := c.newFindingStake("hotspot_type", contract.ConfidenceLow, recs, hotStake)
	f.Title = fmt.Sprintf("%s layers take %.1f%% of the time", best, c.pct(bestMs))
	f.Evidence = append(f.Evidence, fmt.Sprintf("%d %s layers take %.4f ms (%.2f%% of %.4f ms).", len(recs), best, bestMs, c.pct(bestMs), c.total),
		"Largest: "+c.topNames(recs, 5)+".")
	if best == "Myelin" || best == "kgen" || best == "kgen_mha" {
		f.NextCheck = "Look inside the Myelin regions with nsys, or rebuild with TensorRT 10+ and --profilingVerbosity=detailed to list their kernels; compare --builderOptimizationLevel=5."
	}
	return f
}

func evalTinyKernels(c *ctx) *contract.Finding {
	recs := c.selectTimed(func(_ *contract.Record, t *timedInfo) bool { return t.avg < tinyMs })
	if len(recs) < 20 || len(recs)*3 < len(c.timed) {
		return nil
	}
	ms := sumMs(recs)
	if c.pct(ms) < 5 {
		return nil
	}
	f := c.newFinding("tiny_kernels", contract.ConfidenceMedium, recs)
	f.Metrics["tiny_threshold_ms"] = tinyMs
	f.Metrics["timed_layers"] = float64(len(c.timed))
	types := make([]int, len(c.typeNames))
	for j := range c.tinfo {
		if c.tinfo[j].avg < tinyMs {
			types[c.tinfo[j].typ]++
		}
	}
	parts := []string{}
	for _, id := range c.typesByName() {
		if types[id] > 0 {
			parts = append(parts, fmt.Sprintf("%s ×%d", c.typeNames[id], types[id]))
		}
	}
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d of %d timed layers run under %.0f µs each; together %.4f ms (%.2f%%).", len(recs), len(c.timed), tinyMs*1000, ms, c.pct(ms)),
		"By type: "+strings.Join(parts, ", ")+".")
	return f
}
