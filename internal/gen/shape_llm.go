package gen

import "strconv"

// Llama-3-8B-like decoder dimensions.
const (
	llmHidden = 4096
	llmHeads  = 32
	llmKV     = 8
	llmHead   = 128
	llmInter  = 14336
	llmVocab  = 128256
	llmSeq    = 512 // the sequence length costs are computed at (dims say -1)
)

func llmTailUnits(o Options) int {
	if o.Era == "trt8" {
		return 1
	}
	return 2
}

// buildLLM writes a decoder-only transformer: embedding and rotary tables,
// then decoder blocks (RMSNorm, fused QKV, rotary, causal flash attention,
// o_proj + residual, gate/up GEMM, SiLU·mul, down + residual), one Myelin
// graph per eight blocks, and the final norm + lm_head.
func buildLLM(b *builder) {
	H, S := int64(llmHidden), float64(llmSeq)
	act, q := b.act, b.q
	hid := func(name string, dt dtype) tensor { return t(name, dt, layLinear, b.bd, -1, H) }
	ids := b.input(t("input_ids", dtInt32, layLinear, b.bd, -1))
	pos := b.input(t("position_ids", dtInt32, layLinear, b.bd, -1))
	b.newGraph(true)
	x := hid("/model/embed_tokens/Gather_output_0", act)
	b.add(&layer{name: "/model/embed_tokens/Gather", mylSfx: true, typ: "kgen", in: []tensor{ids}, out: []tensor{x},
		consts: []tensor{b.dconst(act, llmVocab, H)}, meta: []string{"/model/embed_tokens/Gather"},
		cost: b.memCost(S * float64(H) * 2), tactic: "__myl_Gath_0x" + b.r.hex(32), myelin: true})
	cos := t("/model/rotary_emb/Cos_output_0", act, layLinear, b.bd, -1, llmHead)
	sin := t("/model/rotary_emb/Sin_output_0", act, layLinear, b.bd, -1, llmHead)
	cos.shared, sin.shared = true, true
	b.add(b.kgen("CastMatMulConcatCosSin", []tensor{pos}, []tensor{cos, sin},
		ops("/model/rotary_emb/", "Cast", "MatMul", "Concat", "Cos", "Sin"), b.memCost(S*llmHead*8)))
	qkvN := int64(llmHidden + 2*llmKV*llmHead)
	for L := 0; b.room(); L++ {
		if L > 0 && L%8 == 0 {
			b.boundary()
			b.newGraph(false)
		}
		p := "/model/layers." + strconv.Itoa(L)
		n1 := hid(p+"/input_layernorm/Mul_1_output_0", q)
		k := b.kgen(normOps(q), []tensor{x}, []tensor{n1},
			ops(p+"/input_layernorm/", "Cast", "Pow", "ReduceMean", "Add", "Sqrt", "Div", "Mul", "Mul_1"), b.memCost(S*float64(H)*6))
		k.consts = []tensor{b.dconst(act, H)}
		b.add(k)
		qkv := hid(p+"/self_attn/qkv_proj/MatMul_output_0", act)
		qkv.dims = []int64{b.bd, -1, qkvN}
		b.add(b.gemm(p+"/self_attn/qkv_proj/MatMul", n1, b.dconst(q, H, qkvN), qkv,
			ops(p+"/self_attn/", "q_proj/MatMul", "k_proj/MatMul", "v_proj/MatMul", "Reshape", "Transpose", "Reshape_1", "Transpose_1", "Reshape_2", "Transpose_2"), S, float64(H), float64(qkvN)))
		split := qkv
		if !b.trt8() {
			split = t(p+"/self_attn/Reshape_output_0", act, layLinear, b.bd, -1, llmHeads+2*llmKV, llmHead)
			b.add(&layer{name: p + "/self_attn/Reshape", mylSfx: true, typ: "reshape", in: []tensor{qkv}, out: []tensor{split},
				meta: []string{p + "/self_attn/Reshape"}, myelin: true})
		}
		stream := 0
		if !b.trt8() && L%4 == 3 {
			// Multi-stream: the rotary kernel runs on stream 1 between a signal/wait pair.
			b.add(&layer{name: "__myl_signal_" + strconv.Itoa(L), mylSfx: true, typ: "signal", myelin: true, cost: 0.001})
			b.add(&layer{name: "__myl_wait_" + strconv.Itoa(L), mylSfx: true, typ: "wait", myelin: true, cost: 0.001, stream: 1})
			stream = 1
		}
		qr := t(p+"/self_attn/q_rotary_output_0", act, layLinear, b.bd, llmHeads, -1, llmHead)
		kr := t(p+"/self_attn/k_rotary_output_0", act, layLinear, b.bd, llmKV, -1, llmHead)
		rot := b.kgen("MulSliceNegConcatMulAdd", []tensor{split, cos, sin}, []tensor{qr, kr},
			ops(p+"/self_attn/", "Unsqueeze", "Unsqueeze_1", "Mul", "Slice", "Slice_1", "Neg", "Concat", "Mul_1", "Add", "Mul_2", "Slice_2", "Slice_3", "Neg_1", "Concat_1", "Mul_3", "Add_1"), b.memCost(S*float64(qkvN)*4))
		rot.stream = stream
		b.add(rot)
		at := hid(p+"/self_attn/Reshape_6_output_0", q)
		b.add(&layer{name: "_fmha_v2_flash_attention_causal", mylSfx: true, typ: "kgen", in: []tensor{qr, kr, split}, out: []tensor{at},
			meta:   ops(p+"/self_attn/", "Unsqueeze_2", "Expand", "Reshape_4", "Unsqueeze_3", "Expand_1", "Reshape_5", "Transpose_3", "MatMul", "Div", "Add_2", "Softmax", "Cast", "MatMul_1", "Transpose_4", "Reshape_6"),
			tactic: "fmha_v2_flash_attention_" + fmhaType(act) + "_64_128_S_qkv_128_causal_sm80_kernel_nl_tiled",
			cost:   b.gemmCost(S, S, float64(H)) * 2, myelin: true})
		o := hid(p+"/self_attn/o_proj/MatMul_output_0", act)
		b.add(b.gemm(p+"/self_attn/o_proj/MatMul", at, b.dconst(q, H, H), o, []string{p + "/self_attn/o_proj/MatMul"}, S, float64(H), float64(H)))
		x2 := hid(p+"/Add_output_0", act)
		n2 := hid(p+"/post_attention_layernorm/Mul_1_output_0", q)
		k = b.kgen("Add"+normOps(q), []tensor{x, o}, []tensor{x2, n2},
			append([]string{p + "/Add"}, ops(p+"/post_attention_layernorm/", "Cast", "Pow", "ReduceMean", "Add", "Sqrt", "Div", "Mul", "Mul_1")...),
			b.memCost(S*float64(H)*8))
		k.consts = []tensor{b.dconst(act, H)}
		b.add(k)
		b.boundary()
		gu := t(p+"/mlp/gate_up_proj/MatMul_output_0", act, layLinear, b.bd, -1, 2*llmInter)
		b.add(b.gemm(p+"/mlp/gate_proj/MatMul", n2, b.dconst(q, H, 2*llmInter), gu,
			ops(p+"/mlp/", "gate_proj/MatMul", "up_proj/MatMul"), S, float64(H), 2*llmInter))
		a := t(p+"/mlp/Mul_output_0", q, layLinear, b.bd, -1, llmInter)
		b.add(b.kgen("SigmMulMul", []tensor{gu}, []tensor{a}, ops(p+"/mlp/", "act_fn/Sigmoid", "act_fn/Mul", "Mul"), b.memCost(S*llmInter*6)))
		d := hid(p+"/mlp/down_proj/MatMul_output_0", act)
		b.add(b.gemm(p+"/mlp/down_proj/MatMul", a, b.dconst(q, llmInter, H), d, []string{p + "/mlp/down_proj/MatMul"}, S, llmInter, float64(H)))
		x3 := hid(p+"/Add_1_output_0", act)
		b.add(b.kgen("Add", []tensor{x2, d}, []tensor{x3}, []string{p + "/Add_1"}, b.memCost(S*float64(H)*6)))
		b.boundary()
		x = x3
	}
	b.e.tail()
	last := b.last()
	n := hid("/model/norm/Mul_1_output_0", act)
	b.add(b.kgen(normOps(act), []tensor{last}, []tensor{n}, ops("/model/norm/", "Cast", "Pow", "ReduceMean", "Add", "Sqrt", "Div", "Mul", "Mul_1"), b.memCost(S*float64(H)*6)))
	logits := t("logits", dtFloat, layLinear, b.bd, -1, llmVocab)
	b.add(b.gemm("/lm_head/MatMul", n, b.dconst(act, H, llmVocab), logits, []string{"/lm_head/MatMul"}, S, float64(H), llmVocab))
	b.output(logits)
}

// normOps is the fused RMSNorm op list, with the quantize step of int8/fp8
// engines.
func normOps(q dtype) string {
	if q == dtInt8 || q == dtFP8 {
		return "CastMulMeanAddSqrtDivMulCastMulQuantize"
	}
	return "CastMulMeanAddSqrtDivMulCastMul"
}

func fmhaType(d dtype) string {
	switch d {
	case dtBF16:
		return "bf16"
	case dtFloat:
		return "fp32"
	}
	return "fp16"
}
