package costmodel

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

func device(t *testing.T, name string) Device {
	t.Helper()
	f, ok := gpu.Derive(gpu.Device{Name: name, CCMajor: -1})
	if !ok {
		t.Fatalf("%s: no facts", name)
	}
	d, ok := FromFacts(f)
	if !ok {
		t.Fatalf("%s: no peaks", name)
	}
	return d
}

// A 3×3 convolution of 256 channels on a 56×56 map at batch 1: 2 × 256 ×
// 256 × 9 × 56² ≈ 3.7 GFLOP over ≈ 4.4 MB, compute-bound on every GPU.
func fp32Conv() Layer {
	act := 256 * 56 * 56 * 4.0
	return Layer{Op: OpMatmul, Precision: layerfacts.FP32, TensorCore: layerfacts.TensorCoreNo,
		FLOPs: 2 * 256 * 256 * 9 * 56 * 56, In: Bytes{F32: act}, Out: Bytes{F32: act}, W: Bytes{F32: 256 * 256 * 9 * 4}}
}

func TestDeviceAwareGains(t *testing.T) {
	p := &Calibrated
	conv := fp32Conv()
	tests := []struct {
		gpu    string
		change Change
		gain   bool // a gain beyond 10 % of the layer's time
	}{
		{"NVIDIA A100 80GB PCIe", ToFP16, true},
		{"NVIDIA A100 80GB PCIe", ToTF32, true},
		{"NVIDIA GeForce GTX 1080", ToFP16, false}, // Pascal GP104: no fast FP16, TensorRT keeps FP32
		{"NVIDIA GeForce GTX 1080", ToTF32, false},
		{"NVIDIA GeForce GTX 1660 Ti", ToFP16, true}, // FP16 at 2× FP32 on CUDA cores, no tensor cores
		{"Tesla V100-SXM2-16GB", ToTF32, false},      // no TF32 tensor cores before Ampere
		{"Tesla T4", ToINT8, true},
		{"NVIDIA GeForce GTX 1080", ToINT8, true}, // DP4A
	}
	for _, tt := range tests {
		d := device(t, tt.gpu)
		before := p.Time(&d, &conv).Ms
		g := p.Gain(&d, &conv, tt.change)
		if (g > 0.1*before) != tt.gain {
			t.Errorf("%s, %s: gain %.4f ms of %.4f ms, want a gain: %v", tt.gpu, tt.change, g, before, tt.gain)
		}
	}
	// FP16 tensor cores are faster than FP16 on CUDA cores.
	a100, gtx1660 := device(t, "NVIDIA A100 80GB PCIe"), device(t, "NVIDIA GeForce GTX 1660 Ti")
	l16, _ := Apply(&a100, conv, ToFP16)
	l16b, _ := Apply(&gtx1660, conv, ToFP16)
	if l16.TensorCore != layerfacts.TensorCoreYes || l16b.TensorCore != layerfacts.TensorCoreNo {
		t.Errorf("FP16 on A100 tensor core %v, on GTX 1660 Ti %v", l16.TensorCore, l16b.TensorCore)
	}
}

func TestChanges(t *testing.T) {
	p := &Calibrated
	d := device(t, "NVIDIA A100 80GB PCIe")
	reformat := Layer{Op: OpMemory, Precision: layerfacts.FP32, In: Bytes{F32: 4e6}, Out: Bytes{F16: 2e6}, Quantize: true}
	before := p.Time(&d, &reformat).Ms
	if g := p.Gain(&d, &reformat, Removed); g != before {
		t.Errorf("removing a reformat gives %.4f ms back, want all of its %.4f ms", g, before)
	}
	if g := p.Gain(&d, &reformat, Fused); g != before {
		t.Errorf("fusing gives %.4f ms back, want %.4f", g, before)
	}
	if g := p.Gain(&d, &reformat, INT8Output); g <= 0 || g >= before {
		t.Errorf("INT8 output gives %.4f ms of %.4f ms back, want part of it", g, before)
	}
	noop := Layer{Op: OpNone}
	if e := p.Time(&d, &noop); e.Ms != 0 || e.Bound != BoundNone {
		t.Errorf("a NoOp takes %v", e)
	}
	// A batch-1 GEMV is bound by its weights: INT8 weights help, tensor
	// cores do not.
	gemv := Layer{Op: OpMatmul, Precision: layerfacts.FP16, TensorCore: layerfacts.TensorCoreNo,
		FLOPs: 2 * 4096 * 4096, In: Bytes{F16: 8192}, Out: Bytes{F16: 8192}, W: Bytes{F16: 4096 * 4096 * 2},
		OutElems: 4096, Positions: 1}
	if e := p.Time(&d, &gemv); e.Bound != BoundMemory {
		t.Errorf("GEMV bound %s, want memory", e.Bound)
	}
	if g, tc := p.Gain(&d, &gemv, INT8Weights), p.Gain(&d, &gemv, OnTensorCores); g <= tc || tc > 0.05*p.Time(&d, &gemv).Ms {
		t.Errorf("GEMV: INT8 weights give %.4f ms, tensor cores %.4f ms", g, tc)
	}
}

// Fit finds the parameters samples were generated with.
func TestFitRecoversParameters(t *testing.T) {
	truth := Params{FloorMs: 0.006, MemEff: 0.6, Compute: map[Path]float64{PathTCFP16: 0.5, PathCUDAFP32: 0.7, PathUnknown: 0.3}}
	d := device(t, "NVIDIA A100 80GB PCIe")
	var samples []Sample
	for i := 1; i <= 40; i++ {
		s := float64(i)
		conv := fp32Conv()
		conv.FLOPs *= s / 10
		fp16 := conv
		fp16.Precision, fp16.TensorCore = layerfacts.FP16, layerfacts.TensorCoreYes
		mem := Layer{Op: OpMemory, Precision: layerfacts.FP16, In: Bytes{F16: s * 2e6}, Out: Bytes{F16: s * 2e6}}
		for _, l := range []Layer{conv, fp16, mem} {
			samples = append(samples, Sample{Device: &d, Layer: l, Ms: truth.Time(&d, &l).Ms})
		}
	}
	fit := Fit(samples, Calibrated)
	near := func(name string, got, want float64) {
		if got < want*0.9 || got > want*1.1 {
			t.Errorf("%s: fit %.4g, want %.4g", name, got, want)
		}
	}
	near("floor", fit.FloorMs, truth.FloorMs)
	near("memory", fit.MemEff, truth.MemEff)
	near("tc_fp16", fit.Compute[PathTCFP16], truth.Compute[PathTCFP16])
	near("cuda_fp32", fit.Compute[PathCUDAFP32], truth.Compute[PathCUDAFP32])
}

// The error band follows what the fit saw: a GPU of an architecture
// outside CalibrationArchs (Hopper, Pascal, Orin, an unknown one) gets
// ErrorPctUnseenArch and a note saying so, whatever its source.
func TestErrorForArchitecture(t *testing.T) {
	for _, tt := range []struct {
		name       string
		maj, min   int
		assumed    bool
		want       float64
		unseenNote bool
	}{
		{"A100", 8, 0, false, ErrorPct, false},
		{"RTX 3060", 8, 6, false, ErrorPct, false},
		{"A10G", 8, 6, true, ErrorPctDefaultGPU, false},
		{"T4", 7, 5, false, ErrorPct, false},
		{"H100", 9, 0, false, ErrorPctUnseenArch, true},
		{"H100 NVL", 9, 0, true, ErrorPctUnseenArch, true},
		{"GTX 1080", 6, 1, false, ErrorPctUnseenArch, true},
		{"Orin Nano", 8, 7, false, ErrorPctUnseenArch, true},
		{"unknown", -1, 0, false, ErrorPctUnseenArch, true},
	} {
		d := &Device{Name: tt.name, CCMajor: tt.maj, CCMinor: tt.min}
		if got := ErrorFor(d, tt.assumed); got != tt.want {
			t.Errorf("%s: ErrorFor %g, want %g", tt.name, got, tt.want)
		}
		if n := UnseenNote(d); (n != "") != tt.unseenNote || tt.unseenNote && !strings.Contains(n, "calibrated on GPUs of compute capability 7.5, 8.0, 8.6 only") {
			t.Errorf("%s: note %q", tt.name, n)
		}
	}
	if ErrorPctUnseenArch <= ErrorPctDefaultGPU || ErrorPctUnseenArch <= ErrorPct {
		t.Errorf("the unseen-architecture band %g is not wider than the fitted ones", ErrorPctUnseenArch)
	}
}
