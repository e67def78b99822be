package layerfacts

import "testing"

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
		"ReduceMean_12":                                          "unknown",
	} {
		if got := GuessKind(name); got != want {
			t.Errorf("GuessKind(%q) = %q, want %q", name, got, want)
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
