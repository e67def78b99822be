package findings

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/gpu"
)

// Advice is held to what the GPU computes faster than FP32: no FP16 on a
// GPU whose FP16 is slower than its FP32 (Pascal GP10x), INT8 only with
// DP4A or INT8 tensor cores, FP8 only from 8.9, TF32 only from 8.0.
func TestDevicePaths(t *testing.T) {
	tests := []struct {
		gpu                   string // "" unknown GPU
		fp16, int8, fp8, tf32 bool
		weights               []string // in narrowerWeights
		noWeights             []string // not in it
		offers                string   // in deviceOffers
	}{
		{"", true, true, true, true, []string{"INT8", "FP8 on a GPU with FP8"}, nil, ""},
		{"GTX 1080", false, true, false, false, []string{"INT8"}, []string{"FP8", "INT4"}, "INT8 by DP4A"},
		{"Tesla P100", true, false, false, false, nil, []string{"INT8", "FP8"}, "FP16 at 2× the FP32 rate"},
		{"Jetson TX2", true, false, false, false, nil, []string{"INT8"}, "FP16 at 2×"},
		{"Tesla T4", true, true, false, false, []string{"INT8"}, []string{"FP8"}, "FP16, INT8 on tensor cores"},
		{"A100", true, true, false, true, []string{"INT8"}, []string{"FP8"}, "TF32, FP16, BF16, INT8 on tensor cores"},
		{"L4", true, true, true, true, []string{"INT8", "FP8 (Q/DQ; this GPU has FP8 tensor cores)"}, nil, "FP8"},
	}
	for _, tt := range tests {
		b := &contract.Backend{}
		if tt.gpu != "" {
			f, err := gpu.Named(tt.gpu)
			if err != nil {
				t.Fatal(err)
			}
			cc := string(rune('0'+f.CCMajor)) + "." + string(rune('0'+f.CCMinor))
			b.Device = &contract.Device{Name: f.Name, ComputeCapability: &cc, TensorCores: f.TensorCores}
		}
		c := &evaluation{b: b}
		if c.fastPath("FP16") != tt.fp16 || c.fastPath("INT8") != tt.int8 || c.fastPath("FP8") != tt.fp8 || c.fastPath("TF32") != tt.tf32 {
			t.Errorf("%s: fast FP16 %v INT8 %v FP8 %v TF32 %v, want %v %v %v %v", tt.gpu, c.fastPath("FP16"), c.fastPath("INT8"), c.fastPath("FP8"), c.fastPath("TF32"), tt.fp16, tt.int8, tt.fp8, tt.tf32)
		}
		w := c.narrowerWeights()
		for _, s := range tt.weights {
			if !strings.Contains(w, s) {
				t.Errorf("%s: narrower weights %q lack %q", tt.gpu, w, s)
			}
		}
		for _, s := range tt.noWeights {
			if strings.Contains(w, s) {
				t.Errorf("%s: narrower weights %q offer %q", tt.gpu, w, s)
			}
		}
		if o := c.deviceOffers(); !strings.Contains(o, tt.offers) || (tt.gpu == "") != (o == "") {
			t.Errorf("%s: offers %q, want %q", tt.gpu, o, tt.offers)
		}
	}
}

// A faster sibling's precision says how to build like it: scales
// (calibration or QAT) only for INT8/FP8 and narrower; FP16 and BF16 need
// the builder flag or an exported model, no calibration.
func TestNarrowingHow(t *testing.T) {
	for _, tt := range []struct{ p, want, not string }{
		{"INT8", "calibration or quantization-aware training", "builder flag"},
		{"FP8", "calibration or quantization-aware training", "builder flag"},
		{"FP4", "calibration or quantization-aware training", "builder flag"},
		{"FP16", "FP16 builder flag", "calibration or"},
		{"BF16", "BF16 builder flag", "calibration or"},
		{"FP32", "", "calibration"},
	} {
		got := narrowingHow(tt.p)
		if tt.want != "" && !strings.Contains(got, tt.want) || tt.not != "" && strings.Contains(got, tt.not) || tt.want == "" && got != "" {
			t.Errorf("%s: %q, want %q without %q", tt.p, got, tt.want, tt.not)
		}
	}
}
