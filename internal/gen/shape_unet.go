package gen

import "strconv"

func unetTailUnits(Options) int { return 2 }

// SD 1.5 UNet levels.
var unetCh = []int64{320, 640, 1280, 1280}

// buildUNet writes a Stable-Diffusion-1.5-like UNet: time embedding,
// conv_in, down levels (ResNet blocks with GroupNorm+SiLU and time
// injection, spatial transformers with self/cross attention), mid block,
// up levels that concatenate the saved skips, and the output head. In the
// trt8 era each transformer's attention becomes a {ForeignNode[...]} Myelin
// region between its proj_in/proj_out convolutions. Block counts scale with
// the budget; the last up level takes the rest.
func buildUNet(b *builder) {
	bd := b.bd
	act := b.act
	sample := b.input(t("sample", dtFloat, layLinear, bd, 4, 64, 64))
	ts := b.input(t("timestep", dtFloat, layLinear, bd))
	ctx := b.input(t("encoder_hidden_states", act, layLinear, bd, 77, 768))
	b.newGraph(true)
	tp := t("/time_proj/Concat_output_0", act, layLinear, bd, 320)
	b.add(b.kgen("MulSinCosConcat", []tensor{ts}, []tensor{tp}, ops("/time_proj/", "Unsqueeze", "Mul", "Sin", "Cos", "Concat"), b.memCost(320*8)))
	t1 := t("/time_embedding/linear_1/Gemm_output_0", act, layLinear, bd, 1280)
	b.add(b.gemm("/time_embedding/linear_1/Gemm", tp, b.dconst(b.q, 320, 1280), t1, []string{"/time_embedding/linear_1/Gemm"}, 1, 320, 1280))
	temb := t("/time_embedding/linear_2/Gemm_output_0", act, layLinear, bd, 1280)
	b.add(b.gemm("/time_embedding/linear_2/Gemm", t1, b.dconst(b.q, 1280, 1280), temb, ops("/time_embedding/", "act/Sigmoid", "act/Mul", "linear_2/Gemm"), 1, 1280, 1280))
	b.boundary()
	dt, lay := b.convDT(), b.convLay()
	x := t("/conv_in/Conv_output_0", dt, lay, bd, 320, 64, 64)
	l, rin := b.reformat(sample, "/conv_in/Conv", layHWC8, dt)
	b.add(l)
	b.add(b.conv("/conv_in/Conv", []tensor{rin}, x, 3, 1, 4, 320, false, false, []string{"/conv_in/Conv"}))
	skips := []tensor{x}
	attnUnits := 16.0
	if b.trt8() {
		attnUnits = 4
	}
	perF := 6*(7+attnUnits) + 2*7 + 12*8 + 9*(attnUnits+1)
	f := max(1, int(float64(b.e.budget-30)/perF))
	hw, ch := int64(64), int64(320)
	for lv := 0; lv < 4 && b.room(); lv++ {
		for i := 0; i < 2*f && b.room(); i++ {
			p := "/down_blocks." + strconv.Itoa(lv) + "/"
			x = b.resnet(p+"resnets."+strconv.Itoa(i), x, nil, temb, ch, unetCh[lv], hw)
			ch = unetCh[lv]
			if lv < 3 {
				x = b.spatial(p+"attentions."+strconv.Itoa(i), x, ctx, ch, hw)
			}
			skips = append(skips, x)
		}
		if lv < 3 && b.room() {
			hw /= 2
			o := t("/down_blocks."+strconv.Itoa(lv)+"/downsamplers.0/conv/Conv_output_0", dt, lay, bd, ch, hw, hw)
			b.add(b.conv("/down_blocks."+strconv.Itoa(lv)+"/downsamplers.0/conv/Conv", []tensor{x}, o, 3, 2, ch, ch, false, false, []string{"/down_blocks." + strconv.Itoa(lv) + "/downsamplers.0/conv/Conv"}))
			x = o
			skips = append(skips, x)
		}
	}
	if b.room() {
		x = b.resnet("/mid_block/resnets.0", x, nil, temb, ch, ch, hw)
		x = b.spatial("/mid_block/attentions.0", x, ctx, ch, hw)
		x = b.resnet("/mid_block/resnets.1", x, nil, temb, ch, ch, hw)
	}
	for lv := 0; lv < 4 && b.room(); lv++ {
		cout := unetCh[3-lv]
		p := "/up_blocks." + strconv.Itoa(lv) + "/"
		for i := 0; b.room() && (i < 2*f+1 || lv == 3); i++ {
			var skip *tensor
			if n := len(skips); n > 0 {
				skip = &skips[n-1]
				skips = skips[:n-1]
			}
			x = b.resnet(p+"resnets."+strconv.Itoa(i), x, skip, temb, ch, cout, hw)
			ch = cout
			if lv > 0 {
				x = b.spatial(p+"attentions."+strconv.Itoa(i), x, ctx, ch, hw)
			}
		}
		if lv < 3 && b.room() {
			up := t(p+"upsamplers.0/Resize_output_0", dt, lay, bd, ch, hw*2, hw*2)
			b.add(&layer{name: p + "upsamplers.0/Resize", typ: "Resize", in: []tensor{x}, out: []tensor{up}, meta: []string{p + "upsamplers.0/Resize"},
				params: []kv{{"ParameterType", `"Resize"`}, {"ResizeMode", `"NEAREST"`}, {"ResizeScales", "[1,1,2,2]"}},
				tvalue: b.tv(), cost: b.memCost(float64(numel(up.dims)) * 3)})
			hw *= 2
			o := t(p+"upsamplers.0/conv/Conv_output_0", dt, lay, bd, ch, hw, hw)
			b.add(b.conv(p+"upsamplers.0/conv/Conv", []tensor{up}, o, 3, 1, ch, ch, false, false, []string{p + "upsamplers.0/conv/Conv"}))
			x = o
		}
	}
	b.e.tail()
	last := b.last()
	n := b.groupNorm("/conv_norm_out", last, 320, hw)
	out := t("out_sample", dtFloat, layLinear, bd, 4, 64, 64)
	c := b.conv("/conv_out/Conv", []tensor{n}, out, 3, 1, 320, 4, false, false, []string{"/conv_out/Conv"})
	b.add(c)
	b.output(out)
}

// groupNorm is GroupNorm + SiLU: a plugin in trt8, a native Normalization
// layer from trt10 on. Either way it is one layer outside Myelin.
func (b *builder) groupNorm(p string, x tensor, ch, hw int64) tensor {
	o := t(p+"/Mul_output_0", b.convDT(), b.convLay(), b.bd, ch, hw, hw)
	l := &layer{name: p + "/GroupNormalization + " + p + "/Sigmoid + " + p + "/Mul", in: []tensor{x}, out: []tensor{o},
		meta: ops(p, "/GroupNormalization", "/Sigmoid", "/Mul"), cost: b.memCost(float64(ch*hw*hw) * 6)}
	if b.trt8() {
		l.typ = "PluginV2"
		l.params = []kv{{"PluginType", `"GroupNormalizationPlugin"`}, {"PluginVersion", `"1"`}}
		l.tvalue = "0x0000000000000000"
	} else {
		l.typ = "Normalization"
		l.params = []kv{{"ParameterType", `"Normalization"`}, {"NbGroups", "32"}, {"Epsilon", "1e-05"}, {"Axes", "28"}}
		l.tvalue = b.tv()
	}
	b.add(l)
	return o
}

// resnet writes a ResNet block; skip, when given, is concatenated first.
func (b *builder) resnet(p string, x tensor, skip *tensor, temb tensor, cin, cout, hw int64) tensor {
	dt, lay, bd := b.convDT(), b.convLay(), b.bd
	in := []tensor{x}
	if skip != nil {
		cp := t(p+"/Concat_output_0", dt, lay, bd, cin+skip.dims[1], hw, hw)
		b.add(&layer{name: skip.name + " copy", typ: "Reformat", in: []tensor{*skip}, out: []tensor{cp},
			params: []kv{{"ParameterType", `"Reformat"`}}, origin: "REFORMAT", tvalue: "0x0000000000000000",
			meta: []string{p + "/Concat"}, cost: b.memCost(float64(numel(skip.dims)) * 4)})
		in = append(in, cp)
		cin += skip.dims[1]
	}
	n1 := b.groupNorm(p+"/norm1", in[0], cin, hw)
	h1 := t(p+"/conv1/Conv_output_0", dt, lay, bd, cout, hw, hw)
	c1 := b.conv(p+"/conv1/Conv", []tensor{n1}, h1, 3, 1, cin, cout, false, false, []string{p + "/conv1/Conv"})
	if len(in) > 1 {
		c1.in = append(c1.in, in[1]) // the skip half of the concatenation
	}
	b.add(c1)
	te := t(p+"/time_emb_proj/Gemm_output_0", b.act, layLinear, bd, cout)
	b.add(&layer{name: p + "/time_emb_proj/Gemm", typ: "CaskGemmConvolution", in: []tensor{temb}, out: []tensor{te}, meta: ops(p, "/nonlinearity/Sigmoid", "/time_emb_proj/Gemm"),
		params: []kv{{"ParameterType", `"Convolution"`}, {"Kernel", "[1,1]"}, {"OutMaps", strconv.FormatInt(cout, 10)}, {"Groups", "1"},
			{"Weights", `{"Type": "` + dt.kernelName() + `", "Count": ` + strconv.FormatInt(1280*cout, 10) + `}`}},
		tactic: "sm80_xmma_gemm_f16f16_f16f16_f16_nn_n_tilesize64x32x64_stage5_warpsize2x2x1_tensor16x8x16", tvalue: b.tv(), cost: b.gemmCost(1, 1280, float64(cout))})
	h2 := t(p+"/Add_output_0", dt, lay, bd, cout, hw, hw)
	b.add(&layer{name: "PWN(" + p + "/Unsqueeze_1, " + p + "/Add)", typ: "PointWiseV2", in: []tensor{h1, te}, out: []tensor{h2}, meta: ops(p, "/Unsqueeze_1", "/Add"),
		params: []kv{{"ParameterType", `"PointWise"`}, {"ParameterSubType", `"PointWiseExpression"`}, {"NbInputArgs", "2"}, {"InputArgs", `["arg0", "arg1"]`},
			{"NbOperations", "1"}, {"Operations", `["auto const var0 = pwgen::iPlus(arg0, arg1);"]`}},
		tvalue: "0x000000000000001c", cost: b.memCost(float64(cout*hw*hw) * 6)})
	n2 := b.groupNorm(p+"/norm2", h2, cout, hw)
	sc := x
	if cin != cout {
		sc = t(p+"/conv_shortcut/Conv_output_0", dt, lay, bd, cout, hw, hw)
		b.add(b.conv(p+"/conv_shortcut/Conv", in, sc, 1, 1, cin, cout, false, false, []string{p + "/conv_shortcut/Conv"}))
	}
	o := t(p+"/Div_output_0", dt, lay, bd, cout, hw, hw)
	b.add(b.conv(p+"/conv2/Conv + "+p+"/Add_1 + "+p+"/Div", []tensor{n2, sc}, o, 3, 1, cout, cout, false, true, ops(p, "/conv2/Conv", "/Add_1", "/Div")))
	return o
}

// spatial writes a spatial transformer: GroupNorm, proj_in, Myelin
// self-attention, cross-attention on the text context and GEGLU
// feed-forward, proj_out with the residual.
func (b *builder) spatial(p string, x tensor, ctx tensor, ch, hw int64) tensor {
	dt, lay, bd, act, q := b.convDT(), b.convLay(), b.bd, b.act, b.q
	tok := hw * hw
	fT, fC := float64(tok), float64(ch)
	n := b.groupNorm(p+"/norm", x, ch, hw)
	pin := t(p+"/proj_in/Conv_output_0", dt, lay, bd, ch, hw, hw)
	b.add(b.conv(p+"/proj_in/Conv", []tensor{n}, pin, 1, 1, ch, ch, false, false, []string{p + "/proj_in/Conv"}))
	seq := func(name string, c int64) tensor { return t(p+name, act, layLinear, bd, tok, c) }
	tb := p + "/transformer_blocks.0"
	h := seq("/Reshape_output_0", ch)
	ln := func(name string, in tensor) tensor {
		o := seq(name+"/Add_1_output_0", ch)
		b.add(b.kgen("ResMeanSubMulMeanAddSqrtDivMulAdd", []tensor{in}, []tensor{o}, ops(tb+name, "/ReduceMean", "/Sub", "/Pow", "/ReduceMean_1", "/Add", "/Sqrt", "/Div", "/Mul", "/Add_1"), b.memCost(fT*fC*6)))
		return o
	}
	attn := func(name string, in tensor, kv *tensor, resid tensor) tensor {
		qo := seq(name+"/to_q/MatMul_output_0", ch)
		b.add(b.gemm(tb+name+"/to_q/MatMul", in, b.dconst(q, ch, ch), qo, []string{tb + name + "/to_q/MatMul"}, fT, fC, fC))
		src, srcT := in, fT
		if kv != nil {
			src, srcT = *kv, 77
		}
		kvo := t(tb+name+"/to_kv/MatMul_output_0", act, layLinear, bd, int64(srcT), 2*ch)
		b.add(b.gemm(tb+name+"/to_k/MatMul", src, b.dconst(q, src.dims[len(src.dims)-1], 2*ch), kvo, ops(tb+name, "/to_k/MatMul", "/to_v/MatMul"), srcT, float64(src.dims[len(src.dims)-1]), 2*fC))
		ao := seq(name+"/Reshape_3_output_0", ch)
		b.add(&layer{name: "_gemm_mha_v2", mylSfx: true, typ: "kgen", in: []tensor{qo, kvo}, out: []tensor{ao},
			meta:   ops(tb+name, "/Reshape", "/Transpose", "/MatMul", "/Mul", "/Softmax", "/MatMul_1", "/Transpose_1", "/Reshape_3"),
			tactic: "_gemm_mha_v2_0x" + b.r.hex(32), cost: b.gemmCost(fT, srcT, fC) * 2, myelin: true})
		o := seq(name+"/to_out.0/Add_output_0", ch)
		g := b.gemm(tb+name+"/to_out.0/MatMul", ao, b.dconst(q, ch, ch), o, ops(tb+name, "/to_out.0/MatMul", "/to_out.0/Add", "/Add"), fT, fC, fC)
		g.in = append(g.in, resid)
		b.add(g)
		return o
	}
	b.add(b.kgen("TranReshape", []tensor{pin}, []tensor{h}, ops(p, "/Transpose", "/Reshape"), b.memCost(fT*fC*4)))
	h = attn("/attn1", ln("/norm1", h), nil, h)
	h = attn("/attn2", ln("/norm2", h), &ctx, h)
	n3 := ln("/norm3", h)
	ff := seq("/ff/net.0/proj/MatMul_output_0", 8*ch)
	b.add(b.gemm(tb+"/ff/net.0/proj/MatMul", n3, b.dconst(q, ch, 8*ch), ff, []string{tb + "/ff/net.0/proj/MatMul"}, fT, fC, 8*fC))
	gg := seq("/ff/net.0/Mul_3_output_0", 4*ch)
	b.add(b.kgen("SliceDivErfAddMulMulMul", []tensor{ff}, []tensor{gg}, ops(tb+"/ff/net.0", "/Slice", "/Div", "/Erf", "/Add", "/Mul", "/Mul_1", "/Mul_3"), b.memCost(fT*fC*24)))
	fo := seq("/ff/net.2/Add_output_0", ch)
	g := b.gemm(tb+"/ff/net.2/MatMul", gg, b.dconst(q, 4*ch, ch), fo, ops(tb, "/ff/net.2/MatMul", "/ff/net.2/Add", "/Add_2"), fT, 4*fC, fC)
	g.in = append(g.in, h)
	b.add(g)
	back := t(p+"/Reshape_1_output_0", dt, lay, bd, ch, hw, hw)
	b.add(b.kgen("ReshTran", []tensor{fo}, []tensor{back}, ops(p, "/Reshape_1", "/Transpose_1"), b.memCost(fT*fC*4)))
	b.boundary()
	o := t(p+"/Add_output_0", dt, lay, bd, ch, hw, hw)
	b.add(b.conv(p+"/proj_out/Conv + "+p+"/Add", []tensor{back, x}, o, 1, 1, ch, ch, false, true, ops(p, "/proj_out/Conv", "/Add")))
	return o
}
