package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/inputs"
)

// buildOf reads the build facts of one generated trtexec log.
func buildOf(t *testing.T, log string) *buildView {
	t.Helper()
	runs, err := dump.ParseTrtexecLog([]byte(log))
	if err != nil || len(runs) == 0 {
		t.Fatalf("parse: %v (%d runs)", err, len(runs))
	}
	var srs []sourcedRun
	for i := range runs {
		srs = append(srs, sourcedRun{file: "log_x.txt", kind: "trtexec_log", nRuns: len(runs), r: &runs[i]})
	}
	b := buildFacts(srs)
	if b == nil {
		t.Fatal("no build facts")
	}
	v := &buildView{flags: strings.Join(b.PrecisionFlags, " "), tf32: "unknown", evidence: b.TF32Evidence, precisionFrom: b.PrecisionEvidence}
	if b.Precision != nil {
		v.precision = *b.Precision
	}
	if b.LoadedEngine != nil {
		v.loaded = *b.LoadedEngine
	}
	if b.TF32Timed != nil {
		v.tf32 = map[bool]string{true: "timed", false: "not timed"}[*b.TF32Timed]
	}
	return v
}

type buildView struct{ precision, flags, loaded, tf32, evidence, precisionFrom string }

const (
	loadRun = `&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=model_int8.engine --iterations=100
[12/01/2026-10:00:00] [I] === Model Options ===
[12/01/2026-10:00:00] [I] Format: *
[12/01/2026-10:00:00] [I] === Build Options ===
[12/01/2026-10:00:00] [I] Max batch: explicit batch
[12/01/2026-10:00:00] [I] Precision: FP32
[12/01/2026-10:00:00] [I] Load engine: model_int8.engine
[12/01/2026-10:00:00] [I] === Inference Options ===
[12/01/2026-10:00:00] [I] Batch: Explicit
`
	buildRun = `&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --verbose%s
[12/01/2026-10:00:00] [I] === Build Options ===
[12/01/2026-10:00:00] [I] Precision: FP32
[12/01/2026-10:00:00] [I] Load engine: 
[12/01/2026-10:00:01] [V] [TRT] --------------- Timing Runner: conv1 (CaskConvolution)
[12/01/2026-10:00:01] [V] [TRT] Tactic Name: %s Tactic: 0x0000000000020318 Time: 0.0523
`
	tf32Kernel = "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8"
	f32Kernel  = "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nhwckrsc_nhwc_tilesize128x128x8_stage3_warpsize2x2x1_g1"
)

// A --loadEngine run prints trtexec's default build options: its
// "Precision: FP32" says nothing of the engine; a build run's does. A
// --verbose build's timed tactics answer whether TF32 was tried.
func TestBuildFactsFromLogs(t *testing.T) {
	for _, c := range []struct {
		name string
		log  string
		want buildView
	}{
		{"--loadEngine run: no build precision", loadRun, buildView{loaded: "model_int8.engine", tf32: "unknown"}},
		{"build run: its precision", sprintf(buildRun, "", f32Kernel), buildView{precision: "FP32", tf32: "not timed"}},
		{"build that timed a TF32 tactic", sprintf(buildRun, "", tf32Kernel), buildView{precision: "FP32", tf32: "timed"}},
		{"build with --noTF32", sprintf(buildRun, " --noTF32", f32Kernel), buildView{precision: "FP32", flags: "--noTF32", tf32: "not timed"}},
		{"build, then a --loadEngine run: the build's facts", sprintf(buildRun, " --fp16", tf32Kernel) + loadRun, buildView{precision: "FP32", flags: "--fp16", tf32: "timed"}},
		{"--loadEngine run, then a build: the build's facts", loadRun + sprintf(buildRun, " --int8", f32Kernel), buildView{precision: "FP32", flags: "--int8", tf32: "not timed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := buildOf(t, c.log)
			ev, from := got.evidence, got.precisionFrom
			got.evidence, got.precisionFrom = "", ""
			// The precision cites the build run's "Precision:" line (line
			// 3 of the build run, after the --loadEngine run's 9 lines when
			// that comes first).
			wantFrom := ""
			if c.want.precision != "" {
				wantFrom = "log_x.txt line 3: Precision: FP32"
				if strings.HasPrefix(c.log, loadRun) {
					wantFrom = "log_x.txt line 12: Precision: FP32"
				}
			}
			if from != wantFrom {
				t.Errorf("precision evidence %q, want %q", from, wantFrom)
			}
			if *got != c.want {
				t.Errorf("build %+v, want %+v", *got, c.want)
			}
			if (got.tf32 == "unknown") != (ev == "") {
				t.Errorf("tf32 %s with evidence %q", got.tf32, ev)
			}
		})
	}
}

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

// trtexec's variance warning and its coefficient of variance reach
// timing.measured (cv, cv_warned and a note saying what to do).
func TestVarianceWarningReachesTiming(t *testing.T) {
	log := `&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=m.engine
[12/01/2026-10:00:00] [I] === Performance summary ===
[12/01/2026-10:00:00] [I] Throughput: 812.5 qps
[12/01/2026-10:00:00] [I] Latency: min = 1.10 ms, max = 2.90 ms, mean = 1.25 ms, median = 1.21 ms, percentile(90%) = 1.40 ms, percentile(95%) = 1.50 ms, percentile(99%) = 2.10 ms
[12/01/2026-10:00:00] [I] GPU Compute Time: min = 1.00 ms, max = 2.80 ms, mean = 1.15 ms, median = 1.11 ms, percentile(90%) = 1.30 ms, percentile(95%) = 1.40 ms, percentile(99%) = 2.00 ms
[12/01/2026-10:00:00] [W] * GPU compute time is unstable, with coefficient of variance = 6.25%.
`
	runs, err := dump.ParseTrtexecLog([]byte(log))
	if err != nil || len(runs) != 1 || runs[0].Perf == nil {
		t.Fatalf("parse: %v, %d runs", err, len(runs))
	}
	m := measured([]sourcedRun{{file: "log_x.txt", kind: contract.SourceTrtexecLog, nRuns: 1, r: &runs[0]}}, inputs.Backend{}, "", 1.3, nil, &messages{})
	if m == nil || m.CV == nil || math.Abs(*m.CV-0.0625) > 1e-12 || m.CVOf != "gpu_compute" || !m.CVWarned {
		t.Fatalf("measured %+v, want cv 0.0625 of gpu_compute, warned", m)
	}
	if !slices.ContainsFunc(m.Notes, func(n string) bool { return strings.Contains(n, "unstable (coefficient of variance 6.2") }) {
		t.Errorf("no note on the unstable timing: %v", m.Notes)
	}
}
