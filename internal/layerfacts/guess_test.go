package layerfacts

import (
	"slices"
	"strings"
	"testing"
)

func TestGuessKind(t *testing.T) {
	for name, want := range map[string]string{
		"conv1/7x7_s2 + conv1/relu_7x7":                 "Convolution",
		"conv1/7x7_s2 input reformatter 0":              "Reformat",
		"Reformatting CopyNode for Input Tensor 0 to x": "Reformat",
		"{ForeignNode[/model/attn/MatMul.../Add]}":      "Myelin",
		"inception_3a/1x1 copy":                         "Concatenation",
		"loss3/classifier":                              "FullyConnected",
		"/fc1/Gemm":                                     "MatrixMultiply",
		"fc7 + relu7":                                   "FullyConnected",
		"offset":                                        "unknown",
		"QuantizeLinear_7":                              "Quantize",
		"DequantizeLinear_9":                            "Dequantize",
		"PWN(Relu_3)":                                   "PointWise",
		"Relu_3":                                        "Activation",
		"PWN(Add_5)":                                    "PointWise",
		"[DLA] conv3":                                   "DLA",
		"pool5/7x7_s1":                                  "Pooling",
	} {
		if got := GuessKind(name); got != want {
			t.Errorf("GuessKind(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestGuessKindFusedNames(t *testing.T) {
	for name, want := range map[string]string{
		"inception_3a/1x1 + inception_3a/relu_1x1 || inception_3a/3x3_reduce + inception_3a/relu_3x3_reduce": "Convolution",
		"inception_3a/5x5 + inception_3a/relu_5x5":                                                           "Convolution",
		"pool1/3x3_s2":      "Pooling",
		"pool1/norm1":       "Normalization",
		"inception_4a/pool": "Pooling",
		"middle_layer":      "unknown",
		// Caffe GoogLeNet: the projection after the branch pool is a 1×1
		// convolution; a reduction before a 3×3 too.
		"inception_3a/pool_proj + inception_3a/relu_pool_proj": "Convolution",
		"inception_4e/3x3_reduce":                              "Convolution",
		// ONNX, TF and PyTorch-exported names.
		"/model/layer1/0/conv1/Conv + /model/layer1/0/relu/Relu": "Convolution",
		"resnet50/conv2_block1_1_conv/Conv2D":                    "Convolution",
		"/model/encoder/layers.0/self_attn/Softmax":              "SoftMax",
		"/model/backbone/maxpool/MaxPool":                        "Pooling",
		"ReduceMean_12":                                          "Reduce",
	} {
		if got := GuessKind(name); got != want {
			t.Errorf("GuessKind(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestGuessKindNamingStyles reads every naming style a profile-only
// backend meets: ONNX (opset and path names), TensorFlow (tf2onnx and
// StatefulPartitionedCall scopes), PyTorch / Torch-TensorRT, Caffe,
// TensorRT's unnamed layers and fused chains, Myelin, Q/DQ of every
// exporter, reformatters of TensorRT 7 and 8+, and DLA records.
func TestGuessKindNamingStyles(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		// ONNX
		{"Conv_12", "Convolution"},
		{"/model/backbone/conv/Conv", "Convolution"},
		{"Gemm_45", "MatrixMultiply"},
		{"MaxPool_2", "Pooling"},
		{"GlobalAveragePool_50", "Pooling"},
		{"Add_6", "ElementWise"},
		{"/blocks.0/attn/Transpose", "Shuffle"},
		{"/encoder/layer.0/attention/self/Softmax", "SoftMax"},
		{"/encoder/layer.0/attention/self/MatMul_1", "MatrixMultiply"},
		{"/decoder/Resize", "Resize"},
		{"/model/Cast_3", "Cast"},
		{"Pad_4", "Padding"},
		{"/input_blocks.1/in_layers.0/InstanceNormalization", "Normalization"},
		// TensorFlow
		{"StatefulPartitionedCall/model/conv2d_3/Conv2D", "Convolution"},
		{"StatefulPartitionedCall/model/dense/MatMul", "MatrixMultiply"},
		{"StatefulPartitionedCall/model/max_pooling2d/MaxPool", "Pooling"},
		{"resnet50/conv1_conv/Conv2D__6", "Shuffle"}, // tf2onnx's NHWC transpose
		{"resnet50/quant_conv1_conv/BiasAdd__1121", "Shuffle"},
		{"Conv__435 + resnet50/conv1_relu/Relu", "Convolution"},
		{"resnet50/pool1_pad/Pad", "Padding"},
		// PyTorch / Torch-TensorRT
		{"[CONVOLUTION]-[aten_ops.convolution.default]-[/conv1/convolution]", "Convolution"},
		{"[MATRIX_MULTIPLY]_[aten_ops_addmm_default]_[/classifier/1/addmm]", "MatrixMultiply"},
		{"[ELEMENTWISE]-[aten_ops.add.Tensor]-[/layer1/0/add]", "ElementWise"},
		{"Forced Cast ITensor (Unnamed Layer* 1) [Scale]_output from DataType.FLOAT to DataType.HALF - [aten_ops._to_copy.default]-[/f]", "Cast"},
		{"features.0.0.weight + QuantizeLinear_7 + Conv_9 + PWN(Clip_13)", "Convolution"},
		// Caffe
		{"conv1/7x7_s2 + conv1/relu_7x7 + pool1/3x3_s2", "Convolution"},
		{"inception_4e/pool_proj", "Convolution"},
		{"prob", "unknown"},
		// TensorRT's own names
		{"(Unnamed Layer* 12) [Shuffle]", "Shuffle"},
		{"(Unnamed Layer* 37) [Matrix Multiply] + (Unnamed Layer* 38) [ElementWise]", "MatrixMultiply"},
		{"(Unnamed Layer* 5) [Convolution] + (Unnamed Layer* 6) [Activation]", "Convolution"},
		{"(Unnamed Layer* 40) [Fully Connected]", "FullyConnected"},
		{"(Unnamed Layer* 41) [Constant] + (Unnamed Layer* 42) [Shuffle]", "Shuffle"},
		{"reshape_after_/emb_layers.1/Gemm_copy_input", "Reformat"},
		{"{ForeignNode[/encoder/MatMul.../encoder/Add_3]}", "Myelin"},
		{"__myl_AddMulAdd_myl3_1", "PointWise"},
		{"__myl_MaxMinCas_myl2_0", "PointWise"}, // a clamp (ReLU6) on its own
		{"__myl_MoveMeanSubMulMeanAddSqrtDivMulMulAdd_myl593_0", "Normalization"},
		{"__myl_MoveSlicSlicSlic_myl816_1", "Myelin"},
		{"PWN(/Sub_1)", "PointWise"},
		// Q/DQ
		{"QuantizeLinear_2", "Quantize"},
		{"DequantizeLinear_9", "Dequantize"},
		{"QuantLinearNode__838", "Quantize"},
		{"input_1_quantize_scale_node", "Quantize"},
		{"conv1_dequantize_scale_node", "Dequantize"},
		{"conv1.weight + QuantizeLinear_7 + Conv_9 + MaxPool_12", "Convolution"},
		// Reformatters
		{"Reformatting CopyNode for Input Tensor 0 to Conv_0 + Relu_1", "Reformat"},
		{"Conv_19 + Add_20 + Relu_21 output reformatter 0", "Reformat"},
		// DLA
		{"{conv1,pool1,conv2,pool2,ip1,relu1,ip2}", KindDLA},
		{"{conv1,pool1,conv2,pool2,ip1,relu1,ip2} output reformatter 0", KindDLATransfer},
		{"data to nvm", KindDLATransfer},
		{"prob from nvm", KindDLATransfer},
		{"data copy finish", KindDLATransfer},
		{"finish", KindDLATransfer},
	} {
		if got := GuessKind(c.name); got != c.want {
			t.Errorf("GuessKind(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDLAMembers(t *testing.T) {
	for _, c := range []struct {
		name     string
		want     []string
		complete bool
	}{
		{"{conv1,pool1, ip2}", []string{"conv1", "pool1", "ip2"}, true},
		{"{conv1,pool1} output reformatter 0", []string{"conv1", "pool1"}, true},
		{"{ForeignNode[conv1...prob]}", []string{"conv1", "prob"}, false},
		{"conv1", nil, false},
	} {
		got, complete := DLAMembers(c.name)
		if strings.Join(got, "|") != strings.Join(c.want, "|") || complete != c.complete {
			t.Errorf("DLAMembers(%q) = %q, %v; want %q, %v", c.name, got, complete, c.want, c.complete)
		}
	}
}

func TestSMVersion(t *testing.T) {
	for tactic, want := range map[string]int{
		"sm86_xmma_fprop_implicit_gemm_f16f16": 86,
		"SM90_xmma_gemm":                       90,
		"sm50_xmma_cublas":                     50,
		"ampere_fp32_icudnn_int8x4":            0,
		"smart_kernel":                         0,
		"sm1234567_x":                          0,
		"":                                     0,
	} {
		if got := SMVersion(tactic); got != want {
			t.Errorf("SMVersion(%q) = %d, want %d", tactic, got, want)
		}
	}
}

// A record whose kind is guessed from its name carries the tags of that
// kind, so a guessed reformat, Q/DQ or cast is the same conversion a layer
// with layer info is, and nothing else is one.
func TestGuessedTagsConversions(t *testing.T) {
	for name, want := range map[string]string{
		"Reformatting CopyNode for Input Tensor 0 to Conv_0": ConvReformat,
		"Conv_19 + Add_20 + Relu_21 output reformatter 0":    ConvReformat,
		"QuantizeLinear_7":                                      ConvQuantize,
		"input_1_quantize_scale_node":                           ConvQuantize,
		"DequantizeLinear_9":                                    ConvDequantize,
		"conv1_dequantize_scale_node":                           ConvDequantize,
		"conv1.weight + QuantizeLinear_7 + Conv_9 + MaxPool_12": "",
		"/model/conv1/Conv":                                     "",
		"{conv1,pool1,conv2} output reformatter 0":              "", // the GPU's wait for the DLA
		"data to nvm":                                           "",
	} {
		kind := GuessKind(name)
		tags := GuessedTags(kind)
		if !slices.Contains(tags, TagGuessed) {
			t.Errorf("%q (%s): tags %v lack %s", name, kind, tags, TagGuessed)
		}
		if got := ConversionKind(tags, 1, nil, nil, name); got != want {
			t.Errorf("%q (%s, tags %v): conversion %q, want %q", name, kind, tags, got, want)
		}
	}
}
