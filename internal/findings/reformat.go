package findings

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

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

func evalReformat(c *evaluation) *contract.Finding {
	recs := c.selectTimed(func(_ *contract.Record, t *timedInfo) bool {
		k := t.k
		return k.is(fReformat) || (k.has(tgCopy) && !k.is(fNoOp))
	})
	ms := sumMs(recs)
	if len(recs) == 0 {
		return nil
	}
	f := c.newFinding("reformat_overhead", contract.ConfidenceMedium, recs)
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
	f.Action = "Make producer and consumer of each reformat agree on one format: look at the pairs above (precision or layout changes between them) and remove the cause in the model (a cast, a layer without a kernel in the neighbours' format)."
	f.NextCheck = "For each reformat above, compare the producer's output format with the consumer's input format in the layer info; rebuild with --verbose and read why the builder chose those formats."
	if c.has("--builderOptimizationLevel=5") {
		f.NextCheck = "For each reformat above, compare the producer's output format with the consumer's input format in the layer info; rebuild with --builderOptimizationLevel=5 and check whether the reformats remain."
	}
	c.firstLayerLayout(f, recs)
	return f
}

// firstLayerLayout: reformats that re-lay the graph input out for the first
// layer's kernel in a vectorized layout no trtexec I/O format offers (input
// prologue leaves them: nothing the caller can feed removes them). When they
// are all the finding owns, the advice is the model-side experiment, with
// low confidence: it is the kernel's choice, not a format disagreement.
func (c *evaluation) firstLayerLayout(f *contract.Finding, recs []*contract.Record) {
	var first []*contract.Record
	for _, r := range recs {
		if len(c.preds(r.Layer)) == 0 && conversion(r) == "layout-only" && !c.feedable(r) {
			first = append(first, r)
		}
	}
	if len(first) == 0 {
		return
	}
	l := c.layer(first[0])
	layout := ""
	if len(l.Outputs) > 0 {
		layout = l.Outputs[0].Format
	}
	f.Evidence = append(f.Evidence, fmt.Sprintf("%d of them (%.2f%%) re-lay the graph input out for the first layer's kernel (%q), a layout no I/O format offers: no input format removes them.",
		len(first), c.pct(sumMs(first)), layout))
	if len(first) < len(recs) {
		return
	}
	f.Title = "The graph input is re-laid out for the first layer's kernel"
	f.Confidence = contract.ConfidenceLow
	c.rescore(f)
	spec, caveat := "a channel-vectorized input format", ""
	if strings.Contains(strings.ToLower(layout), "fp16") {
		spec, caveat = c.inputFormat("fp16:hwc8"), c.inputFormatCaveat("fp16:hwc8")
	}
	f.Action = fmt.Sprintf("Only the model can remove this: the first layer's kernel reads a channel-vectorized layout that no I/O format offers. Pad the input to 8 channels (zero channels in pre-processing, zero weights for them in the first convolution) so the first layer can read a vectorized input directly, and build with %s; otherwise accept the cost.%s", spec, caveat)
	f.NextCheck = fmt.Sprintf("Export the model with an 8-channel input, rebuild with %s and check that the input reformat is gone and the first convolution got no slower.", spec)
}

// neighbourNames names up to two neighbour layers.
func (c *evaluation) neighbourNames(ls []int32, none string) string {
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
