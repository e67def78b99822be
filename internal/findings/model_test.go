package findings

import (
	"testing"

	"github.com/trtperf/trtperf/internal/costmodel"
	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

func modelDevice(t *testing.T, name string) costmodel.Device {
	t.Helper()
	f, ok := gpu.Derive(gpu.Device{Name: name, CCMajor: -1})
	if !ok {
		t.Fatalf("%s: no facts", name)
	}
	d, ok := costmodel.FromFacts(f)
	if !ok {
		t.Fatalf("%s: no peaks", name)
	}
	return d
}

// An FP32 engine priced by the cost model: the gain of FP16 follows the
// device (tensor cores on the A100, CUDA-core FP16 on a GTX 1660 Ti,
// nothing on a GTX 1080), a measured sibling is not touched, and a model
// that misses the profiled time by more than 2× keeps the rule's factor.
func TestModelPricesFP32EngineByDevice(t *testing.T) {
	// One FP32 convolution of 44 GFLOP: about 3 ms on an A100's CUDA cores.
	conv := costmodel.Layer{Op: costmodel.OpMatmul, Precision: layerfacts.FP32, TensorCore: layerfacts.TensorCoreNo,
		FLOPs: 44e9, In: costmodel.Bytes{F32: 4e6}, Out: costmodel.Bytes{F32: 4e6}, W: costmodel.Bytes{F32: 1e6}}
	// price profiles the convolution at scale × the model's time on dev.
	price := func(dev string, scale float64) (float64, string) {
		d := modelDevice(t, dev)
		ms := costmodel.Calibrated.Time(&d, &conv).Ms * scale
		b := build("fp32", []L{{Name: "Conv_0", Type: "CaskConvolution", Tactic: f32T, In: f32, Out: f32, Ms: ms}})
		m := &Model{Device: d, DeviceNote: "test", Layers: []costmodel.Layer{conv}, Params: &costmodel.Calibrated}
		issues, _, diag, overview := EvaluateWith(b, m)
		checkFindings(t, b, issues, diag)
		if _, f := findByID(issues, "fp32_engine"); f != nil {
			return f.RecoverableMs / ms, f.PriceBasis
		}
		for _, o := range overview {
			if v, ok := o.Metrics["fp32_engine_ms"]; ok {
				return v, "minor"
			}
		}
		return -1, ""
	}
	// Shares of the profiled time FP16 gives back.
	a100, basis := price("NVIDIA A100 80GB PCIe", 1)
	if basis != "model" || a100 < 0.8 || a100 > 1 {
		t.Errorf("A100: FP16 gives back %.2f of the time (%s), want most of it (tensor cores), priced by the model", a100, basis)
	}
	gtx1660, basis := price("NVIDIA GeForce GTX 1660 Ti", 1)
	if basis != "model" || gtx1660 < 0.3 || gtx1660 > 0.6 {
		t.Errorf("GTX 1660 Ti: %.2f (%s), want about half (CUDA-core FP16 at twice the FP32 rate)", gtx1660, basis)
	}
	if gtx1080, basis := price("NVIDIA GeForce GTX 1080", 1); gtx1080 > 0 {
		t.Errorf("GTX 1080: FP16 priced %.2f of the time (%s), want nothing: no fast FP16", gtx1080, basis)
	}
	// Profiled 10× slower than modelled: the model does not explain it.
	if _, basis := price("NVIDIA A100 80GB PCIe", 10); basis != "estimate" {
		t.Errorf("a layer 10× slower than modelled is priced %q, want the rule's estimate", basis)
	}
}
