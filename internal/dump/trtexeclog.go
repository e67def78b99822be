package dump

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
)

// ReadTrtexecLog reads a trtexec console log.
func ReadTrtexecLog(path string) ([]engine.Run, error) {
	data, err := readInput(path, false)
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
	// logPrefix is the "[02/21/2021-22:46:03] [I] " (and "[TRT] ") head of a
	// trtexec log line; the timestamp is optional.
	logPrefix   = regexp.MustCompile(`^(?:\[[0-9/:.\- ]+\]\s*)?\[([IWEVF])\]\s?(\[TRT\]\s?)?`)
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
// summary and the warnings that matter for performance. Errors are
// *FormatError; a log with no trtexec section at all is one.
func ParseTrtexecLog(data []byte) ([]engine.Run, error) {
	p := logParser{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		p.line(strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, errPlain(CodeMalformed, fmt.Sprintf("cannot read the log (%v)", err))
	}
	p.flush()
	if len(p.runs) == 0 {
		return nil, errPlain(CodeEmpty, "no trtexec run found (no \"&&&& RUNNING\" line, option sections or performance summary)")
	}
	return p.runs, nil
}

type logParser struct {
	runs    []engine.Run
	cur     *engine.Run
	section string // current "=== X ===" section
	block   string // TensorRT 7 statistics block: host, enqueue, gpu
	seenW   map[string]bool
	devOpts []engine.Option // the current run's device information lines
}

func (p *logParser) run() *engine.Run {
	if p.cur == nil {
		p.cur = &engine.Run{}
		p.seenW = map[string]bool{}
	}
	return p.cur
}

func (p *logParser) flush() {
	if p.cur != nil && (p.cur.Command != "" || len(p.cur.Model)+len(p.cur.Build)+len(p.cur.Infer) > 0 || p.cur.Perf != nil || p.cur.Device != nil) {
		p.runs = append(p.runs, *p.cur)
	}
	p.cur, p.section, p.block, p.devOpts = nil, "", "", nil
}

func (p *logParser) perf() *engine.Perf {
	r := p.run()
	if r.Perf == nil {
		r.Perf = &engine.Perf{}
	}
	return r.Perf
}

func (p *logParser) line(raw string) {
	if rest, ok := strings.CutPrefix(raw, "&&&& RUNNING "); ok {
		p.flush()
		r := p.run()
		if m := versionTag.FindStringSubmatch(rest); m != nil {
			r.Version = versionFromNumber(m[1])
		}
		if _, cmd, ok := strings.Cut(rest, " # "); ok {
			r.Command = strings.TrimSpace(cmd)
		}
		return
	}
	if strings.HasPrefix(raw, "&&&& ") {
		p.section, p.block = "", ""
		return
	}
	level, trt, text := "", false, raw
	if m := logPrefix.FindStringSubmatchIndex(raw); m != nil {
		level = raw[m[2]:m[3]]
		trt = m[4] >= 0
		text = raw[m[1]:]
	}
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "=== ") && strings.HasSuffix(text, " ===") {
		name := strings.TrimSuffix(strings.TrimPrefix(text, "=== "), " ===")
		// A second "Model Options" starts the next run of a concatenated log.
		if name == "Model Options" && p.cur != nil && (len(p.cur.Model) > 0 || p.cur.Perf != nil) {
			p.flush()
		}
		p.run()
		p.section, p.block = name, ""
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
	if m := versionLine.FindStringSubmatch(text); m != nil {
		p.run().Version = m[1]
		return
	}
	if m := traceLine.FindStringSubmatch(text); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n >= 0 {
			p.perf().Samples = n
		}
		return
	}
	if m := cvLine.FindStringSubmatch(text); m != nil {
		if f, ok := leadingNumber(m[1]); ok {
			p.perf().CVPercent = &f
		}
		return
	}
	if trt {
		return
	}
	if text == "" {
		p.section = "" // a blank line ends an option section
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
		case "System Options":
			r.System = append(r.System, o)
		case "Inference Options":
			r.Infer = append(r.Infer, o)
		case "Device Information":
			p.devOpts = append(p.devOpts, o)
			r.Device = deviceFromOptions(p.devOpts)
		}
		return
	case "Performance summary":
		p.summaryLine(text)
		return
	}
	p.trt7Line(text)
}

// summaryLine reads one line of TensorRT 8+'s "=== Performance summary ===".
func (p *logParser) summaryLine(text string) {
	key, val, ok := strings.Cut(text, ": ")
	if !ok {
		return
	}
	perf := p.perf()
	var row *engine.Stats
	switch key {
	case "Throughput":
		if f, ok := leadingNumber(val); ok {
			perf.ThroughputQPS = &f
		}
	case "Total Host Walltime":
		if f, ok := leadingNumber(val); ok {
			perf.WalltimeS = &f
		}
	case "Total GPU Compute Time":
		if f, ok := leadingNumber(val); ok {
			perf.TotalGPUComputeS = &f
		}
	case "Latency":
		row = &perf.Latency
	case "End-to-End Host Latency":
		row = &perf.EndToEnd
	case "Enqueue Time":
		row = &perf.Enqueue
	case "H2D Latency":
		row = &perf.H2D
	case "GPU Compute Time":
		row = &perf.GPUCompute
	case "D2H Latency":
		row = &perf.D2H
	}
	if row == nil {
		return
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
}

// trt7Line reads TensorRT 7's statistics blocks ("Host Latency", "Enqueue
// Time", "GPU Compute", each followed by "min: X ms" lines).
func (p *logParser) trt7Line(text string) {
	switch text {
	case "Host Latency":
		p.block = "host"
		return
	case "Enqueue Time":
		p.block = "enqueue"
		return
	case "GPU Compute":
		p.block = "gpu"
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
