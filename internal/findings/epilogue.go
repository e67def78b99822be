package findings

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// isPointwiseAlone: a timed pointwise/activation kernel (by raw type; a
// Myelin kgen kernel that is no GEMM or attention counts too).
func (c *evaluation) isPointwiseAlone(r *contract.Record, t *timedInfo) bool {
	if t.k.is(fMatmul) || t.k.is(fKgenMHA) || t.k.is(fReformat) {
		return false
	}
	switch r.RawLayerType {
	case "PointWise", "PointWiseV2", "Activation", "ElementWise", "Unary", "Scale":
		return true
	case "kgen":
		return !t.k.has(tgAttention) && !t.k.has(tgSoftmax) && !t.k.has(tgNorm)
	}
	return false
}

// epilogueProducer walks from a pointwise layer back through pass-through
// layers (0 ms, casts, copies) to a convolution/GEMM whose only consumer
// path leads here (for a residual Add: either input); it returns the
// producer and the pass-through layers between them (what blocks the
// fusion), or -1.
func (c *evaluation) epilogueProducer(layer int) (int, []int) {
	for _, start := range c.preds(layer) {
		if p, between := c.producerPath(int(start)); p >= 0 {
			return p, between
		}
	}
	return -1, nil
}

func (c *evaluation) producerPath(p int) (int, []int) {
	var between []int
	for hop := 0; hop < 4; hop++ {
		if len(c.succs(p)) != 1 {
			return -1, nil // the output is also read elsewhere: no fusion
		}
		pr := c.record(p)
		if pr == nil {
			return -1, nil
		}
		k := c.class(pr)
		if k.is(fMatmul) && !k.is(fMyelinRaw) && !k.is(fKgenMHA) {
			return p, between
		}
		ps := c.preds(p)
		if len(ps) != 1 || !(pr.AvgMs == 0 || k.has(tgCast) || k.has(tgCopy) || k.is(fNoOp) || strings.Contains(pr.Name, "Cast")) {
			return -1, nil
		}
		between = append(between, p)
		p = int(ps[0])
	}
	return -1, nil
}

func evalUnfusedEpilogue(c *evaluation) *contract.Finding {
	blockers := map[string]int{}
	var blockerOrder []string
	var recs []*contract.Record
	for _, r := range c.selectTimed(func(r *contract.Record, t *timedInfo) bool { return c.isPointwiseAlone(r, t) }) {
		p, between := c.epilogueProducer(r.Layer)
		if p < 0 {
			continue
		}
		recs = append(recs, r)
		for _, b := range between {
			kind := blockerKind(c.b.Layers[b].Name, c.b.Layers[b].LayerType)
			if kind == "" {
				continue // a copy or reshape TensorRT elides: no blocker
			}
			if blockers[kind] == 0 {
				blockerOrder = append(blockerOrder, kind)
			}
			blockers[kind]++
		}
	}
	if len(recs) == 0 {
		return nil
	}
	f := c.newFinding("unfused_epilogue", contract.ConfidenceHigh, recs)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d pointwise/activation layers run as their own kernels right after a convolution/GEMM: %.4f ms (%.2f%% of the profile): %s.",
			len(recs), sumMs(recs), c.pct(sumMs(recs)), c.topNames(recs, 4)))
	if len(blockerOrder) > 0 {
		parts := []string{}
		for _, k := range blockerOrder {
			parts = append(parts, fmt.Sprintf("%s ×%d", k, blockers[k]))
		}
		f.Evidence = append(f.Evidence, "Between producer and activation sit layers that block the fusion: "+strings.Join(parts, ", ")+".")
		f.Action = "Remove the casts between the convolutions and their activations in the model (" + blockerOrder[0] + "): keep the activation in the convolution's precision so TensorRT fuses it into the convolution's epilogue."
		f.NextCheck = "Compile without the forced casts (e.g. Torch-TensorRT: same dtype for the whole graph, no truncate/cast passes; ONNX: remove Cast nodes around Clip/ReLU6), rebuild and check that the activation layers are gone."
	} else if gelu := geluLike(recs); len(gelu) > 0 {
		f.Action = "Export GELU as one op (ONNX opset 20 Gelu, or the exact erf form x·0.5·(1+erf(x/√2))) directly after its MatMul and bias, in the MatMul's precision, so TensorRT fuses bias and GELU into the GEMM's epilogue"
		switch n := len(recs) - len(gelu); {
		case n == 1:
			f.Action += "; keep the other activation directly after its producer, in its precision"
		case n > 1:
			f.Action += fmt.Sprintf("; keep the other %d activations directly after their producers, in their precision", n)
		}
		f.Action += ", and rebuild."
		f.NextCheck = "Rebuild and check that the GELU kernels (" + c.topNames(gelu, 2) + ") are gone and the MatMuls before them barely slowed."
	} else {
		f.Action = "Export the activations in a form TensorRT fuses into the convolution/GEMM epilogue (ReLU, Clip/ReLU6 directly after the conv, same precision) and rebuild."
		f.NextCheck = "Rebuild (or export through ONNX with trtexec) and check that these activation layers are fused into the convolution names (`Conv + Relu`)."
	}
	// Residual Adds are epilogues too, with their own condition.
	var adds []*contract.Record
	for _, r := range recs {
		if isAddKernel(r.Name) {
			adds = append(adds, r)
		}
	}
	if len(adds) > 0 {
		f.Metrics["residual_add_layers"] = float64(len(adds))
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d of them are residual Adds (%.4f ms, %.2f%%): %s.", len(adds), sumMs(adds), c.pct(sumMs(adds)), c.topNames(adds, 3)))
		f.Action += " A residual Add fuses into the convolution that produces one of its inputs when it reads that output directly, in the same precision."
	}
	return f
}

// isAddKernel: the name holds an Add op as a word ("Add_12", "/layer1/Add",
// "__myl_Add_myl3_4", a fused "… + Add_36 + …"), not "addmm" or "Padding".
func isAddKernel(name string) bool {
	low := strings.ToLower(name)
	i := strings.Index(low, "add")
	for i >= 0 {
		end := i + 3
		before := i == 0 || !isAlpha(low[i-1])
		after := end == len(low) || !isAlpha(low[end])
		if before && after {
			return true
		}
		j := strings.Index(low[end:], "add")
		if j < 0 {
			break
		}
		i = end + j
	}
	return false
}

func isAlpha(b byte) bool { return b >= 'a' && b <= 'z' }

// blockerKind names a pass-through layer for evidence: "Forced Cast" layers
// of Torch-TensorRT, Cast, copy.
func blockerKind(name, typ string) string {
	switch {
	case strings.Contains(name, "Forced Cast"):
		return "\"Forced Cast\" layers"
	case strings.Contains(strings.ToLower(name), "cast") || strings.EqualFold(typ, "Cast"):
		return "Cast layers"
	}
	return ""
}

// geluLike are the layers that compute GELU: named for it, or a Myelin
// kernel of its erf form (…Erf… in the fused op list).
func geluLike(recs []*contract.Record) []*contract.Record {
	var out []*contract.Record
	for _, r := range recs {
		name := strings.ToLower(r.Name)
		if strings.Contains(name, "gelu") || strings.Contains(name, "erf") {
			out = append(out, r)
		}
	}
	return out
}
