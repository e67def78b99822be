package findings

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/costmodel"
	"github.com/trtperf/trtperf/internal/layerfacts"
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
func (c *evaluation) convParams(layer int) convFacts {
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
func (c *evaluation) isDepthwise(t *timedInfo) bool {
	if t.k.is(fDepthwiseRaw) {
		return true
	}
	p := c.convParams(int(t.layer))
	return p.hasGroups && p.groups > 1
}

// depthwise returns isDepthwise of the timed records js, reading their
// layers in layer order.
func (c *evaluation) depthwise(js []int32) []bool {
	dw := make([]bool, len(js))
	for _, p := range c.inLayerOrder(js) {
		dw[p] = c.isDepthwise(&c.tinfo[js[p]])
	}
	return dw
}

func evalNoTensorCore(c *evaluation) *contract.Finding {
	if precisionRank(c.target) == 0 || precisionRank(c.target) >= 4 {
		return nil // FP32/TF32 engines: see fp32_engine
	}
	if !c.hasTensorCores(c.target) {
		return nil // this GPU has no tensor cores for the target: CUDA cores are its only kernels
	}
	tr := precisionRank(c.target)
	cand := c.timedWhere(func(t *timedInfo) bool {
		k := t.k
		return k.is(fMatmul) && k.is(fTactic) && !k.is(fTacticMyelin) && k.is(fTensorCoreNo) && int(k.rank) <= tr
	})
	dw := c.depthwise(cand)
	var recs []*contract.Record
	for p, j := range cand {
		if dw[p] {
			continue
		}
		if g, ok := c.gemvOf(int(c.tinfo[j].layer)); ok && g.rows <= limits.gemvMaxRows {
			continue // a matrix-vector product: bandwidth, not math (bandwidth_bound_gemv)
		}
		recs = append(recs, c.timed[j])
	}
	if len(recs) == 0 {
		return nil
	}
	f := c.newFinding("no_tensor_core", contract.ConfidenceMedium, recs)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d %s convolution/GEMM layers use CUDA-core tactics: %.4f ms (%.2f%% of the profile).", len(recs), c.target, sumMs(recs), c.pct(sumMs(recs))))
	stem := 0
	for i, r := range recs {
		in, _ := c.channels(r.Layer, c.class(r))
		if in > 0 && in <= 4 {
			stem++
		}
		if i < 4 {
			f.Evidence = append(f.Evidence, fmt.Sprintf("%s (%.2f%%, %d input channels): %s", short(r.Name), c.pct(r.AvgMs), in, short(r.Tactic)))
		}
	}
	if stem > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d of them read an image-like input of at most 4 channels: the first convolution, which has no %s tensor-core kernel for so few channels.", stem, c.target))
	}
	if stem == len(recs) && c.target == "INT8" {
		if c.explicitQDQ() {
			f.Action = "Run the first convolution in FP16: remove the Q/DQ pair around it in the model (keep the others), so TensorRT picks an FP16 tensor-core kernel for the 3-channel input."
			f.NextCheck = "Re-export without the QuantizeLinear/DequantizeLinear on the first convolution's input and weights, " + c.rebuildWith("--int8 --fp16") + " and compare the first layer's time."
		} else {
			names := c.addressable(recs, "fp16")
			f.Action = "Run the first convolution in FP16 (few input channels have no INT8 tensor-core kernel)."
			if names != "" && c.has("--layerPrecisions="+names) {
				f.NextCheck = "Rebuild with --int8 --fp16 --precisionConstraints=prefer " + layerPrecisionsArg(names) + " and compare the first layer's time."
			} else {
				f.NextCheck = "Keep the first convolution in FP16 (set its precision in the network definition), " + c.rebuildWith("--int8 --fp16") + " and compare its time."
			}
		}
	} else {
		f.Action = "Check why TensorRT chose CUDA-core kernels for these layers (channel counts, batch size, tactic sources) and rebuild so tensor-core tactics can win."
		f.NextCheck = "Rebuild with --verbose and look in the build log for the tensor-core tactics of these layers and why they lost."
		if c.has("--builderOptimizationLevel=5") {
			f.NextCheck = "Rebuild with --builderOptimizationLevel=5 and --verbose, and look in the build log for the tensor-core tactics of these layers and why they lost."
		}
	}
	return f
}

// evalFP32Engine: an engine built in FP32. Its price is the measured
// difference to a reduced-precision sibling when one exists (sibling.go
// replaces the estimate); else the tensor-core headroom estimate.
func evalFP32Engine(c *evaluation) *contract.Finding {
	if c.target != "FP32" && c.target != "TF32" {
		return nil
	}
	all := c.selectTimed(flagged(fCompute))
	if len(all) == 0 {
		return nil
	}
	if !c.fastPath(layerfacts.FP16) && !c.fastPath(layerfacts.INT8) {
		return nil // the GPU computes nothing faster than FP32
	}
	var mm, tf32, other []*contract.Record
	for _, r := range all {
		k := c.class(r)
		switch {
		case k.is(fMatmul) && k.is(fTensorCore):
			tf32 = append(tf32, r)
		case k.is(fMatmul):
			mm = append(mm, r)
		default:
			other = append(other, r)
		}
	}
	f := c.newFinding("fp32_engine", contract.ConfidenceHigh, all)
	ps := c.partition(f, part{"convolution/GEMM on CUDA cores", mm}, part{"convolution/GEMM on TF32 tensor cores", tf32}, part{"other compute", other})
	mm, tf32, other = ps[0], ps[1], ps[2]
	bm, bt, bo := priceFactors["fp32_engine_matmul"], priceFactors["fp32_engine_tf32"], priceFactors["fp32_engine_other"]
	m, t, o, s := sumMs(mm), sumMs(tf32), sumMs(other), c.scale
	c.priceMs(f, s*(m*bm.low+t*bt.low+o*bo.low), s*(m*bm.est+t*bt.est+o*bo.est), s*(m*bm.high+t*bt.high+o*bo.high),
		fmt.Sprintf("CUDA-core convolution/GEMM %.4f ms × %.2f + TF32 tensor-core %.4f ms × %.2f + other compute %.4f ms × %.2f, × profile scale %.3f", m, bm.est, t, bt.est, o, bo.est, s))
	f.PriceBasis = "estimate"
	f.Metrics["matmul_ms"] = round(m+t, 6)
	f.Metrics["tf32_tensor_core_ms"] = round(t, 6)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("This engine computes in FP32 (%s): its convolutions/GEMMs cannot use FP16/INT8 tensor cores.", c.targetEvidence()),
		fmt.Sprintf("Convolution/GEMM: %.2f%% of the profile on CUDA cores, %.2f%% on TF32 tensor cores; other compute %.2f%%.", c.pct(m), c.pct(t), c.pct(o)))
	if t == 0 && m > 0 && c.ampereOrNewer(mm) {
		f.Evidence = append(f.Evidence, "No convolution/GEMM uses TF32 tensor cores, although this GPU has them and TensorRT allows TF32 by default: "+c.tf32Answer()+" TF32 is the fallback lever only if accuracy rules out FP16.")
	}
	c.fp32Action(f)
	return f
}

// fp32Action sets the action and next check of an fp32_engine finding in
// the words of the tool that built the engine, for a precision the GPU
// computes faster than FP32.
func (c *evaluation) fp32Action(f *contract.Finding) {
	if !c.fastPath(layerfacts.FP16) {
		// FP16 is slower than FP32 here (TensorRT keeps FP32 kernels):
		// INT8 is the only narrower path, and it needs scales.
		f.Evidence = append(f.Evidence, fmt.Sprintf("FP16 is no speed-up on this GPU: %s, and runs FP16 far slower than FP32, so TensorRT keeps FP32 kernels in an FP16 build.", c.deviceOffers()))
		f.Action = "Build INT8, not FP16: calibration with --int8 and a representative calibration set, or Q/DQ nodes from NVIDIA ModelOpt or pytorch-quantization; keep accuracy-critical layers in FP32 if validation requires it."
		f.NextCheck = "Rebuild with --int8 (and a calibration cache or the Q/DQ model) and compare latency and accuracy."
		return
	}
	// Not --best: it enables INT8 too, which without calibration data or
	// Q/DQ nodes quantizes with placeholder scales.
	f.Action = "Build with reduced precision: --fp16, keeping accuracy-critical layers in FP32 only if validation requires it."
	if !c.builtByTrtexec() {
		// Built through an API: say where the flag is there.
		how := "the TensorRT API's config.set_flag(trt.BuilderFlag.FP16)"
		if c.torchTensorRT() {
			how = "Torch-TensorRT's enabled_precisions={torch.float16} (TensorRT API: config.set_flag(trt.BuilderFlag.FP16))"
		}
		f.Action = "Build with reduced precision: " + how + ", or trtexec --fp16 from the ONNX model, keeping accuracy-critical layers in FP32 only if validation requires it. FP16 input and output formats alone do not make the layers compute in FP16."
		f.NextCheck = "Rebuild with the FP16 builder flag set and compare latency and accuracy."
	}
	if c.stronglyTyped() {
		f.Action = "Export the model with FP16 (or BF16) weights and activations: this TensorRT builds strongly typed networks, so the precision comes from the model."
		f.NextCheck = "Re-export the model in FP16 (e.g. model.half() before ONNX export, or onnxconverter-common float16), rebuild and compare latency and accuracy."
	}
}

// ampereOrNewer: the device is known to have TF32 tensor cores (compute
// capability 8.0 or newer), from the device facts or from an sm80+ tactic
// name among recs.
func (c *evaluation) ampereOrNewer(recs []*contract.Record) bool {
	if cc := c.computeCapability(); cc > 0 {
		return cc >= 80
	}
	for _, r := range recs {
		if layerfacts.SMVersion(r.Tactic) >= 80 {
			return true
		}
	}
	return false
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
// first input and OutMaps for convolutions (C of the first output when the
// layer info has no parameters, as a verbose build log's layer line); K
// (last input dim) and N (last output dim) for GEMMs. 0 when unknown.
func (c *evaluation) channels(layer int, k class) (in, out int64) {
	l := &c.b.Layers[layer]
	p := c.convParams(layer)
	conv := p.hasOut || k.has(tgConv) && !k.has(tgGemm)
	if conv {
		// NCHW and its vectorised formats: TensorRT writes the logical
		// dimensions, channels second.
		if len(l.Inputs) > 0 && len(l.Inputs[0].Dimensions) >= 3 {
			in = l.Inputs[0].Dimensions[1]
		}
		if p.hasOut {
			out = p.out
		} else if len(l.Outputs) > 0 && len(l.Outputs[0].Dimensions) >= 3 {
			out = l.Outputs[0].Dimensions[1]
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

// notMathBound reports whether a layer's time is known to be set by
// memory traffic or launch overhead rather than its arithmetic: its
// measured roofline position says memory, or, without one, the cost model
// says memory or launch. Padded channels waste math, so such a layer gives
// nothing back when they are aligned (a head convolution writing two
// channels of a large map moves bytes, it does not multiply).
func (c *evaluation) notMathBound(r *contract.Record) bool {
	if rf := r.Roofline; rf != nil && rf.Bound != nil {
		return *rf.Bound != contract.RooflineBoundCompute
	}
	m := c.model
	if m == nil || r.Layer < 0 || r.Layer >= len(m.Layers) {
		return false
	}
	p := m.Params
	if p == nil {
		p = &costmodel.Calibrated
	}
	switch p.Time(&m.Device, &m.Layers[r.Layer]).Bound {
	case costmodel.BoundMemory, costmodel.BoundLaunch:
		return true
	}
	return false
}

func evalChannelAlignment(c *evaluation) *contract.Finding {
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
		return t.k.align != 0 && t.k.is(fMatmul) && !t.k.is(fKgenMHA) && !t.k.is(fMyelinRaw) && !t.k.is(fPointwiseRaw)
	})
	ch := make([]chans, len(cand))
	for _, p := range c.inLayerOrder(cand) {
		t := &c.tinfo[cand[p]]
		if c.isDepthwise(t) {
			ch[p].skip = true
			continue
		}
		ch[p].in, ch[p].out = c.channels(int(t.layer), t.k)
	}
	var bads []bad
	var recs []*contract.Record
	for p, j := range cand {
		a, in, out := int64(c.tinfo[j].k.align), ch[p].in, ch[p].out
		// Inputs of 4 channels or fewer are image inputs: TensorRT pads
		// them and a first-layer kernel handles them.
		r := c.timed[j]
		if !ch[p].skip && (in > 0 && (in%a != 0 && in > 4) || out > 0 && out%a != 0) && !c.notMathBound(r) {
			bads = append(bads, bad{r, in, out, a})
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 || c.pct(sumMs(recs)) < 0.5 {
		return nil
	}
	f := c.newFinding("channel_alignment", contract.ConfidenceMedium, recs)
	// Price: the padded (wasted) fraction of each layer's math.
	wastedMs := 0.0
	for _, b := range bads {
		wastedMs += b.r.AvgMs * padWaste(b.in, b.out, b.align)
	}
	c.priceMs(f, wastedMs*c.scale*0.5, wastedMs*c.scale, wastedMs*c.scale,
		fmt.Sprintf("Σ layer time × padded fraction of its channels (%.4f ms wasted of %.4f ms), × profile scale %.3f", wastedMs, sumMs(recs), c.scale))
	f.PriceBasis = "estimate"
	f.Metrics["wasted_ms"] = round(wastedMs, 6)
	f.Evidence = append(f.Evidence, fmt.Sprintf("%d convolution/GEMM layers have channel counts that are not multiples of 8 (FP16), 16 (INT8) or 32 (FP8): %.4f ms (%.2f%%); padding wastes %.4f ms of it.",
		len(recs), sumMs(recs), c.pct(sumMs(recs)), wastedMs))
	for i, b := range bads {
		if i == 5 {
			break
		}
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s (%.2f%%, %s): %d input / %d output channels, want multiples of %d.",
			short(b.r.Name), c.pct(b.r.AvgMs), b.r.Precision, b.in, b.out, b.align))
	}
	f.Action = "Pad the channel counts of these layers to the next multiple in the model (zero-padded weights), or accept the waste if the architecture is fixed."
	f.NextCheck = "Pad the channel counts of these layers to the next multiple (8 for FP16, 16 for INT8, 32 for FP8) in the model (zero-padded weights), rebuild and compare these layers' times."
	return f
}

// padWaste is the fraction of a layer's math spent on padding when its
// channels are rounded up to a multiple of align (inputs of 4 channels or
// fewer are image inputs, handled by first-layer kernels: not counted).
func padWaste(in, out, align int64) float64 {
	frac := func(n int64) float64 {
		if n <= 0 || align <= 0 || n%align == 0 {
			return 1
		}
		padded := (n + align - 1) / align * align
		return float64(n) / float64(padded)
	}
	useful := frac(out)
	if in > 4 {
		useful *= frac(in)
	}
	return 1 - useful
}

// tf32Answer says why an FP32 build on a TF32-capable GPU runs no TF32
// kernel, from the build's own facts when a --verbose build log or the
// command answers it.
func (c *evaluation) tf32Answer() string {
	b := c.b.Build
	switch {
	case b == nil || b.TF32Timed == nil:
		return "the build may have disabled TF32 (--noTF32), or TF32 kernels lost the timing (a --verbose build log would say which)."
	case *b.TF32Timed:
		return "TF32 was allowed and its kernels lost the timing (" + b.TF32Evidence + ")."
	}
	return "TF32 was not tried (" + b.TF32Evidence + ")."
}
