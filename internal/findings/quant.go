package findings

import (
	"fmt"
	"slices"

	"github.com/trtperf/trtperf/internal/contract"
)

// isStandaloneQDQ: a Quantize/Dequantize that TensorRT did not fuse into a
// neighbour: QDQ-origin layers, and Scale/Quantize/Dequantize layers whose
// only ops are Q/DQ.
func (c *ctx) isStandaloneQDQ(r *contract.Record) bool { return c.class(r).is(fStandaloneQDQ) }

func evalQDQUnfused(c *ctx) *contract.Finding {
	recs := c.selectTimed(flagged(fStandaloneQDQ))
	if len(recs) == 0 || c.pct(sumMs(recs)) < 0.5 {
		return nil
	}
	f := c.newFinding("qdq_unfused", contract.ConfidenceHigh, recs)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d Quantize/Dequantize layers run as their own kernels: %.4f ms (%.2f%%).", len(recs), sumMs(recs), c.pct(sumMs(recs))),
		"Largest: "+c.topNames(recs, 5)+".")
	if n := countIf(recs, c.isReformat); n > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d of them are reformats, also counted in the reformat overhead.", n))
	}
	f.NextCheck = "Place each QuantizeLinear/DequantizeLinear pair so it sits between two quantizable ops (conv/GEMM output → next conv input); add Q/DQ on residual-add and pooling inputs so TensorRT can fuse them, then rebuild with --int8 and check these layers are gone."
	return f
}

// evalQuantFloatOutput: INT8/FP8 layers writing FP32/FP16 tensors that feed
// other layers (not graph outputs): the consumers then run in float.
func evalQuantFloatOutput(c *ctx) *contract.Finding {
	outputs := map[string]bool{}
	for _, n := range c.b.Graph.GraphOutputs {
		outputs[n] = true
	}
	for _, n := range c.b.Graph.DeclaredOutputs {
		outputs[n] = true
	}
	recs := c.selectTimed(func(r *contract.Record, t *timedInfo) bool {
		if !t.k.is(fInt8OrFP8) || !t.k.is(fMatmul) {
			return false
		}
		l := c.layer(r)
		for i, t := range r.OutputTypes {
			if (t == "FP32" || t == "FP16" || t == "BF16") && i < len(l.Outputs) && !outputs[l.Outputs[i].Name] && len(c.succs(r.Layer)) > 0 {
				return true
			}
		}
		return false
	})
	if len(recs) == 0 {
		return nil
	}
	// Time at stake: the float consumers, which could run in INT8.
	var stake []*contract.Record
	seen := map[int]bool{}
	for _, r := range recs {
		seen[r.Layer] = true
	}
	for _, r := range recs {
		for _, s := range c.succs(r.Layer) {
			if cr := c.record(int(s)); cr != nil && cr.AvgMs > 0 && !seen[cr.Layer] && precisionRank(cr.Precision) > 2 {
				seen[cr.Layer] = true
				stake = append(stake, cr)
			}
		}
	}
	if len(stake) == 0 {
		return nil
	}
	slices.SortStableFunc(stake, byTime)
	f := c.newFinding("quant_float_output", contract.ConfidenceMedium, stake)
	f.Metrics["quantized_layers"] = float64(len(recs))
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d INT8/FP8 layers write float tensors to other layers: %s.", len(recs), c.topNames(recs, 5)),
		fmt.Sprintf("Their %d float consumers take %.4f ms (%.2f%%): %s.", len(stake), sumMs(stake), c.pct(sumMs(stake)), c.topNames(stake, 5)))
	f.NextCheck = "Add a QuantizeLinear after these layers (before their consumers) so the consumers run in INT8, or check that the consumers have INT8 kernels; rebuild with --int8 --fp16."
	return f
}
