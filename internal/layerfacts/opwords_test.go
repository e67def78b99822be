package layerfacts

import (
	"slices"
	"testing"
)

func TestOpWords(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string
	}{
		// ONNX-TensorRT's fused pointwise and Torch-TensorRT's converter
		// name one PReLU differently; both name the op.
		{"PWN(val_9, PWN(node_prelu))", []string{"prelu"}},
		{"PWN([PARAMETRIC_RELU]-[aten_ops._prelu_kernel.default]-[model.0.conv.unit0.adn.A/_prelu_kernel])", []string{"relu", "prelu", "conv"}},
		// Myelin kernel names: CamelCase parts, numbering stripped.
		{"__myl_Cast_myl3_1", []string{"cast"}},
		{"__myl_MulGtrSele_myl3_1", []string{"mul"}},
		{"Conv_0 + Relu_1 + MaxPool_2", []string{"conv", "relu", "maxpool", "pool"}},
		// Wrapper words name no operation.
		{"{ForeignNode[/a/b]}", nil},
		{"myelin_plugin_noop", nil},
	} {
		if got := OpWords(tc.name); !slices.Equal(got, tc.want) {
			t.Errorf("OpWords(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
