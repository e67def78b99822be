package dump

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// genLayerInfo writes an LLM-like TensorRT 10 layer-info dump of n layers in
// trtexec's own layout (about 1 KB per layer, like real 200k-layer dumps):
// Myelin gemm/kgen kernels with _myl suffixes, -1 sequence dims, chained
// tensors, metadata joined with U+001E. The real generator lives in
// internal/gen; this small one keeps the benchmarks independent of it.
func genLayerInfo(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	b.Grow(n * 1100)
	types := []string{"gemm", "kgen", "kgen", "shape_call", "Reformat", "PointWiseV2"}
	tactics := []string{
		"sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
		"__myl_AddMulMeanSubMulAddMulRsqrt_0x5d2f1ab5c3e9a4a8b0b1c9d3f1e2a3b4",
		"__myl_MulSigmoidMul_0x9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d",
		"sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x256x32_stage3_warpsize2x4x1_g1_tensor16x8x16",
	}
	b.WriteString(`{"Layers": [`)
	prev := "input_ids"
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		blk, g := i/12, i/400
		typ := types[r.IntN(len(types))]
		name := fmt.Sprintf("/model/layers.%d/self_attn/q_proj/MatMul_myl%d_%d", blk, g, i%400)
		out := fmt.Sprintf("__myln_k_arg__bb1_%d", i)
		fmt.Fprintf(&b, "{\n  \"Name\": %q,\n  \"LayerType\": %q,\n  \"Inputs\": [\n", name, typ)
		fmt.Fprintf(&b, "  {\n    \"Name\": %q,\n    \"Location\": \"Device\",\n    \"Dimensions\": [1,-1,4096],\n    \"Format/Datatype\": \"Half\"\n  }", prev)
		fmt.Fprintf(&b, ",\n  {\n    \"Name\": \"__mye%d_dconst\",\n    \"Location\": \"Device\",\n    \"Dimensions\": [4096,4096],\n    \"Format/Datatype\": \"Half\"\n  }", i)
		if i%3 == 0 {
			fmt.Fprintf(&b, ",\n  {\n    \"Name\": \"/model/layers.%d/input_layernorm/Mul_1_output_0\",\n    \"Location\": \"Device\",\n    \"Dimensions\": [1,-1,4096],\n    \"Format/Datatype\": \"Half\"\n  }", blk)
		}
		fmt.Fprintf(&b, "],\n  \"Outputs\": [\n  {\n    \"Name\": %q,\n    \"Location\": \"Device\",\n    \"Dimensions\": [1,-1,4096],\n    \"Format/Datatype\": \"Half\"\n  }", out)
		if i%2 == 0 {
			fmt.Fprintf(&b, ",\n  {\n    \"Name\": \"%s_aux\",\n    \"Location\": \"Device\",\n    \"Dimensions\": [1,-1,32,128],\n    \"Format/Datatype\": \"Float\"\n  }", out)
		}
		b.WriteString("],\n")
		fmt.Fprintf(&b, "  \"TacticName\": %q,\n  \"TacticValue\": \"0x%016x\",\n  \"StreamId\": 0,\n", tactics[r.IntN(len(tactics))], r.Uint64()&0xff)
		fmt.Fprintf(&b, "  \"Metadata\": \"[ONNX Layer: /model/layers.%d/self_attn/q_proj/MatMul]\\u001e[ONNX Layer: /model/layers.%d/self_attn/Add_%d]\\u001f[ONNX Layer: /model/layers.%d/mlp/act_fn/Sigmoid]\"\n}", blk, blk, i, blk)
		prev = out
	}
	b.WriteString("],\n\"Bindings\": [\"input_ids\"\n,\"")
	b.WriteString(prev)
	b.WriteString("\"\n]}\n")
	return b.Bytes()
}

// genProfile writes the matching trtexec profile.
func genProfile(n int) []byte {
	r := rand.New(rand.NewPCG(3, 4))
	var b bytes.Buffer
	b.Grow(n * 150)
	b.WriteString("[\n  { \"count\" : 100 }\n")
	for i := 0; i < n; i++ {
		avg := 0.001 + r.ExpFloat64()*0.02
		fmt.Fprintf(&b, ", { \"name\" : \"/model/layers.%d/self_attn/q_proj/MatMul_myl%d_%d\", \"timeMs\" : %.6g, \"averageMs\" : %.6g, \"medianMs\" : %.6g, \"percentage\" : %.6g }\n",
			i/12, i/400, i%400, avg*100, avg, avg*0.98, avg/float64(n)*100)
	}
	b.WriteString("]\n")
	return b.Bytes()
}
