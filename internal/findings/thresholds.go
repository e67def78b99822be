package findings

// This file is THE table of the diagnosis' numbers: every threshold and
// every price factor a rule uses, in one place, so a reviewer can check them
// against experience without reading control flow.

import "fmt"

// band is the fraction of a finding's owned layer time a fix gives back:
// low, the point estimate, high.
type band struct{ low, est, high float64 }

// priceFactors are the recoverable fractions per rule (owned time × factor ×
// profile scale = recoverable_ms). Why each value:
var priceFactors = map[string]band{
	// A fused Q/DQ costs next to nothing inside its producer's epilogue; a
	// little remains (the producer writes INT8 instead of FP16).
	"qdq_standalone": {0.7, 0.9, 1.0},
	// A float layer fed by or feeding INT8 moves 2–4× the bytes of its INT8
	// version; INT8 pooling/elementwise kernels exist.
	"qdq_float_consumer": {0.3, 0.5, 0.7},
	// An INT8 conv on an int8x4 (dp4a, CUDA-core) tactic because of float I/O:
	// IMMA tensor-core INT8 is 2–4× faster for the same shape.
	"qdq_cuda_core_conv": {0.4, 0.6, 0.8},
	// Tensor-core INT8 convolutions that write float because the consumer
	// is not quantized: INT8 output moves a quarter to half the bytes and
	// gets the faster epilogue (measured on sibling QAT builds: 13–59 %).
	"qdq_float_output_conv": {0.1, 0.25, 0.45},
	// Quantizing the graph input inside the engine: INT8/FP16 input fed by
	// the caller removes most of it (the caller's conversion is cheaper or
	// fused into pre-processing).
	"input_quantize": {0.6, 0.85, 1.0},
	// Transposes, pads and reformats at the graph input disappear when the
	// input arrives in the layout/type the first layer reads, or the pad is
	// folded into the conv/pool (its padding attribute).
	"input_prologue": {0.6, 0.85, 1.0},
	// A pointwise epilogue fused into its conv/GEMM costs a few percent.
	"unfused_epilogue": {0.7, 0.9, 1.0},
	// GroupNorm as one kernel (plugin or TensorRT 10 GroupNormalization) vs
	// InstanceNorm plugin + Scale + casts/reformats around it.
	"decomposed_norm": {0.5, 0.7, 0.85},
	// A batch-1 GEMV reads its weights once per inference: INT8/FP8 weights
	// halve (from FP16) the bytes; batching B requests divides them by B.
	"gemv_bandwidth": {0.5, 0.5, 0.875},
	// FP32 → FP16 tensor cores: convolution/GEMM 2–4× faster, memory-bound
	// layers move half the bytes.
	"fp32_engine_matmul": {0.45, 0.6, 0.75},
	"fp32_engine_other":  {0.3, 0.45, 0.5},
	// TF32 tensor cores → FP16: about 2× for the math.
	"fp32_engine_tf32": {0.3, 0.45, 0.55},
	// FP32 → FP16 on a GPU without FP16 tensor cores (Maxwell sm53,
	// Pascal sm60/sm62): FP16 at twice the FP32 rate on CUDA cores halves
	// the time at best.
	"fp32_engine_fp16_cuda_cores": {0.15, 0.3, 0.5},
	// An INT8 GEMM that stayed FP16 (Myelin skipped implicit quantization).
	"int8_gemm_fp16": {0.2, 0.35, 0.5},
	// A conv/GEMM on a CUDA-core tactic in a reduced-precision engine.
	"no_tensor_core": {0.3, 0.5, 0.7},
	// Fallback layers: FP32 → FP16 about halves their time.
	"precision_fallback": {0.3, 0.45, 0.55},
	// Reformats between layers that disagree on a format: some remain.
	"reformat_overhead": {0.4, 0.6, 0.8},
	// Shape/cast/slice/gather work under dynamic shapes: folding removes part.
	"dynamic_shape_overhead": {0.3, 0.5, 0.8},
	// Glue at partition borders: one Myelin graph/engine removes most of it.
	"partition_glue": {0.4, 0.6, 0.8},
	// Decomposed transformer ops (attention, Q/K/V, LayerNorm, GELU, residual).
	"attention_unfused": {0.3, 0.5, 0.7},
	"qkv_unfused":       {0.05, 0.1, 0.2},
	"norm_unfused":      {0.5, 0.7, 0.85},
	"gelu_unfused":      {0.5, 0.7, 0.9},
	"residual_unfused":  {0.6, 0.8, 0.95},
	// Host launch overhead when the host is the bottleneck: CUDA graphs.
	"launch_bound": {0.2, 0.4, 0.6},
}

// limits are the rules' thresholds.
var limits = struct {
	// minFindingPct: a finding whose recoverable time is under this share of
	// the reference latency is not scored (its layers stay free for others;
	// the overview lists it as a minor item). Run-to-run spread of measured
	// medians is typically 1–3 %, so a smaller gain cannot be confirmed by
	// re-measuring, and an expert calls such an engine clean.
	minFindingPct float64
	// minorListPct: unscored candidates from this share are listed by name
	// in the overview's minor_items; smaller ones are only counted.
	minorListPct float64
	// reformatMinPct: reformats under this share of the time leave the
	// "no reformat overhead" positive standing.
	reformatMinPct float64
	// expectedFP32Pct: FP32 layers TensorRT keeps for accuracy (a final
	// Softmax, normalization statistics) under this share are information.
	expectedFP32Pct float64
	// gemvMaxRows: a GEMM/FC whose output has at most this many rows per
	// weight matrix is a matrix-vector product (batch-1 GEMV).
	gemvMaxRows int64
	// gemvMinBandwidthShare: a GEMV is bandwidth-bound from this share of
	// the device's peak memory bandwidth (when the device is known).
	gemvMinBandwidthShare float64
	// gemvMinGBs: without a known device, a GEMV is bandwidth-bound from
	// this achieved bandwidth (every current discrete GPU exceeds it).
	gemvMinGBs float64
	// siblingMinGainPct: a sibling build is worth a finding from this measured
	// gain; siblingCrossMeasureRatio: layer sums from different profilers are
	// compared only from this speed ratio (profiling overheads differ by up
	// to 1.7×, so smaller differences are not evidence).
	siblingMinGainPct        float64
	siblingCrossMeasureRatio float64
	// siblingMinAlignedPct: two backends are builds of one model (siblings
	// whose difference is a price) only when at least this share of their
	// compute layers align with a layer of the other doing the same work
	// (same FLOPs or output size). Builds of one model align 57–100 % in
	// the corpus (Torch-TensorRT's extra clamp kernels and fused
	// conv+pool layers are the rest); different models with the same input
	// shape align at most 20 % (ResNet18 vs ResNet50 19.5 %, AlexNet vs
	// VGG16 15 %, whose layers share torchvision's names).
	siblingMinAlignedPct float64
	// siblingSharedRatio: a finding the sibling build also has, priced
	// there at least this fraction of the price here, is a cost both builds
	// pay: the measured difference does not hold its fix, so it does not
	// explain part of the difference (an input prologue both run). Under
	// it the sibling fixed that cause, and what is left of it there is the
	// estimate's error, not a second cause.
	siblingSharedRatio float64
	// launchEnqueueRatio: the host is the bottleneck when enqueue time is at
	// least this fraction of GPU compute time.
	launchEnqueueRatio float64
	// hotLayerPct, hotTypePct: overview thresholds (descriptive only).
	hotLayerPct, hotTypePct float64
	// tinyMs: a kernel under 10 µs is mostly launch overhead (overview).
	tinyMs float64
	// fewSamples: fewer latency samples than this make every price low
	// confidence.
	fewSamples int64
	// accuracyTradeoffWeight scales the score of a gain that needs a
	// narrower precision than the build's (an INT8 sibling of an FP16
	// build: calibration or QAT, then an accuracy check). It is a choice
	// with a cost, not a defect of this build, so an expert names it after
	// the fixes that keep the build's numerics.
	accuracyTradeoffWeight float64
}{
	minFindingPct:            3.0,
	minorListPct:             0.5,
	reformatMinPct:           2.0,
	expectedFP32Pct:          1.0,
	gemvMaxRows:              8,
	gemvMinBandwidthShare:    0.5,
	gemvMinGBs:               150,
	siblingMinGainPct:        5,
	siblingCrossMeasureRatio: 2.0,
	siblingMinAlignedPct:     50,
	siblingSharedRatio:       0.5,
	launchEnqueueRatio:       0.8,
	hotLayerPct:              5,
	hotTypePct:               30,
	tinyMs:                   0.010,
	fewSamples:               10,
	accuracyTradeoffWeight:   0.1,
}

// certainty weights a finding's score by its confidence.
var certainty = map[string]float64{"high": 1.0, "medium": 0.7, "low": 0.4}

// ScoreRule says how findings are ranked, from the tables above; the
// documentation renders it from here.
func ScoreRule() string {
	return fmt.Sprintf("score = recoverable_share / 100 × certainty (high %g, medium %g, low %g), × %g more when the gain needs a narrower precision than the build's (metrics.%s = 1: calibration or QAT and an accuracy check, so fixes that keep the build's numerics rank first)",
		certainty["high"], certainty["medium"], certainty["low"], limits.accuracyTradeoffWeight, MetricAccuracyTradeoff)
}

// MinFindingPct is the share of the reference latency (percent) from which a
// candidate finding is scored; documentation renders it from here.
func MinFindingPct() float64 { return limits.minFindingPct }
