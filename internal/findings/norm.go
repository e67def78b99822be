package findings

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// evalDecomposedNorm: an InstanceNormalization plugin standing for a
// GroupNorm (or LayerNorm), with the Scale, casts, reshapes and reformats
// around it that one normalization kernel would not need.
func evalDecomposedNorm(c *evaluation) *contract.Finding {
	var seeds []int
	for i := range c.b.Layers {
		l := &c.b.Layers[i]
		if strings.Contains(l.LayerType, "Plugin") && strings.Contains(strings.ToLower(l.Name), "instancenorm") {
			seeds = append(seeds, i)
		}
	}
	if len(seeds) == 0 {
		return nil
	}
	// Glue around a normalization: what a fused kernel would not need.
	glue := func(layer int) bool {
		r := c.record(layer)
		if r == nil || !c.free(layer) {
			return false
		}
		k := c.class(r)
		if k.is(fMatmul) || k.is(fMyelinRaw) || k.has(tgAttention) {
			return false
		}
		switch r.RawLayerType {
		case "Reformat", "Shuffle", "NoOp", "Scale", "MyelinReformat", "Cast":
			return true
		}
		return k.is(fReformat) || k.has(tgCast)
	}
	in := map[int]bool{}
	var recs []*contract.Record
	add := func(layer int) {
		if !in[layer] {
			in[layer] = true
			if r := c.record(layer); r != nil && r.AvgMs > 0 {
				recs = append(recs, r)
			}
		}
	}
	for _, s := range seeds {
		if r := c.record(s); r == nil || !c.free(s) {
			continue
		}
		add(s)
		// Up to three glue layers on each side.
		for _, dir := range []func(int) []int32{c.preds, c.succs} {
			frontier := []int{s}
			for depth := 0; depth < 3; depth++ {
				var next []int
				for _, l := range frontier {
					for _, n := range dir(l) {
						if !in[int(n)] && glue(int(n)) {
							add(int(n))
							next = append(next, int(n))
						}
					}
				}
				frontier = next
			}
		}
	}
	if len(recs) == 0 {
		return nil
	}
	f := c.newFinding("decomposed_norm", contract.ConfidenceHigh, recs)
	var plugins, scales, moves float64
	for _, r := range recs {
		switch {
		case strings.Contains(r.RawLayerType, "Plugin"):
			plugins += r.AvgMs
		case r.RawLayerType == "Scale":
			scales += r.AvgMs
		default:
			moves += r.AvgMs
		}
	}
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d InstanceNormalization plugin layers stand for group/layer normalization; with the Scale, reshape, cast and reformat layers around them they take %.4f ms (%.2f%% of the profile).", len(seeds), sumMs(recs), c.pct(sumMs(recs))),
		fmt.Sprintf("Plugins %.2f%%, Scale %.2f%%, reformats/casts/reshapes %.2f%%.", c.pct(plugins), c.pct(scales), c.pct(moves)),
		"The reformats here come from the decomposition, not from mismatched I/O formats: I/O format flags do not remove them.")
	f.Action = "Replace the InstanceNormalization + Scale decomposition of GroupNorm with one GroupNorm kernel: the TensorRT GroupNorm plugin, or TensorRT 10's GroupNormalization op (ONNX opset 18+)."
	f.NextCheck = "Re-export with GroupNormalization (opset 18+, TensorRT 10) or insert the GroupNorm plugin (TensorRT OSS groupNormPlugin), rebuild and compare the normalization time."
	return f
}
