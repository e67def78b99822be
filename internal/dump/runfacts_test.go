package dump

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

func f64(p *float64) float64 {
	if p == nil {
		return -1
	}
	return *p
}

func TestParseMeta(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		wantCode string
		check    func(t *testing.T, r *engine.Run)
	}{
		{name: "profile, TensorRT 8.2 (one percentile)", in: `{"performance_summary": {"Throughput": 1155.36, "Latency": [0.85, 0.87, 0.86, 0.862, 0.871], "GPU Compute Time": [0.85, 0.87, 0.86, 0.862, 0.871], "Total GPU Compute Time": 2.99208}, "inference_options": {"CUDA Graph": "Enabled"}}`,
			check: func(t *testing.T, r *engine.Run) {
				p := r.Perf
				if f64(p.GPUCompute.Median) != 0.862 || f64(p.GPUCompute.P99) != 0.871 || p.GPUCompute.P90 != nil || f64(p.ThroughputQPS) != 1155.36 {
					t.Errorf("stats %+v", p.GPUCompute)
				}
				if p.Samples != 3479 { // 2.99208 s / 0.86 ms
					t.Errorf("samples %d", p.Samples)
				}
				if v, _ := engine.Opt(r.Infer, "CUDA Graph"); v != "Enabled" {
					t.Errorf("options %+v", r.Infer)
				}
			}},
		{name: "profile, TensorRT 8.4+ (three percentiles)", in: `{"performance_summary": {"Latency": [0.49, 0.5, 0.495, 0.4956, 0.498, 0.4985, 0.5]}}`,
			check: func(t *testing.T, r *engine.Run) {
				s := r.Perf.Latency
				if f64(s.P90) != 0.498 || f64(s.P95) != 0.4985 || f64(s.P99) != 0.5 || f64(s.Max) != 0.5 || f64(s.Mean) != 0.495 {
					t.Errorf("stats %+v", s)
				}
			}},
		{name: "device information as text", in: `{"device_information": {"Selected Device": "NVIDIA GeForce RTX 3060 Laptop GPU", "Compute Capability": "8.6", "SMs": "30", "Memory Bus Width": "192 bits (ECC disabled)", "Application Compute Clock Rate": "1.425 GHz", "Application Memory Clock Rate": "7.001 GHz"}}`,
			check: func(t *testing.T, r *engine.Run) {
				d := r.Device
				if d.Name != "NVIDIA GeForce RTX 3060 Laptop GPU" || d.CCMajor != 8 || d.CCMinor != 6 || d.SMs != 30 || d.BusWidthBits != 192 || d.ClockGHz != 1.425 || d.MemClockGHz != 7.001 {
					t.Errorf("device %+v", d)
				}
			}},
		{name: "device list", in: `[{"Name": "NVIDIA A100 80GB PCIe", "ComputeCapability": [8, 0], "CLOCK_RATE": 1410000, "MEMORY_CLOCK_RATE": 1512000, "GLOBAL_MEMORY_BUS_WIDTH": 5120, "MULTIPROCESSOR_COUNT": 108, "TotalMemory": 84929216512}]`,
			check: func(t *testing.T, r *engine.Run) {
				d := r.Device
				if d.CCMajor != 8 || d.SMs != 108 || d.ClockGHz != 1.41 || d.MemClockGHz != 1.512 || d.BusWidthBits != 5120 {
					t.Errorf("device %+v", d)
				}
			}},
		{name: "build options", in: `{"model_options": {"Format": "ONNX"}, "build_options": {"Precision": "FP32+FP16", "minTiming": "1"}}`,
			check: func(t *testing.T, r *engine.Run) {
				if len(r.Build) != 2 || r.Build[0].Key != "Precision" || r.Model[0].Value != "ONNX" {
					t.Errorf("build %+v model %+v", r.Build, r.Model)
				}
			}},
		{name: "truncated", in: `{"performance_summary": {"Latency": [0.8`, wantCode: CodeMalformed},
		{name: "negative time", in: `{"performance_summary": {"Latency": [-1, 1, 1, 1, 1]}}`, wantCode: CodeMalformed},
		{name: "summary without numbers", in: `{"performance_summary": {"Note": "x"}}`, wantCode: CodeMalformed},
		{name: "no known section", in: `{"something": 1}`, wantCode: CodeMissingField},
		{name: "empty device list", in: `[]`, wantCode: CodeMalformed},
		{name: "scalar", in: `3`, wantCode: CodeMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseMeta([]byte(tt.in))
			if tt.wantCode != "" {
				var fe *FormatError
				if !errors.As(err, &fe) || fe.Code != tt.wantCode {
					t.Fatalf("err %v, want code %s", err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
}

// trt86Log is the shape TensorRT 8.6's trtexec prints (sampleReporting.cpp,
// sampleDevice.cpp), shortened.
const trt86Log = `&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx --fp16 --int8 --saveEngine=m.plan
[06/01/2023-10:00:00] [I] === Model Options ===
[06/01/2023-10:00:00] [I] Format: ONNX
[06/01/2023-10:00:00] [I] === Build Options ===
[06/01/2023-10:00:00] [I] Precision: FP32+FP16+INT8
[06/01/2023-10:00:00] [I] Input build shape: input=1x3x224x224+1x3x224x224+1x3x224x224
[06/01/2023-10:00:00] [I] === Inference Options ===
[06/01/2023-10:00:00] [I] Batch: Explicit
[06/01/2023-10:00:00] [I] Spin-wait: Disabled
[06/01/2023-10:00:00] [I] CUDA Graph: Enabled
[06/01/2023-10:00:00] [I] Separate profiling: Disabled
[06/01/2023-10:00:00] [I] 
[06/01/2023-10:00:00] [I] === Device Information ===
[06/01/2023-10:00:00] [I] Selected Device: NVIDIA L4
[06/01/2023-10:00:00] [I] Compute Capability: 8.9
[06/01/2023-10:00:00] [I] SMs: 58
[06/01/2023-10:00:00] [I] Compute Clock Rate: 2.04 GHz
[06/01/2023-10:00:00] [I] Memory Bus Width: 192 bits (ECC enabled)
[06/01/2023-10:00:00] [I] Memory Clock Rate: 6.251 GHz
[06/01/2023-10:00:00] [I] 
[06/01/2023-10:00:00] [I] TensorRT version: 8.6.1
[06/01/2023-10:00:05] [W] [TRT] Detected layers with INT8 precision but no calibrator: falling back to FP16
[06/01/2023-10:00:09] [I] Timing trace has 4123 queries over 3.00075 s
[06/01/2023-10:00:09] [I] 
[06/01/2023-10:00:09] [I] === Trace details ===
[06/01/2023-10:00:09] [I] Trace averages of 10 runs:
[06/01/2023-10:00:09] [I] Average on 10 runs - GPU latency: 0.7 ms - Host latency: 0.8 ms (enqueue 0.1 ms)
[06/01/2023-10:00:09] [I] 
[06/01/2023-10:00:09] [I] === Performance summary ===
[06/01/2023-10:00:09] [I] Throughput: 1373.9 qps
[06/01/2023-10:00:09] [I] Latency: min = 0.70 ms, max = 0.95 ms, mean = 0.72 ms, median = 0.71 ms, percentile(90%) = 0.74 ms, percentile(95%) = 0.76 ms, percentile(99%) = 0.81 ms
[06/01/2023-10:00:09] [I] Enqueue Time: min = 0.01 ms, max = 0.05 ms, mean = 0.02 ms, median = 0.02 ms, percentile(90%) = 0.03 ms, percentile(95%) = 0.03 ms, percentile(99%) = 0.04 ms
[06/01/2023-10:00:09] [I] H2D Latency: min = 0.01 ms, max = 0.02 ms, mean = 0.01 ms, median = 0.01 ms, percentile(90%) = 0.01 ms, percentile(95%) = 0.01 ms, percentile(99%) = 0.02 ms
[06/01/2023-10:00:09] [I] GPU Compute Time: min = 0.68 ms, max = 0.93 ms, mean = 0.70 ms, median = 0.69 ms, percentile(90%) = 0.72 ms, percentile(95%) = 0.74 ms, percentile(99%) = 0.79 ms
[06/01/2023-10:00:09] [I] D2H Latency: min = 0.00 ms, max = 0.01 ms, mean = 0.00 ms, median = 0.00 ms, percentile(90%) = 0.00 ms, percentile(95%) = 0.00 ms, percentile(99%) = 0.01 ms
[06/01/2023-10:00:09] [I] Total Host Walltime: 3.00075 s
[06/01/2023-10:00:09] [I] Total GPU Compute Time: 2.88 s
[06/01/2023-10:00:09] [W] * GPU compute time is unstable, with coefficient of variance = 3.2%.
[06/01/2023-10:00:09] [W]   If not already in use, locking GPU clock frequency may improve the stability.
[06/01/2023-10:00:09] [I] Explanations of the performance metrics are printed in the verbose logs.
&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx --fp16 --int8 --saveEngine=m.plan
`

// trt7Log is TensorRT 7's statistics layout (as in the corpus's Jetson log).
const trt7Log = `&&&& RUNNING TensorRT.trtexec # trtexec --deploy=g.prototxt --int8 --batch=4
[02/21/2021-22:46:03] [I] === Build Options ===
[02/21/2021-22:46:03] [I] Precision: FP32+INT8
[02/21/2021-22:46:03] [I] === Inference Options ===
[02/21/2021-22:46:03] [I] Batch: 4
[02/21/2021-22:46:03] [I] CUDA Graph: Disabled
[02/21/2021-22:46:03] [I] Inputs:
[02/21/2021-22:46:03] [I] === Reporting Options ===
[02/21/2021-22:46:03] [I] Percentile: 99
[02/21/2021-22:46:03] [I] 
[02/21/2021-22:49:52] [I] Timing trace has 1440 queries over 3.00343 s
[02/21/2021-22:49:52] [I] Host Latency
[02/21/2021-22:49:52] [I] min: 1.99762 ms (end to end 2.00641 ms)
[02/21/2021-22:49:52] [I] max: 3.29492 ms (end to end 3.31421 ms)
[02/21/2021-22:49:52] [I] mean: 2.06069 ms (end to end 2.07367 ms)
[02/21/2021-22:49:52] [I] median: 2.03601 ms (end to end 2.04791 ms)
[02/21/2021-22:49:52] [I] percentile: 2.5329 ms at 99% (end to end 2.59641 ms at 99%)
[02/21/2021-22:49:52] [I] throughput: 479.452 qps
[02/21/2021-22:49:52] [I] walltime: 3.00343 s
[02/21/2021-22:49:52] [I] Enqueue Time
[02/21/2021-22:49:52] [I] min: 1.9458 ms
[02/21/2021-22:49:52] [I] median: 1.98887 ms
[02/21/2021-22:49:52] [I] GPU Compute
[02/21/2021-22:49:52] [I] min: 1.9292 ms
[02/21/2021-22:49:52] [I] max: 3.21704 ms
[02/21/2021-22:49:52] [I] mean: 1.9929 ms
[02/21/2021-22:49:52] [I] median: 1.97266 ms
[02/21/2021-22:49:52] [I] percentile: 2.47803 ms at 99%
[02/21/2021-22:49:52] [I] total compute time: 2.86978 s
&&&& PASSED TensorRT.trtexec # trtexec --deploy=g.prototxt --int8 --batch=4
`

func TestParseTrtexecLog(t *testing.T) {
	runs, err := ParseTrtexecLog([]byte(trt86Log))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 {
		t.Fatalf("%d runs", len(runs))
	}
	r := runs[0]
	if r.Version != "8.6.1" || !strings.Contains(r.Command, "--fp16") {
		t.Errorf("version %q command %q", r.Version, r.Command)
	}
	if v, _ := engine.Opt(r.Build, "Precision"); v != "FP32+FP16+INT8" {
		t.Errorf("build %+v", r.Build)
	}
	if v, _ := engine.Opt(r.Infer, "Separate profiling"); v != "Disabled" {
		t.Errorf("infer %+v", r.Infer)
	}
	d := r.Device
	if d == nil || d.Name != "NVIDIA L4" || d.SMs != 58 || d.ClockGHz != 2.04 || d.BusWidthBits != 192 || d.MemClockGHz != 6.251 || d.CCMinor != 9 {
		t.Errorf("device %+v", d)
	}
	p := r.Perf
	if f64(p.ThroughputQPS) != 1373.9 || f64(p.GPUCompute.Median) != 0.69 || f64(p.GPUCompute.P95) != 0.74 || f64(p.Latency.P99) != 0.81 || f64(p.H2D.Mean) != 0.01 || f64(p.Enqueue.Max) != 0.05 {
		t.Errorf("perf %+v", p)
	}
	if p.Samples != 4123 || f64(p.CVPercent) != 3.2 || f64(p.TotalGPUComputeS) != 2.88 {
		t.Errorf("samples %d cv %v total %v", p.Samples, f64(p.CVPercent), f64(p.TotalGPUComputeS))
	}
	if len(r.Warnings) != 2 || !strings.Contains(r.Warnings[0], "falling back to FP16") || !strings.Contains(r.Warnings[1], "unstable") {
		t.Errorf("warnings %q", r.Warnings)
	}

	runs, err = ParseTrtexecLog([]byte(trt7Log + trt7Log))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("TensorRT 7: %d runs, want 2", len(runs))
	}
	p = runs[0].Perf
	if f64(p.Latency.Median) != 2.03601 || f64(p.EndToEnd.P99) != 2.59641 || f64(p.GPUCompute.Mean) != 1.9929 || f64(p.GPUCompute.P99) != 2.47803 || f64(p.Enqueue.Median) != 1.98887 || f64(p.ThroughputQPS) != 479.452 || p.Samples != 1440 {
		t.Errorf("TensorRT 7 perf %+v / gpu %+v", p, p.GPUCompute)
	}
	if v, _ := engine.Opt(runs[0].Infer, "CUDA Graph"); v != "Disabled" {
		t.Errorf("TensorRT 7 infer %+v", runs[0].Infer)
	}

	if _, err := ParseTrtexecLog([]byte("hello\nworld\n")); err == nil {
		t.Error("a text without trtexec sections was accepted")
	}
}

func TestVersionFromNumber(t *testing.T) {
	for in, want := range map[string]string{"8601": "8.6.1", "7203": "7.2.3", "100100": "10.1.0", "110000": "11.0.0", "8510": "8.5.10", "0": "", "x": ""} {
		if got := versionFromNumber(in); got != want {
			t.Errorf("versionFromNumber(%s) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseMeta(f *testing.F) {
	for _, s := range []string{
		`{"performance_summary": {"Throughput": 1, "Latency": [0.85, 0.87, 0.86, 0.862, 0.871], "Total GPU Compute Time": 2}}`,
		`{"device_information": {"Selected Device": "x", "Compute Capability": 8.6, "SMs": 30.0, "Memory Bus Width": "192 bits"}}`,
		`[{"Name": "A100", "ComputeCapability": [8, 0], "MULTIPROCESSOR_COUNT": 108}]`,
		`{"build_options": {"Precision": "FP32"}, "model_options": {"Format": "ONNX", "n": null, "o": [1]}}`,
		`{"performance_summary": {"Latency": [1e400]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseMeta(data)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Code == "" || fe.Detail == "" {
				t.Fatalf("error is not a complete *FormatError: %v", err)
			}
			return
		}
		if r == nil {
			t.Fatal("nil run without error")
		}
		if p := r.Perf; p != nil && p.Samples < 0 {
			t.Fatalf("negative samples %d", p.Samples)
		}
	})
}

func FuzzParseTrtexecLog(f *testing.F) {
	f.Add([]byte(trt86Log))
	f.Add([]byte(trt7Log))
	f.Add([]byte("[I] === Performance summary ===\n[I] Latency: min = 1 ms, percentile(99%) = x ms\n"))
	f.Add([]byte("&&&& RUNNING TensorRT.trtexec [TensorRT v99999999999999999999] # x"))
	recs := []engine.ProfileRecord{{Name: "conv1 + relu1", TimeMs: 78.41, MedianMs: 0.018}, {Name: "(Unnamed Layer* 1) [Pooling]", TimeMs: 3.5, MedianMs: 0.001}}
	for _, era := range []string{"7.1", "8.2", "8.5", "10.0"} {
		f.Add([]byte(genEraLog(era, recs, 100, era == "8.2")))
	}
	f.Add([]byte("Layer(CaskConvolution): a, Tactic: 0x1, x[Int8(1,64,200,200)] -> y[Half(1,2,200,200)]\n[TensorRT] INFO: --------------- Layers running on DLA:\n{a,b}, {c\n"))
	f.Add([]byte("  conv1       64.10             5.83      0.2\nAverage on 10 runs - GPU latency: 3.4 ms - Host latency: 7.0 ms (enqueue 0.8 ms)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, err := ParseTrtexecLog(data)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Code == "" || fe.Detail == "" {
				t.Fatalf("error is not a complete *FormatError: %v", err)
			}
			return
		}
		if len(runs) == 0 {
			t.Fatal("no runs without error")
		}
		for _, r := range runs {
			if r.Log == nil {
				t.Fatal("a log run without log facts")
			}
			for _, tb := range r.Log.Tables {
				if len(tb.RowLines) != len(tb.Profile.Records) || tb.EndLine < tb.Line {
					t.Fatalf("table lines %d-%d, %d row lines for %d rows", tb.Line, tb.EndLine, len(tb.RowLines), len(tb.Profile.Records))
				}
				for _, rec := range tb.Profile.Records {
					if rec.Name == "" || !(rec.AverageMs >= 0) || !(rec.TimeMs >= 0) || math.IsInf(rec.TimeMs, 0) || rec.Percentage > 100.05 {
						t.Fatalf("bad row %+v", rec)
					}
				}
			}
			if p := r.Perf; p != nil {
				for _, s := range []engine.Stats{p.Latency, p.GPUCompute, p.Enqueue, p.H2D, p.D2H, p.EndToEnd} {
					for _, v := range []*float64{s.Min, s.Max, s.Mean, s.Median, s.P90, s.P95, s.P99} {
						if v != nil && (*v < 0 || *v != *v) {
							t.Fatalf("bad statistic %v", *v)
						}
					}
				}
			}
		}
	})
}
