package findings

import (
	"cmp"
	"slices"

	"github.com/trtperf/trtperf/internal/contract"
)

// rule is one row of the rule table. Eval returns nil when the rule does not
// apply; NextCheck is used when Eval leaves the finding's next_check empty.
type rule struct {
	ID        string
	Title     string
	Eval      func(*ctx) *contract.Finding
	NextCheck string
}

// rules is THE rule table. Order does not matter: findings are ranked by
// score, ties by id.
var rules = []rule{
	{ID: "hotspot_layers", Title: "A few layers dominate the time", Eval: evalHotspotLayers,
		NextCheck: "Profile the hot layers' kernels with nsys/ncu, or rebuild with --builderOptimizationLevel=5 and compare their tactics."},
	{ID: "hotspot_type", Title: "One layer type dominates the time", Eval: evalHotspotType,
		NextCheck: "Compare this type's tactics across builds (--builderOptimizationLevel=5, --best) and check the largest ones with nsys."},
	{ID: "tiny_kernels", Title: "Many tiny kernels add up (launch and fusion overhead)", Eval: evalTinyKernels,
		NextCheck: "Run trtexec with --useCudaGraph to measure launch overhead, and look for unfused pointwise/shape ops around these layers in the ONNX graph."},
	{ID: "reformat_overhead", Title: "Reformat/copy layers take a large share", Eval: evalReformat},
	{ID: "precision_fallback", Title: "Layers run wider than the engine's target precision", Eval: evalPrecisionFallback},
	{ID: "qdq_unfused", Title: "Quantize/Dequantize layers stand alone (not fused)", Eval: evalQDQUnfused},
	{ID: "quant_float_output", Title: "Quantized layers write float outputs", Eval: evalQuantFloatOutput},
	{ID: "no_tensor_core", Title: "Convolution/GEMM tactics without tensor cores", Eval: evalNoTensorCore},
	{ID: "fp32_engine", Title: "FP32 engine: FP32 math cannot use FP16/INT8 tensor cores", Eval: evalFP32Engine,
		NextCheck: "Rebuild with --fp16 (or --best) and compare latency and accuracy; on Ampere and newer, TF32 is on by default unless --noTF32."},
	{ID: "channel_alignment", Title: "Convolution/GEMM channels not aligned for tensor cores", Eval: evalChannelAlignment},
	{ID: "dynamic_shape_overhead", Title: "Shape, cast, slice, concat and gather kernels", Eval: evalDynamicShape,
		NextCheck: "Build with static shapes (--minShapes=--optShapes=--maxShapes) and fold constants (polygraphy surgeon sanitize --fold-constants) so TensorRT can remove shape computations."},
	{ID: "attention_unfused", Title: "Attention is decomposed (softmax between separate matrix products)", Eval: evalAttentionUnfused,
		NextCheck: "Export attention as one pattern TensorRT fuses (MatMul→Softmax→MatMul without casts or reshapes between, or scaled_dot_product_attention), build with TensorRT 10+, and check for a fused MHA kernel (kgen_mha / fmha)."},
	{ID: "qkv_unfused", Title: "Q, K and V projections are separate GEMMs", Eval: evalQKVUnfused,
		NextCheck: "Fuse the Q/K/V projections into one MatMul in the graph (concatenate the weights) so each block runs one larger GEMM."},
	{ID: "norm_unfused", Title: "Normalization is decomposed into several kernels", Eval: evalNormUnfused,
		NextCheck: "Export LayerNorm/GroupNorm as one op (opset 17 LayerNormalization) or use a TensorRT build that fuses it; check the ONNX graph for the ReduceMean/Sub/Pow/Sqrt/Div chain."},
	{ID: "gelu_unfused", Title: "GELU is decomposed into several kernels", Eval: evalGeluUnfused,
		NextCheck: "Export GELU as one op (opset 20 Gelu, or the Erf pattern TensorRT fuses into the preceding GEMM) and check the fused layer names after rebuilding."},
	{ID: "residual_unfused", Title: "Residual adds run as separate kernels", Eval: evalResidualUnfused,
		NextCheck: "Make the residual Add follow the convolution/GEMM directly (no cast or reshape between) so TensorRT fuses it into the epilogue."},
	{ID: "partition_glue", Title: "Several engines or Myelin graphs with glue layers between them", Eval: evalPartitionGlue,
		NextCheck: "Look at the ops that split the graph (unsupported ops, plugins, casts) and remove or replace them so one Myelin graph / engine covers the region; with Torch-TensorRT, check the fallback ops reported at compile time."},
}

// Evaluate runs every rule and every positive on one passed layer_profile
// backend. Findings are ranked by score, descending, ties by id.
func Evaluate(b *contract.Backend) (issues []contract.Finding, positives []contract.Positive) {
	c := newCtx(b)
	issues = []contract.Finding{}
	if c.total <= 0 {
		return issues, []contract.Positive{}
	}
	for _, r := range rules {
		f := r.Eval(c)
		if f == nil {
			continue
		}
		f.ID = r.ID
		if f.Title == "" {
			f.Title = r.Title
		}
		if f.NextCheck == "" {
			f.NextCheck = r.NextCheck
		}
		issues = append(issues, *f)
	}
	slices.SortStableFunc(issues, func(a, b contract.Finding) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return issues, evalPositives(c)
}
