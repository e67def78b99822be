package gen

import (
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/gpu"
)

// builder is what a shape function writes its engine through: tensor and
// layer helpers, tactic names, and the emitter's budget.
type builder struct {
	e   *emitter
	r   *rng // structure: the same in every optimization profile
	o   Options
	act dtype // activation type
	q   dtype // gemm/conv operand type (Int8/FP8 for quantized engines)
	bd  int64 // batch dimension (-1 when dynamic)
	mye int   // __mye constant counter
	dev gpu.Facts
}

func newBuilder(e *emitter, o Options) *builder {
	b := &builder{e: e, r: newRNG(o.Seed, 1), o: o, bd: 1}
	if o.DynamicDims {
		b.bd = -1
	}
	switch o.Precision {
	case "fp32":
		b.act, b.q = dtFloat, dtFloat
	case "bf16":
		b.act, b.q = dtBF16, dtBF16
	case "int8":
		b.act, b.q = dtHalf, dtInt8
	case "fp8":
		b.act, b.q = dtHalf, dtFP8
	default:
		b.act, b.q = dtHalf, dtHalf
	}
	return b
}

func (b *builder) room() bool        { return b.e.room() }
func (b *builder) add(l *layer) bool { return b.e.add(l) }
func (b *builder) boundary()         { b.e.boundary() }
func (b *builder) trt8() bool        { return b.o.Era == "trt8" }

// last is the most recent activation written, what a tail continues from.
func (b *builder) last() tensor { return b.e.lastOut }

// input declares an engine input. With InputProducedByLayer the first one is
// also written by a Constant layer, which keeps the graph a DAG.
func (b *builder) input(t tensor) tensor {
	if b.e.run == 0 {
		b.e.io = append(b.e.io, ioTensor{t: t, input: true})
		if b.o.InputProducedByLayer && !b.e.inputHit {
			b.e.inputHit = true
			b.add(&layer{name: "(Unnamed Layer* 0) [Constant]", typ: "Constant", out: []tensor{t},
				params: []kv{{"ParameterType", `"Constant"`}, {"weights", `{"Type": "` + t.dt.kernelName() + `", "Count": 1}`}, {"dimensions", dimsJSON(t.dims)}},
				tvalue: "0x0000000000000000"})
		}
	}
	return t
}

func (b *builder) output(t tensor) {
	if b.e.run == 0 {
		b.e.io = append(b.e.io, ioTensor{t: t})
	}
}

func t(name string, dt dtype, lay layout, dims ...int64) tensor {
	return tensor{name: name, dims: dims, dt: dt, lay: lay}
}

func dimsJSON(d []int64) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, v := range d {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.FormatInt(v, 10))
	}
	sb.WriteByte(']')
	return sb.String()
}

// newGraph starts a Myelin graph (a partition); TensorRT 10 opens each with
// a shape_call kernel.
func (b *builder) newGraph(first bool) {
	if !first {
		b.e.g++
	}
	b.e.k = 0
	if b.trt8() {
		return
	}
	b.mye += 7
	b.add(&layer{name: "dummy_shape_call__mye" + strconv.Itoa(600+b.mye) + "_0", mylSfx: true, typ: "shape_call", myelin: true, cost: 0.002})
}

// dconst is a Myelin weight constant.
func (b *builder) dconst(dt dtype, dims ...int64) tensor {
	b.mye++
	return t("__mye"+strconv.Itoa(1000+b.mye)+"_dconst", dt, layLinear, dims...)
}

func (b *builder) tv() string { return "0x" + b.r.hex(16) }

// kgen is a generated fused Myelin kernel named after its ops.
func (b *builder) kgen(ops string, in, out []tensor, meta []string, cost float64) *layer {
	return &layer{name: "__myl_" + ops, mylSfx: true, typ: "kgen", in: in, out: out, meta: meta, cost: cost,
		tactic: "__myl_" + abbrev(ops) + "_0x" + b.r.hex(32), myelin: true}
}

// abbrev shortens an op list the way Myelin tactic names do (first three
// letters of each op: AddMulMean -> AddMulMea).
func abbrev(ops string) string {
	var sb strings.Builder
	start := 0
	for i := 1; i <= len(ops); i++ {
		if i == len(ops) || (ops[i] >= 'A' && ops[i] <= 'Z') {
			w := ops[start:i]
			if len(w) > 3 {
				w = w[:3]
			}
			sb.WriteString(w)
			start = i
		}
	}
	return sb.String()
}

// gemm is a Myelin GEMM kernel on x with weights w.
func (b *builder) gemm(name string, x tensor, w tensor, out tensor, meta []string, m, k, n float64) *layer {
	// Myelin lists the GEMM's alpha/beta scalars beside the weights, as in
	// the AlexNet corpus dump.
	b.mye += 2
	alpha := t("__mye"+strconv.Itoa(b.mye-1)+name+"_alpha", dtFloat, layLinear, 1)
	beta := t("__mye"+strconv.Itoa(b.mye)+name+"_beta", dtFloat, layLinear, 1)
	return &layer{name: name, mylSfx: true, typ: "gemm", in: []tensor{x}, consts: []tensor{w, alpha, beta}, out: []tensor{out},
		meta: meta, cost: b.gemmCost(m, k, n), tactic: b.gemmTactic(), myelin: true}
}

// gemmCost is milliseconds for an m×k×n GEMM at ~200 TFLOP/s, scaled by the
// operand precision.
// The layer times are a roofline of the device the engine's tactics name
// (sm80: an A100-SXM4-80GB; sm90, for the BF16/FP8 engines: an H100 SXM),
// from the gpu package's datasheet table: a layer takes the longer of its
// arithmetic at the precision's dense tensor-core peak and its bytes at the
// memory bandwidth, each at the fraction of peak well-tuned kernels reach,
// plus the fixed cost of a kernel. No layer is slowed at random: what is
// slow is slow because of its shape and precision.
const (
	computeEfficiency = 0.7    // of the dense tensor-core peak (large GEMMs reach 70-80%)
	memoryEfficiency  = 0.8    // of the datasheet bandwidth (streaming kernels)
	kernelMs          = 0.0025 // launch and tail of one kernel in a per-layer profile
)

// device is the GPU the generated engine's times are for.
func (b *builder) device() gpu.Facts {
	if b.dev.Name != "" {
		return b.dev
	}
	d := gpu.Device{Name: "NVIDIA A100-SXM4-80GB", CCMajor: 8, CCMinor: 0}
	if b.q == dtBF16 || b.q == dtFP8 {
		d = gpu.Device{Name: "NVIDIA H100 80GB HBM3", CCMajor: 9, CCMinor: 0}
	}
	f, ok := gpu.Derive(d)
	if !ok || f.MemoryBandwidthGBs == nil {
		panic("gen: the gpu table lacks " + d.Name)
	}
	b.dev = f
	return f
}

// peakTFLOPS is the device's dense peak for the GEMM operand type.
func (b *builder) peakTFLOPS() float64 {
	p := b.device().Peaks
	v := p.FP16
	switch b.q {
	case dtFloat:
		v = p.TF32 // FP32 GEMMs take TF32 tensor-core tactics by default
	case dtBF16:
		v = p.BF16
	case dtInt8:
		v = p.INT8
	case dtFP8:
		v = p.FP8
	}
	if v == nil {
		panic("gen: no peak for the engine's precision on " + b.device().Name)
	}
	return *v
}

// gemmCost is the milliseconds of an m×k by k×n product: operands and
// result in the activation type, weights in the operand type.
func (b *builder) gemmCost(m, k, n float64) float64 {
	flops := 2 * m * k * n
	bytes := (m*k+m*n)*b.act.size() + k*n*b.q.size()
	compute := flops / (b.peakTFLOPS() * 1e9 * computeEfficiency) // TFLOP/s = 1e9 FLOP/ms
	return max(compute, b.bytesMs(bytes)) + kernelMs
}

// memCost is the milliseconds of a kernel that streams `bytes`.
func (b *builder) memCost(bytes float64) float64 { return b.bytesMs(bytes) + kernelMs }

func (b *builder) bytesMs(bytes float64) float64 {
	return bytes / (*b.device().MemoryBandwidthGBs * 1e6 * memoryEfficiency) // GB/s = 1e6 B/ms
}

var tiles = []string{"128x128x32", "128x256x64", "256x128x64", "64x128x64", "128x64x64", "64x64x64"}

func (b *builder) gemmTactic() string {
	tile := pick(b.r, tiles...)
	stage := strconv.Itoa(3 + b.r.intn(4))
	switch b.q {
	case dtBF16:
		return "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize" + tile + "_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas"
	case dtFP8:
		return "sm90_xmma_gemm_e4m3e4m3_e4m3f32_f32_tn_n_tilesize" + tile + "_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
	case dtInt8:
		return "sm80_xmma_gemm_i8i8_i8i32_f32_tn_n_tilesize" + tile + "_stage" + stage + "_warpsize2x2x1_tensor16x8x32"
	case dtFloat:
		return "sm80_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize" + tile + "_stage" + stage + "_warpsize2x2x1_tensor16x8x8"
	}
	if b.r.intn(3) == 0 {
		return "ampere_h16816gemm_" + pick(b.r, "256x128", "128x128", "128x256", "64x64") + "_ldg8_stages_32x" + stage + "_tn"
	}
	return "sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize" + tile + "_stage" + stage + "_warpsize2x2x1_tensor16x8x16"
}

// convTactic names a CASK implicit-GEMM convolution kernel for an r×r filter.
func (b *builder) convTactic(r int) string {
	tile := pick(b.r, tiles...)
	stage := strconv.Itoa(2 + b.r.intn(4))
	rs := "_t1r" + strconv.Itoa(r) + "s" + strconv.Itoa(r)
	switch b.q {
	case dtInt8:
		return "sm80_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32_nchw_vect_c_32kcrs_vect_c_32_nchw_vect_c_32_tilesize" + tile + "_stage" + stage + "_warpsize2x2x1_g1_tensor16x8x32" + rs
	case dtFloat:
		return "sm80_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize" + tile + "_stage" + stage + "_warpsize2x2x1_g1_tensor16x8x8" + rs
	case dtBF16:
		return "sm80_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize" + tile + "_stage" + stage + "_warpsize2x2x1_g1_tensor16x8x16" + rs
	}
	return "sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize" + tile + "_stage" + stage + "_warpsize2x2x1_g1_tensor16x8x16" + rs
}

// convDT and convLay are the type and layout CASK convolutions read and
// write for the engine's precision.
func (b *builder) convDT() dtype {
	switch b.q {
	case dtInt8, dtFloat, dtBF16:
		return b.q
	}
	return dtHalf
}

func (b *builder) convLay() layout {
	switch b.q {
	case dtInt8:
		return layVec32
	case dtFloat:
		return layLinear
	}
	return layHWC8
}

// conv is a CASK convolution (+ optional fused ReLU and residual add).
func (b *builder) conv(name string, in []tensor, out tensor, k, stride, cin, cout int64, relu, residual bool, meta []string) *layer {
	hw := float64(out.dims[2] * out.dims[3])
	wt := b.convDT().kernelName()
	cnt := k * k * cin * cout
	bool01 := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	act := "NONE"
	if relu {
		act = "RELU"
	}
	pad := dimsJSONc(k/2, k/2)
	l := &layer{name: name, typ: "CaskConvolution", in: in, out: []tensor{out}, meta: meta,
		params: []kv{
			{"ParameterType", `"Convolution"`}, {"Kernel", dimsJSONc(k, k)}, {"PaddingMode", `"kEXPLICIT_ROUND_DOWN"`},
			{"PrePadding", pad}, {"PostPadding", pad}, {"Stride", dimsJSONc(stride, stride)}, {"Dilation", "[1,1]"},
			{"OutMaps", strconv.FormatInt(cout, 10)}, {"Groups", "1"},
			{"Weights", `{"Type": "` + wt + `", "Count": ` + strconv.FormatInt(cnt, 10) + `}`},
			{"Bias", `{"Type": "` + b.act.kernelName() + `", "Count": ` + strconv.FormatInt(cout, 10) + `}`},
			{"HasBias", "1"}, {"HasReLU", bool01(relu)}, {"HasSparseWeights", "0"}, {"HasDynamicFilter", "0"},
			{"HasDynamicBias", "0"}, {"HasResidual", bool01(residual)}, {"ConvXAsActInputIdx", "-1"},
			{"BiasAsActInputIdx", "-1"}, {"ResAsActInputIdx", "-1"}, {"Activation", `"` + act + `"`},
		},
		tactic: b.convTactic(int(k)), tvalue: b.tv(),
		cost: b.gemmCost(hw*float64(b.abs(out.dims[0])), float64(k*k*cin), float64(cout)),
	}
	return l
}

func (b *builder) abs(v int64) int64 {
	if v < 0 {
		return 1
	}
	return v
}

func dimsJSONc(v ...int64) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.FormatInt(x, 10))
	}
	sb.WriteByte(']')
	return sb.String()
}

// reformat is a Reformat CopyNode feeding input 0 of consumer.
func (b *builder) reformat(src tensor, consumer string, lay layout, dt dtype) (*layer, tensor) {
	out := tensor{name: "Reformatted Input Tensor 0 to " + consumer, dims: src.dims, dt: dt, lay: lay}
	cost := b.memCost(2 * float64(numel(src.dims)) * 2)
	if b.r.intn(12) == 0 {
		cost = 0 // elided at run time
	}
	return &layer{name: "Reformatting CopyNode for Input Tensor 0 to " + consumer, typ: "Reformat",
		in: []tensor{src}, out: []tensor{out}, params: []kv{{"ParameterType", `"Reformat"`}},
		origin: "REFORMAT", tvalue: "0x00000000000003e8", cost: cost}, out
}

func numel(d []int64) int64 {
	n := int64(1)
	for _, v := range d {
		if v < 0 {
			v = 512 // a dynamic dim at its optimum
		}
		n *= v
	}
	return n
}

// ops prefixes each op with p.
func ops(p string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p + n
	}
	return out
}
