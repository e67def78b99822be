package findings

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// reformatMinPct: below 2 % of the time, reformats are not worth a finding.
const reformatMinPct = 2.0

// conversion is the data-type change of a reformat ("FP32→INT8"), or
// "layout-only" when input and output types are the same.
func conversion(r *contract.Record) string {
	in, out := firstKnown(r.InputTypes), firstKnown(r.OutputTypes)
	if in == out || in == "" || out == "" {
		return "layout-only"
	}
	return in + "→" + out
}

func firstKnown(ts []string) string {
	for _, t := range ts {
		if t != "UNKNOWN" {
			return t
		}
	}
	return ""
}

func evalReformat(c *ctx) *contract.Finding {
	recs := c.selectTimed(func(_ *contract.Record, t *timedInfo) bool {
		k := t.k
		return k.is(fReformat) || (k.has(tgCopy) && !k.is(fNoOp))
	})
	ms := sumMs(recs)
	if len(recs) == 0 || c.pct(ms) < reformatMinPct {
		return nil
	}
	f := c.newFinding("reformat_overhead", contract.ConfidenceHigh, recs)
	f.Title = fmt.Sprintf("Reformat/copy layers take %.1f%% of the time", c.pct(ms))
	f.Evidence = append(f.Evidence, fmt.Sprintf("%d reformat/copy layers take %.4f ms (%.2f%% of %.4f ms).", len(recs), ms, c.pct(ms), c.total))

	type agg struct {
		n  int
		ms float64
	}
	byConv := map[string]*agg{}
	layoutMs, dtypeMs, qdqMs := 0.0, 0.0, 0.0
	qdq := 0
	for _, r := range recs {
		k := conversion(r)
		if byConv[k] == nil {
			byConv[k] = &agg{}
		}
		byConv[k].n++
		byConv[k].ms += r.AvgMs
		if k == "layout-only" {
			layoutMs += r.AvgMs
		} else {
			dtypeMs += r.AvgMs
		}
		if c.class(r).is(fQDQOrigin) {
			qdq++
			qdqMs += r.AvgMs
		}
	}
	f.Metrics["layout_only_ms"] = round(layoutMs, 6)
	f.Metrics["dtype_conversion_ms"] = round(dtypeMs, 6)
	f.Metrics["qdq_origin_ms"] = round(qdqMs, 6)
	f.Metrics["qdq_origin_count"] = float64(qdq)
	keys := sortedKeys(byConv)
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(byConv[b].ms, byConv[a].ms) })
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s ×%d (%.2f%%)", k, byConv[k].n, c.pct(byConv[k].ms)))
	}
	f.Evidence = append(f.Evidence, fmt.Sprintf("Conversions: %s; layout-only %.2f%%, data-type changes %.2f%%.",
		strings.Join(parts, ", "), c.pct(layoutMs), c.pct(dtypeMs)))
	if qdq > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d of them are Quantize/Dequantize layers TensorRT ran as standalone reformats (%.2f%%).", qdq, c.pct(qdqMs)))
	}
	// Producer → consumer pairs of the most expensive reformats.
	for i, r := range recs {
		if i == 5 {
			break
		}
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s (%.2f%%, %s): %s → %s.",
			short(r.Name), c.pct(r.AvgMs), conversion(r), c.neighbourNames(c.preds(r.Layer), "graph input"), c.neighbourNames(c.succs(r.Layer), "graph output")))
	}
	if qdq > 0 {
		f.NextCheck = "Move Q/DQ nodes so each QuantizeLinear directly follows an op TensorRT can fuse it into (quantize residual-add inputs and pooling inputs too), rebuild with --int8 --fp16, and check that the QuantizeLinear layers disappear from the layer list."
	} else {
		f.NextCheck = "Match I/O formats to the first and last layers (--inputIOFormats/--outputIOFormats, e.g. fp16:hwc8) and pin the precision of the layers on both sides of each reformat (--precisionConstraints=obey --layerPrecisions=...) so producer and consumer agree on one format."
	}
	return f
}

// neighbourNames names up to two neighbour layers.
func (c *ctx) neighbourNames(ls []int32, none string) string {
	if len(ls) == 0 {
		return none
	}
	names := []string{}
	for i, l := range ls {
		if i == 2 {
			names = append(names, fmt.Sprintf("+%d more", len(ls)-2))
			break
		}
		names = append(names, short(c.b.Layers[l].Name))
	}
	return strings.Join(names, ", ")
}
