package dump

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
)

// ReadTrtexecLog reads a trtexec console log.
func ReadTrtexecLog(path string) ([]engine.Run, error) {
	data, err := readInput(path, kindLogFile)
	if err != nil {
		return nil, fmt.Errorf("read log %s: %w", path, err)
	}
	runs, err := ParseTrtexecLog(data)
	if err != nil {
		return nil, fmt.Errorf("log %s: %w", path, err)
	}
	return runs, nil
}

var (
	versionTag  = regexp.MustCompile(`\[TensorRT v(\d+)\]`)
	versionLine = regexp.MustCompile(`^TensorRT version: (\d+\.\d+\.\d+(?:\.\d+)?)`)
	traceLine   = regexp.MustCompile(`^Timing trace has (\d+) queries over`)
	cvLine      = regexp.MustCompile(`coefficient of variance = ([0-9.eE+\-]+)%`)
	statPart    = regexp.MustCompile(`^(min|max|mean|median|percentile\((\d+(?:\.\d+)?)%\))\s*=\s*([0-9.eE+\-]+)\s*ms$`)
	// TensorRT 7: "min: 1.99 ms (end to end 2.00 ms)", "percentile: 2.5 ms at 99% (end to end 2.6 ms at 99%)".
	trt7Stat = regexp.MustCompile(`^(min|max|mean|median|percentile): ([0-9.eE+\-]+) ms(?: at (\d+(?:\.\d+)?)%)?(?: \(end to end ([0-9.eE+\-]+) ms(?: at \d+(?:\.\d+)?%)?\))?$`)
)

// ParseTrtexecLog reads the runs of a trtexec console log, TensorRT 7 to 11
// (a file may hold several runs one after another): command line and
// version, the option sections, device information, the performance
// summary (whole, or single lines pasted out of it), trace averages, the
// warnings that matter for performance, the per-layer tables --dumpProfile
// prints (every layout; several tables are several runs), and of a
// --verbose build the engine layer information, tactic timing, DLA
// placement and builder facts. Pasted fragments are read as far as they
// go: line prefixes ("[06/21/2021-13:57:04] [I] ", "[I] ", "[TRT] [V] ")
// present or stripped, headers or later rows cut. Errors are *FormatError;
// a text with nothing trtexec prints is one.
func ParseTrtexecLog(data []byte) ([]engine.Run, error) {
	p := logParser{}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		var line []byte
		if i < 0 {
			line, data = data, nil
		} else {
			line, data = data[:i], data[i+1:]
		}
		if len(line) > maxLogLine {
			line = line[:maxLogLine]
		}
		p.lineNo++
		p.line(strings.TrimRight(string(line), "\r"))
	}
	p.flush()
	if len(p.runs) == 0 {
		return nil, errPlain(CodeEmpty, "no trtexec output found (no \"&&&& RUNNING\" line, option sections, performance summary or trace lines, per-layer profile table or verbose build lines)")
	}
	return p.runs, nil
}

// maxLogLine bounds one line: longer lines (a pasted blob) are read up to it.
const maxLogLine = 1 << 20

type logParser struct {
	runs    []engine.Run
	cur     *engine.Run
	lineNo  int
	first   int    // first line of the current run
	section string // current "=== X ===" section
	block   string // TensorRT 7 statistics block: host, enqueue, gpu
	seenW   map[string]bool
	devOpts []engine.Option // the current run's device information lines
	table   *engine.ProfileTable
	iters   int // iterations of a "=== Profile (N iterations ) ===" line not yet followed by rows
	itersAt int
	dla     string // "dla" or "gpu" while reading placement groups
	timing  *engine.TacticTiming
	format  string // the current autotuning format combination
	fmtLine int
	trace   traceAcc
}

func (p *logParser) run() *engine.Run {
	if p.cur == nil {
		p.cur = &engine.Run{Log: &engine.LogFacts{}}
		p.seenW = map[string]bool{}
		p.first = p.lineNo
	}
	return p.cur
}

func (p *logParser) facts() *engine.LogFacts { return p.run().Log }

func (p *logParser) fact(key, value string) {
	f := p.facts()
	f.Facts = append(f.Facts, engine.LogFact{Key: key, Value: value, Line: p.lineNo})
}

func (p *logParser) flush() {
	p.endTable()
	p.endTiming()
	if p.cur != nil {
		p.trace.finish(p.cur)
		// A placement is a fact only of a build that used the DLA.
		if d := p.cur.Log.DLA; d != nil && len(d.DLA) == 0 && len(d.Unsupported) == 0 {
			p.cur.Log.DLA = nil
		}
	}
	if c := p.cur; c != nil && (c.Command != "" || len(c.Model)+len(c.Build)+len(c.Infer)+len(c.System) > 0 || c.Perf != nil || c.Device != nil || c.Version != "" ||
		len(c.Log.Tables)+len(c.Log.Layers)+len(c.Log.Timings)+len(c.Log.Facts) > 0 || c.Log.DLA != nil) {
		c.Log.Lines = p.lineNo - p.first + 1
		p.runs = append(p.runs, *c)
	}
	p.cur, p.section, p.block, p.devOpts, p.dla = nil, "", "", nil, ""
	p.trace = traceAcc{}
}

func (p *logParser) perf() *engine.Perf {
	r := p.run()
	if r.Perf == nil {
		r.Perf = &engine.Perf{}
	}
	return r.Perf
}

// stripPrefix cuts the head trtexec and TensorRT's logger put before a
// message: an optional "[06/21/2021-13:57:04]" timestamp, then "[I]",
// "[W]", "[E]", "[V]", "[F]" and "[TRT]" tags in any order. It returns the
// level letter ("" when none), whether a [TRT] tag was seen, and the text.
func stripPrefix(raw string) (level string, trt bool, text string) {
	s := raw
	for {
		t := strings.TrimLeft(s, " \t")
		if len(t) < 3 || t[0] != '[' {
			break
		}
		end := strings.IndexByte(t, ']')
		if end < 0 {
			break
		}
		tag := t[1:end]
		switch {
		case len(tag) == 1 && strings.ContainsAny(tag, "IWEVF"):
			if level == "" {
				level = tag
			}
		case tag == "TRT":
			trt = true
		case tag == "TensorRT":
			// The Python logger: "[TensorRT] INFO: text".
			trt = true
			rest := strings.TrimLeft(t[end+1:], " ")
			for _, lv := range [...]string{"VERBOSE: ", "INFO: ", "WARNING: ", "ERROR: ", "INTERNAL_ERROR: "} {
				if after, ok := strings.CutPrefix(rest, lv); ok {
					if level == "" {
						level = lv[:1]
					}
					return level, trt, after
				}
			}
			return level, trt, rest
		case len(tag) >= 8 && tag[0] >= '0' && tag[0] <= '9' && strings.Trim(tag, "0123456789/:.- ") == "":
			// a timestamp
		default:
			return level, trt, s
		}
		s = t[end+1:]
		if len(s) > 0 && s[0] == ' ' {
			s = s[1:]
		}
	}
	return level, trt, s
}

func (p *logParser) line(raw string) {
	if rest, ok := strings.CutPrefix(raw, "&&&& RUNNING "); ok {
		if c := p.cur; c != nil && onlyCommand(c) {
			p.cur = nil // the pasted command this RUNNING line repeats
		}
		p.flush()
		r := p.run()
		if m := versionTag.FindStringSubmatch(rest); m != nil {
			r.Version = versionFromNumber(m[1])
		}
		if _, cmd, ok := strings.Cut(rest, " # "); ok {
			r.Command = strings.TrimSpace(cmd)
			p.commandFacts(r.Command)
		}
		return
	}
	if rest, ok := strings.CutPrefix(raw, "&&&& "); ok {
		p.endTable()
		p.section, p.block = "", ""
		// "&&&& PASSED TensorRT.trtexec [TensorRT v8402] # cmd" ends a run;
		// a paste that lost the RUNNING line still has it.
		if p.cur != nil || strings.Contains(rest, "trtexec") {
			r := p.run()
			if m := versionTag.FindStringSubmatch(rest); m != nil && r.Version == "" {
				r.Version = versionFromNumber(m[1])
			}
			if _, cmd, ok := strings.Cut(rest, " # "); ok && r.Command == "" {
				r.Command = strings.TrimSpace(cmd)
				p.commandFacts(r.Command)
			}
			p.flush()
		}
		return
	}
	level, trt, text := stripPrefix(raw)
	text = strings.TrimSpace(text)

	// Per-layer tables first: their rows are right-aligned names that would
	// read as anything else.
	if p.tableLine(text) {
		return
	}
	if text == "" {
		p.section = "" // a blank line ends an option section
		p.dla = ""
		return
	}
	if p.buildLine(level, text) {
		return
	}
	if level == "" && !trt && p.commandLine(text) {
		return
	}
	if strings.HasPrefix(text, "=== ") && strings.HasSuffix(text, " ===") {
		name := strings.TrimSuffix(strings.TrimPrefix(text, "=== "), " ===")
		// A second "Model Options" starts the next run of a concatenated log.
		if name == "Model Options" && p.cur != nil && (len(p.cur.Model) > 0 || p.cur.Perf != nil || len(p.cur.Log.Tables) > 0) {
			p.flush()
		}
		p.run()
		p.section, p.block = name, ""
		if name == "Performance summary" {
			p.fact(engine.FactPerfSummary, "")
		}
		return
	}
	if level == "W" || level == "E" || level == "F" {
		p.warning(text)
		if trt {
			return
		}
	}
	if level == "I" && strings.Contains(text, "more performance might be enabled") {
		p.warning(text)
	}
	if !strings.HasPrefix(text, "TensorRT version: ") {
	} else if m := versionLine.FindStringSubmatch(text); m != nil {
		p.run().Version = m[1]
		return
	}
	if !strings.HasPrefix(text, "Timing trace has ") {
	} else if m := traceLine.FindStringSubmatch(text); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n >= 0 {
			p.perf().Samples = n
		}
		return
	}
	if strings.HasPrefix(text, "Average on ") && p.trace.add(text, p.lineNo) {
		p.run()
		return
	}
	if strings.HasPrefix(text, "* ") && strings.Contains(text, "bound by") {
		p.fact(engine.FactWarning, strings.TrimPrefix(text, "* "))
	}
	if !strings.Contains(text, "coefficient of variance") {
	} else if m := cvLine.FindStringSubmatch(text); m != nil {
		if f, ok := leadingNumber(m[1]); ok {
			p.perf().CVPercent = &f
		}
		return
	}
	if trt {
		return
	}
	switch p.section {
	case "Model Options", "Build Options", "System Options", "Inference Options", "Reporting Options", "Device Information":
		key, val, ok := strings.Cut(text, ":")
		if !ok || strings.HasPrefix(key, "Note") {
			p.section = ""
			p.trt7Line(text)
			return
		}
		o := engine.Option{Key: strings.TrimSpace(key), Value: strings.TrimSpace(val)}
		r := p.run()
		switch p.section {
		case "Model Options":
			r.Model = append(r.Model, o)
		case "Build Options":
			r.Build = append(r.Build, o)
			p.buildOption(o)
		case "System Options":
			r.System = append(r.System, o)
		case "Inference Options":
			r.Infer = append(r.Infer, o)
			// "Input inference shape: x=1x3x224x224" (8.x), "Input inference
			// shape (profile 0): ..." or "... shape : ..." (9.x and later).
			if k, _, _ := strings.Cut(o.Key, " ("); k == "Input inference shape" || k == "Input build shape" {
				p.fact(engine.FactInputShape, o.Value)
			}
		case "Device Information":
			p.devOpts = append(p.devOpts, o)
			r.Device = deviceFromOptions(p.devOpts)
		}
		return
	}
	if p.summaryLine(text) {
		return
	}
	p.trt7Line(text)
}

// commandFacts records what a trtexec command line says.
func (p *logParser) commandFacts(cmd string) {
	p.fact(engine.FactCommand, cmd)
	var prec []string
	for _, f := range strings.Fields(cmd) {
		name, val, _ := strings.Cut(f, "=")
		switch name {
		case "--fp16", "--int8", "--best", "--fp8", "--bf16", "--noTF32", "--stronglyTyped":
			prec = append(prec, name)
		case "--inputIOFormats", "--outputIOFormats":
			p.fact(engine.FactIOFormats, name+"="+val)
		case "--loadEngine":
			p.fact(engine.FactLoadEngine, val)
		}
	}
	if len(prec) == 0 {
		prec = append(prec, "none")
	}
	p.fact(engine.FactPrecision, "flags: "+strings.Join(prec, " "))
}

// onlyCommand reports whether a run holds nothing but a pasted command.
func onlyCommand(r *engine.Run) bool {
	l := r.Log
	return r.Perf == nil && r.Device == nil && len(r.Model)+len(r.Build)+len(r.Infer)+len(r.System) == 0 &&
		len(l.Tables)+len(l.Layers)+len(l.Timings) == 0 && l.DLA == nil && l.Trace == nil && len(r.Warnings) == 0
}

// commandLine takes a trtexec command a user pasted without the RUNNING
// line ("./trtexec --onnx=m.onnx --fp16", "PS C:\\x> trtexec.exe ...").
func (p *logParser) commandLine(text string) bool {
	i := strings.Index(text, "trtexec")
	if i < 0 || !strings.Contains(text[i:], " --") {
		return false
	}
	start := strings.LastIndexAny(text[:i], " >") + 1
	cmd := strings.TrimSpace(text[start:])
	r := p.run()
	if r.Command != "" && r.Command != cmd && (r.Perf != nil || len(r.Log.Tables) > 0) {
		p.flush()
		r = p.run()
	}
	if r.Command == "" {
		r.Command = cmd
		p.commandFacts(cmd)
	}
	return true
}

// summaryLine reads one line of TensorRT 8+'s performance summary, inside
// "=== Performance summary ===" or pasted alone; false when text is none.
func (p *logParser) summaryLine(text string) bool {
	key, val, ok := strings.Cut(text, ": ")
	if !ok {
		return false
	}
	var row *engine.Stats
	fact := ""
	switch key {
	case "Throughput":
		if f, ok := leadingNumber(val); ok && strings.HasSuffix(val, " qps") {
			p.perf().ThroughputQPS = &f
			return true
		}
		return false
	case "Total Host Walltime":
		if f, ok := leadingNumber(val); ok && strings.HasSuffix(val, " s") {
			p.perf().WalltimeS = &f
			return true
		}
		return false
	case "Total GPU Compute Time":
		if f, ok := leadingNumber(val); ok && strings.HasSuffix(val, " s") {
			p.perf().TotalGPUComputeS = &f
			return true
		}
		return false
	case "Latency":
		row, fact = &p.perf().Latency, engine.FactLatency
	case "End-to-End Host Latency":
		row = &p.perf().EndToEnd
	case "Enqueue Time":
		row, fact = &p.perf().Enqueue, engine.FactEnqueue
	case "H2D Latency":
		row, fact = &p.perf().H2D, engine.FactH2D
	case "GPU Compute Time":
		row, fact = &p.perf().GPUCompute, engine.FactGPUCompute
	case "D2H Latency":
		row, fact = &p.perf().D2H, engine.FactD2H
	default:
		return false
	}
	if !strings.HasPrefix(val, "min = ") {
		return false
	}
	if fact != "" {
		p.fact(fact, val)
	}
	for part := range strings.SplitSeq(val, ",") {
		m := statPart.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			continue
		}
		f, ok := leadingNumber(m[3])
		if !ok || f < 0 {
			continue
		}
		setStat(row, m[1], m[2], f)
	}
	return true
}

// trt7Line reads TensorRT 7's statistics blocks ("Host Latency", "Enqueue
// Time", "GPU Compute", each followed by "min: X ms" lines).
func (p *logParser) trt7Line(text string) {
	switch text {
	case "Host Latency":
		p.block = "host"
		p.fact(engine.FactLatency, "TensorRT 7 block")
		return
	case "Enqueue Time":
		p.block = "enqueue"
		p.fact(engine.FactEnqueue, "TensorRT 7 block")
		return
	case "GPU Compute":
		p.block = "gpu"
		p.fact(engine.FactGPUCompute, "TensorRT 7 block")
		return
	}
	if p.block == "" {
		return
	}
	if v, ok := strings.CutPrefix(text, "throughput: "); ok {
		if f, ok := leadingNumber(v); ok {
			p.perf().ThroughputQPS = &f
		}
		return
	}
	if v, ok := strings.CutPrefix(text, "walltime: "); ok {
		if f, ok := leadingNumber(v); ok {
			p.perf().WalltimeS = &f
		}
		return
	}
	if v, ok := strings.CutPrefix(text, "total compute time: "); ok {
		if f, ok := leadingNumber(v); ok {
			p.perf().TotalGPUComputeS = &f
		}
		return
	}
	m := trt7Stat.FindStringSubmatch(text)
	if m == nil {
		p.block = ""
		return
	}
	f, ok := leadingNumber(m[2])
	if !ok || f < 0 {
		return
	}
	perf := p.perf()
	// TensorRT 8.0 replaced these blocks with "=== Performance summary ===".
	p.run().Era = "7.x"
	switch p.block {
	case "host":
		setStat(&perf.Latency, m[1], m[3], f)
		if e, ok := leadingNumber(m[4]); ok && m[4] != "" && e >= 0 {
			setStat(&perf.EndToEnd, m[1], m[3], e)
		}
	case "enqueue":
		setStat(&perf.Enqueue, m[1], m[3], f)
	case "gpu":
		setStat(&perf.GPUCompute, m[1], m[3], f)
	}
}

// setStat stores one statistic; pct is the percentile for "percentile(..)"
// or "percentile" names (90, 95 and 99 are kept).
func setStat(s *engine.Stats, name, pct string, v float64) {
	x := v
	switch {
	case name == "min":
		s.Min = &x
	case name == "max":
		s.Max = &x
	case name == "mean":
		s.Mean = &x
	case name == "median":
		s.Median = &x
	case strings.HasPrefix(name, "percentile"):
		switch pct {
		case "90":
			s.P90 = &x
		case "95":
			s.P95 = &x
		case "99":
			s.P99 = &x
		}
	}
}

// warningWords pick the warnings that bear on performance or on what the
// numbers mean.
var warningWords = []string{
	"precision", "fp16", "int8", "fp8", "bf16", "tf32", "fallback", "fall back", "not supported", "unsupported",
	"calibrat", "workspace", "tactic", "unstable", "throughput may be bound", "dla", "cuda graph",
	"profil", "reformat", "dynamic range", "sparsity", "spin", "performance",
}

func (p *logParser) warning(text string) {
	text = strings.TrimSpace(strings.TrimPrefix(text, "* "))
	if text == "" {
		return
	}
	lower := strings.ToLower(text)
	matters := false
	for _, w := range warningWords {
		if strings.Contains(lower, w) {
			matters = true
			break
		}
	}
	r := p.run()
	if !matters || p.seenW[text] || len(r.Warnings) >= 20 {
		return
	}
	p.seenW[text] = true
	r.Warnings = append(r.Warnings, text)
}

// versionFromNumber turns NV_TENSORRT_VERSION into "major.minor.patch":
// TensorRT 10+ encodes it as major×10000 + minor×100 + patch (100100 =
// 10.1.0), earlier releases as major×1000 + minor×100 + patch (8601 = 8.6.1).
func versionFromNumber(s string) string {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return ""
	}
	if n >= 100000 {
		return fmt.Sprintf("%d.%d.%d", n/10000, n/100%100, n%100)
	}
	return fmt.Sprintf("%d.%d.%d", n/1000, n/100%10, n%100)
}
