package findings

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/contract"
)

// convParams are the convolution parameters the channel rules read.
type convParams struct {
	OutMaps     *int64 `json:"OutMaps"`
	ConvOutMaps *int64 `json:"ConvOutMaps"`
	Groups      *int64 `json:"Groups"`
	ConvGroups  *int64 `json:"ConvGroups"`
}

// convFacts are a layer's decoded convParams (OutMaps falling back to
// ConvOutMaps, Groups to ConvGroups), kept per layer: two rules ask, up to
// three times per layer.
type convFacts struct {
	done, hasOut, hasGroups bool
	out, groups             int64
}

// convParams decodes a layer's convolution parameters once.
func (c *ctx) convParams(layer int) convFacts {
	if c.conv == nil {
		c.conv = make([]convFacts, len(c.b.Layers))
	}
	cf := &c.conv[layer]
	if !cf.done {
		*cf = decodeConvParams(c.b.Layers[layer].Parameters)
		cf.done = true
	}
	return *cf
}

func decodeConvParams(raw []byte) convFacts {
	var f convFacts
	// Decode only objects that can hold the keys ("...Maps", "...Groups",
	// or any escaped key): GEMM layers of LLMs carry other parameters.
	if len(raw) == 0 || !bytes.Contains(raw, []byte("Maps")) && !bytes.Contains(raw, []byte("Groups")) && bytes.IndexByte(raw, '\\') < 0 {
		return f
	}
	var p convParams
	_ = json.Unmarshal(raw, &p) // absent or odd parameters: no channel facts
	if p.OutMaps == nil {
		p.OutMaps = p.ConvOutMaps
	}
	if p.Groups == nil {
		p.Groups = p.ConvGroups
	}
	if p.OutMaps != nil {
		f.hasOut, f.out = true, *p.OutMaps
	}
	if p.Groups != nil {
		f.hasGroups, f.groups = true, *p.Groups
	}
	return f
}

// isDepthwise: grouped convolutions run on CUDA cores by design.
func (c *ctx) isDepthwise(t *timedInfo) bool {
	if t.k.is(fDepthwiseRaw) {
		return true
	}
	p := c.convParams(int(t.layer))
	return p.hasGroups && p.groups > 1
}

// depthwise returns isDepthwise of the timed records js, reading their
// layers in layer order.
func (c *ctx) depthwise(js []int32) []bool {
	dw := make([]bool, len(js))
	for _, p := range c.inLayerOrder(js) {
		dw[p] = c.isDepthwise(&c.tinfo[js[p]])
	}
	return dw
}

func evalNoTensorCore(c *ctx) *contract.Finding {
	if precisionRank(c.target) == 0 || precisionRank(c.target) >= 4 {
		return nil // FP32/TF32 engines: see fp32_engine
	}
	tr := precisionRank(c.target)
	cand := c.timedWhere(func(t *timedInfo) bool {
		k := t.k
		return k.is(fMatmul) && k.is(fTactic) && !k.is(fTacticMyelin) && !k.is(fTensorCore) && int(k.rank) <= tr
	})
	dw := c.depthwise(cand)
	var recs []*contract.Record
	for p, j := range cand {
		if !dw[p] {
			recs = append(recs, c.timed[j])
		}
	}
	if len(recs) == 0 || c.pct(sumMs(recs)) < 1 {
		return nil
	}
	f := c.newFinding("no_tensor_core", contract.ConfidenceMedium, recs)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d %s convolution/GEMM layers use CUDA-core tactics: %.4f ms (%.2f%%).", len(recs), c.target, sumMs(recs), c.pct(sumMs(recs))))
	for i, r := range recs {
		if i == 5 {
			break
		}
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s (%.2f%%): %s", short(r.Name), c.pct(r.AvgMs), short(r.Tactic)))
	}
	gemv := countIf(recs, func(r *contract.Record) bool {
		return containsFold(r.Tactic, "gemv") || containsFold(r.Tactic, "simt")
	})
	if gemv == len(recs) {
		// Batch-1 GEMV/SIMT kernels are memory-bound: tensor cores would
		// not help much, so this is a weak lead.
		f.Confidence = contract.ConfidenceLow
		f.Score = round(f.Share/100*weight(f.Confidence), 4)
	}
	if gemv > 0 {
		f.Metrics["gemv_or_simt_layers"] = float64(gemv)
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d of them are GEMV/SIMT kernels, usual for batch 1: a larger batch would let tensor cores help.", gemv))
	}
	f.NextCheck = "Check channel alignment (multiples of 8 for FP16, 16 for INT8), try a larger batch, and rebuild with --builderOptimizationLevel=5; if tensor-core tactics still lose, they were timed slower for these shapes."
	return f
}

// evalFP32Engine says, for FP32 engines, that tensor cores are out of reach
// of FP32 math (TF32 aside), instead of complaining about them.
func evalFP32Engine(c *ctx) *contract.Finding {
	if c.target != "FP32" && c.target != "TF32" {
		return nil
	}
	mm := c.selectTimed(flagged(fMatmul))
	if len(mm) == 0 {
		return nil
	}
	cuda := make([]*contract.Record, 0, len(mm))
	tf32 := 0.0
	for _, r := range mm {
		if r.TensorCore {
			tf32 += r.AvgMs
		} else {
			cuda = append(cuda, r)
		}
	}
	f := c.newFinding("fp32_engine", contract.ConfidenceLow, cuda)
	f.Metrics["matmul_ms"] = round(sumMs(mm), 6)
	f.Metrics["tf32_tensor_core_ms"] = round(tf32, 6)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("This engine computes in FP32 (%s): FP32 math cannot use FP16/INT8 tensor cores, so CUDA-core convolution/GEMM tactics are expected, not a fault.", c.targetEvidence()),
		fmt.Sprintf("Convolution/GEMM: %.4f ms (%.2f%%); %.2f%% of the time runs on TF32 tensor cores, %.2f%% on CUDA cores.",
			sumMs(mm), c.pct(sumMs(mm)), c.pct(tf32), c.pct(sumMs(cuda))))
	return f
}

// containsFold reports whether strings.ToLower(s) contains the lower-case
// ASCII word w, without building the lower-case copy for ASCII s.
func containsFold(s, w string) bool {
	if !isASCII(s) {
		return strings.Contains(strings.ToLower(s), w)
	}
	for i := 0; i+len(w) <= len(s); i++ {
		if hasPrefixLower(s[i:], w) {
			return true
		}
	}
	return false
}

// alignment is the channel multiple tensor-core kernels want per precision.
func alignment(p string) int64 {
	switch p {
	case "FP16", "BF16":
		return 8
	case "INT8":
		return 16
	case "FP8":
		return 32
	}
	return 0
}

// channels returns a conv/GEMM layer's input and output channels: C of the
// first input and OutMaps for convolutions; K (last input dim) and N (last
// output dim) for GEMMs. 0 when unknown.
func (c *ctx) channels(layer int) (in, out int64) {
	l := &c.b.Layers[layer]
	p := c.convParams(layer)
	if p.hasOut {
		out = p.out
		if len(l.Inputs) > 0 && len(l.Inputs[0].Dimensions) >= 3 {
			in = l.Inputs[0].Dimensions[1]
		}
		return in, out
	}
	if len(l.Inputs) > 0 && len(l.Outputs) > 0 {
		di, do := l.Inputs[0].Dimensions, l.Outputs[0].Dimensions
		if len(di) > 0 && len(do) > 0 {
			return di[len(di)-1], do[len(do)-1]
		}
	}
	return 0, 0
}

func evalChannelAlignment(c *ctx) *contract.Finding {
	type bad struct {
		r       *contract.Record
		in, out int64
		align   int64
	}
	// Candidates by class, then their layers' parameters and shapes read
	// in layer order.
	type chans struct {
		skip    bool // depthwise
		in, out int64
	}
	cand := c.timedWhere(func(t *timedInfo) bool {
		return t.k.align != 0 && t.k.is(fMatmul) && !t.k.is(fKgenMHA) && !t.k.is(fMyelinRaw)
	})
	ch := make([]chans, len(cand))
	for _, p := range c.inLayerOrder(cand) {
		t := &c.tinfo[cand[p]]
		if c.isDepthwise(t) {
			ch[p].skip = true
			continue
		}
		ch[p].in, ch[p].out = c.channels(int(t.layer))
	}
	var bads []bad
	var recs []*contract.Record
	for p, j := range cand {
		a, in, out := int64(c.tinfo[j].k.align), ch[p].in, ch[p].out
		// Inputs of 4 channels or fewer are image inputs: TensorRT pads
		// them and a first-layer kernel handles them.
		if !ch[p].skip && (in > 0 && (in%a != 0 && in > 4) || out > 0 && out%a != 0) {
			r := c.timed[j]
			bads = append(bads, bad{r, in, out, a})
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 || c.pct(sumMs(recs)) < 0.5 {
		return nil
	}
	f := c.newFinding("channel_alignment", contract.ConfidenceMedium, recs)
	f.Evidence = append(f.Evidence, fmt.Sprintf("%d convolution/GEMM layers have channel counts that are not multiples of 8 (FP16), 16 (INT8) or 32 (FP8): %.4f ms (%.2f%%).",
		len(recs), sumMs(recs), c.pct(sumMs(recs))))
	for i, b := range bads {
		if i == 5 {
			break
		}
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s (%.2f%%, %s): %d input / %d output channels, want multiples of %d.",
			short(b.r.Name), c.pct(b.r.AvgMs), b.r.Precision, b.in, b.out, b.align))
	}
	f.NextCheck = "Pad the channel counts of these layers to the next multiple (8 for FP16, 16 for INT8, 32 for FP8) in the model (zero-padded weights), rebuild and compare these layers' times."
	return f
}
