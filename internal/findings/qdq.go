package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// explicitQDQ reports whether the engine was built from a Q/DQ (explicitly
// quantized) network: some layer has Origin QDQ or fused QuantizeLinear ops.
// In such engines precision flags must not be used to move layers
// (TensorRT's docs): the fix is in the model.
func (c *evaluation) explicitQDQ() bool {
	for i := range c.rinfo {
		if c.rinfo[i].k.is(fQDQOrigin) || c.rinfo[i].k.has(tgQuantize) && c.rinfo[i].k.is(fMatmul) {
			return true
		}
	}
	return false
}

// graphInputFed reports whether a layer reads only graph inputs (no
// producer layer).
func (c *evaluation) graphInputFed(layer int) bool { return len(c.preds(layer)) == 0 }

func evalInputQuantize(c *evaluation) *contract.Finding {
	recs := c.selectTimed(func(r *contract.Record, t *timedInfo) bool {
		return t.k.is(fStandaloneQDQ) && c.graphInputFed(r.Layer) && strings.Contains(strings.ToUpper(conversion(r)), "INT8")
	})
	if len(recs) == 0 {
		return nil
	}
	f := c.newFinding("input_quantize", contract.ConfidenceHigh, recs)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d QuantizeLinear layer(s) read the graph input and run as their own kernel: %.4f ms of the profile (%.2f%%): %s.",
			len(recs), sumMs(recs), c.pct(sumMs(recs)), c.topNames(recs, 3)),
		"An input quantize has no producer to fuse into: moving Q/DQ in the model does not remove it.")
	f.Action = "Feed the engine INT8 (or FP16) input and quantize in pre-processing, instead of quantizing the FP32 graph input inside the engine."
	f.NextCheck = "Rebuild with an INT8 input format (" + c.inputFormat("int8:chw") + ") or quantize in your pre-processing, and check that the input QuantizeLinear layer is gone."
	return f
}

func evalQDQPlacement(c *evaluation) *contract.Finding {
	if !c.explicitQDQ() {
		return nil
	}
	qdq := c.selectTimed(flagged(fStandaloneQDQ))
	if len(qdq) == 0 {
		return nil
	}
	inQDQ := map[int]bool{}
	for _, r := range qdq {
		inQDQ[r.Layer] = true
	}
	nearQDQ := func(layer int) bool {
		for _, ns := range [][]int32{c.preds(layer), c.succs(layer)} {
			for _, n := range ns {
				if inQDQ[int(n)] {
					return true
				}
			}
		}
		return false
	}
	// Reformats next to a standalone Q/DQ exist for it.
	reformats := c.selectTimed(func(r *contract.Record, t *timedInfo) bool {
		return (t.k.is(fReformat) || t.k.has(tgCopy) && !t.k.is(fNoOp)) && !inQDQ[r.Layer] && nearQDQ(r.Layer)
	})
	// INT8 layers that write float tensors to other layers.
	floatOut := func(r *contract.Record) bool {
		if r == nil || precisionRank(r.Precision) != 2 {
			return false
		}
		for _, t := range r.OutputTypes {
			if t == "FP32" || t == "FP16" || t == "BF16" {
				return len(c.succs(r.Layer)) > 0
			}
		}
		return false
	}
	// Float compute layers between INT8 layers and Q/DQ: they would run INT8
	// with Q/DQ on their inputs.
	floats := c.selectTimed(func(r *contract.Record, t *timedInfo) bool {
		if !t.k.is(fCompute) || t.k.is(fMatmul) || int(t.k.rank) <= 2 {
			return false
		}
		if nearQDQ(r.Layer) {
			return true
		}
		for _, p := range c.preds(r.Layer) {
			if floatOut(c.record(int(p))) {
				return true
			}
		}
		return false
	})
	// INT8 convolutions on CUDA-core tactics because of float I/O.
	cudaConv := c.selectTimed(func(r *contract.Record, t *timedInfo) bool {
		if !t.k.is(fMatmul) || !t.k.is(fInt8OrFP8) || r.TensorCore == nil || *r.TensorCore {
			return false
		}
		if g, ok := c.gemvOf(r.Layer); ok && g.rows <= limits.gemvMaxRows {
			return false // a batch-1 GEMV runs on CUDA cores whatever its I/O types
		}
		if in, _ := c.channels(r.Layer, c.class(r)); in > 0 && in <= 4 {
			// A first convolution over a 3-channel image runs int8x4 for
			// its channel count; only float output makes it Q/DQ's.
			return floatOut(r)
		}
		return floatOut(r) || nearQDQ(r.Layer)
	})
	inCUDAConv := map[int]bool{}
	for _, r := range cudaConv {
		inCUDAConv[r.Layer] = true
	}
	// Tensor-core INT8 convolutions that write float for an unquantized
	// consumer: they would write INT8 with Q/DQ on that consumer's input.
	// A layer at the network's end (a classifier writing float logits to
	// the output's last op) is meant to write float: a consumer counts only
	// when something reads it in turn.
	feedsOn := func(layer int) bool {
		for _, s := range c.succs(layer) {
			if len(c.succs(int(s))) > 0 {
				return true
			}
		}
		return false
	}
	floatConv := c.selectTimed(func(r *contract.Record, t *timedInfo) bool {
		return t.k.is(fMatmul) && t.k.is(fInt8OrFP8) && !inCUDAConv[r.Layer] && floatOut(r) && feedsOn(r.Layer)
	})
	all := append(append(append(append(append([]*contract.Record{}, qdq...), reformats...), floats...), cudaConv...), floatConv...)
	f := c.newFinding("qdq_placement", contract.ConfidenceHigh, all)
	// A layer two selections name (a Q/DQ reformat is also next to
	// another) is counted in the first only.
	ps := c.partition(f, part{"standalone Q/DQ", qdq}, part{"reformats next to Q/DQ", reformats}, part{"float layers between INT8 layers", floats},
		part{"INT8 convolutions on CUDA cores", cudaConv}, part{"INT8 convolutions writing float", floatConv})
	qdq, reformats, floats, cudaConv, floatConv = ps[0], ps[1], ps[2], ps[3], ps[4]
	sq, sr, sf, sc, so := sumMs(qdq), sumMs(reformats), sumMs(floats), sumMs(cudaConv), sumMs(floatConv)
	bq, bf, bc, bo := priceFactors["qdq_standalone"], priceFactors["qdq_float_consumer"], priceFactors["qdq_cuda_core_conv"], priceFactors["qdq_float_output_conv"]
	s := c.scale
	c.priceMs(f, s*((sq+sr)*bq.low+sf*bf.low+sc*bc.low+so*bo.low), s*((sq+sr)*bq.est+sf*bf.est+sc*bc.est+so*bo.est), s*((sq+sr)*bq.high+sf*bf.high+sc*bc.high+so*bo.high),
		fmt.Sprintf("(standalone Q/DQ %.4f + their reformats %.4f ms) × %.2f + float neighbours %.4f ms × %.2f + CUDA-core INT8 convolutions %.4f ms × %.2f + INT8 convolutions writing float %.4f ms × %.2f, × profile scale %.3f",
			sq, sr, bq.est, sf, bf.est, sc, bc.est, so, bo.est, s))
	f.PriceBasis = "estimate"
	f.Metrics["standalone_qdq_ms"] = round(sq, 6)
	f.Metrics["qdq_reformat_ms"] = round(sr, 6)
	f.Metrics["float_neighbour_ms"] = round(sf, 6)
	f.Metrics["cuda_core_int8_ms"] = round(sc, 6)
	f.Metrics["float_output_int8_ms"] = round(so, 6)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d Quantize/Dequantize layers TensorRT could not fuse run as standalone kernels: %.4f ms (%.2f%% of the profile): %s.", len(qdq), sq, c.pct(sq), c.topNames(qdq, 4)))
	if len(reformats) > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d reformats next to them: %.4f ms (%.2f%%).", len(reformats), sr, c.pct(sr)))
	}
	if len(floats) > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d layers run in float between INT8 layers and Q/DQ: %.4f ms (%.2f%%): %s.", len(floats), sf, c.pct(sf), c.topNames(floats, 3)))
	}
	if len(cudaConv) > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d INT8 convolutions with float inputs/outputs run on CUDA-core (int8x4/dp4a) tactics: %.4f ms (%.2f%%): %s.", len(cudaConv), sc, c.pct(sc), c.topNames(cudaConv, 3)))
	}
	if len(floatConv) > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d INT8 convolutions write FP16/FP32 because what reads them is not quantized (an INT8 output would move fewer bytes): %.4f ms (%.2f%%): %s.", len(floatConv), so, c.pct(so), c.topNames(floatConv, 3)))
	}
	f.Evidence = append(f.Evidence, "These are one cause (where Q/DQ sit in the model), counted once.")
	where, places := qdqPlaces(c, qdq, floats)
	f.Places = places
	f.Action = "Change Q/DQ placement in the model: quantize the inputs of " + where + " (in PyTorch, quantize residual Add and pooling inputs as well as convolution inputs) so every QuantizeLinear follows an op TensorRT can fuse it into, and rebuild."
	f.NextCheck = "Re-export with Q/DQ on the inputs of " + where + ", rebuild, and check that the QuantizeLinear layers are gone from the layer list. Do not use precision flags (--layerPrecisions) to move layers in an explicitly quantized engine."
	return f
}

// qdqPlaces says, in words, where the unfused Q/DQ sit: the unfused
// residual Adds and pooling layers among the float layers and next to the
// standalone Q/DQ, and the convolutions with a fused residual Add that a
// standalone Q/DQ feeds on their residual (second) input, named. A
// convolution with a fused Add that only produces for a Q/DQ is not one.
func qdqPlaces(c *evaluation, qdq, floats []*contract.Record) (string, []string) {
	var adds, pools []string
	seen := map[int]bool{}  // layers looked at as float neighbours
	named := map[int]bool{} // convolutions named for their fused residual Add
	note := func(layer int) {
		r := c.record(layer)
		if r == nil || seen[layer] {
			return
		}
		seen[layer] = true
		k := c.class(r)
		switch {
		case k.is(fMatmul) || k.is(fStandaloneQDQ):
		case k.has(tgPooling):
			pools = append(pools, short(r.Name))
		case isAddKernel(r.Name):
			adds = append(adds, short(r.Name))
		}
	}
	for _, r := range floats {
		note(r.Layer)
	}
	for _, r := range qdq {
		for _, n := range append(slices.Clone(c.preds(r.Layer)), c.succs(r.Layer)...) {
			note(int(n))
		}
		fusedAdd := func(l int) *contract.Record {
			if lr := c.record(l); lr != nil && !named[l] && c.class(lr).is(fMatmul) && isAddKernel(lr.Name) {
				return lr
			}
			return nil
		}
		// A standalone Quantize after a convolution with a fused residual
		// Add quantizes the Add's float output, and one on a fused Add's
		// residual input quantizes a float skip path: the Add's inputs
		// were not quantized. (A Dequantize there only serves a float
		// consumer further on, such as an unquantized pooling layer.)
		if !isQuantize(r.Name) {
			continue
		}
		for _, p := range c.preds(r.Layer) {
			if pr := fusedAdd(int(p)); pr != nil {
				named[int(p)] = true
				adds = append(adds, addPart(pr.Name))
			}
		}
		for _, s := range c.succs(r.Layer) {
			if sr := fusedAdd(int(s)); sr != nil && c.feedsResidualInput(r.Layer, int(s)) {
				named[int(s)] = true
				adds = append(adds, addPart(sr.Name))
			}
		}
	}
	parts := []string{}
	if len(adds) > 0 {
		parts = append(parts, placesText("residual Add layers", adds))
	}
	if len(pools) > 0 {
		parts = append(parts, placesText("pooling layers", pools))
	}
	if len(parts) == 0 {
		return "the layers around the standalone QuantizeLinear layers", nil
	}
	return strings.Join(parts, " and "), append(adds, pools...)
}

// feedsResidualInput: an output of layer from is an input of layer to
// other than its first (a fused convolution's residual input).
func (c *evaluation) feedsResidualInput(from, to int) bool {
	ins := c.b.Layers[to].Inputs
	for _, o := range c.b.Layers[from].Outputs {
		for i := 1; i < len(ins); i++ {
			if ins[i].Name == o.Name {
				return true
			}
		}
	}
	return false
}

// isQuantize: the layer's name says QuantizeLinear, not DequantizeLinear.
func isQuantize(name string) bool {
	low := strings.ToLower(name)
	return strings.Contains(strings.ReplaceAll(low, "dequantize", ""), "quantize")
}

// addPart is the Add op of a fused layer name ("Add_36" of "… + Conv_34 +
// Add_36 + Relu_37"), else the shortened name.
func addPart(name string) string {
	for _, p := range strings.Split(name, " + ") {
		if isAddKernel(p) {
			return p
		}
	}
	return short(name)
}
