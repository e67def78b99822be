package layerfacts

import (
	"slices"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

func TestDataType(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Row major linear FP32", FP32},
		{"Row major linear FP16 format", FP16},
		{"Channel major FP16 format where channel % 8 == 0", FP16},
		{"Channel major FP32 format where channel % 4 == 0", FP32},
		{"Thirty-two wide channel vectorized row major Int8 format", INT8},
		{"Four wide channel vectorized row major FP32 format", FP32},
		{"Row major Int8 format", INT8},
		{"Row major linear Int32", INT32},
		{"Half", FP16},
		{"Float", FP32},
		{"BFloat16", BF16},
		{"Row major linear BF16 format", BF16},
		{"Int32", INT32},
		{"Int64", INT64},
		{"Bool", BOOL},
		{"FP8", FP8},
		{"Row major linear FP8 format", FP8},
		{"FP4", FP4},
		{"UInt8", UINT8},
		{"Channel major format where channel % 8 == 0 Half", FP16}, // split era, joined
		{"Row major linear Float", FP32},
		{"N/A due to dynamic shapes", Unknown},
		{"", Unknown},
		{"Channel major format", Unknown},
	} {
		if got := DataType(tc.in); got != tc.want {
			t.Errorf("DataType(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestClassifyTactic(t *testing.T) {
	const Y, N, U = TensorCoreYes, TensorCoreNo, TensorCoreUnknown
	for _, tc := range []struct {
		in     string
		family string
		tc     TensorCoreUse
		arch   string
	}{
		{"", FamilyNone, U, ""},
		{"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", "cublas", U, "sm90"},
		{"sm90_gemm_wgmma_e4m3", "wgmma", Y, "sm90"},
		{"ampere_h16816gemm_128x64_ldg8_relu_stages_32x6_nn_v1", "h16816", Y, "ampere"},
		{"sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize32x32x8_stage3_warpsize1x2x1_g1_ffma_aligna4_alignc4", "xmma", N, "sm80"},
		{"sm80_xmma_gemm_f16f16_f16f16_f16_nn_n_tilesize128x64x32_stage5_warpsize2x2x1_tensor16x8x16", "xmma", Y, "sm80"},
		{"_gemm_mha_v2_0x251aa784ab50d5a21a9a42af29de210b", "fmha", Y, ""},
		{"fmha_v2_flash_attention_fp16_64_32_S_40_sm86_kernel", "fmha", Y, ""},
		{"ampere_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148t_nt_v1", "cudnn", N, "ampere"},
		{"turing_fp16_i8816cudnn_int8_128x128_ldg16_relu_small_nt_v1", "i8816", Y, "turing"},
		{"volta_int8x4_icudnn_int8x4_128x32_relu_xregs_small_c32_nn_v1", "icudnn", N, "volta"},
		{"__myl_MaxMinCas_0x04e72d81267e49f2fb43c5e7a6a463bf", "myelin", U, ""},
		{"cublasLt_sm90_kernel", "cublasLt", U, ""},
		{"genericReformat", "trt", U, ""},
		{"some_kernel_nobody_knows", FamilyUnknown, U, ""},
	} {
		c := ClassifyTactic(tc.in)
		if c.Family != tc.family || c.TensorCore != tc.tc || c.Arch != tc.arch {
			t.Errorf("ClassifyTactic(%q) = %+v, want {%s %v %s}", tc.in, c, tc.family, tc.tc, tc.arch)
		}
	}
}

func TestTacticPrecision(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"sm80_xmma_fprop_implicit_gemm_interleaved_i8f16_i8i32_f32_nchw_vect_c_32kcrs", INT8},
		{"ampere_fp32_icudnn_int8x4_128x64_relu_medium_nn_v1", INT8},
		{"sm80_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc", TF32},
		{"sm50_xmma_cublas_gemvx_f16f16_f32_f32_tn_n_int32_unit", FP16},
		{"sm50_xmma_conv_fprop_fused_conv_act_fp32_NCHW_fp32_NCHW", FP32},
		{"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn", BF16},
		{"sm89_xmma_gemm_e4m3e4m3_e4m3f32_f32", FP8},
		{"ampere_scudnn_128x64_relu_small_nn_v1", FP32},
		{"__myl_Add_0xf16f32bf16", ""}, // a hash, not math
		{"sm50_xmma_pooling_coalescedC_NHWC_kMAX_3_False", ""},
	} {
		if got := tacticPrecision(tc.in); got != tc.want {
			t.Errorf("tacticPrecision(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMyelinGraph(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"/classifier/classifier_1/Gemm_myl9_2", 9},
		{"__myl_Res_myl9_1", 9},
		{"dummy_shape_call__mye622_0_myl9_0", 9},
		{"x_myl123_45", 123},
		{"Conv_0 + Relu_1", -1},
		{"_myl_3", -1},
		{"my_layer_myl9", -1},
		{"myl9_2", -1},
		{"", -1},
	} {
		if got := MyelinGraph(tc.in); got != tc.want {
			t.Errorf("MyelinGraph(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestSourceOps(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"[ONNX Layer: /conv/Conv]", []string{"/conv/Conv"}},
		{"[ONNX Layer: /a/Mul]␞[ONNX Layer: /a/Add]", []string{"/a/Mul", "/a/Add"}},
		{"[ONNX Layer: /a/Gemm]\x1f[ONNX Layer: /a/Relu]", []string{"/a/Gemm", "/a/Relu"}},
		{"[ONNX Layer: a]␟[ONNX Layer: b]\x1e[ONNX Layer: c]", []string{"a", "b", "c"}},
		{"plain_op", []string{"plain_op"}},
	} {
		if got := SourceOps(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("SourceOps(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func tensor(format string) engine.Tensor { return engine.Tensor{Name: "t", Format: format} }

func TestDerive(t *testing.T) {
	fp16 := "Channel major FP16 format where channel % 8 == 0"
	for _, tc := range []struct {
		name      string
		l         engine.Layer
		typ, prec string
		fused     int
		tags      []string
		notTags   []string
	}{
		{
			name: "reformat feeding a reshape is not a shape op",
			l: engine.Layer{Name: "Reformatting CopyNode for Input Tensor 0 to reshape_after_Gemm", Type: "Reformat", Origin: "REFORMAT",
				Inputs: []engine.Tensor{tensor("Row major linear FP32")}, Outputs: []engine.Tensor{tensor(fp16)}},
			typ: "Reformat", prec: FP32, fused: 1, tags: []string{"copy", "reformat"}, notTags: []string{"shape", "gemm"},
		},
		{
			name: "fused conv with residual and a reshape in its name stays compute",
			l: engine.Layer{Name: "Conv_3 + Add_4 + Relu_5 + Reshape_6", Type: "CaskConvolution",
				TacticName: "sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16",
				Inputs:     []engine.Tensor{tensor(fp16)}, Outputs: []engine.Tensor{tensor(fp16)}},
			typ: "CaskConvolution", prec: FP16, fused: 4, tags: []string{"activation", "conv", "elementwise"}, notTags: []string{"shape"},
		},
		{
			name: "QDQ reformat is a quantize",
			l: engine.Layer{Name: "QuantizeLinear_2", Type: "Reformat", Origin: "QDQ",
				Inputs: []engine.Tensor{tensor("Row major linear FP32")}, Outputs: []engine.Tensor{tensor("Four wide channel vectorized row major Int8 format")}},
			typ: "Reformat", prec: FP32, fused: 1, tags: []string{"quantize", "reformat"}, notTags: []string{"gemm"},
		},
		{
			name: "kgen with fmha tactic is kgen_mha",
			l: engine.Layer{Name: "__myl_Fmha_myl3_7", Type: "kgen", TacticName: "_gemm_mha_v2_0xdeadbeef",
				Inputs: []engine.Tensor{tensor("Half")}, Outputs: []engine.Tensor{tensor("Half")}},
			typ: TypeKgenMHA, prec: FP16, fused: 1, tags: []string{"attention", "myelin"},
		},
		{
			name: "kgen with softmax and matmul source ops is kgen_mha",
			l: engine.Layer{Name: "__myl_BmmSoftmaxBmm_myl3_8", Type: "kgen", TacticName: "__myl_BmmSoftmaxBmm_0x1234",
				Metadata: "[ONNX Layer: /l0/attn/MatMul]␞[ONNX Layer: /l0/attn/Softmax]␞[ONNX Layer: /l0/attn/MatMul_1]",
				Inputs:   []engine.Tensor{tensor("Half")}, Outputs: []engine.Tensor{tensor("Half")}},
			typ: TypeKgenMHA, prec: FP16, fused: 3, tags: []string{"attention", "gemm", "myelin", "softmax"},
		},
		{
			name: "kgen in an attention module that is a layernorm is not kgen_mha",
			l: engine.Layer{Name: "__myl_MeanSubMul_myl3_9", Type: "kgen", TacticName: "__myl_MeanSubMul_0x99",
				Metadata: "[ONNX Layer: /l0/attention/output/LayerNorm/ReduceMean]",
				Inputs:   []engine.Tensor{tensor("Half")}, Outputs: []engine.Tensor{tensor("Half")}},
			typ: "kgen", prec: FP16, fused: 1, tags: []string{"attention", "myelin", "norm"},
		},
		{
			name: "shape_call is misc and shape",
			l:    engine.Layer{Name: "dummy_shape_call__mye622_0_myl9_0", Type: "shape_call"},
			typ:  TypeMisc, prec: Unknown, fused: 1, tags: []string{"myelin", "shape"},
		},
		{
			name: "noop squeeze is shape",
			l: engine.Layer{Name: "copied_squeeze_after_(Unnamed Layer* 307) [ElementWise]", Type: "NoOp",
				Inputs: []engine.Tensor{tensor("Row major linear FP32")}, Outputs: []engine.Tensor{tensor("Row major linear FP32")}},
			typ: "NoOp", prec: FP32, fused: 1, tags: []string{"copy", "noop", "shape"},
		},
		{
			name: "int8 weights decide a conv without a tactic",
			l: engine.Layer{Name: "features.1.conv.0.0.weight + QuantizeLinear_21 + Conv_23 + PWN(Clip_27)", Type: "CudaDepthwiseConvolution",
				Inputs:  []engine.Tensor{tensor("Thirty-two wide channel vectorized row major FP16 format")},
				Outputs: []engine.Tensor{tensor("Thirty-two wide channel vectorized row major Int8 format")},
				Params:  []engine.Param{{Key: "Weights", Value: []byte(`{"Type":"Int8","Count":288}`)}}},
			typ: "CudaDepthwiseConvolution", prec: INT8, fused: 4, tags: []string{"activation", "conv", "pointwise", "quantize"},
		},
		{
			name: "pointwise fusion counts its arguments",
			l: engine.Layer{Name: "PWN(PWN(Add_3), Relu_4)", Type: "PointWiseV2",
				Inputs: []engine.Tensor{tensor("Half")}, Outputs: []engine.Tensor{tensor("Half")}},
			typ: "PointWiseV2", prec: FP16, fused: 2, tags: []string{"activation", "elementwise", "pointwise"},
		},
		{
			name: "ForeignNode is myelin",
			l: engine.Layer{Name: "{ForeignNode[a.norm1.weight + (Unnamed Layer* 109) [Shuffle].../b/Reshape_3]}", Type: "Myelin",
				Inputs: []engine.Tensor{tensor(fp16), tensor("Row major linear FP32")}, Outputs: []engine.Tensor{tensor(fp16)}},
			typ: "Myelin", prec: FP16, fused: 3, tags: []string{"myelin", "norm"}, notTags: []string{"shape"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Derive(&tc.l)
			if f.DerivedType != tc.typ || f.Precision != tc.prec || f.FusedOps != tc.fused {
				t.Errorf("type/precision/fused = %s/%s/%d, want %s/%s/%d", f.DerivedType, f.Precision, f.FusedOps, tc.typ, tc.prec, tc.fused)
			}
			for _, want := range tc.tags {
				if !slices.Contains(f.Tags, want) {
					t.Errorf("tags %v lack %q", f.Tags, want)
				}
			}
			for _, no := range tc.notTags {
				if slices.Contains(f.Tags, no) {
					t.Errorf("tags %v must not have %q", f.Tags, no)
				}
			}
		})
	}
}

// Tags are whole words: substrings never tag.
func TestTagsWholeWords(t *testing.T) {
	for _, tc := range []struct {
		name string
		no   string
	}{
		{"deconvolutional_stage/Identity", "conv"},
		{"reformatted_tensor_view_x", "reformat"},
		{"addition_layer", "elementwise"},
		{"poolside/thing", "pooling"},
		{"QuantizeLinear_7", "gemm"},
	} {
		l := engine.Layer{Name: tc.name, Type: "NoOp"}
		if f := Derive(&l); slices.Contains(f.Tags, tc.no) {
			t.Errorf("%q: tags %v must not contain %q", tc.name, f.Tags, tc.no)
		}
	}
}

func BenchmarkDerive(b *testing.B) {
	layers := []engine.Layer{
		{Name: "/encoder/layer.3/attention/self/query/MatMul + /encoder/layer.3/attention/self/Add", Type: "CaskGemmConvolution",
			TacticName: "sm80_xmma_gemm_f16f16_f16f16_f16_tn_n_tilesize64x128x32_stage5_warpsize2x2x1_tensor16x8x16",
			Inputs:     []engine.Tensor{tensor("Channel major FP16 format where channel % 8 == 0")},
			Outputs:    []engine.Tensor{tensor("Channel major FP16 format where channel % 8 == 0")},
			Metadata:   "[ONNX Layer: /encoder/layer.3/attention/self/query/MatMul]␞[ONNX Layer: /encoder/layer.3/attention/self/Add]",
			Params:     []engine.Param{{Key: "Weights", Value: []byte(`{"Type":"Half","Count":589824}`)}}},
		{Name: "__myl_AddMulMeanSub_myl12_345", Type: "kgen", TacticName: "__myl_AddMulMeanSub_0x9a8b7c",
			Inputs: []engine.Tensor{tensor("Half"), tensor("Half")}, Outputs: []engine.Tensor{tensor("Half")},
			Metadata: "[ONNX Layer: /l/LayerNorm/Add]␞[ONNX Layer: /l/LayerNorm/Mul]"},
		{Name: "Reformatting CopyNode for Input Tensor 0 to /l/Conv", Type: "Reformat", Origin: "REFORMAT",
			Inputs: []engine.Tensor{tensor("Row major linear FP32")}, Outputs: []engine.Tensor{tensor("Channel major FP16 format where channel % 8 == 0")}},
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = Derive(&layers[i%len(layers)])
	}
}
