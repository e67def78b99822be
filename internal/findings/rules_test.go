package findings

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/contract"
)

// conv is a timed FP16 tensor-core convolution.
func conv(name string, ms float64, from ...int) L {
	return L{Name: name, Type: "CaskConvolution", Tactic: tcF6, Ms: ms, From: from, Params: `{"OutMaps":64,"Groups":1}`}
}

func filler(n int, ms float64) []L {
	out := make([]L, n)
	for i := range out {
		out[i] = conv(fmt.Sprintf("Conv_%d", i), ms)
	}
	return out
}

var ruleCases = []struct {
	name  string
	rule  string
	b     *contract.Backend
	fires bool
}{
	{"reformat 25% between two convolutions", "reformat_overhead", build("fp16", []L{
		conv("Conv_0", 3),
		{Name: "Reformatting CopyNode for Input Tensor 0 to Conv_2", Type: "Reformat", Origin: "REFORMAT", In: f16, Out: f32, Ms: 1, From: []int{0}},
		{Name: "Conv_2", Type: "CaskConvolution", Tactic: f32T, In: f32, Out: f32, Ms: 0.2, From: []int{1}, Params: `{"OutMaps":64,"Groups":1}`},
	}), true},
	{"reformat twin: 1% reformat", "reformat_overhead", build("fp16", append(filler(9, 11), L{Name: "Reformatting CopyNode for Input Tensor 0 to Conv_1", Type: "Reformat", Origin: "REFORMAT", In: f32, Out: f16, Ms: 1})), false},
	{"reformat twin: reformat takes 0 ms", "reformat_overhead", build("fp16", []L{{Name: "Reformatting CopyNode for Input Tensor 0 to Conv_1", Type: "Reformat", In: f32, Ms: 0}, conv("Conv_1", 1, 0)}), false},
	{"FP32 conv in an FP16 engine", "precision_fallback", build("fp16", []L{conv("Conv_0", 3), {Name: "Conv_1", Type: "CaskConvolution", Tactic: f32T, In: f32, Out: f32, Ms: 1, From: []int{0}}}), true},
	{"FP16 conv in an INT8 engine", "precision_fallback", build("a", []L{{Name: "Conv_0", Type: "CaskConvolution", Tactic: tcI8, In: i8, Out: i8, Ms: 3}, conv("Conv_1", 1, 0)}), true},
	{"fallback twin: all FP16, FP32 reformat only", "precision_fallback", build("fp16", []L{{Name: "Reformatting CopyNode for Input Tensor 0 to Conv_1", Type: "Reformat", In: f32, Out: f16, Ms: 1}, conv("Conv_1", 3, 0)}), false},
	{"fallback twin: an FP16 engine labelled int8 (no INT8 layer, no build flag)", "precision_fallback", build("int8", []L{conv("Conv_0", 3), conv("Conv_1", 1, 0)}), false},
	{"fallback twin: FP32 engine", "precision_fallback", build("fp32", []L{{Name: "Conv_1", Type: "CaskConvolution", Tactic: f32T, In: f32, Out: f32, Ms: 1}}), false},
	{"fallback twin: the FP32 layer takes 0 ms", "precision_fallback", build("fp16", []L{conv("Conv_0", 3), {Name: "Conv_1", Type: "CaskConvolution", Tactic: f32T, In: f32, Out: f32, Ms: 0, From: []int{0}}}), false},
	{"no tensor cores in FP16", "no_tensor_core", build("fp16", []L{conv("Conv_0", 3), {Name: "Gemm_1", Type: "CaskGemmConvolution", Tactic: noTC, Ms: 1, From: []int{0}, Params: `{"OutMaps":64,"Groups":1}`}}), true},
	{"tensor core twin: FP32 engine never complains", "no_tensor_core", build("fp32", []L{{Name: "Conv_0", Type: "CaskConvolution", Tactic: f32T, In: f32, Out: f32, Ms: 3}}), false},
	{"tensor core twin: depthwise conv", "no_tensor_core", build("fp16", []L{conv("Conv_0", 3), {Name: "Conv_1", Type: "CaskConvolution", Tactic: noTC, Ms: 1, From: []int{0}, Params: `{"OutMaps":64,"Groups":64}`}}), false},
	{"FP32 engine says FP32 cannot use tensor cores", "fp32_engine", build("fp32", []L{{Name: "Conv_0", Type: "CaskConvolution", Tactic: f32T, In: f32, Out: f32, Ms: 3}}), true},
	{"FP32 engine twin: FP16 engine", "fp32_engine", build("fp16", []L{conv("Conv_0", 3)}), false},
	{"channels 100 in FP16", "channel_alignment", build("fp16", []L{conv("Conv_0", 3), {Name: "Conv_1", Type: "CaskConvolution", Tactic: tcF6, Ms: 9, From: []int{0}, Params: `{"OutMaps":36,"Groups":1}`, InDims: []int64{1, 36, 8, 8}}}), true},
	{"channels from the dimensions of a layer line without parameters", "channel_alignment", build("fp16", []L{conv("Conv_0", 3), {Name: "Conv_1", Type: "CaskConvolution", Tactic: tcF6, Ms: 9, From: []int{0}, InDims: []int64{1, 64, 200, 200}, OutDims: []int64{1, 2, 200, 200}}}), true},
	{"channels twin: the misaligned convolution is memory-bound", "channel_alignment", withBound(build("fp16", []L{conv("Conv_0", 3), {Name: "Conv_1", Type: "CaskConvolution", Tactic: tcF6, Ms: 9, From: []int{0}, InDims: []int64{1, 64, 200, 200}, OutDims: []int64{1, 2, 200, 200}}}), 1, contract.RooflineBoundMemory), false},
	{"channels twin: 64/128 and a 3-channel image input", "channel_alignment", build("fp16", []L{{Name: "Conv_0", Type: "CaskConvolution", Tactic: tcF6, Ms: 3, Params: `{"OutMaps":64,"Groups":1}`, InDims: []int64{1, 3, 224, 224}}, {Name: "Conv_1", Type: "CaskConvolution", Tactic: tcF6, Ms: 1, From: []int{0}, Params: `{"OutMaps":128,"Groups":1}`}}), false},
	{"shape kernels 20%", "dynamic_shape_overhead", build("fp16", []L{{Name: "dummy_shape_call__mye1_0_myl1_0", Type: "shape_call", Ms: 1}, {Name: "/Cast_myl1_1", Type: "kgen", In: "Int32", Out: "Half", Ms: 1}, conv("Conv_1", 8, 1)}), true},
	{"shape twin: zero-time reshape NoOps", "dynamic_shape_overhead", build("fp16", []L{{Name: "/Reshape", Type: "NoOp", Ms: 0}, conv("Conv_1", 8, 0)}), false},
	{"decomposed attention", "attention_unfused", build("fp16", []L{
		{Name: "/l0/attn/MatMul", Type: "MatrixMultiply", Ms: 1}, {Name: "/l0/attn/Softmax", Type: "CudaSoftMax", Ms: 1, From: []int{0}}, {Name: "/l0/attn/MatMul_1", Type: "MatrixMultiply", Ms: 1, From: []int{1}}}), true},
	{"attention twin: classifier softmax after the last GEMM", "attention_unfused", build("fp16", []L{conv("Conv_0", 3), {Name: "fc/MatMul", Type: "CublasConvolution", Ms: 1, From: []int{0}}, {Name: "predictions/Softmax", Type: "CudaSoftMax", Ms: 0.1, From: []int{1}}}), false},
	{"separate Q/K/V", "qkv_unfused", build("fp16", []L{
		{Name: "/encoder/layer.0/attention/self/query/MatMul", Type: "MatrixMultiply", Ms: 1}, {Name: "/encoder/layer.0/attention/self/key/MatMul", Type: "MatrixMultiply", Ms: 1}, {Name: "/encoder/layer.0/attention/self/value/MatMul", Type: "MatrixMultiply", Ms: 1}}), true},
	{"QKV twin: one fused projection", "qkv_unfused", build("fp16", []L{{Name: "/encoder/layer.0/attention/self/qkv/MatMul", Type: "MatrixMultiply", Ms: 1}}), false},
	{"decomposed LayerNorm", "norm_unfused", build("fp16", []L{
		{Name: "/l0/LayerNorm/ReduceMean", Type: "Reduce", Ms: 1}, {Name: "/l0/LayerNorm/Sub", Type: "ElementWise", Ms: 1, From: []int{0}}, {Name: "/l0/LayerNorm/Pow", Type: "ElementWise", Ms: 1, From: []int{1}}}), true},
	{"norm twin: one plugin", "norm_unfused", build("fp16", []L{{Name: "/l0/LayerNorm", Type: "PluginV2", Ms: 1}}), false},
	{"decomposed GELU", "gelu_unfused", build("fp16", []L{{Name: "/l0/mlp/act/Erf", Type: "Unary", Ms: 1}, {Name: "/l0/mlp/act/Mul", Type: "ElementWise", Ms: 1, From: []int{0}}}), true},
	{"GELU twin: fused into the GEMM", "gelu_unfused", build("fp16", []L{{Name: "/l0/mlp/fc1/MatMul + /l0/mlp/act/Erf", Type: "CaskGemmConvolution", Tactic: tcF6, Ms: 1}}), false},
	{"residual Add after a conv whose output is also read elsewhere", "residual_unfused", build("fp16", []L{conv("Conv_0", 3), {Name: "/block/Add", Type: "ElementWise", Ms: 1, From: []int{0}}, conv("Conv_2", 3, 0)}), true},
	{"residual twin: Add fused into the conv", "residual_unfused", build("fp16", []L{{Name: "Conv_0 + Add_1", Type: "CaskConvolution", Tactic: tcF6, Ms: 3}}), false},
	{"two Myelin graphs with glue", "partition_glue", build("fp16", []L{
		{Name: "__myl_Add_myl1_0", Type: "kgen", Tactic: "__myl_Add_0x1", In: "Half", Out: "Half", Ms: 2},
		{Name: "/Cast", Type: "MyelinReformat", In: "Half", Out: "Float", Ms: 1, From: []int{0}},
		{Name: "__myl_Mul_myl2_0", Type: "kgen", Tactic: "__myl_Mul_0x2", In: "Float", Out: "Float", Ms: 2, From: []int{1}}}), true},
	{"glue twin: one Myelin graph", "partition_glue", build("fp16", []L{
		{Name: "__myl_Add_myl1_0", Type: "kgen", Tactic: "__myl_Add_0x1", In: "Half", Out: "Half", Ms: 2},
		{Name: "/Cast", Type: "MyelinReformat", In: "Half", Out: "Float", Ms: 1, From: []int{0}},
		{Name: "__myl_Mul_myl1_1", Type: "kgen", Tactic: "__myl_Mul_0x2", In: "Float", Out: "Float", Ms: 2, From: []int{1}}}), false},
	{"graph-input QuantizeLinear", "input_quantize", build("int8-qat", []L{
		{Name: "QuantizeLinear_2", Type: "Reformat", Origin: "QDQ", In: f32, Out: i8, Ms: 1},
		{Name: "conv.weight + QuantizeLinear_7 + Conv_9", Type: "CaskConvolution", Tactic: tcI8, In: i8, Out: i8, Ms: 3, From: []int{0}}}), true},
	{"input quantize twin: the QuantizeLinear follows a conv", "input_quantize", build("int8-qat", []L{
		{Name: "conv.weight + QuantizeLinear_7 + Conv_9", Type: "CaskConvolution", Tactic: tcI8, In: i8, Out: f16, Ms: 3},
		{Name: "QuantizeLinear_15", Type: "Reformat", Origin: "QDQ", In: f16, Out: i8, Ms: 1, From: []int{0}}}), false},
	{"NHWC transpose and pad at the input", "input_prologue", build("fp16", []L{
		{Name: "conv1_pad/Pad", Type: "Slice", In: f32, Out: f32, Ms: 1, InDims: []int64{1, 224, 224, 3}, OutDims: []int64{1, 230, 230, 3}},
		{Name: "conv1/Conv2D__6", Type: "Shuffle", In: f32, Out: f32, Ms: 1, From: []int{0}},
		{Name: "Conv_0", Type: "CaskConvolution", Tactic: tcF6, Ms: 8, From: []int{1}, Params: `{"OutMaps":64,"Groups":1}`}}), true},
	{"prologue twin: a shuffle between two convolutions", "input_prologue", build("fp16", []L{
		conv("Conv_0", 8), {Name: "Transpose_1", Type: "Shuffle", Ms: 1, From: []int{0}}, conv("Conv_2", 8, 1)}), false},
	{"Q/DQ around a residual add and a pool", "qdq_placement", build("int8-qat", []L{
		{Name: "conv.weight + QuantizeLinear_7 + Conv_9", Type: "CaskConvolution", Tactic: tcI8, In: i8, Out: f32, Ms: 3},
		{Name: "MaxPool_12", Type: "TiledPooling", In: f32, Out: f32, Ms: 1, From: []int{0}},
		{Name: "QuantizeLinear_15", Type: "Reformat", Origin: "QDQ", In: f32, Out: i8, Ms: 1, From: []int{1}},
		{Name: "conv2.weight + QuantizeLinear_20 + Conv_22", Type: "CaskConvolution", Tactic: tcI8, In: i8, Out: i8, Ms: 3, From: []int{2}}}), true},
	{"Q/DQ twin: every Q/DQ fused", "qdq_placement", build("int8-qat", []L{{Name: "conv.weight + QuantizeLinear_7 + Conv_9", Type: "CaskConvolution", Tactic: tcI8, In: i8, Out: i8, Ms: 3}}), false},
	{"ReLU6 clamps alone after convolutions", "unfused_epilogue", build("fp16", []L{
		conv("Conv_0", 3), {Name: "Forced Cast ITensor (Unnamed Layer* 23)", Type: "NoOp", Ms: 0, From: []int{0}},
		{Name: "PWN(clamp_2_min + clamp_2_max)", Type: "PointWiseV2", Ms: 1, From: []int{1}}, conv("Conv_3", 3, 2)}), true},
	{"epilogue twin: the conv output feeds two layers", "unfused_epilogue", build("fp16", []L{
		conv("Conv_0", 3), {Name: "PWN(Relu_1)", Type: "PointWiseV2", Ms: 1, From: []int{0}}, conv("Conv_2", 3, 0)}), false},
	{"GroupNorm as InstanceNorm plugin + Scale", "decomposed_norm", build("fp16", []L{
		conv("Conv_0", 3), {Name: "/norm/InstanceNormalization", Type: "PluginV2", Ms: 1, From: []int{0}},
		{Name: "/norm/Mul + /norm/Add", Type: "Scale", Ms: 0.5, From: []int{1}}, conv("Conv_3", 3, 2)}), true},
	{"norm twin: a GroupNorm plugin", "decomposed_norm", build("fp16", []L{conv("Conv_0", 3), {Name: "/norm/GroupNorm", Type: "PluginV2", Ms: 1, From: []int{0}}}), false},
	{"batch-1 FC reads 400 MB in 0.6 ms", "bandwidth_bound_gemv", build("fp32", []L{conv("Conv_0", 1),
		{Name: "/classifier/Gemm", Type: "CaskGemmConvolution", Tactic: "sm50_xmma_cublas_gemvx_f32f32_f32_f32_tn", In: f32, Out: f32, Ms: 0.6, From: []int{0},
			InDims: []int64{1, 25088, 1, 1}, OutDims: []int64{1, 4096, 1, 1}, Params: `{"OutMaps":4096,"Groups":1,"Weights":{"Type":"Float","Count":102760448}}`}}), true},
	{"GEMV twin: the same FC at batch 64", "bandwidth_bound_gemv", build("fp32", []L{conv("Conv_0", 1),
		{Name: "/classifier/Gemm", Type: "CaskGemmConvolution", Tactic: "sm80_xmma_gemm_f32f32_tf32", In: f32, Out: f32, Ms: 0.6, From: []int{0},
			InDims: []int64{64, 25088, 1, 1}, OutDims: []int64{64, 4096, 1, 1}, Params: `{"OutMaps":4096,"Groups":1,"Weights":{"Type":"Float","Count":102760448}}`}}), false},
	{"INT8 build (its build log says --int8) whose Myelin GEMMs stayed FP16", "int8_gemm_fp16", builtWith(build("a", []L{
		{Name: "/l0/attn/q/MatMul_myl1_0", Type: "gemm", Tactic: "sm80_xmma_gemm_f16f16_f16f16_f16_tn_n_tensor16x8x16", In: "Half", Out: "Half", Ms: 3}}), "--fp16", "--int8"), true},
	{"INT8 build (INT8 convolutions) whose Myelin GEMMs stayed FP16", "int8_gemm_fp16", build("a", []L{
		{Name: "backbone/Conv_0", Type: "CaskConvolution", Tactic: tcI8, In: i8, Out: i8, Ms: 1, Params: `{"OutMaps":64,"Groups":1}`},
		{Name: "/l0/attn/q/MatMul_myl1_0", Type: "gemm", Tactic: "sm80_xmma_gemm_f16f16_f16f16_f16_tn_n_tensor16x8x16", In: "Half", Out: "Half", Ms: 3, From: []int{0}}}), true},
	{"int8 GEMM twin: an FP16 build labelled int8", "int8_gemm_fp16", build("int8", []L{
		{Name: "/l0/attn/q/MatMul_myl1_0", Type: "gemm", Tactic: "sm80_xmma_gemm_f16f16_f16f16_f16_tn_n_tensor16x8x16", In: "Half", Out: "Half", Ms: 3}}), false},
	{"int8 GEMM twin: an FP16 build (its build log says --fp16)", "int8_gemm_fp16", builtWith(build("int8", []L{
		{Name: "/l0/attn/q/MatMul_myl1_0", Type: "gemm", Tactic: "sm80_xmma_gemm_f16f16_f16f16_f16_tn_n_tensor16x8x16", In: "Half", Out: "Half", Ms: 3}}), "--fp16"), false},
}

func TestRules(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range rules {
		ids[r.ID] = true
	}
	covered := map[string][2]bool{}
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			if !ids[tc.rule] {
				t.Fatalf("no rule %q", tc.rule)
			}
			issues, _, diag, _ := Evaluate(tc.b)
			got := slices.ContainsFunc(issues, func(f contract.Finding) bool { return f.ID == tc.rule })
			if got != tc.fires {
				t.Errorf("rule %s fired=%v, want %v; findings: %v", tc.rule, got, tc.fires, findingIDs(issues))
			}
			checkFindings(t, tc.b, issues, diag)
		})
		cv := covered[tc.rule]
		if tc.fires {
			cv[0] = true
		} else {
			cv[1] = true
		}
		covered[tc.rule] = cv
	}
	for id := range ids {
		if id == "launch_bound" {
			continue // needs measured enqueue time: TestLaunchBound
		}
		if cv := covered[id]; !cv[0] || !cv[1] {
			t.Errorf("rule %s lacks a firing case or a twin (fires %v, twin %v)", id, cv[0], cv[1])
		}
	}
}

func findingIDs(fs []contract.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.ID)
	}
	return out
}

// checkFindings recomputes every finding's numbers from the backend as it
// would be read back from analyze-data.json, and checks the ownership
// invariants: no layer owned twice, recoverable times within the reference.
func checkFindings(t *testing.T, b *contract.Backend, issues []contract.Finding, diag *contract.Diagnosis) {
	t.Helper()
	raw, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back contract.Backend
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	total := 0.0
	byLayer, byRecord := map[int]float64{}, map[int]float64{}
	for i, r := range back.Records {
		total += r.AvgMs
		byLayer[r.Layer] = r.AvgMs
		byRecord[i] = r.AvgMs
	}
	profileOnly := back.Validation.AnalysisMode == contract.ModeProfileOnly
	if len(issues) > 0 && diag == nil {
		t.Fatal("findings without a diagnosis")
	}
	near := func(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
	owner, recOwner := map[int]string{}, map[int]string{}
	recSum := 0.0
	for i, f := range issues {
		m := f.Metrics
		// A profile_only backend's findings own records (its records have
		// no layer info); the others own layers.
		owned, timeOf, owners := f.Layers, byLayer, owner
		if profileOnly {
			if len(f.Records) == 0 {
				t.Errorf("%s: a profile_only finding owns no records", f.ID)
			}
			var matched []int
			for _, r := range f.Records {
				if r < 0 || r >= len(back.Records) {
					t.Fatalf("%s: record %d out of range", f.ID, r)
				}
				if l := back.Records[r].Layer; l >= 0 {
					matched = append(matched, l)
				}
			}
			if !slices.Equal(matched, f.Layers) && len(matched)+len(f.Layers) > 0 {
				t.Errorf("%s: layers %v are not its records' matched layers %v", f.ID, f.Layers, matched)
			}
			owned, timeOf, owners = f.Records, byRecord, recOwner
		} else if len(f.Records) > 0 {
			t.Errorf("%s: records %v owned outside a profile_only backend", f.ID, f.Records)
		}
		if f.ID == "" || f.Title == "" || f.NextCheck == "" || f.Action == "" || f.PriceFactor == "" || len(f.Evidence) == 0 || f.Layers == nil {
			t.Errorf("%s: incomplete finding %+v", f.ID, f)
		}
		if f.ID != "sibling_delta" && !near(m["total_ms"], total, 1e-6) {
			t.Errorf("%s: total_ms %v, records sum to %v", f.ID, m["total_ms"], total)
		}
		if f.ID != "sibling_delta" && (!near(f.Share, m["time_ms"]/total*100, 1e-3) || !near(m["share_pct"], f.Share, 1e-3)) {
			t.Errorf("%s: share %v, time_ms/total %v", f.ID, f.Share, m["time_ms"]/total*100)
		}
		if !near(f.RecoverableShare, f.RecoverableMs/diag.ReferenceMs*100, 1e-3) {
			t.Errorf("%s: recoverable_share %v, recoverable_ms/reference %v", f.ID, f.RecoverableShare, f.RecoverableMs/diag.ReferenceMs*100)
		}
		if !near(f.Score, f.RecoverableShare/100*weight(&f), 1e-4) {
			t.Errorf("%s: score %v, recoverable_share×weight %v", f.ID, f.Score, f.RecoverableShare/100*weight(&f))
		}
		if !(f.RecoverableLowMs <= f.RecoverableMs && f.RecoverableMs <= f.RecoverableHighMs && f.RecoverableHighMs <= diag.ReferenceMs+1e-9) {
			t.Errorf("%s: recoverable low %v ≤ est %v ≤ high %v ≤ reference %v does not hold", f.ID, f.RecoverableLowMs, f.RecoverableMs, f.RecoverableHighMs, diag.ReferenceMs)
		}
		recSum += f.RecoverableMs
		sum := 0.0
		for _, l := range owned {
			sum += timeOf[l]
			if o, ok := owners[l]; ok {
				t.Errorf("layer or record %d owned by %s and %s", l, o, f.ID)
			}
			owners[l] = f.ID
		}
		if f.ID != "sibling_delta" && (len(owned) != int(m["layer_count"]) || !near(sum, m["time_ms"], 1e-6)) {
			t.Errorf("%s: layers or records %v sum to %v ms, time_ms %v", f.ID, owned, sum, m["time_ms"])
		}
		for j := 1; j < len(owned); j++ {
			if timeOf[owned[j]] > timeOf[owned[j-1]] {
				t.Errorf("%s: layers or records not most expensive first: %v", f.ID, owned)
			}
		}
		for _, l := range owned {
			if timeOf[l] <= 0 {
				t.Errorf("%s: layer or record %d takes no time", f.ID, l)
			}
		}
		if profileOnly && f.ID == "fp32_engine" {
			// From the build facts: the measured difference to a
			// reduced-precision sibling, else the device's band on the
			// convolution/GEMM records and the other band on the rest.
			want := 0.0
			switch f.PriceBasis {
			case "sibling_measured":
				want = m["sibling_gain_pct"] / 100 * diag.ReferenceMs
			case contract.PriceGuessedKinds:
				band, _, ok := fp32ProfileBand(back.Device)
				if !ok {
					t.Errorf("fp32_engine on a GPU without fast FP16")
				}
				bo := priceFactors["fp32_engine_other"]
				if band == "fp32_engine_fp16_cuda_cores" {
					bo = priceFactors[band]
				}
				for _, j := range f.Records {
					x := priceFactors[band].est
					if back.Records[j].LayerType == "Pooling" {
						x = bo.est
					}
					want += back.Records[j].AvgMs * diag.ProfileScale * x
				}
			default:
				t.Errorf("fp32_engine: price basis %q on a profile_only backend", f.PriceBasis)
			}
			if !near(f.RecoverableMs, min(want, diag.ReferenceMs), 1e-4) {
				t.Errorf("fp32_engine: recoverable %v ms, recomputed %v (%s)", f.RecoverableMs, want, f.PriceBasis)
			}
		} else if profileOnly {
			// Its price is the owned records' measured time × its rule's
			// factor, on the reference's clock.
			if f.PriceBasis != contract.PriceGuessedKinds {
				t.Errorf("%s: price basis %q on a profile_only backend", f.ID, f.PriceBasis)
			}
			want := min(sum*diag.ProfileScale*priceFactors[profileBand(f.ID)].est, diag.ReferenceMs)
			if bound, ok := m[MetricSiblingBound]; ok {
				want = min(want, bound) // a faster sibling bounds it
			}
			if band, ok := priceFactors[profileBand(f.ID)]; !ok || !near(f.RecoverableMs, want, 1e-5) {
				t.Errorf("%s: recoverable %v ms, not its %v ms of records × scale %v × its factor %+v", f.ID, f.RecoverableMs, sum, diag.ProfileScale, band)
			}
		}
		checkHygiene(t, &f, timeOf, profileOnly)
		if i > 0 && (issues[i-1].Score < f.Score || issues[i-1].Score == f.Score && issues[i-1].ID > f.ID) {
			t.Errorf("findings not ranked: %s before %s", issues[i-1].ID, f.ID)
		}
	}
	if diag != nil && recSum > diag.ReferenceMs*(1+1e-9) {
		t.Errorf("recoverable times sum to %v ms, more than the reference %v ms", recSum, diag.ReferenceMs)
	}
}

func TestZeroTimeNoOpsArePositive(t *testing.T) {
	b := build("fp16", []L{conv("Conv_0", 3), {Name: "/Reshape", Type: "NoOp", Ms: 0, From: []int{0}}, {Name: "/Squeeze", Type: "NoOp", Ms: 0, From: []int{1}}})
	issues, pos, _, _ := Evaluate(b)
	for _, f := range issues {
		for _, l := range f.Layers {
			if l != 0 {
				t.Errorf("%s lists zero-time layer %d", f.ID, l)
			}
		}
	}
	i := slices.IndexFunc(pos, func(p contract.Positive) bool { return p.ID == "zero_time_layers" })
	if i < 0 || pos[i].Metrics["noop_layers"] != 2 {
		t.Errorf("positives %+v lack zero_time_layers with 2 NoOps", pos)
	}
}

// Intent comes from the engine, never from the label: every rule case gives
// the same findings (ids, layers, prices) under any label, including labels
// that name another precision.
func TestLabelsDecideNothing(t *testing.T) {
	for _, tc := range ruleCases {
		want, _, _, _ := Evaluate(tc.b)
		for _, label := range []string{"a", "int8", "fp32", "fp16-qat", "best"} {
			b := *tc.b
			b.Label = label
			got, _, _, _ := Evaluate(&b)
			if len(got) != len(want) {
				t.Errorf("%s labelled %q: findings %v, want %v", tc.name, label, findingIDs(got), findingIDs(want))
				continue
			}
			for i := range got {
				if got[i].ID != want[i].ID || !slices.Equal(got[i].Layers, want[i].Layers) || got[i].RecoverableMs != want[i].RecoverableMs || got[i].Confidence != want[i].Confidence {
					t.Errorf("%s labelled %q: finding %d is %s %v %.6f, want %s %v %.6f", tc.name, label, i, got[i].ID, got[i].Layers, got[i].RecoverableMs, want[i].ID, want[i].Layers, want[i].RecoverableMs)
				}
			}
		}
	}
}

func TestCategory(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    *contract.Backend
		want string
	}{
		{"unet", build("fp16", []L{{Name: "/time_embed/time_embed.0/Gemm", Type: "CaskGemmConvolution", Ms: 1}, {Name: "/input_blocks.1/input_blocks.1.0/Conv", Type: "CaskConvolution", Tactic: tcF6, Ms: 1}}), CatDiffusionUNet},
		{"cnn", build("fp16", filler(10, 1)), CatCNN},
		{"bert", build("fp16", []L{{Name: "/bert/encoder/layer.0/attention/self/query/MatMul", Type: "MatrixMultiply", Ms: 1}, {Name: "/bert/embeddings/word_embeddings/Gather", Type: "Gather", Ms: 1}}), CatTransformerEncoder},
		{"llm", build("fp16", []L{{Name: "/model/layers.0/self_attn/q_proj/MatMul", Type: "MatrixMultiply", Ms: 1}, {Name: "/lm_head/MatMul", Type: "MatrixMultiply", Ms: 1}}), CatDecoderLLM},
		{"vit", build("fp16", []L{{Name: "/vit/embeddings/patch_embeddings/projection/Conv", Type: "CaskConvolution", Ms: 1}, {Name: "/vit/encoder/layer.0/attention/attention/query/MatMul", Type: "MatrixMultiply", Ms: 1}}), CatViT},
		{"unknown", build("fp16", []L{{Name: "A", Type: "PointWiseV2", Ms: 1}, {Name: "B", Type: "ElementWise", Ms: 1}}), CatUnknown},
	} {
		got, conf, ev := Category(tc.b)
		if got != tc.want {
			t.Errorf("%s: Category = %s (%s, %+v), want %s", tc.name, got, conf, ev, tc.want)
		}
		if got != CatUnknown && len(ev) == 0 {
			t.Errorf("%s: no evidence", tc.name)
		}
	}
}

// launch_bound fires only when measured enqueue time is close to GPU time.
func TestLaunchBound(t *testing.T) {
	for _, tc := range []struct {
		enqueue, gpu float64
		fires        bool
	}{{0.9, 1.0, true}, {1.5, 1.0, true}, {0.005, 0.86, false}, {0, 1.0, false}} {
		b := build("fp16", append(filler(30, 0.004), conv("Big", 0.1)))
		c := newEvaluation(b)
		c.meas = measured{gpuMedian: tc.gpu, enqueueMedian: tc.enqueue, source: "test"}
		if f := evalLaunchBound(c); (f != nil) != tc.fires {
			t.Errorf("enqueue %v, GPU %v: fired %v, want %v", tc.enqueue, tc.gpu, f != nil, tc.fires)
		}
	}
}

// checkHygiene: a finding's parts partition the layers it owns (each in
// exactly one part, the parts' times summing to the owned time); its
// places are all named, the action naming them all or saying how many;
// a faster sibling that bounds the estimate bounds it.
func checkHygiene(t *testing.T, f *contract.Finding, byLayer map[int]float64, records bool) {
	t.Helper()
	units, partUnits := f.Layers, func(p contract.FindingPart) []int { return p.Layers }
	if records { // byLayer is by record
		units, partUnits = f.Records, func(p contract.FindingPart) []int { return p.Records }
	}
	if len(f.Parts) > 0 {
		owned := map[int]bool{}
		for _, l := range units {
			owned[l] = true
		}
		in := map[int]string{}
		sum := 0.0
		for _, p := range f.Parts {
			if p.Name == "" || len(partUnits(p)) == 0 {
				t.Errorf("%s: empty part %+v", f.ID, p)
			}
			ms := 0.0
			for _, l := range partUnits(p) {
				if !owned[l] {
					t.Errorf("%s: part %q holds layer %d the finding does not own", f.ID, p.Name, l)
				}
				if o, ok := in[l]; ok {
					t.Errorf("%s: layer %d in parts %q and %q", f.ID, l, o, p.Name)
				}
				in[l] = p.Name
				ms += byLayer[l]
			}
			if math.Abs(ms-p.TimeMs) > 1e-6 {
				t.Errorf("%s: part %q time_ms %v, its layers sum to %v", f.ID, p.Name, p.TimeMs, ms)
			}
			sum += p.TimeMs
		}
		if len(in) != len(units) {
			t.Errorf("%s: parts hold %d of its %d layers or records", f.ID, len(in), len(units))
		}
		if math.Abs(sum-f.Metrics["time_ms"]) > 1e-6*float64(len(f.Parts)) {
			t.Errorf("%s: parts sum to %v ms, owned time %v", f.ID, sum, f.Metrics["time_ms"])
		}
	}
	seen := map[string]bool{}
	for _, p := range f.Places {
		if p == "" || seen[p] {
			t.Errorf("%s: place %q empty or named twice in %v", f.ID, p, f.Places)
		}
		seen[p] = true
	}
	// The action names some places and says how many more: together,
	// every place.
	named, more := 0, 0
	for _, p := range f.Places {
		if containsWord(f.Action, p) {
			named++
		}
	}
	for _, m := range andMore.FindAllStringSubmatch(f.Action, -1) {
		n, _ := strconv.Atoi(m[1])
		more += n
	}
	if len(f.Places) > 0 && named+more != len(f.Places) {
		t.Errorf("%s: the action names %d places and %d more, the finding has %d (%v): %s", f.ID, named, more, len(f.Places), f.Places, f.Action)
	}
	if bound, ok := f.Metrics[MetricSiblingBound]; ok && (f.RecoverableMs > bound+1e-9 || f.RecoverableHighMs > bound+1e-9) {
		t.Errorf("%s: recoverable %v (high %v) ms above the faster sibling's measured %v ms", f.ID, f.RecoverableMs, f.RecoverableHighMs, bound)
	}
}

var andMore = regexp.MustCompile(`and (\d+) more`)

// containsWord: s holds w not run on into a longer name (Add_1 is not in
// Add_14).
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		end := i + j + len(w)
		if end == len(s) || !isNameByte(s[end]) {
			return true
		}
		i += j + 1
	}
}

func isNameByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// An FP32 build on Ampere without TF32 kernels: the build's own facts (a
// --verbose build log's timed tactics, --noTF32) say why, when it has them.
func TestFP32EngineTF32Answer(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		timed *bool
		want  string
	}{
		{nil, "a --verbose build log would say which"},
		{&yes, "TF32 was allowed and its kernels lost the timing (log_b.txt line 9"},
		{&no, "TF32 was not tried (log_b.txt"},
	} {
		b := build("a", []L{{Name: "Conv_0", Type: "CaskConvolution", Tactic: "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nhwckrsc_nhwc_tilesize128x128x8_stage3_warpsize2x2x1_g1", In: f32, Out: f32, Ms: 3, Params: `{"OutMaps":64,"Groups":1}`}})
		if c.timed != nil {
			b.Build = &contract.Build{PrecisionFlags: []string{}, Options: []contract.Option{}, Warnings: []string{}, Sources: []string{"log_b.txt"}, TF32Timed: c.timed}
			b.Build.TF32Evidence = map[bool]string{true: "log_b.txt line 9: the build timed TF32 tactic sm80_xmma_gemm_tf32f32", false: "log_b.txt: the build command says --noTF32"}[*c.timed]
		}
		issues, _, _, _ := Evaluate(b)
		_, f := findByID(issues, "fp32_engine")
		if f == nil || !strings.Contains(strings.Join(f.Evidence, " "), c.want) {
			t.Errorf("TF32 timed %v: fp32_engine evidence lacks %q: %+v", c.timed, c.want, f)
		}
	}
}

// withBound places record i of b on the roofline with the given bound.
func withBound(b *contract.Backend, i int, bound string) *contract.Backend {
	b.Records[i].Roofline = &contract.RecordRoofline{TimeMs: b.Records[i].AvgMs, Bound: &bound}
	return b
}
