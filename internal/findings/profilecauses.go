package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// Causes a profile_only backend's layer names show (profileCauses), each an
// overview item over records no other cause holds, ranked by share.
const (
	ProfilePrologue         = "profile_input_prologue"
	ProfileStandaloneQDQ    = "profile_standalone_qdq"
	ProfileUnfusedPointwise = "profile_unfused_pointwise"
	ProfileDecomposedNorm   = "profile_decomposed_groupnorm"
)

// computeKinds are guessed kinds that do a layer's main work.
var computeKinds = map[string]bool{
	"Convolution": true, "Deconvolution": true, "MatrixMultiply": true, "FullyConnected": true,
	"Myelin": true, layerfacts.KindDLA: true, "Pooling": true,
}

// profileCauses reads causes off the record names of a profile_only
// backend, in profile order, each record held by at most one cause:
//   - the graph-input prologue: layout transposes, pads, reformats, casts
//     and quantize layers before the first computing layer, plus explicit
//     Pad layers anywhere (a pad a convolution or pooling could fold in);
//   - standalone Q/DQ layers (not fused into a computing layer's name);
//   - unfused epilogues: pointwise, activation and cast records right after
//     a computing layer (the activation TensorRT fuses into a convolution
//     or GEMM when nothing blocks it);
//   - decomposed GroupNorm: an InstanceNormalization plugin and the
//     scale, cast and reformat records around it in its scope.
//
// Items under limits.minFindingPct of the layer sum are left out.
func profileCauses(b *contract.Backend, total float64) ([]contract.OverviewItem, []bool) {
	recs := b.Records
	held := make([]bool, len(recs))
	take := func(i int) *contract.Record { held[i] = true; return &recs[i] }
	var items []contract.OverviewItem
	add := func(id, title, why string, rs []*contract.Record) {
		ms := sumMs(rs)
		if len(rs) == 0 || ms/total*100 < limits.minFindingPct {
			return
		}
		slices.SortStableFunc(rs, byTime)
		items = append(items, contract.OverviewItem{ID: id,
			Title: fmt.Sprintf("%s: %.1f%% of the time (from layer names)", title, ms/total*100),
			Evidence: []string{
				fmt.Sprintf("%d layer(s) take %.4f ms (%.2f%% of %.4f ms). Largest: %s.", len(rs), ms, ms/total*100, total, namesOf(rs, 3)),
				why,
			},
			Metrics: map[string]float64{"time_ms": round(ms, 6), "share_pct": round(ms/total*100, 3), "layer_count": float64(len(rs))},
			Layers:  matchedLayers(rs)})
	}

	// Decomposed GroupNorm first: its reformats and casts belong to it.
	var norm []*contract.Record
	for i := range recs {
		if !strings.Contains(recs[i].Name, "InstanceNormalization") {
			continue
		}
		scope := recs[i].Name[:max(0, strings.LastIndexByte(recs[i].Name, '/'))]
		if scope == "" {
			continue
		}
		for j := max(0, i-3); j < min(len(recs), i+4); j++ {
			if !held[j] && strings.Contains(recs[j].Name, scope) && recs[j].AvgMs > 0 {
				norm = append(norm, take(j))
			}
		}
	}
	add(ProfileDecomposedNorm, "GroupNorm runs decomposed (InstanceNormalization plugin, scale, casts and reformats)",
		"Each normalization runs as an InstanceNormalization plugin plus separate scale, cast and reformat kernels, the ONNX export of GroupNorm. TensorRT's GroupNorm plugin, or TensorRT 10's GroupNormalization layer (opset 18 export), runs it as one kernel.", norm)

	first := slices.IndexFunc(recs, func(r contract.Record) bool { return computeKinds[r.LayerType] })
	var pro []*contract.Record
	for i := range recs {
		k := recs[i].LayerType
		before := first < 0 || i < first
		if held[i] || recs[i].AvgMs <= 0 {
			continue
		}
		if before && (k == "Reformat" || k == "Shuffle" || k == "Padding" || k == "Quantize" || k == "Cast" || k == "Slice") || k == "Padding" {
			pro = append(pro, take(i))
		}
	}
	add(ProfilePrologue, "The graph input passes through layout, pad, reformat or quantize layers before the first computation",
		"These layers convert the input (a layout transpose such as an NHWC export, an explicit Pad, a type reformat or a QuantizeLinear) or pad a tensor a convolution or pooling could pad itself. Feed the engine the type and layout it computes in (export NCHW, --inputIOFormats, quantize in pre-processing) and fold explicit pads into the next convolution or pooling.", pro)

	var qdq []*contract.Record
	for i := range recs {
		if k := recs[i].LayerType; !held[i] && recs[i].AvgMs > 0 && (k == "Quantize" || k == "Dequantize") {
			qdq = append(qdq, take(i))
		}
	}
	add(ProfileStandaloneQDQ, "Standalone Q/DQ layers run as their own kernels",
		"A QuantizeLinear/DequantizeLinear that TensorRT fuses into its neighbours costs nothing; these run on their own, typically a quantize before a layer without INT8 input (a residual Add, a pooling) or a Q/DQ pair placed where no fusion applies. Place Q/DQ so each quantizes a convolution or GEMM input (quantize the residual branches too) and check the layer list again.", qdq)

	var pw []*contract.Record
	for i := 1; i < len(recs); i++ {
		if !computeKinds[recs[i-1].LayerType] {
			continue
		}
		for j := i; j < len(recs); j++ {
			k := recs[j].LayerType
			if k != "PointWise" && k != "Activation" && k != "Cast" {
				break
			}
			if !held[j] && recs[j].AvgMs > 0 {
				pw = append(pw, take(j))
			}
		}
	}
	add(ProfileUnfusedPointwise, "Activations and casts run as separate kernels after convolutions or GEMMs",
		"TensorRT fuses an activation (ReLU, clamp/ReLU6, GELU) into the convolution or GEMM before it; these run as their own kernels, reading and writing the whole tensor again. Something blocks the fusion: a cast between the two (a forced type change), a clamp exported as min/max with tensor bounds, or an op TensorRT has no fused epilogue for. Export the activation as one op (Relu, Clip with constant bounds) and remove the casts.", pw)

	return items, held
}
