package gen

import "strconv"

func cnnTailUnits(o Options) int {
	if o.Era == "trt8" {
		return 3
	}
	return 4
}

// ResNet-50 stages: bottleneck width, output channels, spatial size, blocks.
var cnnStages = []struct{ width, out, hw, blocks int64 }{
	{64, 256, 56, 3}, {128, 512, 28, 4}, {256, 1024, 14, 6}, {512, 2048, 7, 3},
}

// buildCNN writes a ResNet-50-like network: input reformat (or int8
// quantize), conv1 + ReLU, max pool, bottleneck blocks (1×1, 3×3, 1×1 with
// fused residual add + ReLU, a projection shortcut per stage, the odd
// Reformat and 0 ms NoOp), then global pool, flatten and the classifier.
// Block counts scale with the layer budget; the last stage takes the rest.
func buildCNN(b *builder) {
	dt, lay := b.convDT(), b.convLay()
	bd := b.bd
	img := b.input(t("input", dtFloat, layLinear, bd, 3, 224, 224))
	stem := "/conv1/Conv + /relu/Relu"
	var x tensor
	if b.q == dtInt8 {
		x = t("/quant/QuantizeLinear_output_0", dtInt8, layVec4, bd, 3, 224, 224)
		b.add(&layer{name: "/quant/QuantizeLinear", typ: "Reformat", in: []tensor{img}, out: []tensor{x},
			params: []kv{{"ParameterType", `"Reformat"`}}, origin: "QDQ", tvalue: "0x0000000000000000",
			meta: []string{"/quant/QuantizeLinear"}, cost: b.memCost(3 * 224 * 224 * 5)})
	} else {
		l, o := b.reformat(img, stem, layHWC4, dt)
		if dt == dtFloat {
			o.lay = layLinear
			l.out[0].lay = layLinear
		}
		b.add(l)
		x = o
	}
	c1 := t("/relu/Relu_output_0", dt, lay, bd, 64, 112, 112)
	b.add(b.conv(stem, []tensor{x}, c1, 7, 2, 3, 64, true, false, []string{"/conv1/Conv", "/relu/Relu"}))
	x = t("/maxpool/MaxPool_output_0", dt, lay, bd, 64, 56, 56)
	b.add(b.pool("/maxpool/MaxPool", c1, x, "MAX", 3, 2))
	// Scale block counts so the engine fills the budget (about 3.6 layers
	// per block); the last stage runs until the budget is spent.
	scale := float64(b.e.budget-3) / (16 * 3.6)
	cin := int64(64)
	for si, st := range cnnStages {
		blocks := max(1, int(float64(st.blocks)*scale))
		s := strconv.Itoa(si + 1)
		for bi := 0; b.room() && (bi < blocks || si == len(cnnStages)-1); bi++ {
			p := "/layer" + s + "/layer" + s + "." + strconv.Itoa(bi)
			x = b.bottleneck(p, x, cin, st.width, st.out, st.hw, bi == 0 && si > 0, bi)
			cin = st.out
		}
	}
	b.e.tail()
	last := b.last()
	gap := t("/avgpool/GlobalAveragePool_output_0", dt, lay, bd, 2048, 1, 1)
	b.add(b.pool("/avgpool/GlobalAveragePool", last, gap, "AVERAGE", 7, 1))
	if b.trt8() {
		fl := t("/Flatten_output_0", dt, lay, bd, 2048, 1, 1)
		b.add(&layer{name: "/Flatten", typ: "NoOp", in: []tensor{gap}, out: []tensor{fl}, tvalue: "0x0000000000000000", meta: []string{"/Flatten"}})
		out := t("output", dt, lay, bd, 1000, 1, 1)
		fc := b.conv("/fc/Gemm", []tensor{fl}, out, 1, 1, 2048, 1000, false, false, []string{"/fc/Gemm"})
		fc.typ = "CaskGemmConvolution"
		b.add(fc)
		b.output(out)
		return
	}
	// TensorRT 10 hands the classifier to Myelin, as in the AlexNet corpus dump.
	b.newGraph(false)
	fl := t("/Flatten_output_0'.1", b.act, layLinear, bd, 2048)
	b.add(b.kgen("Res", []tensor{gap}, []tensor{fl}, []string{"/Flatten"}, b.memCost(2048*4)))
	out := t("output", b.act, layLinear, bd, 1000)
	b.add(b.gemm("/fc/Gemm", fl, b.dconst(b.act, 2048, 1000), out, []string{"/fc/Gemm"}, float64(b.abs(bd)), 2048, 1000))
	b.output(out)
}

// bottleneck writes one ResNet bottleneck block and returns its output.
func (b *builder) bottleneck(p string, x tensor, cin, width, cout, hw int64, down bool, bi int) tensor {
	dt, lay, bd := b.convDT(), b.convLay(), b.bd
	stride := int64(1)
	inHW := hw
	if down {
		stride, inHW = 2, hw*2
	}
	skip := x
	if bi == 0 {
		skip = t(p+"/downsample/downsample.0/Conv_output_0", dt, lay, bd, cout, hw, hw)
		b.add(b.conv(p+"/downsample/downsample.0/Conv", []tensor{x}, skip, 1, stride, cin, cout, false, false, []string{p + "/downsample/downsample.0/Conv"}))
	}
	if bi%5 == 4 {
		id := t(p+"/Identity_output_0", dt, lay, bd, cin, inHW, inHW)
		b.add(&layer{name: p + "/Identity", typ: "NoOp", in: []tensor{x}, out: []tensor{id}, tvalue: "0x0000000000000000", meta: []string{p + "/Identity"}})
		x = id
	}
	n1 := p + "/conv1/Conv + " + p + "/relu/Relu"
	y1 := t(p+"/relu/Relu_output_0", dt, lay, bd, width, inHW, inHW)
	b.add(b.conv(n1, []tensor{x}, y1, 1, 1, cin, width, true, false, []string{p + "/conv1/Conv", p + "/relu/Relu"}))
	n2 := p + "/conv2/Conv + " + p + "/relu_1/Relu"
	y2 := t(p+"/relu_1/Relu_output_0", dt, lay, bd, width, hw, hw)
	b.add(b.conv(n2, []tensor{y1}, y2, 3, stride, width, width, true, false, []string{p + "/conv2/Conv", p + "/relu_1/Relu"}))
	n3 := p + "/conv3/Conv + " + p + "/Add + " + p + "/relu_2/Relu"
	if bi%3 == 2 && b.q != dtInt8 {
		rl, o := b.reformat(y2, n3, layHWC16, dt)
		b.add(rl)
		y2 = o
	}
	y3 := t(p+"/relu_2/Relu_output_0", dt, lay, bd, cout, hw, hw)
	b.add(b.conv(n3, []tensor{y2, skip}, y3, 1, 1, width, cout, true, true, []string{p + "/conv3/Conv", p + "/Add", p + "/relu_2/Relu"}))
	return y3
}

// pool is a CASK pooling layer.
func (b *builder) pool(name string, in, out tensor, kind string, window, stride int64) *layer {
	w := dimsJSONc(window, window)
	tac := "sm50_xmma_pooling_max_nhwc_FP16FP32_WINDOWSIZE_" + strconv.FormatInt(window, 10) + "_NOT_PROPAGATE_NAN_2D"
	if kind == "AVERAGE" {
		tac = "sm50_xmma_pooling_coalescedC_NHWC_kAVERAGE_FP16FP32"
	}
	return &layer{name: name, typ: "CaskPooling", in: []tensor{in}, out: []tensor{out}, meta: []string{name},
		params: []kv{{"ParameterType", `"Pooling"`}, {"PoolingType", `"` + kind + `"`}, {"WindowSize", w},
			{"PaddingMode", `"kEXPLICIT_ROUND_DOWN"`}, {"PrePadding", "[0,0]"}, {"PostPadding", "[0,0]"},
			{"Stride", dimsJSONc(stride, stride)}, {"BlendFactor", "0"}, {"AverageCountExcludesPadding", "1"}},
		tactic: tac, tvalue: b.tv(), cost: b.memCost(float64(numel(in.dims)) * 2.2)}
}
