package analysis

import (
	"cmp"
	"fmt"
	"github.com/trtperf/trtperf/internal/trtexecflags"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/inputs"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// What a trtexec console log tells beyond per-layer data, as overview
// items (unscored: a log gives no per-layer prices) that quote the lines
// they come from. Items that explain slowness come first, then what the
// backend's own items say, then what the log measured.

// Overview item ids of log facts.
const (
	OverviewLogTransfers     = "log_host_device_copies"
	OverviewLogInputBytes    = "log_input_bytes"
	OverviewLogInt8Only      = "log_int8_without_fp16"
	OverviewLogEnqueue       = "log_enqueue_vs_compute"
	OverviewLogPluginFP32    = "log_plugin_fp32_formats"
	OverviewLogInstanceNorm  = "log_instancenorm_import"
	OverviewLogLayerPrec     = "log_layer_precision_change"
	OverviewLogBuildWarnings = "log_builder_warnings"
	OverviewLogUnfusedQDQ    = "log_unfused_quantize_layers"
	OverviewLogAutotune      = "log_autotune_precisions"
	OverviewLogTable         = "log_profile_table"
	OverviewLogMeasured      = "log_measured"
	OverviewLogCompared      = "log_measured_compared"
)

// pcieGBs is the host-to-device bandwidth range a copy of pageable or
// pinned memory reaches over PCIe 3.0/4.0 x16 in practice (GB/s).
var pcieGBs = [2]float64{12, 25}

// logRun is one log run of a backend with its file name.
type logRun struct {
	file string
	r    *engine.Run
}

func logRunsOf(in inputs.Backend, analysed int) []logRun {
	var out []logRun
	for _, s := range runsOf(in, analysed) {
		if s.kind == contract.SourceTrtexecLog && s.r.Log != nil {
			out = append(out, logRun{s.file, s.r})
		}
	}
	return out
}

// addLogOverview puts the log items around the backend's overview.
// others is the number of other backends in the folder.
func addLogOverview(out *contract.Backend, in inputs.Backend, analysed, others int) {
	runs := logRunsOf(in, analysed)
	if len(runs) == 0 {
		return
	}
	var problems, describe []contract.OverviewItem
	var tableFirst *contract.OverviewItem
	for _, lr := range runs {
		problems = append(problems, transferItems(lr)...)
		problems = append(problems, inputBytesItem(lr)...)
		problems = append(problems, int8OnlyItem(lr)...)
		if it := enqueueItem(lr); len(it) > 0 && !hasMetric(it[0], "gpu_busy_pct") {
			// Whether the host limits the run is unknown: a question,
			// not a problem.
			describe = append(describe, it...)
		} else {
			problems = append(problems, it...)
		}
		problems = append(problems, pluginItem(lr)...)
		problems = append(problems, autotuneItem(lr)...)
		problems = append(problems, instanceNormItem(lr)...)
		problems = append(problems, layerPrecisionItem(lr)...)
		problems = append(problems, builderWarningItem(lr)...)
		describe = append(describe, measuredItem(lr)...)
	}
	for _, lr := range runs {
		// After the problems, before the descriptions: what the paste
		// lacks to find them.
		problems = append(problems, missingItem(lr, in, others)...)
	}
	if t := in.ProfileTable; t != nil {
		problems = append(problems, unfusedQuantizeItem(filepath.Base(in.ProfileLog), t)...)
		item, coverage := tableItem(filepath.Base(in.ProfileLog), t)
		if t.Total != nil && coverage < 50 && others == 0 {
			aloneTable(&item, t)
		}
		if coverage < 50 {
			tableFirst = &item
		} else {
			describe = append([]contract.OverviewItem{item}, describe...)
		}
	}
	merged := slices.Clone(problems)
	if tableFirst != nil {
		merged = append(merged, *tableFirst)
	}
	merged = append(merged, out.Overview...)
	merged = append(merged, describe...)
	out.Overview = merged
}

func statMid(s engine.Stats) (float64, bool) {
	switch {
	case s.Median != nil:
		return *s.Median, true
	case s.Mean != nil:
		return *s.Mean, true
	}
	return 0, false
}

// roundTo rounds x to digits decimals (metrics keep a stable width).
func roundTo(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

func lineOf(l *engine.LogFacts, key string) string {
	if f, ok := l.Fact(key); ok {
		return fmt.Sprintf("line %d", f.Line)
	}
	return "line unknown"
}

// perfWhere says where a run's measured numbers are in its log.
func perfWhere(lr logRun) string {
	l := lr.r.Log
	if lr.r.Perf != nil && lr.r.Perf.FromTrace && l.Trace != nil {
		return fmt.Sprintf("%s lines %d-%d, %d trace averages of %d runs", lr.file, l.Trace.Line, l.Trace.EndLine, l.Trace.Lines, l.Trace.RunsPerLine)
	}
	return fmt.Sprintf("%s %s", lr.file, lineOf(l, engine.FactGPUCompute))
}

// transferItems: the host latency is H2D + GPU compute + D2H; when the
// copies are a large part of it, they are what to shrink.
func transferItems(lr logRun) []contract.OverviewItem {
	p := lr.r.Perf
	if p == nil {
		return nil
	}
	g, okG := statMid(p.GPUCompute)
	lat, okL := statMid(p.Latency)
	if !okG || !okL || lat <= 0 || g < 0 || lat < g {
		return nil
	}
	copies := lat - g
	if copies < 0.3*lat {
		return nil
	}
	ev := []string{fmt.Sprintf("trtexec's host latency is H2D + GPU compute + D2H of one inference: %.3g ms median, of which GPU compute is %.3g ms (%s); the other %.3g ms (%.0f%%) are host↔device copies.",
		lat, g, perfWhere(lr), copies, copies/lat*100)}
	if h, ok := statMid(p.H2D); ok {
		d, _ := statMid(p.D2H)
		ev = append(ev, fmt.Sprintf("H2D %.3g ms and D2H %.3g ms median (%s).", h, d, lineOf(lr.r.Log, engine.FactH2D)))
	}
	if e, ok := statMid(p.Enqueue); ok && e < 0.5*g {
		ev = append(ev, fmt.Sprintf("Enqueue time (%.3g ms) is well below GPU compute, so the run is not launch-bound.", e))
	}
	for _, f := range lr.r.Log.All(engine.FactWarning) {
		if strings.Contains(f.Value, "transfers") {
			ev = append(ev, fmt.Sprintf("trtexec's own warning agrees (line %d): %s", f.Line, f.Value))
		}
	}
	ev = append(ev, "Shrink or avoid the copies: reduced-size I/O (--inputIOFormats/--outputIOFormats fp16 or int8 at build time), pre- and post-processing on the GPU, pinned host memory; trtexec --noDataTransfers measures the engine without them.")
	return []contract.OverviewItem{{ID: OverviewLogTransfers,
		Title:    fmt.Sprintf("Host↔device copies take %.3g of %.3g ms host latency (%.0f%%); GPU compute is %.3g ms", copies, lat, copies/lat*100, g),
		Evidence: ev,
		Metrics:  map[string]float64{"latency_ms": roundTo(lat, 6), "gpu_compute_ms": roundTo(g, 6), "copies_ms": roundTo(copies, 6), "share_pct": roundTo(copies/lat*100, 3)},
		Layers:   []int{}}}
}

// inputBytesItem: the inputs' sizes from the inference shapes; large
// inputs copied from the host every inference cost PCIe time.
func inputBytesItem(lr logRun) []contract.OverviewItem {
	shapes := lr.r.Log.All(engine.FactInputShape)
	if len(shapes) == 0 {
		return nil
	}
	type in struct {
		name  string
		dims  string
		elems float64
	}
	var ins []in
	total := 0.0
	for _, f := range shapes {
		name, dims, ok := strings.Cut(f.Value, "=")
		if !ok {
			continue
		}
		n := 1.0
		for d := range strings.SplitSeq(dims, "x") {
			v, err := strconv.ParseFloat(strings.TrimSpace(d), 64)
			if err != nil || v <= 0 || math.IsInf(v, 0) {
				n = 0
				break
			}
			n *= v
		}
		if n > 0 {
			ins = append(ins, in{name, dims, n})
			total += n
		}
	}
	bytesPer := 4.0
	typ := "FP32, trtexec's default I/O format; the log does not say the engine's input types"
	fp16io := false
	for _, f := range lr.r.Log.All(engine.FactIOFormats) {
		if strings.HasPrefix(f.Value, "--inputIOFormats=") && strings.Contains(strings.ToLower(f.Value), "fp16") {
			fp16io = true
		}
	}
	_, loaded := lr.r.Log.Fact(engine.FactLoadEngine)
	if fp16io && !loaded {
		bytesPer, typ = 2, "FP16, as --inputIOFormats asks"
	}
	gb := total * bytesPer / 1e9
	if gb < 0.064 {
		return nil
	}
	slices.SortStableFunc(ins, func(a, b in) int { return cmp.Compare(b.elems, a.elems) })
	big := ins[0]
	ev := []string{
		fmt.Sprintf("%d inputs (%s lines %d-%d) hold %.4g M values: %.3g GB per inference at %g bytes each (%s).", len(ins), lr.file, shapes[0].Line, shapes[len(shapes)-1].Line, total/1e6, gb, bytesPer, typ),
		fmt.Sprintf("At %g-%g GB/s over PCIe that is %.0f-%.0f ms of host-to-device copy per inference before any compute.", pcieGBs[0], pcieGBs[1], gb/pcieGBs[1]*1e3, gb/pcieGBs[0]*1e3),
	}
	if fp16io && loaded {
		ev = append(ev, "The command gives --inputIOFormats together with --loadEngine: I/O formats take effect when the engine is built, not when a built engine is loaded.")
	}
	if p := lr.r.Perf; p != nil {
		if h, ok := statMid(p.H2D); ok {
			g, _ := statMid(p.GPUCompute)
			ev = append(ev, fmt.Sprintf("Measured: H2D %.3g ms, GPU compute %.3g ms median.", h, g))
		}
	} else {
		ev = append(ev, "The log holds no performance summary, so the measured H2D latency is missing: the full console output (H2D Latency, GPU Compute Time) would confirm it.")
	}
	ev = append(ev, "Build with reduced-size input formats (--inputIOFormats=fp16:chw, halving the bytes), feed that type from the application, and keep tensors that another GPU stage produces on the device instead of copying them through the host.")
	return []contract.OverviewItem{{ID: OverviewLogInputBytes,
		Title:    fmt.Sprintf("Each inference copies about %.3g GB of inputs to the GPU (%s %s alone is %.0f MB)", gb, big.name, big.dims, big.elems*bytesPer/1e6),
		Evidence: ev,
		Metrics:  map[string]float64{"input_bytes": roundTo(total*bytesPer, 0), "h2d_ms_low": roundTo(gb/pcieGBs[1]*1e3, 3), "h2d_ms_high": roundTo(gb/pcieGBs[0]*1e3, 3)},
		Layers:   []int{}}}
}

// int8OnlyItem: --int8 without --fp16 lets every layer that does not run
// in INT8 fall back to FP32.
func int8OnlyItem(lr logRun) []contract.OverviewItem {
	if _, loaded := lr.r.Log.Fact(engine.FactLoadEngine); loaded {
		return nil // precision flags given when loading a built engine say nothing of its build
	}
	for _, f := range lr.r.Log.All(engine.FactPrecision) {
		v := f.Value
		flags, isFlags := strings.CutPrefix(v, "flags: ")
		int8Only := isFlags && strings.Contains(flags, "--int8") && !strings.Contains(flags, "--fp16") && !strings.Contains(flags, "--best") && !strings.Contains(flags, "--stronglyTyped") ||
			!isFlags && strings.Contains(v, "INT8") && !strings.Contains(v, "FP16") && !strings.Contains(v, "BF16") && !strings.Contains(v, "Strongly")
		if !int8Only {
			continue
		}
		return []contract.OverviewItem{{ID: OverviewLogInt8Only,
			Title: "The engine was built with INT8 but not FP16: layers that do not run in INT8 fall back to FP32, not FP16",
			Evidence: []string{
				fmt.Sprintf("%s line %d: %s.", lr.file, f.Line, v),
				"TensorRT runs a layer in INT8 only where an INT8 kernel exists and is fastest; every other layer (resize, concatenation, small or odd-shaped convolutions, normalisation) takes the fastest precision allowed, which without FP16 is FP32, and that can cancel INT8's gain.",
				"Build with --int8 --fp16 before comparing INT8 with FP16.",
			},
			Metrics: map[string]float64{}, Layers: []int{}}}
	}
	return nil
}

// enqueueItem judges trtexec's enqueue-bound warning against the numbers.
func enqueueItem(lr logRun) []contract.OverviewItem {
	p := lr.r.Perf
	if p == nil {
		return nil
	}
	g, okG := statMid(p.GPUCompute)
	e, okE := statMid(p.Enqueue)
	warned := ""
	for _, f := range lr.r.Log.All(engine.FactWarning) {
		if strings.Contains(f.Value, "Enqueue Time") {
			warned = fmt.Sprintf(" (trtexec warns so on line %d)", f.Line)
		}
	}
	if !okG || !okE || g <= 0 || e < 0.9*g && warned == "" {
		return nil
	}
	busy := -1.0
	if p.TotalGPUComputeS != nil && p.WalltimeS != nil && *p.WalltimeS > 0 {
		busy = *p.TotalGPUComputeS / *p.WalltimeS
	} else if p.ThroughputQPS != nil && *p.ThroughputQPS > 0 {
		// Inferences per second × GPU time of one: the share of each
		// second the GPU computes (one stream).
		busy = min(*p.ThroughputQPS*g/1000, 1)
	}
	if busy < 0 {
		// Without throughput or walltime the two readings cannot be told
		// apart: a host that launches too slowly, or an enqueue that
		// blocks until the GPU frees queue slots (it then tracks GPU time).
		return []contract.OverviewItem{{ID: OverviewLogEnqueue,
			Title: fmt.Sprintf("Enqueue (%.3g ms) is as long as GPU compute (%.3g ms): launch-bound or waiting on the GPU, which this log cannot tell", e, g),
			Evidence: []string{
				fmt.Sprintf("Enqueue %.3g ms vs GPU compute %.3g ms median (%s %s, %s)%s.", e, g, lr.file, lineOf(lr.r.Log, engine.FactEnqueue), lineOf(lr.r.Log, engine.FactGPUCompute), warned),
				"An enqueue as long as the compute means either the host launches the work too slowly (the GPU then idles between inferences) or enqueue blocks until the GPU frees launch-queue slots (it then tracks the GPU time and the GPU is busy). The log holds no throughput or walltime: throughput × GPU compute near 1 s per second means the GPU is busy all the time and the host is not the limit.",
				"Rerun with the whole console output (Throughput, Total Host Walltime, Total GPU Compute Time); --useCudaGraph (one launch per inference) and --useSpinWait show how much launching costs.",
			},
			Metrics: map[string]float64{"enqueue_ms": roundTo(e, 6), "gpu_compute_ms": roundTo(g, 6)}, Layers: []int{}}}
	}
	if busy >= 0.9 {
		return []contract.OverviewItem{{ID: OverviewLogEnqueue,
			Title:    fmt.Sprintf("Not host-bound: GPU compute fills %.0f%% of the walltime although enqueue takes %.3g ms%s", busy*100, e, warned),
			Evidence: []string{fmt.Sprintf("Total GPU compute %.4g s in %.4g s of walltime (%s): the GPU is busy, so the enqueue time overlaps compute and does not limit throughput.", *p.TotalGPUComputeS, *p.WalltimeS, lr.file)},
			Metrics:  map[string]float64{"enqueue_ms": roundTo(e, 6), "gpu_compute_ms": roundTo(g, 6), "gpu_busy_pct": roundTo(busy*100, 3)}, Layers: []int{}}}
	}
	ev := []string{fmt.Sprintf("Enqueue %.3g ms vs GPU compute %.3g ms median (%s %s, %s)%s: launching the work on the host takes as long as running it, so the GPU waits for the host.", e, g, lr.file, lineOf(lr.r.Log, engine.FactEnqueue), lineOf(lr.r.Log, engine.FactGPUCompute), warned),
		fmt.Sprintf("The GPU is busy %.0f%% of the walltime.", busy*100)}
	ev = append(ev, "Rerun with --useCudaGraph (one launch per inference) and --useSpinWait; fewer, larger layers also cut launch time.")
	return []contract.OverviewItem{{ID: OverviewLogEnqueue,
		Title:    fmt.Sprintf("Enqueue (%.3g ms) is as long as GPU compute (%.3g ms): this run is partly launch-bound", e, g),
		Evidence: ev,
		Metrics:  map[string]float64{"enqueue_ms": roundTo(e, 6), "gpu_compute_ms": roundTo(g, 6), "gpu_busy_pct": roundTo(busy*100, 3)}, Layers: []int{}}}
}

// pluginItem: a custom plugin autotuned in FP32 formats runs outside
// TensorRT's tactics and fusions, in FP32.
func pluginItem(lr logRun) []contract.OverviewItem {
	l := lr.r.Log
	plugins := l.All(engine.FactPlugin)
	var custom []engine.LogFact
	for _, p := range plugins {
		// TensorRT's own plugins end in _TRT; a plugin that traces itself
		// to stdout is the user's.
		if !strings.HasSuffix(p.Value, "_TRT") {
			custom = append(custom, p)
		}
	}
	var fp32 []engine.LogFact
	for _, f := range l.All(engine.FactTimingFormat) {
		in, out, _ := strings.Cut(f.Value, " -> ")
		if strings.HasPrefix(in, "Float(") && strings.HasPrefix(strings.TrimSpace(out), "Float(") {
			fp32 = append(fp32, f)
		}
	}
	var timedPlugins []engine.TacticTiming
	for _, t := range l.Timings {
		if strings.Contains(t.Runner, "Plugin") {
			timedPlugins = append(timedPlugins, t)
		}
	}
	if len(custom) == 0 || len(fp32) == 0 && len(timedPlugins) == 0 {
		return nil
	}
	ev := []string{fmt.Sprintf("%s line %d: the custom plugin %s runs in the build (its own trace lines are in the log).", lr.file, custom[0].Line, custom[0].Value)}
	if len(fp32) > 0 {
		ev = append(ev, fmt.Sprintf("Line %d: autotuning format combination %s, FP32 in and out.", fp32[0].Line, fp32[0].Value))
	}
	for _, t := range timedPlugins {
		for _, tf := range t.Timed {
			if tf.Fastest != nil {
				ev = append(ev, fmt.Sprintf("Line %d: %s timed %.4g ms in %s.", tf.Line, t.Layer, *tf.Fastest, tf.Formats))
			}
		}
	}
	ev = append(ev,
		"A plugin layer runs its own kernel: TensorRT cannot fuse it with its neighbours or pick its convolution tactics, and where the plugin keeps FP32 while the neighbours run FP16, conversions surround it.",
		"Missing to price it: the timing lines of each format (Timing Runner, Fastest Tactic) and a per-layer profile (--dumpProfile --separateProfileRun) of the plugin and native builds.",
		"Keep standard operations (convolutions) as TensorRT layers; if the plugin must stay, give it an FP16 path faster than FP32 and the formats its neighbours use.")
	return []contract.OverviewItem{{ID: OverviewLogPluginFP32,
		Title:    fmt.Sprintf("Custom plugin %s is autotuned in FP32 (Float in, Float out), outside TensorRT's tactics and fusions", custom[0].Value),
		Evidence: ev, Metrics: map[string]float64{}, Layers: []int{}}}
}

// instanceNormItem: the ONNX InstanceNormalization import changed between
// TensorRT 8.6 (plugin by default) and 10 (native by default).
func instanceNormItem(lr logRun) []contract.OverviewItem {
	l := lr.r.Log
	var node, path engine.LogFact
	for _, f := range l.All(engine.FactInstanceNorm) {
		if strings.HasPrefix(f.Value, "node ") {
			if node.Line == 0 {
				node = f
			}
		} else if path.Line == 0 {
			path = f
		}
	}
	if node.Line == 0 && path.Line == 0 {
		return nil
	}
	ver := lr.r.Version
	var ev []string
	if node.Line > 0 {
		ev = append(ev, fmt.Sprintf("%s line %d: the ONNX parser imports InstanceNormalization node %s.", lr.file, node.Line, strings.TrimPrefix(node.Value, "node ")))
	}
	how := ""
	switch {
	case path.Line > 0:
		how = path.Value
		ev = append(ev, fmt.Sprintf("Line %d: it is imported as the %s InstanceNormalization.", path.Line, path.Value))
	case ver != "" && major(ver) >= 10:
		how = "native"
	case ver != "" && strings.HasPrefix(ver, "8."):
		how = "plugin"
	}
	ev = append(ev, "TensorRT 8.6 imports ONNX InstanceNormalization as the InstanceNormalization_TRT plugin unless the parser's native-InstanceNorm flag is set ("+flagSpan("--nativeInstanceNorm")+"); TensorRT 10 imports it as the native normalization layer unless the plugin is asked for ("+flagSpan("--pluginInstanceNorm")+"), so an upgrade changes the kernels of every such layer (GroupNorm exported as Reshape + InstanceNormalization included).")
	if ver == "" {
		ev = append(ev, "The log names no TensorRT version, so which import this build used is not in it.")
	}
	ev = append(ev, "Missing to say which is faster: per-layer times (--dumpProfile --separateProfileRun) of the norm layers in both builds; on TensorRT 10 try --pluginInstanceNorm and compare.")
	title := "InstanceNormalization's import path depends on the TensorRT version (8.6 plugin, 10 native)"
	if how != "" {
		title = fmt.Sprintf("InstanceNormalization is imported as the %s layer here; 8.6 defaults to the plugin, 10 to the native layer", how)
	}
	return []contract.OverviewItem{{ID: OverviewLogInstanceNorm, Title: title, Evidence: ev, Metrics: map[string]float64{}, Layers: []int{}}}
}

// layerPrecisionItem: engine layer lines whose compute layer reads one
// precision and writes another, or writes through a reformat.
func layerPrecisionItem(lr logRun) []contract.OverviewItem {
	type hit struct {
		line     int
		name     string
		in, out  string
		reformat bool
	}
	var hits []hit
	for _, ll := range lr.r.Log.Layers {
		l := ll.Layer
		if strings.Contains(strings.ToLower(l.Type), "reformat") || len(l.Inputs) == 0 || len(l.Outputs) == 0 {
			continue
		}
		in, out := dtypeWord(l.Inputs[0].Format), dtypeWord(l.Outputs[0].Format)
		reformat := strings.HasPrefix(l.Outputs[0].Name, "Reformatted ")
		if in != "" && out != "" && in != out && (in == "Int8" || out == "Int8" || reformat) {
			hits = append(hits, hit{ll.Line, l.Name, in, out, reformat})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	h := hits[0]
	ev := []string{fmt.Sprintf("%s line %d: %s reads %s and writes %s%s.", lr.file, h.line, h.name, h.in, h.out, map[bool]string{true: " into a reformatted output tensor (a reformat layer follows)", false: ""}[h.reformat])}
	if len(hits) > 1 {
		ev = append(ev, fmt.Sprintf("%d layers of the %d read do so.", len(hits), len(lr.r.Log.Layers)))
	}
	if h.in == "Int8" {
		ev = append(ev, "An INT8 layer writes INT8 only when a quantize (Q) follows it that TensorRT can fuse; a Q/DQ pair that sits between operations TensorRT would fuse (Pad+Conv, Conv+BatchNorm+ReLU) blocks the fusion and leaves conversions between INT8 and FP16/FP32.",
			"Place Q/DQ so that they wrap the fused group (DQ before the first op, Q after the last), and quantize the output of layers whose consumers run INT8.")
	}
	ev = append(ev, fmt.Sprintf("The log holds %d engine layer line(s): the whole layer information (--profilingVerbosity=detailed --exportLayerInfo) and a per-layer profile would show every such conversion and its cost.", len(lr.r.Log.Layers)))
	return []contract.OverviewItem{{ID: OverviewLogLayerPrec,
		Title:    fmt.Sprintf("%s converts %s to %s: its output is not kept in the input's precision", h.name, h.in, h.out),
		Evidence: ev, Metrics: map[string]float64{"layer_count": float64(len(hits))}, Layers: []int{}}}
}

// dtypeWord is the data-type word of a log tensor format ("Int8(1,64,…)").
func dtypeWord(format string) string {
	w, _, _ := strings.Cut(format, "(")
	return strings.TrimSpace(w)
}

// builderWarningItem: builder warnings that explain slowness.
func builderWarningItem(lr logRun) []contract.OverviewItem {
	l := lr.r.Log
	var ev []string
	if f, ok := l.Fact(engine.FactHalf2NoNativeFP16); ok {
		ev = append(ev, fmt.Sprintf("%s line %d: FP16 was requested on a GPU without native FP16 support: FP16 layers run slower than FP32 there; build in FP32 (drop --fp16) on this GPU.", lr.file, f.Line))
	}
	if f, ok := l.Fact(engine.FactCalibratorUnused); ok {
		ev = append(ev, fmt.Sprintf("%s line %d: no INT8 calibrator and no dynamic ranges: trtexec uses placeholder scales, so the INT8 engine's speed is representative but its accuracy is not; calibrate (--calib) or use a Q/DQ model for a real INT8 engine.", lr.file, f.Line))
	}
	for _, f := range l.All(engine.FactFallback) {
		ev = append(ev, fmt.Sprintf("%s line %d: %s", lr.file, f.Line, f.Value))
	}
	if d := l.DLA; d != nil && len(d.DLA) > 0 {
		n := 0
		for _, g := range d.DLA {
			n += len(g)
		}
		ev = append(ev, fmt.Sprintf("%s line %d: %d layers run on the DLA in %d subgraphs and %d on the GPU: each DLA subgraph is a hand-over between the devices (a copy and a wait), so fewer, larger subgraphs are faster.", lr.file, d.Line, n, len(d.DLA), len(d.GPU)))
	}
	if d := l.DLA; d != nil && len(d.Unsupported) > 0 {
		ev = append(ev, fmt.Sprintf("%d layers are unsupported on the DLA and run on the GPU (e.g. %s): every switch between DLA and GPU copies the tensor.", len(d.Unsupported), d.Unsupported[0]))
	}
	if len(ev) == 0 {
		return nil
	}
	return []contract.OverviewItem{{ID: OverviewLogBuildWarnings, Title: "Builder warnings that bear on speed", Evidence: ev, Metrics: map[string]float64{}, Layers: []int{}}}
}

// unfusedQuantizeItem: a table row that is only a quantize or dequantize
// node ran as its own layer: TensorRT could not fuse it.
func unfusedQuantizeItem(file string, t *engine.ProfileTable) []contract.OverviewItem {
	var names []string
	ms := 0.0
	for _, r := range t.Profile.Records {
		only := true
		for part := range strings.SplitSeq(r.Name, " + ") {
			p := strings.ToLower(part)
			if !strings.Contains(p, "quantize_scale_node") && !strings.HasPrefix(p, "quantizelinear") && !strings.HasPrefix(p, "dequantizelinear") {
				only = false
			}
		}
		if only {
			names = append(names, r.Name)
			ms += r.AverageMs
		}
	}
	if len(names) == 0 {
		return nil
	}
	return []contract.OverviewItem{{ID: OverviewLogUnfusedQDQ,
		Title: fmt.Sprintf("%d quantize/dequantize node(s) run as layers of their own (%s)", len(names), names[0]),
		Evidence: []string{
			fmt.Sprintf("%s: %s take %.4g ms per inference among the rows read.", file, strings.Join(names, ", "), ms),
			"TensorRT fuses a Q/DQ pair into the layer it wraps; a standalone quantize layer is a Q or DQ it could not fuse, typically because its partner is missing (a residual Add whose other input has no Q/DQ stays in FP16/FP32) or sits between operations TensorRT would fuse. The tensor then changes precision, and reformat layers follow.",
			"Put Q/DQ on every input of Add and Concat (the residual branches too) so Conv+Add+ReLU fuse in INT8, then compare the per-layer tables for the quantize and reformat layers left.",
		},
		Metrics: map[string]float64{"time_ms": roundTo(ms, 6), "layer_count": float64(len(names))}, Layers: []int{}}}
}

// tableItem describes a log's per-layer table: what its columns mean,
// how much of it was read and its largest rows. coverage is the percent
// of the time its rows make.
func tableItem(file string, t *engine.ProfileTable) (contract.OverviewItem, float64) {
	coverage, sum := 0.0, 0.0
	rows := slices.Clone(t.Profile.Records)
	for _, r := range rows {
		coverage += r.Percentage
		sum += r.AverageMs
	}
	slices.SortStableFunc(rows, func(a, b engine.ProfileRecord) int { return cmp.Compare(b.TimeMs, a.TimeMs) })
	iters := "the iterations"
	if t.Iterations > 0 {
		iters = fmt.Sprintf("%d iterations", t.Iterations)
	} else if t.Profile.Count > 0 {
		iters = fmt.Sprintf("about %d iterations (total over average)", t.Profile.Count)
	}
	cols := "Time (ms) is a layer's total over " + iters + ", Avg. Time (ms) that total per iteration, Time % its share of the sum over all layers"
	switch t.Layout {
	case engine.LayoutNameFirstMedian:
		cols = "Time (ms) is a layer's total over " + iters + ", Avg. Time (ms) that total per iteration, Median Time (ms) the median of one iteration, Time % its share of the sum over all layers"
	case engine.LayoutNumbersFirst:
		cols = "Time(ms) is a layer's total over " + iters + ", Avg.(ms) that total per iteration, Median(ms) the median of one iteration, Time(%) its share of the sum over all layers"
	}
	ev := []string{
		fmt.Sprintf("%s lines %d-%d: %d rows read (%s layout). %s; the layers are timed one by one in a profiling run, so their sum can exceed the GPU compute time of a normal run.", file, t.Line, t.EndLine, len(t.Profile.Records), t.Layout, cols),
	}
	if len(t.Partial) > 0 {
		ev = append(ev, "The table may be partial: "+strings.Join(t.Partial, "; ")+".")
	}
	if t.Total != nil {
		ev = append(ev, fmt.Sprintf("Total row (line %d): %.4g ms per iteration for all layers.", t.TotalLine, t.Total.AverageMs))
	}
	top, topPct := []string{}, 0.0
	for _, r := range rows {
		if len(top) >= 3 || topPct >= 50 {
			break
		}
		top = append(top, fmt.Sprintf("%s %.4g ms (%.1f%%)", r.Name, r.AverageMs, r.Percentage))
		topPct += r.Percentage
	}
	colsShort := "Time (ms) is each layer's total over " + iters + ", Avg. Time (ms) per iteration"
	if t.Layout == engine.LayoutNumbersFirst {
		colsShort = "Time(ms) is each layer's total over " + iters + ", Avg.(ms) per iteration"
	}
	title := fmt.Sprintf("%d rows of the per-layer table read (%.1f%% of the time, %.4g ms per iteration) — %s", len(t.Profile.Records), coverage, sum, colsShort)
	if t.Total != nil {
		title = fmt.Sprintf("All layers take %.4g ms per iteration (Total row); the %d rows read make %.1f%% of it", t.Total.AverageMs, len(t.Profile.Records), coverage)
	}
	if len(rows) > 0 && rows[0].Percentage >= 10 && len(t.Partial) > 0 {
		heavy, heavyPct := 0, 0.0
		for _, r := range rows {
			if r.AverageMs >= rows[0].AverageMs/3 {
				heavy++
				heavyPct += r.Percentage
			}
		}
		title = fmt.Sprintf("%d of the %d rows read take %.1f%% of the time (%.4g-%.4g ms per call)", heavy, len(rows), heavyPct, rows[heavy-1].AverageMs, rows[0].AverageMs)
	}
	ev = append(ev, "Largest: "+strings.Join(top, "; ")+".")
	return contract.OverviewItem{ID: OverviewLogTable, Title: title, Evidence: ev,
		Metrics: map[string]float64{"rows": float64(len(t.Profile.Records)), "coverage_pct": roundTo(coverage, 3), "rows_ms": roundTo(sum, 6)}, Layers: []int{}}, coverage
}

// measuredItem: what trtexec measured, and what it means for timing in an
// application.
func measuredItem(lr logRun) []contract.OverviewItem {
	p := lr.r.Perf
	if p == nil {
		return nil
	}
	g, ok := statMid(p.GPUCompute)
	if !ok {
		lat, ok := statMid(p.Latency)
		if !ok {
			return nil
		}
		// Host-side timing only: say what it includes.
		return []contract.OverviewItem{{ID: OverviewLogMeasured,
			Title: fmt.Sprintf("Only host-side latency was measured (%.4g ms median), not the GPU's compute time", lat),
			Evidence: []string{
				fmt.Sprintf("%s %s: host latency is H2D copy + GPU compute + D2H copy of one inference, timed from the host.", lr.file, lineOf(lr.r.Log, engine.FactLatency)),
				"The engine's own time is trtexec's GPU Compute Time (the whole performance summary prints it); compare an application's number with that, timed with CUDA events or after synchronising the stream.",
			},
			Metrics: map[string]float64{"latency_ms": roundTo(lat, 6)}, Layers: []int{}}}
	}
	ev := []string{fmt.Sprintf("GPU compute %.4g ms median (%s).", g, perfWhere(lr))}
	metrics := map[string]float64{"gpu_compute_ms": roundTo(g, 6)}
	if p.TotalGPUComputeS != nil && p.WalltimeS != nil && *p.WalltimeS > 0 {
		busy := *p.TotalGPUComputeS / *p.WalltimeS
		ev = append(ev, fmt.Sprintf("Total GPU compute %.4g s in %.4g s of walltime: the GPU is busy %.0f%% of the run.", *p.TotalGPUComputeS, *p.WalltimeS, busy*100))
		metrics["gpu_busy_pct"] = roundTo(busy*100, 3)
	}
	if d, ok := statMid(p.D2H); ok {
		ev = append(ev, fmt.Sprintf("D2H copy %.3g ms median (%s).", d, lineOf(lr.r.Log, engine.FactD2H)))
	}
	if f, ok := lr.r.Log.Fact(engine.FactEngineSizeMiB); ok {
		ev = append(ev, fmt.Sprintf("Loaded engine size %s MiB (line %d).", f.Value, f.Line))
	}
	ev = append(ev, "This is the engine's own time per inference, measured with CUDA events around each inference. A time measured in an application includes what it adds: host copies, pre- and post-processing, and — when the timer stops before the stream is synchronised — only the launch, with the GPU work showing up in the next synchronising call (often a device-to-host copy). Time GPU work with CUDA events or synchronise before stopping the timer, and compare that with this number.")
	return []contract.OverviewItem{{ID: OverviewLogMeasured,
		Title:    fmt.Sprintf("trtexec measured %.4g ms of GPU compute per inference", g),
		Evidence: ev, Metrics: metrics, Layers: []int{}}}
}

// compareLogMeasured adds, to each backend a log measured, how its GPU
// compute compares with the other backends' of the folder (first item).
func compareLogMeasured(results []contract.Backend) {
	type m struct {
		i int
		g float64
	}
	var ms []m
	for i := range results {
		for _, o := range results[i].Overview {
			if g := o.Metrics["gpu_compute_ms"]; o.ID == OverviewLogMeasured && g > 0 {
				ms = append(ms, m{i, g})
				break
			}
		}
	}
	if len(ms) < 2 {
		return
	}
	for _, a := range ms {
		var parts []string
		for _, b := range ms {
			if b.i == a.i {
				continue
			}
			// Within 2% two medians of trtexec runs are the same speed.
			verdict := "as fast as"
			switch r := a.g / b.g; {
			case r < 0.98:
				verdict = "faster than"
			case r > 1.02:
				verdict = "slower than"
			}
			parts = append(parts, fmt.Sprintf("%s %s (%.4g ms, %.2f×)", verdict, results[b.i].Label, b.g, a.g/b.g))
		}
		item := contract.OverviewItem{ID: OverviewLogCompared,
			Title: fmt.Sprintf("This engine's GPU compute (%.4g ms median) is %s", a.g, strings.Join(parts, ", ")),
			Evidence: []string{
				"Medians of trtexec's GPU Compute Time of each backend's log: the engines' own times, measured the same way.",
				"A larger time seen elsewhere for one of them (an application, another environment) comes from outside the engine when these agree: its timing method, host copies, synchronisation or installation.",
			},
			Metrics: map[string]float64{"gpu_compute_ms": roundTo(a.g, 6)}, Layers: []int{}}
		results[a.i].Overview = insertDescriptive(results[a.i].Overview, item)
	}
}

// autotuneItem: of the layers a verbose build timed in several precisions,
// those whose reduced-precision formats were slower than FP32.
func autotuneItem(lr logRun) []contract.OverviewItem {
	type slow struct {
		layer, red    string
		redMs, fp32Ms float64
		line          int
	}
	var slows []slow
	timed := 0
	for _, t := range lr.r.Log.Timings {
		best := map[string]float64{}
		line := map[string]int{}
		for _, tf := range t.Timed {
			if tf.Fastest == nil {
				continue
			}
			w := dtypeWord(tf.Formats)
			if v, ok := best[w]; !ok || *tf.Fastest < v {
				best[w], line[w] = *tf.Fastest, tf.Line
			}
		}
		f32, ok := best["Float"]
		if !ok || len(best) < 2 {
			continue
		}
		timed++
		for _, red := range []string{"Half", "Int8", "BFloat16", "FP8"} {
			if v, ok := best[red]; ok && v > f32 {
				slows = append(slows, slow{t.Layer, red, v, f32, line[red]})
				break
			}
		}
	}
	if len(slows) == 0 {
		return nil
	}
	s := slows[0]
	ev := []string{fmt.Sprintf("%s line %d: %s's fastest %s tactic took %.4g ms, its fastest Float (FP32) one %.4g ms, so the builder keeps it in FP32.", lr.file, s.line, s.layer, s.red, s.redMs, s.fp32Ms)}
	if len(slows) > 1 {
		ev = append(ev, fmt.Sprintf("%d of the %d layers timed in more than one precision were faster in FP32.", len(slows), timed))
	}
	ev = append(ev, "A layer kept in FP32 between FP16 neighbours adds conversions both ways; where FP16 loses on a GPU with fast FP16 the layer lacks a good FP16 kernel (a plugin's own FP16 path, an odd shape or channel count not a multiple of 8).")
	return []contract.OverviewItem{{ID: OverviewLogAutotune,
		Title:    fmt.Sprintf("%d layer(s) were timed slower in reduced precision than in FP32 and kept FP32 (%s)", len(slows), s.layer),
		Evidence: ev, Metrics: map[string]float64{"layer_count": float64(len(slows))}, Layers: []int{}}}
}

func hasMetric(o contract.OverviewItem, k string) bool {
	_, ok := o.Metrics[k]
	return ok
}

// aloneTable completes the item of a partial table with a Total row, the
// only build in the folder: the engine's time is known, where most of it
// goes and how another build compares are not, and whether quantize
// layers are among the rows read says which comparison could tell.
func aloneTable(item *contract.OverviewItem, t *engine.ProfileTable) {
	qdq := false
	for _, r := range t.Profile.Records {
		for _, w := range layerfacts.OpWords(r.Name) {
			if layerfacts.WordIsQuantize(w) {
				qdq = true
			}
		}
	}
	if !qdq {
		item.Title += ", none of them a quantize layer"
		item.Evidence = append(item.Evidence, "No row read names a quantize or dequantize layer: if this engine runs INT8 it is implicitly quantized (calibrated); a build of the same network with explicit Q/DQ would show the quantize and reformat layers its Q/DQ placement adds where it blocks fusions.")
	}
	item.Title += "; the other rows and any other build's table are not in the paste"
	item.Evidence = append(item.Evidence, "The folder holds no other build: comparing this engine with another (a Q/DQ build, another precision or version) needs that build's whole per-layer table beside this one's.")
}

// flagSpan names a trtexec option with the releases that accept it, from
// the flag table: "trtexec --nativeInstanceNorm in TensorRT 8.6–9.3".
func flagSpan(name string) string {
	f, ok := trtexecflags.Lookup(name)
	if !ok {
		return "trtexec " + name
	}
	r := f.Span()
	if r.Hi.IsZero() {
		return fmt.Sprintf("trtexec %s from TensorRT %s", name, r.Lo)
	}
	return fmt.Sprintf("trtexec %s in TensorRT %s", name, r)
}
