package dump

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
)

// Lines of a --verbose build (TensorRT's builder log, printed through
// trtexec's logger): engine layer information, autotuning, DLA placement,
// parser and builder facts.

// buildLine reads text as a verbose build line; false when it is none.
func (p *logParser) buildLine(level, text string) bool {
	// A timed tactic with its kernel name ("Tactic Name:
	// sm80_xmma_gemm_tf32f32_… Tactic: 0x… Time: …"): the first one, and
	// the first whose name says TF32 (the build allowed TF32).
	if i := strings.Index(text, "Tactic: "); i > 0 && strings.Contains(text[i:], " Time: ") {
		if name := strings.TrimSpace(strings.TrimPrefix(text[:i], "Tactic Name:")); name != "" {
			for _, k := range []string{engine.FactTacticName, engine.FactTF32Tactic} {
				if _, seen := p.facts().Fact(k); !seen && (k == engine.FactTacticName || strings.Contains(strings.ToLower(name), "tf32")) {
					p.fact(k, name)
				}
			}
		}
	}
	switch {
	case strings.HasPrefix(text, "Layer(") && strings.Contains(text, "): "):
		if l, ok := parseLayerLine(text); ok {
			f := p.facts()
			if len(f.Layers) == 0 {
				p.fact(engine.FactEngineLayers, "")
			}
			l.Index = len(f.Layers)
			f.Layers = append(f.Layers, engine.LogLayer{Line: p.lineNo, Layer: l})
			return true
		}
	case strings.HasPrefix(text, "Engine Layer Information"):
		return true
	case strings.HasPrefix(text, "***") && strings.Contains(text, "Autotuning format combination: "):
		_, v, _ := strings.Cut(text, "Autotuning format combination: ")
		p.format, p.fmtLine = strings.TrimSpace(strings.Trim(v, "* ")), p.lineNo
		p.fact(engine.FactTimingFormat, p.format)
		return true
	case strings.HasPrefix(text, "===") && strings.Contains(text, "Computing costs for "):
		_, v, _ := strings.Cut(text, "Computing costs for ")
		p.startTiming(strings.TrimSpace(v), "")
		return true
	case strings.HasPrefix(text, "---") && strings.Contains(text, "Timing Runner: "):
		_, v, _ := strings.Cut(text, "Timing Runner: ")
		v = strings.TrimSpace(v)
		runner := ""
		if i := strings.LastIndex(v, " ("); i > 0 && strings.HasSuffix(v, ")") {
			v, runner = v[:i], v[i+2:len(v)-1]
		}
		p.startTiming(v, runner)
		return true
	case strings.HasPrefix(text, "Tactic: ") || strings.HasPrefix(text, "Fastest Tactic: "):
		if p.timing != nil {
			if _, t, ok := strings.Cut(text, " Time: "); ok {
				if f, ok := leadingNumber(t); ok && f >= 0 {
					tf := &p.timing.Timed[len(p.timing.Timed)-1]
					if tf.Fastest == nil || f < *tf.Fastest {
						tf.Fastest = &f
					}
				}
			}
		}
		return true
	case strings.HasPrefix(text, ">>>") && strings.Contains(text, "Chose Runner Type: "):
		if p.timing != nil {
			_, v, _ := strings.Cut(text, "Chose Runner Type: ")
			p.timing.Chosen, p.timing.ChosenL = strings.TrimSpace(v), p.lineNo
			p.endTiming()
		}
		return true
	case strings.Contains(text, "Layers running on DLA:"):
		p.placement().Line = p.lineNo
		p.dla = "dla"
		return true
	case strings.Contains(text, "Layers running on GPU:"):
		p.placement()
		p.dla = "gpu"
		return true
	case p.dla == "dla" && strings.HasPrefix(text, "{"):
		pl := p.placement()
		for g := range strings.SplitSeq(text, "}") {
			g = strings.Trim(strings.TrimSpace(g), ",{ ")
			if g != "" {
				pl.DLA = append(pl.DLA, splitNames(g, ","))
			}
		}
		return true
	case p.dla == "gpu" && !strings.HasPrefix(text, "---"):
		// One line lists them all (TensorRT prints the list on one line).
		pl := p.placement()
		pl.GPU = append(pl.GPU, splitNames(strings.TrimSuffix(strings.TrimSpace(text), ","), ", ")...)
		p.dla = ""
		return true
	case strings.Contains(text, "Unsupported on DLA") || strings.Contains(text, "not supported on DLA"):
		name := ""
		if _, v, ok := strings.Cut(text, "Layer '"); ok {
			name, _, _ = strings.Cut(v, "'")
		} else if _, v, ok := strings.Cut(text, "layer "); ok {
			name, _, _ = strings.Cut(v, " is not supported")
		}
		pl := p.placement()
		if name != "" && !slices.Contains(pl.Unsupported, name) {
			pl.Unsupported = append(pl.Unsupported, name)
		}
		if pl.Line == 0 {
			pl.Line = p.lineNo
		}
		p.warning(text)
		return true
	case strings.Contains(text, "Half2 support requested on hardware without native FP16 support"):
		p.once(engine.FactHalf2NoNativeFP16, "")
		p.warning(text)
		return true
	case strings.Contains(text, "Calibrator is not being used"):
		p.once(engine.FactCalibratorUnused, "")
		p.warning(text)
		return true
	case strings.HasPrefix(text, "Loaded engine size: "):
		if f, ok := leadingNumber(strings.TrimPrefix(text, "Loaded engine size: ")); ok && f >= 0 {
			p.fact(engine.FactEngineSizeMiB, strconv.FormatFloat(f, 'g', -1, 64))
		}
		return true
	case strings.HasPrefix(text, "Successfully created plugin: "):
		name := strings.TrimSpace(strings.TrimPrefix(text, "Successfully created plugin: "))
		p.once(engine.FactPlugin, name)
		if strings.HasPrefix(name, "InstanceNormalization") {
			p.once(engine.FactInstanceNorm, "plugin")
		}
		return true
	case strings.HasPrefix(text, "Local registry did not find InstanceNormalization"):
		p.once(engine.FactInstanceNorm, "plugin")
		return true
	case strings.HasPrefix(text, "Parsing node: ") && strings.HasSuffix(text, " [InstanceNormalization]"):
		p.once(engine.FactInstanceNorm, "node "+strings.TrimSuffix(strings.TrimPrefix(text, "Parsing node: "), " [InstanceNormalization]"))
		return true
	case text[0] == '[' && strings.Contains(text, "Plugin") && strings.Contains(text, "::"):
		// A plugin's own trace ("[MultiConvPlugin::findAlgo] start"),
		// printed to stdout between TensorRT's lines.
		end := strings.IndexByte(text, ']')
		if cls, _, ok := strings.Cut(text[1:max(end, 1)], "::"); ok && end > 0 && cls != "" && !strings.ContainsAny(cls, " \t") {
			p.once(engine.FactPlugin, cls)
			return true
		}
	case (level == "W" || level == "I" || level == "V") && (strings.Contains(text, "falling back") || strings.Contains(text, "fall back")):
		p.once(engine.FactFallback, text)
		p.warning(text)
		return true
	}
	return false
}

// once adds a fact unless the same key and value are already there; of
// FactInstanceNorm it keeps one parsed node and one import path.
func (p *logParser) once(key, value string) {
	isNode := strings.HasPrefix(value, "node ")
	for _, f := range p.facts().Facts {
		if f.Key != key {
			continue
		}
		if f.Value == value || key == engine.FactInstanceNorm && isNode == strings.HasPrefix(f.Value, "node ") {
			return
		}
	}
	p.fact(key, value)
}

// buildOption records the facts of one "=== Build Options ===" line.
func (p *logParser) buildOption(o engine.Option) {
	switch o.Key {
	case "Precision":
		p.fact(engine.FactPrecision, o.Value)
	case "ONNX Native InstanceNorm": // TensorRT 8.6: the plugin unless enabled
		if strings.EqualFold(o.Value, "Enabled") {
			p.fact(engine.FactInstanceNorm, "native")
		} else {
			p.fact(engine.FactInstanceNorm, "plugin")
		}
	case "ONNX Plugin InstanceNorm": // TensorRT 10: native unless enabled
		if strings.EqualFold(o.Value, "Enabled") {
			p.fact(engine.FactInstanceNorm, "plugin")
		} else {
			p.fact(engine.FactInstanceNorm, "native")
		}
	}
}

func (p *logParser) placement() *engine.Placement {
	f := p.facts()
	if f.DLA == nil {
		f.DLA = &engine.Placement{}
	}
	return f.DLA
}

// startTiming opens (or continues) the autotuning record of a layer.
func (p *logParser) startTiming(layer, runner string) {
	if p.timing != nil && p.timing.Layer != layer {
		p.endTiming()
	}
	if p.timing == nil {
		p.timing = &engine.TacticTiming{Line: p.lineNo, Layer: layer}
	}
	if runner != "" && p.timing.Runner == "" {
		p.timing.Runner = runner
	}
	n := len(p.timing.Timed)
	if runner != "" || n == 0 {
		if n == 0 || p.timing.Timed[n-1].Formats != p.format {
			p.timing.Timed = append(p.timing.Timed, engine.TimedFormat{Formats: p.format, Line: p.fmtLine})
		}
	}
}

func (p *logParser) endTiming() {
	if p.timing == nil {
		return
	}
	f := p.facts()
	f.Timings = append(f.Timings, *p.timing)
	p.timing = nil
}

// splitNames splits a list of layer names, dropping empty ones.
func splitNames(s, sep string) []string {
	var out []string
	for n := range strings.SplitSeq(s, sep) {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// parseLayerLine reads "Layer(Type): name, Tactic: T, in[Fmt(…)], … ->
// out[Fmt(…)]" (TensorRT 8.0 prints decimal tactics, later releases hex).
func parseLayerLine(text string) (engine.Layer, bool) {
	var l engine.Layer
	rest := text[len("Layer("):]
	typ, rest, ok := strings.Cut(rest, "): ")
	if !ok || typ == "" || strings.ContainsAny(typ, " ()") {
		return l, false
	}
	l.Type = typ
	if i := strings.Index(rest, ", Tactic: "); i >= 0 {
		l.Name = strings.TrimSpace(rest[:i])
		rest = rest[i+len(", Tactic: "):]
		tac, after, _ := strings.Cut(rest, ", ")
		l.TacticValue, rest = strings.TrimSpace(tac), after
	} else {
		name, after, _ := strings.Cut(rest, ", ")
		l.Name, rest = strings.TrimSpace(name), after
	}
	if l.Name == "" {
		return l, false
	}
	ins, outs, _ := strings.Cut(rest, " -> ")
	l.Inputs, l.Outputs = logTensors(ins), logTensors(outs)
	return l, true
}

// logTensors reads "name[Fmt(dims)], name2[Fmt(dims)]".
func logTensors(s string) []engine.Tensor {
	var out []engine.Tensor
	for len(s) > 0 {
		open := strings.IndexByte(s, '[')
		if open < 0 {
			break
		}
		depth, end := 0, -1
		for i := open; i < len(s); i++ {
			switch s[i] {
			case '[':
				depth++
			case ']':
				depth--
			}
			if depth == 0 {
				end = i
				break
			}
		}
		if end < 0 {
			break
		}
		name := strings.Join(strings.Fields(strings.TrimLeft(s[:open], ", ")), " ")
		format := strings.TrimSpace(s[open+1 : end])
		out = append(out, engine.Tensor{Name: name, Format: format, Dims: logDims(format)})
		s = s[end+1:]
	}
	return out
}

// logDims reads the dimensions of "Half(1,2,200,200)"; nil when the
// tuple is not plain numbers (a vectorised "1:32" or a dynamic "-1").
func logDims(format string) []int64 {
	_, rest, ok := strings.Cut(format, "(")
	inner, _, ok2 := strings.Cut(rest, ")")
	if !ok || !ok2 || inner == "" {
		return nil
	}
	var dims []int64
	for d := range strings.SplitSeq(inner, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(d), 10, 64)
		if err != nil || v < 0 || v > 1<<40 {
			return nil
		}
		dims = append(dims, v)
	}
	return dims
}

// traceRe is trtexec's trace line: "Average on 10 runs - GPU latency: 9.05
// ms - Host latency: 14.23 ms (end to end 14.25 ms, enqueue 9.22 ms)"
// (TensorRT 7-8.2) or "... Host latency: 6.91 ms (enqueue 0.55 ms)" (8.4+).
var traceRe = regexp.MustCompile(`^Average on (\d+) runs - GPU latency: ([0-9.eE+\-]+) ms - Host latency: ([0-9.eE+\-]+) ms \((?:end to end ([0-9.eE+\-]+) ms, )?enqueue ([0-9.eE+\-]+) ms\)`)

// traceAcc gathers a run's trace lines.
type traceAcc struct {
	t                   engine.Trace
	gpu, host, e2e, enq []float64
}

func (a *traceAcc) add(text string, line int) bool {
	m := traceRe.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	vals := [4]float64{}
	for i, s := range []string{m[2], m[3], m[4], m[5]} {
		if s == "" {
			vals[i] = -1
			continue
		}
		f, ok := leadingNumber(s)
		if !ok || f < 0 {
			return false
		}
		vals[i] = f
	}
	if a.t.Lines == 0 {
		a.t.Line = line
		a.t.RunsPerLine, _ = strconv.Atoi(m[1])
	}
	a.t.Lines++
	a.t.EndLine = line
	a.gpu, a.host, a.enq = append(a.gpu, vals[0]), append(a.host, vals[1]), append(a.enq, vals[3])
	if vals[2] >= 0 {
		a.e2e = append(a.e2e, vals[2])
	}
	return true
}

// finish puts the trace on the run and, when the run has no performance
// summary, its statistics as the run's measured numbers.
func (a *traceAcc) finish(r *engine.Run) {
	if a.t.Lines == 0 {
		return
	}
	t := a.t
	t.GPU, t.Host, t.Enqueue = seriesStats(a.gpu), seriesStats(a.host), seriesStats(a.enq)
	if len(a.e2e) > 0 {
		t.EndToEnd = seriesStats(a.e2e)
	}
	t.GPUMeans, t.HostMeans = a.gpu, a.host
	r.Log.Trace = &t
	if r.Perf == nil {
		r.Perf = &engine.Perf{}
	}
	p := r.Perf
	if p.GPUCompute.IsZero() && p.Latency.IsZero() {
		p.GPUCompute, p.Latency, p.Enqueue, p.EndToEnd = t.GPU, t.Host, t.Enqueue, t.EndToEnd
		p.FromTrace = true
	}
}

// seriesStats are min, max, mean and median of values.
func seriesStats(v []float64) engine.Stats {
	if len(v) == 0 {
		return engine.Stats{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	mn, mx, mean := s[0], s[len(s)-1], sum/float64(len(s))
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return engine.Stats{Min: &mn, Max: &mx, Mean: &mean, Median: &med}
}
