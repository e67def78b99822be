package findings

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// Weight-precision advice offers only what the GPU and TensorRT release
// can run: FP8 needs FP8 tensor cores (compute capability 8.9+), INT4
// weight-only needs TensorRT 10; an unknown fact keeps the option with its
// condition.
func TestNarrowerWeightsFollowDeviceAndRelease(t *testing.T) {
	for _, c := range []struct {
		name, cc, trt string
		want, not     []string
	}{
		{"ampere trt8.5", "8.6", "8.5.1", []string{"INT8 weights and activations", "--int8"}, []string{"FP8", "INT4"}},
		{"ada trt10", "8.9", "10.4", []string{"FP8 (Q/DQ; this GPU has FP8 tensor cores)", "INT4 weight-only (W4A16, e.g. ModelOpt INT4 AWQ)"}, []string{"TensorRT 10 or newer", "Ada, Hopper"}},
		{"unknown", "", "", []string{"FP8 on a GPU with FP8 tensor cores", "INT4 weight-only (W4A16, e.g. ModelOpt INT4 AWQ; TensorRT 10 or newer)"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := build("x", []L{{Name: "fc", Type: "CaskGemmConvolution", Tactic: tcF6, Ms: 1}})
			if c.cc != "" {
				cc := c.cc
				b.Device = &contract.Device{ComputeCapability: &cc}
			}
			if c.trt != "" {
				v := c.trt
				b.Build = &contract.Build{TensorRTVersion: &v}
			}
			got := newEvaluation(b).narrowerWeights()
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("%q offers %q", got, n)
				}
			}
		})
	}
}

// An I/O format removes only a conversion that reads the graph input
// itself; behind a transpose the advice is to fold the prologue.
func TestPrologueIOFormatOnlyAtTheInput(t *testing.T) {
	for _, c := range []struct {
		name   string
		layers []L
		io     bool
	}{
		{"reformat at the input", []L{
			{Name: "Reformatting CopyNode for Input Tensor 0 to conv", Type: "Reformat", In: f32, Out: f16, Ms: 0.1},
			{Name: "conv", Type: "CaskConvolution", Tactic: tcF6, From: []int{0}, Ms: 0.9},
		}, true},
		{"reformat behind a transpose", []L{
			{Name: "transpose", Type: "Shuffle", In: f32, Out: f32, Ms: 0.1},
			{Name: "Reformatting CopyNode for Input Tensor 0 to conv", Type: "Reformat", In: f32, Out: f16, From: []int{0}, Ms: 0.1},
			{Name: "conv", Type: "CaskConvolution", Tactic: tcF6, From: []int{1}, Ms: 0.8},
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := evalInputPrologue(newEvaluation(build("x", c.layers)))
			if f == nil {
				t.Fatal("no input_prologue finding")
			}
			if got := strings.Contains(f.Action+f.NextCheck, "--inputIOFormats"); got != c.io {
				t.Errorf("I/O format advice %v, want %v: %s / %s", got, c.io, f.Action, f.NextCheck)
			}
		})
	}
}

func TestIsAddKernel(t *testing.T) {
	for name, want := range map[string]bool{
		"Add_12": true, "/layer1/Add": true, "__myl_Add_myl3_4": true, "PWN(/features/3/Add)": true, "Conv_34 + Add_36 + Relu_37": true, "Conv_3 + Padding_2": false,
		"addmm": false, "[MATRIX_MULTIPLY]-[aten_ops_addmm_default]": false, "Padding": false, "/head/AddBias_x": false, "relu": false,
	} {
		if got := isAddKernel(name); got != want {
			t.Errorf("isAddKernel(%q) = %v, want %v", name, got, want)
		}
	}
}
