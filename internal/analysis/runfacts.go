package analysis

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/inputs"
)

// fewSamples is the number of timed inferences below which percentiles and
// the coefficient of variation say little (the 99th percentile of fewer
// than 30 samples is one of the two slowest runs).
const fewSamples = 30

// companionWarnings turns unreadable metadata and logs into warnings: a
// broken companion file never fails a backend.
func companionWarnings(in inputs.Backend, msgs *messages) {
	for _, c := range in.Metas {
		if c.Err != nil {
			code, text := readError(sideMeta, c.Path, c.Err)
			msgs.warning(code, text+"; the facts it holds are left out, the rest of the analysis stands")
		}
	}
	for _, c := range in.Logs {
		if c.Err != nil {
			code, text := readError(sideLog, c.Path, c.Err)
			msgs.warning(code, text+"; the facts it holds are left out, the rest of the analysis stands")
		}
	}
}

// sourcedRun is one run of a companion file with what it is.
type sourcedRun struct {
	file  string // base name
	kind  string // contract.Source* for measured sources; "" otherwise
	run   *int   // 1-based run of a multi-run file
	nRuns int
	r     *engine.Run
}

// runsOf lists the usable runs of the companions, most trusted first: TREx
// metadata (TREx writes what one trtexec run printed), then trtexec logs.
// Of a log that holds several runs it takes the run the analysis reads
// (analysed, 1-based, when the profile holds as many runs: the same
// sweep), else the first, as with the first document of concatenated dumps.
func runsOf(in inputs.Backend, analysed int) []sourcedRun {
	var out []sourcedRun
	for _, c := range in.Metas {
		if c.Err != nil || len(c.Runs) == 0 {
			continue
		}
		kind := ""
		if c.Runs[0].Perf != nil {
			kind = contract.SourceTrexProfileMeta
		}
		out = append(out, sourcedRun{file: filepath.Base(c.Path), kind: kind, nRuns: 1, r: &c.Runs[0]})
	}
	for _, c := range in.Logs {
		if c.Err != nil || len(c.Runs) == 0 {
			continue
		}
		k := 1
		switch {
		case c.Path == in.ProfileLog && in.ProfileRun <= len(c.Runs):
			k = in.ProfileRun // the run whose table is the profile
		case analysed > 1 && len(c.Runs) == len(in.ProfileRuns) && analysed <= len(c.Runs):
			k = analysed
		}
		s := sourcedRun{file: filepath.Base(c.Path), kind: contract.SourceTrtexecLog, nRuns: len(c.Runs), r: &c.Runs[k-1]}
		if len(c.Runs) > 1 {
			s.run = &k
		}
		out = append(out, s)
	}
	return out
}

// addRunFacts fills device and build from the companions and, when the
// backend has timing, timing.measured, from the log run that matches the
// analysed profile run (analysed, 1-based; 0 when the profile has one).
func addRunFacts(out *contract.Backend, in inputs.Backend, timesPath string, analysed int, msgs *messages) {
	companionWarnings(in, msgs)
	runs := runsOf(in, analysed)
	out.Device = deviceFacts(runs)
	out.Build = buildFacts(runs)
	if out.Timing != nil {
		out.Timing.Measured = measured(runs, in, timesPath, out.Timing.AverageInferenceMs, out.Build, msgs)
	}
	for _, s := range runs {
		if s.nRuns > 1 {
			which := "the first is used"
			if s.run != nil && *s.run > 1 {
				which = fmt.Sprintf("run %d, the one the profile analysis reads, is used", *s.run)
			}
			msgs.info(CodeSeveralRuns, fmt.Sprintf("%s holds %d trtexec runs; %s for the measured timing, device and build facts", s.file, s.nRuns, which))
		}
	}
}

// measured builds timing.measured; nil when no source measured anything.
func measured(runs []sourcedRun, in inputs.Backend, timesPath string, layerSumMs float64, build *contract.Build, msgs *messages) *contract.Measured {
	m := &contract.Measured{Notes: []string{}}
	primaryDone := false
	var samplesSet bool
	var perIter *contract.PerIteration
	for _, s := range runs {
		if s.kind == "" || s.r.Perf == nil {
			continue
		}
		p := s.r.Perf
		src := contract.MeasuredSource{File: s.file, Kind: s.kind, Run: s.run,
			LatencyMedianMs: p.Latency.Median, GPUComputeMedianMs: p.GPUCompute.Median, Lines: perfLines(s.r)}
		if p.Samples > 0 {
			n := p.Samples
			src.Samples = &n
		}
		m.Sources = append(m.Sources, src)
		if primaryDone {
			continue
		}
		primaryDone = true
		m.LatencyMs, m.GPUComputeMs, m.EnqueueMs = stats(p.Latency), stats(p.GPUCompute), stats(p.Enqueue)
		if !p.H2D.IsZero() {
			h := stats(p.H2D)
			m.H2DMs = &h
		}
		if !p.D2H.IsZero() {
			d := stats(p.D2H)
			m.D2HMs = &d
		}
		m.Throughput = p.ThroughputQPS
		if src.Samples != nil {
			m.Samples, samplesSet = src.Samples, true
		}
		if p.CVPercent != nil {
			// trtexec prints it only with its variance warning.
			cv := *p.CVPercent / 100
			m.CV, m.CVOf, m.CVWarned = &cv, "gpu_compute", true
			m.Notes = append(m.Notes, fmt.Sprintf("trtexec warned that the GPU compute time is unstable (coefficient of variance %.1f%%, %s): differences smaller than that are noise; lock the GPU clocks, add --useSpinWait and time longer (--duration=30) before comparing", *p.CVPercent, s.file))
		}
	}
	if timesPath != "" && in.Times != nil {
		t := in.Times
		n := len(t.LatencyMs)
		src := contract.MeasuredSource{File: filepath.Base(timesPath), Kind: contract.SourceExportTimes, Samples: &n}
		lat := sampleStats(t.LatencyMs)
		src.LatencyMedianMs = lat.Median
		var gpuS contract.Stats
		if len(t.ComputeMs) > 0 {
			gpuS = sampleStats(t.ComputeMs)
			src.GPUComputeMedianMs = gpuS.Median
		}
		m.Sources = append(m.Sources, src)
		if !primaryDone {
			primaryDone = true
			m.LatencyMs, m.GPUComputeMs, m.EnqueueMs = lat, gpuS, sampleStats(t.EnqueueMs)
			if len(t.H2DMs) > 0 {
				h := sampleStats(t.H2DMs)
				m.H2DMs = &h
			}
			if len(t.D2HMs) > 0 {
				d := sampleStats(t.D2HMs)
				m.D2HMs = &d
			}
		}
		if !samplesSet {
			m.Samples = &n
		}
		perIter = perIteration(src.File, t.LatencyMs, t.ComputeMs)
		// Per-inference samples give the spread the summaries do not.
		switch {
		case len(t.ComputeMs) > 1:
			if cv, ok := coefVar(t.ComputeMs); ok {
				m.CV, m.CVOf = &cv, "gpu_compute"
			}
		case n > 1:
			if cv, ok := coefVar(t.LatencyMs); ok {
				m.CV, m.CVOf = &cv, "latency"
			}
		}
	}
	if !primaryDone {
		return nil
	}
	m.Source = m.Sources[0]
	m.PerIteration = perIter
	for _, s := range runs {
		if m.CUDAGraph == nil {
			m.CUDAGraph = enabled(s.r.Infer, "CUDA Graph")
		}
		if m.SpinWait == nil {
			m.SpinWait = enabled(s.r.Infer, "Spin-wait")
		}
		if m.SeparateProfileRun == nil {
			m.SeparateProfileRun = enabled(s.r.Infer, "Separate profiling")
		}
	}
	if m.SeparateProfileRun == nil && build != nil && build.TensorRTVersion != nil && major(*build.TensorRTVersion) >= 11 {
		t := true
		m.SeparateProfileRun = &t // trtexec 11 always profiles in a separate run
		m.Notes = append(m.Notes, "TensorRT 11's trtexec always profiles layers in a run separate from the timed one")
	}
	switch {
	case layerSumMs <= 0: // no profiled layers to compare with
	case m.GPUComputeMs.Median != nil && *m.GPUComputeMs.Median > 0:
		o := layerSumMs / *m.GPUComputeMs.Median
		m.ProfileOverhead, m.ProfileOverheadBasis = &o, "gpu_compute_median"
	case m.LatencyMs.Median != nil && *m.LatencyMs.Median > 0:
		o := layerSumMs / *m.LatencyMs.Median
		m.ProfileOverhead, m.ProfileOverheadBasis = &o, "latency_median"
	}
	if o := m.ProfileOverhead; o != nil {
		m.Notes = append(m.Notes, fmt.Sprintf("the sum of profiled layer averages (%.4g ms) is %.2f× the measured %s (%s): per-layer profiling overhead, not engine time", layerSumMs, *o, strings.ReplaceAll(m.ProfileOverheadBasis, "_", " "), m.Source.File))
	}
	if m.Samples != nil && *m.Samples < fewSamples {
		m.FewSamples = true
		text := fmt.Sprintf("only %d inferences were timed (%s): percentiles and the coefficient of variation are unreliable; time the engine longer (trtexec --duration=10 or --iterations=200)", *m.Samples, m.Source.File)
		m.Notes = append(m.Notes, text)
		msgs.warning(CodeFewSamples, text)
	}
	disagree(m, msgs)
	return m
}

// disagree notes sources whose medians differ from the primary's by more
// than 15 % (different runs, clocks or batch sizes).
func disagree(m *contract.Measured, msgs *messages) {
	pick := func(s contract.MeasuredSource) (*float64, string) {
		if s.GPUComputeMedianMs != nil {
			return s.GPUComputeMedianMs, "GPU compute"
		}
		return s.LatencyMedianMs, "latency"
	}
	a, what := pick(m.Sources[0])
	if a == nil || *a <= 0 {
		return
	}
	for _, s := range m.Sources[1:] {
		b, what2 := pick(s)
		if b == nil || what2 != what {
			continue
		}
		if d := math.Abs(*b-*a) / *a; d > 0.15 {
			msgs.info(CodeMeasuredSources, fmt.Sprintf("measured %s medians disagree: %.4g ms in %s, %.4g ms in %s (%.0f %% apart); %s is used", what, *a, m.Sources[0].File, *b, s.File, 100*d, m.Sources[0].File))
		}
	}
}

func stats(s engine.Stats) contract.Stats {
	return contract.Stats{Min: s.Min, Mean: s.Mean, Median: s.Median, P90: s.P90, P95: s.P95, P99: s.P99, Max: s.Max}
}

// sampleStats summarises per-inference samples (nearest-rank percentiles).
func sampleStats(v []float64) contract.Stats {
	if len(v) == 0 {
		return contract.Stats{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	f := func(x float64) *float64 { return &x }
	return contract.Stats{
		Min: f(s[0]), Mean: f(mean(s)), Median: f(median(s)),
		P90: f(quantile(s, 0.9)), P95: f(quantile(s, 0.95)), P99: f(quantile(s, 0.99)), Max: f(s[len(s)-1]),
	}
}

// median of sorted values (the mean of the middle two for an even count,
// as trtexec computes it).
func median(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return s[n/2-1]/2 + s[n/2]/2 // halves first: no overflow near the largest float64
}

// coefVar is the population standard deviation over the mean.
func coefVar(v []float64) (float64, bool) {
	m := mean(v)
	if m <= 0 {
		return 0, false
	}
	var ss float64
	for _, x := range v {
		d := (x - m) / m // relative, so huge values do not overflow
		ss += d * d / float64(len(v))
	}
	cv := math.Sqrt(ss)
	return cv, !math.IsInf(cv, 0) && !math.IsNaN(cv)
}

// enabled reads an "Enabled"/"Disabled" option; nil when absent.
func enabled(opts []engine.Option, key string) *bool {
	v, ok := engine.Opt(opts, key)
	if !ok {
		return nil
	}
	var b bool
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "enabled", "true", "1", "yes", "on":
		b = true
	case "disabled", "false", "0", "no", "off":
	default:
		return nil
	}
	return &b
}

func major(version string) int {
	m, _, _ := strings.Cut(version, ".")
	n, err := strconv.Atoi(m)
	if err != nil {
		return 0
	}
	return n
}

// deviceFacts merges what the companions say of the GPU (device lists
// first: they carry the raw CUDA attributes) and derives its peaks.
func deviceFacts(runs []sourcedRun) *contract.Device {
	var d *engine.Device
	source := ""
	order := slices.Clone(runs)
	slices.SortStableFunc(order, func(a, b sourcedRun) int {
		rank := func(s sourcedRun) int {
			if s.r.Device != nil && s.r.Perf == nil && len(s.r.Build)+len(s.r.Infer)+len(s.r.Model) == 0 {
				return 0 // a device list
			}
			return 1
		}
		return rank(a) - rank(b)
	})
	for _, s := range order {
		x := s.r.Device
		if !x.Known() {
			continue
		}
		if d == nil {
			c := *x
			d, source = &c, s.file
			continue
		}
		if x.Name != "" && d.Name != "" && !strings.EqualFold(x.Name, d.Name) {
			continue // another GPU: do not mix facts
		}
		fill(&d.Name, x.Name)
		if d.CCMajor < 0 {
			d.CCMajor, d.CCMinor = x.CCMajor, x.CCMinor
		}
		fill(&d.SMs, x.SMs)
		fill(&d.ClockGHz, x.ClockGHz)
		fill(&d.MemClockGHz, x.MemClockGHz)
		fill(&d.BusWidthBits, x.BusWidthBits)
		fill(&d.MemoryMiB, x.MemoryMiB)
	}
	if d == nil {
		return nil
	}
	f, ok := gpu.Derive(gpu.Device{Name: d.Name, CCMajor: d.CCMajor, CCMinor: d.CCMinor, SMs: d.SMs, ClockGHz: d.ClockGHz, MemClockGHz: d.MemClockGHz, BusWidthBits: d.BusWidthBits})
	if !ok {
		return nil
	}
	return contractDevice(f, source, d.Notes, d.MemoryMiB)
}

// contractDevice is the contract's device of derived GPU facts, read from
// source (a file, or the option that named the GPU).
func contractDevice(f gpu.Facts, source string, notes []string, memoryMiB float64) *contract.Device {
	out := &contract.Device{
		Name: f.Name, MemoryBandwidthGBs: f.MemoryBandwidthGBs, BandwidthBasis: f.BandwidthBasis,
		PeakTFLOPS: contract.Peaks{FP32: f.Peaks.FP32, TF32: f.Peaks.TF32, FP16: f.Peaks.FP16, INT8: f.Peaks.INT8},
		PeakBasis:  f.PeakBasis, Source: source, Notes: append(slices.Clip(notes), f.Notes...),
		TensorCores: f.TensorCores, Class: f.Class, DLACores: f.DLACores,
	}
	if out.TensorCores == nil {
		out.TensorCores = []string{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	if f.CCMajor >= 0 {
		cc := fmt.Sprintf("%d.%d", f.CCMajor, f.CCMinor)
		out.ComputeCapability = &cc
	}
	if f.SMs > 0 {
		n := f.SMs
		out.SMCount = &n
	}
	if f.ClockGHz > 0 {
		c := f.ClockGHz
		out.ClockGHz = &c
	}
	if memoryMiB > 0 {
		g := math.Round(memoryMiB/1024*100) / 100
		out.MemoryGiB = &g
	}
	return out
}

// cloneDevice is a copy of d whose slices are its own.
func cloneDevice(d *contract.Device) *contract.Device {
	c := *d
	c.TensorCores, c.Notes = slices.Clone(d.TensorCores), slices.Clone(d.Notes)
	return &c
}

func fill[T comparable](dst *T, v T) {
	var zero T
	if *dst == zero {
		*dst = v
	}
}

// precisionFlags are the trtexec flags that choose precisions.
var precisionFlags = []string{"fp16", "bf16", "int8", "fp8", "int4", "fp4", "best", "stronglyTyped", "noTF32",
	"precisionConstraints", "layerPrecisions", "layerOutputTypes", "inputIOFormats", "outputIOFormats", "calib"}

// buildFacts gathers how the engine was built; nil without any source.
func buildFacts(runs []sourcedRun) *contract.Build {
	if len(runs) == 0 {
		return nil
	}
	b := &contract.Build{PrecisionFlags: []string{}, Options: []contract.Option{}, Warnings: []string{}, Sources: []string{}}
	opt := func(v string) *string { return &v }
	useful, built := false, false
	var buildCmd *string // the command of a run that built the engine
	for _, s := range runs {
		r := s.r
		contributed := false
		if b.TensorRTVersion == nil && r.Version != "" {
			b.TensorRTVersion, contributed = opt(r.Version), true
		}
		if b.Command == nil && r.Command != "" {
			b.Command, contributed = opt(r.Command), true
		}
		// A run that loads a built engine prints trtexec's default build
		// options ("Precision: FP32" for an INT8 engine): they say nothing
		// of how the engine was built.
		engineFile, loaded := loadsEngine(r)
		if loaded && b.LoadedEngine == nil {
			b.LoadedEngine, contributed = opt(engineFile), true
		}
		if !loaded {
			built = built || len(r.Build) > 0 || r.Command != ""
			if buildCmd == nil && r.Command != "" {
				buildCmd = opt(r.Command)
			}
			if len(b.Options) == 0 && len(r.Build) > 0 {
				for _, o := range r.Build {
					b.Options = append(b.Options, contract.Option{Name: o.Key, Value: o.Value})
				}
				contributed = true
			}
			if b.Precision == nil {
				if v, ok := engine.Opt(r.Build, "Precision"); ok && v != "" {
					b.Precision, contributed = opt(v), true
					b.PrecisionEvidence = precisionEvidence(s, v)
				}
			}
		}
		if b.ModelFormat == nil {
			if v, ok := engine.Opt(r.Model, "Format"); ok && v != "" {
				b.ModelFormat, contributed = opt(v), true
			}
		}
		if b.Batch == nil {
			if v, ok := engine.Opt(r.Infer, "Batch"); ok && v != "" {
				b.Batch, contributed = opt(v), true
			} else if v, ok := engine.Opt(r.Build, "Max batch"); ok && v != "" && !loaded {
				b.Batch, contributed = opt(v), true
			}
		}
		if b.BuildShapes == nil && !loaded {
			if v := shapes(r.Build, "Input build shape"); v != "" {
				b.BuildShapes, contributed = opt(v), true
			}
		}
		if b.InferenceShapes == nil {
			if v := shapes(r.Infer, "Input inference shape"); v != "" {
				b.InferenceShapes, contributed = opt(v), true
			}
		}
		for _, w := range r.Warnings {
			if !slices.Contains(b.Warnings, w) {
				b.Warnings, contributed = append(b.Warnings, w), true
			}
		}
		if contributed {
			b.Sources = append(b.Sources, s.file)
			useful = true
		}
	}
	if b.TensorRTVersion == nil {
		// No log or metadata printed a version; the layout of a log tells
		// the release family (TensorRT 7's statistics blocks).
		for _, s := range runs {
			if s.r.Era != "" {
				b.TensorRTVersion = opt(s.r.Era)
				if !slices.Contains(b.Sources, s.file) {
					b.Sources = append(b.Sources, s.file)
				}
				useful = true
				break
			}
		}
	}
	if !useful {
		return nil
	}
	if built {
		b.LoadedEngine = nil // a source saw the build
	}
	tf32Facts(b, runs)
	if buildCmd != nil {
		for _, tok := range strings.Fields(*buildCmd) {
			name, _, _ := strings.Cut(strings.TrimLeft(tok, "-"), "=")
			if strings.HasPrefix(tok, "--") && slices.Contains(precisionFlags, name) {
				b.PrecisionFlags = append(b.PrecisionFlags, tok)
			}
		}
	} else if b.Precision != nil {
		p := strings.ToUpper(*b.Precision)
		for _, f := range []struct{ word, flag string }{{"STRONGLY TYPED", "--stronglyTyped"}, {"FP16", "--fp16"}, {"BF16", "--bf16"}, {"INT8", "--int8"}, {"FP8", "--fp8"}, {"INT4", "--int4"}, {"FP4", "--fp4"}} {
			if strings.Contains(p, f.word) {
				b.PrecisionFlags = append(b.PrecisionFlags, f.flag)
			}
		}
	}
	return b
}

// precisionEvidence names where a build's "Precision" option v was read:
// the log line that printed it, else the source file (build metadata).
func precisionEvidence(s sourcedRun, v string) string {
	for _, f := range s.r.Log.All(engine.FactPrecision) {
		if f.Value == v {
			return fmt.Sprintf("%s line %d: Precision: %s", s.file, f.Line, v)
		}
	}
	return fmt.Sprintf("%s: build options Precision %s", s.file, v)
}

// tf32Facts answers the TF32 question from the build's own words: a
// --noTF32 flag, or a --verbose build log that timed tactics (TF32 ones or
// none).
func tf32Facts(b *contract.Build, runs []sourcedRun) {
	t, f := true, false
	for _, s := range runs {
		if _, loaded := loadsEngine(s.r); loaded {
			continue
		}
		if slices.Contains(strings.Fields(s.r.Command), "--noTF32") {
			b.TF32Timed, b.TF32Evidence = &f, s.file+": the build command says --noTF32"
			return
		}
		if s.r.Log == nil {
			continue
		}
		if x, ok := s.r.Log.Fact(engine.FactTF32Tactic); ok {
			b.TF32Timed, b.TF32Evidence = &t, fmt.Sprintf("%s line %d: the build timed TF32 tactic %s", s.file, x.Line, x.Value)
			return
		}
		if x, ok := s.r.Log.Fact(engine.FactTacticName); ok && b.TF32Timed == nil {
			b.TF32Timed, b.TF32Evidence = &f, fmt.Sprintf("%s: the --verbose build timed tactics by kernel name from line %d, none of them TF32", s.file, x.Line)
		}
	}
}

// loadsEngine reports whether a run loaded a built engine (trtexec
// --loadEngine, or a "Load engine:" build option naming a file) rather
// than building one, and the engine file.
func loadsEngine(r *engine.Run) (string, bool) {
	if r.Log != nil {
		if f, ok := r.Log.Fact(engine.FactLoadEngine); ok {
			return f.Value, true
		}
	}
	if v, ok := engine.Opt(r.Build, "Load engine"); ok && strings.TrimSpace(v) != "" {
		return strings.TrimSpace(v), true
	}
	for _, tok := range strings.Fields(r.Command) {
		if v, ok := strings.CutPrefix(tok, "--loadEngine="); ok {
			return v, true
		}
	}
	return "", false
}

// shapes joins the shape options whose key starts with prefix ("Input
// build shapes: model", "Input build shape (profile 0): x=1x3x224x224").
func shapes(opts []engine.Option, prefix string) string {
	var parts []string
	for _, o := range opts {
		if strings.HasPrefix(o.Key, prefix) && o.Value != "" {
			parts = append(parts, o.Value)
		}
	}
	return strings.Join(parts, "; ")
}

// perfLines are the log lines a run's measured numbers come from: the
// trace averages they were computed from, or the GPU compute (else
// latency) statistics line; nil for sources without lines.
func perfLines(r *engine.Run) *string {
	l := r.Log
	if l == nil {
		return nil
	}
	if r.Perf != nil && r.Perf.FromTrace && l.Trace != nil {
		s := fmt.Sprintf("%d-%d", l.Trace.Line, l.Trace.EndLine)
		return &s
	}
	for _, k := range []string{engine.FactGPUCompute, engine.FactLatency} {
		if f, ok := l.Fact(k); ok && f.Line > 0 {
			s := strconv.Itoa(f.Line)
			return &s
		}
	}
	return nil
}
