package gen

import "strconv"

// BERT-base dimensions.
const (
	bertHidden = 768
	bertHeads  = 12
	bertInter  = 3072
	bertSeq    = 128
	bertVocab  = 30522
)

func bertTailUnits(o Options) int {
	if o.Era == "trt8" {
		return 1
	}
	return 2
}

// buildBERT writes an encoder: embeddings + mask, then per layer Q/K/V
// GEMMs, head reshapes, fused multi-head attention, output dense, residual +
// LayerNorm, intermediate dense, GELU, output dense, residual + LayerNorm
// (with quantize kernels in int8/fp8 engines), then the pooler.
func buildBERT(b *builder) {
	H, S := int64(bertHidden), int64(bertSeq)
	fS := float64(S)
	act, q := b.act, b.q
	quant := q == dtInt8 || q == dtFP8
	hid := func(name string, dt dtype) tensor { return t(name, dt, layLinear, b.bd, S, H) }
	ids := b.input(t("input_ids", dtInt32, layLinear, b.bd, S))
	mask := b.input(t("attention_mask", dtInt32, layLinear, b.bd, S))
	types := b.input(t("token_type_ids", dtInt32, layLinear, b.bd, S))
	b.newGraph(true)
	x := hid("/bert/embeddings/LayerNorm/Add_1_output_0", act)
	b.add(&layer{name: "__myl_GathGathAddGathAddMeanSubMulMeanAddSqrtDivMulAdd", mylSfx: true, typ: "kgen",
		in: []tensor{ids, types}, out: []tensor{x}, consts: []tensor{b.dconst(act, bertVocab, H)},
		meta: ops("/bert/embeddings/", "word_embeddings/Gather", "token_type_embeddings/Gather", "Add", "position_embeddings/Gather", "Add_1",
			"LayerNorm/ReduceMean", "LayerNorm/Sub", "LayerNorm/Pow", "LayerNorm/ReduceMean_1", "LayerNorm/Add", "LayerNorm/Sqrt", "LayerNorm/Div", "LayerNorm/Mul", "LayerNorm/Add_1"),
		tactic: "__myl_GatGatAddGatAddMeaSubMulMeaAddSqrDivMulAdd_0x" + b.r.hex(32), cost: b.memCost(fS * float64(H) * 8), myelin: true})
	m := t("/bert/Mul_output_0", act, layLinear, b.bd, 1, 1, S)
	m.shared = true
	b.add(b.kgen("CastSubMul", []tensor{mask}, []tensor{m}, ops("/bert/", "Unsqueeze", "Unsqueeze_1", "Cast", "Sub", "Mul"), b.memCost(fS*8)))
	for L := 0; b.room(); L++ {
		p := "/bert/encoder/layer." + strconv.Itoa(L)
		in := x
		if quant {
			in = hid(p+"/attention/self/query/input_quantizer/QuantizeLinear_output_0", q)
			b.add(b.kgen("Quantize", []tensor{x}, []tensor{in}, []string{p + "/attention/self/query/input_quantizer/QuantizeLinear"}, b.memCost(fS*float64(H)*3)))
		}
		heads := make([]tensor, 3)
		for i, w := range []string{"query", "key", "value"} {
			o := hid(p+"/attention/self/"+w+"/Add_output_0", act)
			b.add(b.gemm(p+"/attention/self/"+w+"/MatMul", in, b.dconst(q, H, H), o,
				ops(p+"/attention/self/"+w+"/", "MatMul", "Add"), fS, float64(H), float64(H)))
			heads[i] = o
		}
		if !b.trt8() {
			for i, w := range []string{"Reshape", "Reshape_1", "Reshape_2"} {
				o := t(p+"/attention/self/"+w+"_output_0", act, layLinear, b.bd, S, bertHeads, H/bertHeads)
				b.add(&layer{name: p + "/attention/self/" + w, mylSfx: true, typ: "reshape", in: []tensor{heads[i]}, out: []tensor{o},
					meta: []string{p + "/attention/self/" + w}, myelin: true})
				heads[i] = o
			}
		}
		ctx := hid(p+"/attention/self/Reshape_3_output_0", q)
		b.add(&layer{name: "_gemm_mha_v2", mylSfx: true, typ: "kgen", in: []tensor{heads[0], heads[1], heads[2], m}, out: []tensor{ctx},
			meta:   ops(p+"/attention/self/", "Transpose", "MatMul", "Div", "Add", "Softmax", "MatMul_1", "Transpose_3", "Reshape_3"),
			tactic: "_gemm_mha_v2_0x" + b.r.hex(32), cost: b.gemmCost(fS, fS, float64(H)) * 2, myelin: true})
		ao := hid(p+"/attention/output/dense/Add_output_0", act)
		b.add(b.gemm(p+"/attention/output/dense/MatMul", ctx, b.dconst(q, H, H), ao, ops(p+"/attention/output/dense/", "MatMul", "Add"), fS, float64(H), float64(H)))
		x1 := hid(p+"/attention/output/LayerNorm/Add_1_output_0", q)
		lnOps := "AddAddMeanSubMulMeanAddSqrtDivMulAdd"
		if quant {
			lnOps += "Quantize"
		}
		b.add(b.kgen(lnOps, []tensor{ao, x}, []tensor{x1}, ops(p+"/attention/output/", "Add", "LayerNorm/ReduceMean", "LayerNorm/Sub", "LayerNorm/Pow",
			"LayerNorm/ReduceMean_1", "LayerNorm/Add", "LayerNorm/Sqrt", "LayerNorm/Div", "LayerNorm/Mul", "LayerNorm/Add_1"), b.memCost(fS*float64(H)*8)))
		h := t(p+"/intermediate/dense/Add_output_0", act, layLinear, b.bd, S, bertInter)
		b.add(b.gemm(p+"/intermediate/dense/MatMul", x1, b.dconst(q, H, bertInter), h, ops(p+"/intermediate/dense/", "MatMul", "Add"), fS, float64(H), bertInter))
		g := t(p+"/intermediate/intermediate_act_fn/Mul_1_output_0", q, layLinear, b.bd, S, bertInter)
		b.add(b.kgen("DivErfAddMulMul", []tensor{h}, []tensor{g}, ops(p+"/intermediate/intermediate_act_fn/", "Div", "Erf", "Add", "Mul", "Mul_1"), b.memCost(fS*bertInter*4)))
		o := hid(p+"/output/dense/Add_output_0", act)
		b.add(b.gemm(p+"/output/dense/MatMul", g, b.dconst(q, bertInter, H), o, ops(p+"/output/dense/", "MatMul", "Add"), fS, bertInter, float64(H)))
		x2 := hid(p+"/output/LayerNorm/Add_1_output_0", act)
		b.add(b.kgen("AddAddMeanSubMulMeanAddSqrtDivMulAdd", []tensor{o, x1}, []tensor{x2}, ops(p+"/output/", "Add", "LayerNorm/ReduceMean", "LayerNorm/Sub",
			"LayerNorm/Pow", "LayerNorm/ReduceMean_1", "LayerNorm/Add", "LayerNorm/Sqrt", "LayerNorm/Div", "LayerNorm/Mul", "LayerNorm/Add_1"), b.memCost(fS*float64(H)*8)))
		b.boundary()
		x = x2
	}
	b.e.tail()
	last := b.last()
	b.output(last) // last_hidden_state, also read by the pooler
	pd := t("/bert/pooler/dense/Add_output_0", act, layLinear, b.bd, H)
	b.add(b.gemm("/bert/pooler/dense/MatMul", last, b.dconst(act, H, H), pd, ops("/bert/pooler/", "Gather", "dense/MatMul", "dense/Add"), 1, float64(H), float64(H)))
	po := t("pooler_output", act, layLinear, b.bd, H)
	b.add(b.kgen("Tanh", []tensor{pd}, []tensor{po}, []string{"/bert/pooler/activation/Tanh"}, b.memCost(float64(H)*4)))
	b.output(po)
}
