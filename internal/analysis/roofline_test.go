package analysis

import (
	"math"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/findings"
)

func TestFillRoofline(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	yes, no := true, false
	a100 := &contract.Device{Name: "NVIDIA A100-SXM4-40GB", MemoryBandwidthGBs: f(1555),
		PeakTFLOPS: contract.Peaks{FP32: f(19.5), TF32: f(156), FP16: f(312), INT8: f(624)}}
	records := func() []contract.Record {
		return []contract.Record{
			// 2e9 FLOP, 1e7 bytes: 200 FLOP/byte, right of every ridge here.
			{Name: "conv_tc", Precision: "FP32", TensorCore: &yes, AvgMs: 0.1, FLOPs: f(2e9), Bytes: f(1e7)},
			{Name: "conv_cuda", Precision: "FP32", TensorCore: &no, AvgMs: 0.1, FLOPs: f(2e9), Bytes: f(1e7)},
			// 1e8 FLOP, 1e7 bytes: 10 FLOP/byte, memory-bound at FP16.
			{Name: "gemv", Precision: "FP16", AvgMs: 0.02, FLOPs: f(1e8), Bytes: f(1e7)},
			{Name: "fp8", Precision: "FP8", AvgMs: 0.02, FLOPs: f(1e8), Bytes: f(1e7)},
			{Name: "relu", Precision: "FP16", AvgMs: 0.01},
			{Name: "no time", Precision: "FP16", AvgMs: 0, FLOPs: f(1e8), Bytes: f(1e7)},
		}
	}
	t.Run("scaled by a measured GPU compute median", func(t *testing.T) {
		b := &contract.Backend{Records: records(), Device: a100,
			Diagnosis: &contract.Diagnosis{ReferenceMs: 0.2, ReferenceSource: findings.RefGPUComputeMedian, LayerSumMs: 0.25, ProfileScale: 0.8}}
		fillRoofline(b)
		rf := b.Roofline
		if rf == nil || rf.TimeBasis != contract.RooflineAvgMsScaled || rf.TimeScale != 0.8 || rf.Layers != 4 || rf.ComputeBound != 2 || rf.MemoryBound != 1 {
			t.Fatalf("roofline %+v", rf)
		}
		tc, cuda, gemv, fp8 := b.Records[0].Roofline, b.Records[1].Roofline, b.Records[2].Roofline, b.Records[3].Roofline
		// 2e9 FLOP in 0.08 ms = 25 TFLOP/s.
		if tc.TimeMs != 0.08 || tc.AchievedTFLOPS != 25 || tc.PeakPrecision != "tf32" || *tc.Bound != "compute" || math.Abs(*tc.PctOfAttainable-25.0/156*100) > 1e-3 {
			t.Errorf("tensor-core FP32 conv %+v", tc)
		}
		if cuda.PeakPrecision != "fp32" || *cuda.AttainableTFLOPS != 19.5 {
			t.Errorf("CUDA-core FP32 conv %+v", cuda)
		}
		// 10 FLOP/byte × 1555 GB/s = 15.55 TFLOP/s attainable.
		if gemv.PeakPrecision != "fp16" || *gemv.Bound != "memory" || math.Abs(*gemv.AttainableTFLOPS-15.55) > 1e-9 || *gemv.Intensity != 10 {
			t.Errorf("memory-bound FP16 GEMV %+v", gemv)
		}
		if fp8.PeakPrecision != "" || fp8.Bound != nil || fp8.AttainableTFLOPS != nil || fp8.AchievedTFLOPS == 0 {
			t.Errorf("FP8 layer without a peak %+v", fp8)
		}
		if b.Records[4].Roofline != nil || b.Records[5].Roofline != nil {
			t.Error("records without work or time must have no roofline")
		}
	})
	t.Run("layer averages without a GPU compute reference", func(t *testing.T) {
		for _, d := range []*contract.Diagnosis{
			nil,
			{ReferenceMs: 0.3, ReferenceSource: findings.RefLatencyMedian, LayerSumMs: 0.25, ProfileScale: 1.2},
			{ReferenceMs: 0.3, ReferenceSource: findings.RefGPUComputeMedian, LayerSumMs: 0.25, ProfileScale: 1.2},
		} {
			b := &contract.Backend{Records: records(), Diagnosis: d}
			fillRoofline(b)
			rf := b.Roofline
			if rf == nil || rf.TimeBasis != contract.RooflineAvgMs || rf.TimeScale != 1 || rf.ReferenceSource != findings.RefLayerSum || len(rf.Notes) != 2 {
				t.Fatalf("diagnosis %+v: roofline %+v", d, rf)
			}
			if x := b.Records[0].Roofline; x.TimeMs != 0.1 || x.Bound != nil || x.PeakPrecision != "" {
				t.Errorf("unknown device: %+v", x)
			}
		}
	})
	t.Run("no work, no roofline", func(t *testing.T) {
		b := &contract.Backend{Records: []contract.Record{{Name: "relu", AvgMs: 1}}}
		fillRoofline(b)
		if b.Roofline != nil {
			t.Errorf("roofline %+v", b.Roofline)
		}
	})
}
