package findings

import (
	"strings"
	"testing"
)

// Input-format advice speaks the builder's language: trtexec's flag for a
// trtexec build, the TensorRT API's allowed formats otherwise, and a
// Torch-TensorRT engine is told that its Input cannot set a vectorized
// layout.
func TestInputFormatAdviceFollowsTheBuilder(t *testing.T) {
	for _, c := range []struct {
		name, profileKind, layer, spec string
		want, caveat                   string
	}{
		{"trtexec", "trtexec", "conv1", "fp16:hwc8", "--inputIOFormats=fp16:hwc8", ""},
		{"unknown profiler", "", "conv1", "fp16:chw", "--inputIOFormats=fp16:chw", ""},
		{"onnx api", "latency-dict", "/conv1/Conv", "fp16:hwc8", "allowed_formats TensorFormat.HWC8 (TensorRT API; trtexec --inputIOFormats=fp16:hwc8)", ""},
		{"onnx api linear", "latency-dict", "/conv1/Conv", "int8:chw", "dtype INT8 and allowed_formats TensorFormat.LINEAR", ""},
		{"torch-trt vectorized", "latency-dict", "[CONVOLUTION]-[aten_ops.convolution.default]-[/conv1/convolution]", "fp16:hwc8", "TensorFormat.HWC8", "Torch-TensorRT's Input offers only linear and channels-last"},
		{"torch-trt linear", "latency-dict", "[CONVOLUTION]-[aten_ops.convolution.default]-[/conv1/convolution]", "fp16:chw", "TensorFormat.LINEAR", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := build("x", []L{{Name: c.layer, Type: "CaskConvolution", Tactic: tcF6, Ms: 1}})
			b.ProfileKind = c.profileKind
			evaluation := newEvaluation(b)
			if got := evaluation.inputFormat(c.spec); !strings.Contains(got, c.want) {
				t.Errorf("inputFormat(%q) = %q, want it to contain %q", c.spec, got, c.want)
			}
			got := evaluation.inputFormatCaveat(c.spec)
			if (c.caveat == "") != (got == "") || !strings.Contains(got, c.caveat) {
				t.Errorf("inputFormatCaveat(%q) = %q, want %q", c.spec, got, c.caveat)
			}
		})
	}
}
