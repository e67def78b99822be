package findings

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// rule is one row of the rule table: a cause a user can change, how it is
// priced and what would show it wrong. Eval returns nil when the rule does
// not apply; NextCheck is used when Eval leaves the finding's next_check
// empty.
type rule struct {
	ID        string
	Title     string
	Meaning   string // what the finding says, for `trtperf explain` and SKILL.md
	Price     string // how recoverable_ms is estimated
	Refuted   string // evidence that would show the finding wrong
	Eval      func(*evaluation) *contract.Finding
	NextCheck string
}

// rules is THE rule table, in ownership order: a rule only sees layers that
// no earlier rule owns, so root causes come first and the generic rules
// (reformats, shape ops) take what is left. Findings are then ranked by
// score (recoverable share × certainty), ties by id.
var rules = []rule{
	{ID: "bandwidth_bound_gemv", Title: "Batch-1 matrix-vector products are bound by weight bandwidth",
		Meaning: "Fully connected / GEMM layers with one row per weight matrix read all their weights for every inference; their time is memory bandwidth, not math, so tensor cores or channel padding do not help.",
		Price:   "the cost model's gain of INT8/FP8 weights on the owned time (price_basis model), else owned time × 0.5 (INT8/FP8 weights from FP16, or FP16 from FP32, halve the bytes; up to 0.875 by batching 8 requests).",
		Refuted: "achieved weight bandwidth far below the device's peak, or a batch dimension > 8 in the layer's output.",
		Eval:    evalGEMVBandwidth},
	{ID: "fp32_engine", Title: "Built without reduced precision (FP32 engine)",
		Meaning:   "The engine computes in FP32: convolutions and GEMMs cannot use FP16/INT8 tensor cores and memory-bound layers move twice the bytes.",
		Price:     "a measured faster FP16/BF16 sibling build in the same folder when there is one; else the cost model's gain of FP16 on this GPU (no tensor-core speed-up where the GPU has no FP16 tensor cores, none at all on Pascal GP10x; price_basis model); else convolution/GEMM time × 0.6 and other compute × 0.45. With a profile alone (profile_only), the build facts (a build log's Precision line or flags, TREx build metadata; never a --loadEngine run's defaults) must state an FP32 build: a measured sibling of the same work whose build allows FP16/INT8 prices it, else the compute records' measured time (kinds guessed from names) × 0.45 for convolution/GEMM where the GPU has TF32 tensor cores or is unknown (0.6 with FP16 tensor cores only, 0.3 on CUDA-core FP16; none on Pascal GP10x).",
		Refuted:   "an FP16 build of the same model that is not faster, or accuracy requirements that forbid FP16.",
		Eval:      evalFP32Engine,
		NextCheck: "Rebuild with --fp16 (keep accuracy-critical layers in FP32 if needed) and compare latency and accuracy."},
	{ID: "input_quantize", Title: "The graph input is quantized inside the engine",
		Meaning: "A standalone QuantizeLinear (or reformat to INT8) reads the FP32 graph input: nothing precedes it to fuse into.",
		Price:   "owned time × 0.85 (feeding INT8/FP16 input or quantizing in pre-processing removes it).",
		Refuted: "an input that must stay FP32 for the caller, and a pre-processing step that cannot quantize.",
		Eval:    evalInputQuantize},
	{ID: "input_prologue", Title: "Transpose, pad or reformat layers at the graph input",
		Meaning: "Data-movement layers fed by the graph input (NHWC→NCHW transposes, explicit Pad, type/layout reformats) and explicit Pad layers before a conv/pool run as their own kernels.",
		Price:   "owned time × 0.85 (feed the layout/type the first layer reads; fold pads into the conv/pool).",
		Refuted: "an input format the caller cannot change and pads the framework cannot fold.",
		Eval:    evalInputPrologue},
	{ID: "qdq_placement", Title: "Q/DQ placement leaves quantization unfused",
		Meaning: "In an explicitly quantized (Q/DQ) engine, QuantizeLinear/DequantizeLinear that TensorRT could not fuse run as reformats, their neighbours run in float, INT8 convolutions with float inputs or outputs fall back to CUDA-core int8x4 tactics, and tensor-core INT8 convolutions write FP16/FP32 for consumers that are not quantized: one cause, placement of Q/DQ in the model.",
		Price:   "standalone Q/DQ × 0.9 + float neighbours × 0.5 + CUDA-core INT8 convolutions × 0.6 + INT8 convolutions writing float × 0.25, each owned layer in one part (issues[].parts); a faster sibling QAT build in the folder bounds it from above (recoverable_ms and recoverable_high_ms at most its measured difference, metrics.sibling_bound_ms).",
		Refuted: "a rebuild with Q/DQ on every residual/pooling input in which these layers remain.",
		Eval:    evalQDQPlacement},
	{ID: "unfused_epilogue", Title: "Pointwise layers run alone after a convolution/GEMM",
		Meaning: "Activations or clamps (e.g. ReLU6) that TensorRT normally fuses into the preceding convolution/GEMM run as separate kernels, often because a cast or copy sits between them.",
		Price:   "owned time × 0.9 (a fused epilogue costs a few percent of a kernel).",
		Refuted: "a build of the same model in which these layers still run alone.",
		Eval:    evalUnfusedEpilogue},
	{ID: "decomposed_norm", Title: "GroupNorm/LayerNorm runs decomposed (InstanceNorm plugin + Scale + casts)",
		Meaning: "A normalization exported as InstanceNormalization plus reshapes, Scale and casts runs as several kernels with reformats between them.",
		Price:   "owned time × 0.7 (one GroupNorm kernel: the plugin, or TensorRT 10's GroupNormalization).",
		Refuted: "a build with the GroupNorm plugin that is not faster.",
		Eval:    evalDecomposedNorm},
	{ID: "int8_gemm_fp16", Title: "Transformer GEMMs stayed FP16 in an INT8 build",
		Meaning:   "Implicit INT8 quantization (--int8 with calibration) is skipped for GEMMs inside Myelin regions, so transformer MatMuls run FP16.",
		Price:     "the cost model's gain of INT8 on this GPU (price_basis model), else owned time × 0.35.",
		Refuted:   "GEMM tactics that are INT8, or an explicitly quantized build that is not faster.",
		Eval:      evalInt8GemmFP16,
		NextCheck: "Quantize explicitly: insert Q/DQ before the MatMuls (e.g. NVIDIA ModelOpt / pytorch-quantization), rebuild and check the GEMM tactics are INT8."},
	{ID: "attention_unfused", Title: "Attention is decomposed (softmax between separate matrix products)", Eval: evalAttentionUnfused,
		Meaning:   "Softmax runs between two separate GEMMs instead of one fused attention kernel.",
		Price:     "owned time × 0.5.",
		Refuted:   "a fused MHA kernel (fmha, mha_v2, kgen_mha) in the same engine for these layers.",
		NextCheck: "Export attention as one pattern TensorRT fuses (MatMul→Softmax→MatMul without casts or reshapes between, or scaled_dot_product_attention), build with TensorRT 10+, and check for a fused MHA kernel (kgen_mha / fmha)."},
	{ID: "qkv_unfused", Title: "Q, K and V projections are separate GEMMs", Eval: evalQKVUnfused,
		Meaning:   "Three GEMMs read the same input where one GEMM with concatenated weights would.",
		Price:     "owned time × 0.1 (larger GEMMs run slightly more efficiently).",
		Refuted:   "a fused QKV build that is not faster.",
		NextCheck: "Fuse the Q/K/V projections into one MatMul in the graph (concatenate the weights) so each block runs one larger GEMM."},
	{ID: "norm_unfused", Title: "Normalization is decomposed into several kernels", Eval: evalNormUnfused,
		Meaning:   "LayerNorm runs as ReduceMean/Sub/Pow/Sqrt/Div kernels instead of one.",
		Price:     "owned time × 0.7.",
		Refuted:   "a build with one LayerNormalization op that is not faster.",
		NextCheck: "Export LayerNorm/GroupNorm as one op (opset 17 LayerNormalization) or use a TensorRT build that fuses it; check the ONNX graph for the ReduceMean/Sub/Pow/Sqrt/Div chain."},
	{ID: "gelu_unfused", Title: "GELU is decomposed into several kernels", Eval: evalGeluUnfused,
		Meaning:   "GELU runs as Erf/Mul/Add kernels instead of inside the GEMM epilogue.",
		Price:     "owned time × 0.7.",
		Refuted:   "a build with a fused GELU that is not faster.",
		NextCheck: "Export GELU as one op (opset 20 Gelu, or the Erf pattern TensorRT fuses into the preceding GEMM) and check the fused layer names after rebuilding."},
	{ID: "residual_unfused", Title: "Residual adds run as separate kernels", Eval: evalResidualUnfused,
		Meaning:   "A residual Add right after a convolution/GEMM runs alone instead of in its epilogue.",
		Price:     "owned time × 0.8.",
		Refuted:   "a cast or reshape between the GEMM and the Add that the model needs.",
		NextCheck: "Make the residual Add follow the convolution/GEMM directly (no cast or reshape between) so TensorRT fuses it into the epilogue."},
	{ID: "no_tensor_core", Title: "Convolution/GEMM tactics without tensor cores", Eval: evalNoTensorCore,
		Meaning: "A convolution/GEMM in a reduced-precision engine runs on a CUDA-core tactic (the tactic table says so; unknown tactics are not counted).",
		Price:   "the cost model's gain of a tensor-core tactic of the same precision on this GPU (price_basis model), else owned time × 0.5.",
		Refuted: "a tensor-core tactic for the same shape that TensorRT timed slower (check with --builderOptimizationLevel=5 or the verbose build log)."},
	{ID: "channel_alignment", Title: "Convolution/GEMM channels not aligned for tensor cores", Eval: evalChannelAlignment,
		Meaning: "Channel counts that are not multiples of 8 (FP16), 16 (INT8) or 32 (FP8) are padded by TensorRT; the padding is wasted math.",
		Price:   "owned time × the fraction of padded channels (the work that is wasted).",
		Refuted: "the same layers with padded channels running no faster."},
	{ID: "partition_glue", Title: "Several engines or Myelin graphs with glue layers between them", Eval: evalPartitionGlue,
		Meaning:   "Reformat/shape/cast layers at the borders of partitions (Myelin graphs, subgraph engines).",
		Price:     "owned time × 0.6.",
		Refuted:   "ops between the partitions that TensorRT cannot run inside one graph.",
		NextCheck: "Look at the ops that split the graph (unsupported ops, plugins, casts) and remove or replace them so one Myelin graph / engine covers the region; with Torch-TensorRT, check the fallback ops reported at compile time."},
	{ID: "dynamic_shape_overhead", Title: "Shape, cast, slice, concat and gather kernels", Eval: evalDynamicShape,
		Meaning:   "Shape computations and data shuffling that static shapes and constant folding would remove.",
		Price:     "owned time × 0.5.",
		Refuted:   "the same layers with static shapes and folded constants.",
		NextCheck: "Build with static shapes (the same shape in --minShapes, --optShapes and --maxShapes) and fold constants (polygraphy surgeon sanitize --fold-constants) so TensorRT can remove shape computations."},
	{ID: "precision_fallback", Title: "Layers run wider than the engine's target precision", Eval: evalPrecisionFallback,
		Meaning: "Compute layers run in FP32 (or FP16 in an INT8 build) although the engine targets a narrower precision.",
		Price:   "the cost model's gain of the target precision on this GPU (price_basis model), else owned time × 0.45; FP32 layers TensorRT keeps for accuracy under 1 % (a final Softmax) are information only.",
		Refuted: "no kernel of the narrower precision for these layers, or accuracy loss when forcing it."},
	{ID: "reformat_overhead", Title: "Reformat/copy layers between layers that disagree on format", Eval: evalReformat,
		Meaning: "Reformats not explained by Q/DQ placement, the input prologue or a decomposed normalization: producer and consumer want different layouts or types.",
		Price:   "owned time × 0.6.",
		Refuted: "producer/consumer pairs that have no common format in this TensorRT version."},
	{ID: "launch_bound", Title: "The host cannot launch kernels fast enough", Eval: evalLaunchBound,
		Meaning: "Measured enqueue time is close to or above GPU compute time: the GPU waits for the CPU.",
		Price:   "owned time × 0.4 (CUDA graphs remove most per-launch cost).",
		Refuted: "enqueue time far below GPU compute time (then small kernels are not the bottleneck)."},
}

// siblingRule documents the cross-backend finding (see sibling.go): it has
// no per-backend evaluator.
var siblingRule = rule{ID: "sibling_delta", Title: "A sibling build of the same model in this folder is faster",
	Meaning: fmt.Sprintf("Another backend of the same model, measured the same way, takes less time; the part of the difference no other finding explains is this finding's price. A backend counts as a build of the same model only with evidence: the same input shapes, the same GPU when both name one, and at least %g%% of the two builds' compute layers aligned with a layer doing the same work (same FLOPs or output size); otherwise no measured difference prices anything and the overview item %s says why. Without a profile (layer_only) the layers of the layer info are aligned instead; such a build has no measured time, so a sibling without one prices nothing either and the overview item %s names it (the two are compared on predicted times).", limits.siblingMinAlignedPct, OverviewNoSibling, OverviewPredictedSibling),
	Price:   fmt.Sprintf("measured difference to the fastest comparable sibling, minus the prices of this backend's findings the sibling fixed (a finding the sibling also has, priced there at least %g× the price here, is a cost both pay and is not in the difference); no finding when the rest is within the fixed findings' high prices (their estimates' error).", limits.siblingSharedRatio),
	Refuted: "the two builds measured on different GPUs, batch sizes or with different profilers."}

// Evaluate runs every rule and every positive on one passed layer_profile
// backend. Findings are ranked by score, descending, ties by id. The
// diagnosis is the time base of the prices; overview holds the unscored
// description of where the time goes.
func Evaluate(b *contract.Backend) (issues []contract.Finding, positives []contract.Positive, diag *contract.Diagnosis, overview []contract.OverviewItem) {
	return EvaluateWith(b, nil)
}

// EvaluateWith is Evaluate with a cost model (nil: none): the findings it
// has a change for are priced by it (price_basis model; see model.go).
func EvaluateWith(b *contract.Backend, m *Model) (issues []contract.Finding, positives []contract.Positive, diag *contract.Diagnosis, overview []contract.OverviewItem) {
	c := newEvaluation(b)
	c.model = m
	issues = []contract.Finding{}
	if c.total <= 0 {
		return issues, []contract.Positive{}, nil, []contract.OverviewItem{}
	}
	for _, r := range rules {
		f := r.Eval(c)
		if f == nil || len(f.Layers) == 0 && f.RecoverableMs == 0 {
			continue
		}
		c.modelPrice(r.ID, f)
		if f.RecoverableShare < limits.minFindingPct {
			// Too small to tell from run-to-run noise: not scored, listed
			// as minor in the overview. It still owns its layers, so a
			// later rule never reprices them under another cause.
			f.ID = r.ID
			if f.Title == "" {
				f.Title = r.Title
			}
			for _, l := range f.Layers {
				c.owned[l] = true
			}
			c.minor = append(c.minor, *f)
			continue
		}
		f.ID = r.ID
		if f.Title == "" {
			f.Title = r.Title
		}
		if f.NextCheck == "" {
			f.NextCheck = r.NextCheck
		}
		if f.Action == "" {
			f.Action = f.NextCheck
		}
		if n := sampleCount(b, c.meas); n > 0 && n < limits.fewSamples {
			f.Confidence = contract.ConfidenceLow
			f.Evidence = append(f.Evidence, fmt.Sprintf("Only %d timed iterations: the price is uncertain (re-profile with more iterations).", n))
			c.rescore(f)
		}
		for _, l := range f.Layers {
			c.owned[l] = true
		}
		issues = append(issues, *f)
	}
	rank(issues)
	diag = c.diagnosis(issues)
	clear(c.owned) // positives and the overview see every layer
	c.fallbackD = false
	c.cause = map[int]string{}
	for _, f := range issues {
		for _, l := range f.Layers {
			c.cause[l] = f.ID
		}
	}
	overview = evalOverview(c)
	if m != nil && m.Predicted {
		for i := range issues {
			predictedWords(issues[i].Evidence)
		}
		for i := range overview {
			predictedWords(overview[i].Evidence)
		}
	}
	return issues, evalPositives(c), diag, overview
}

// predictedWords restates the rules' evidence for a backend without a
// profile, whose record times are the cost model's predictions: a share
// "of the profile" is one of the predicted time.
func predictedWords(ev []string) {
	for i, s := range ev {
		ev[i] = strings.ReplaceAll(s, "of the profile", "of the predicted time")
	}
}

// rank orders findings by score, ties by id.
func rank(issues []contract.Finding) {
	slices.SortStableFunc(issues, func(a, b contract.Finding) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// diagnosis sums the prices on the reference.
func (c *evaluation) diagnosis(issues []contract.Finding) *contract.Diagnosis {
	d := &contract.Diagnosis{ReferenceMs: round(c.ref, 6), ReferenceSource: c.refSource, LayerSumMs: round(c.total, 6), ProfileScale: round(c.scale, 6)}
	sum := 0.0
	for i := range issues {
		sum += issues[i].RecoverableMs
	}
	d.RecoverableMs = round(min(sum, c.ref), 6)
	if c.ref > 0 {
		d.RecoverableShare = round(min(100, d.RecoverableMs/c.ref*100), 3)
	}
	return d
}

// RuleDoc is what a rule means, for `trtperf explain` and SKILL.md.
type RuleDoc struct {
	ID, Title, Meaning, Price, Refuted string
}

// RuleDocs lists every finding rule, in ownership order, then sibling_delta.
func RuleDocs() []RuleDoc {
	out := make([]RuleDoc, 0, len(rules)+1)
	for _, r := range append(slices.Clone(rules), siblingRule) {
		out = append(out, RuleDoc{ID: r.ID, Title: r.Title, Meaning: r.Meaning, Price: r.Price, Refuted: r.Refuted})
	}
	return out
}
