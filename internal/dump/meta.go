package dump

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/trtperf/trtperf/internal/jsonnum"
	"math"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/engine"
)

// ReadMeta reads a TREx metadata file (build, profile or device).
func ReadMeta(path string) (*engine.Run, error) {
	data, err := readInput(path, kindMetaFile)
	if err != nil {
		return nil, fmt.Errorf("read metadata %s: %w", path, err)
	}
	r, err := ParseMeta(data)
	if err != nil {
		return nil, fmt.Errorf("metadata %s: %w", path, err)
	}
	return r, nil
}

// ParseMeta parses the metadata TREx (trt-engine-explorer) stores beside an
// engine: the trtexec option sections as JSON objects ("model_options",
// "build_options", "inference_options", "device_information") and the
// "performance_summary" (statistics as lists [min, max, mean, median,
// percentiles...]), or a device list of CUDA device attributes
// ([{"Name", "ComputeCapability", "MULTIPROCESSOR_COUNT", ...}]).
// Errors are *FormatError.
func ParseMeta(data []byte) (*engine.Run, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var root jsontext.Value
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, errPlain(CodeMalformed, fmt.Sprintf("not a JSON document (%v); export the metadata again", err))
	}
	r := &engine.Run{}
	switch root.Kind() {
	case '[':
		var devs []map[string]jsontext.Value
		if err := json.Unmarshal(root, &devs); err != nil || len(devs) == 0 {
			return nil, errPlain(CodeMalformed, "a device list must hold at least one object of CUDA device attributes")
		}
		r.Device = deviceFromAttributes(devs[0])
		if !r.Device.Known() {
			return nil, errPlain(CodeMissingField, "the device list names no device (no Name, ComputeCapability or MULTIPROCESSOR_COUNT)")
		}
		return r, nil
	case '{':
	default:
		return nil, errPlain(CodeMalformed, "metadata must be a JSON object or a device list")
	}
	sections, err := orderedObject(root)
	if err != nil {
		return nil, errPlain(CodeMalformed, err.Error())
	}
	found := false
	for _, s := range sections {
		var target *[]engine.Option
		switch s.key {
		case "model_options":
			target = &r.Model
		case "build_options":
			target = &r.Build
		case "inference_options":
			target = &r.Infer
		case "system_options":
			target = &r.System
		case "device_information":
			opts, err := optionsOf(s.value)
			if err != nil {
				return nil, errPlain(CodeMalformed, "device_information: "+err.Error())
			}
			r.Device = deviceFromOptions(opts)
			found = true
			continue
		case "performance_summary":
			p, err := perfFromMeta(s.value)
			if err != nil {
				return nil, errPlain(CodeMalformed, "performance_summary: "+err.Error())
			}
			r.Perf = p
			found = true
			continue
		default:
			continue
		}
		opts, err := optionsOf(s.value)
		if err != nil {
			return nil, errPlain(CodeMalformed, s.key+": "+err.Error())
		}
		*target = opts
		found = true
	}
	if !found {
		return nil, errPlain(CodeMissingField, "no model_options, build_options, inference_options, device_information or performance_summary")
	}
	return r, nil
}

type member struct {
	key   string
	value jsontext.Value
}

// orderedObject returns the members of a JSON object in file order.
func orderedObject(v jsontext.Value) ([]member, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, fmt.Errorf("not an object")
	}
	var out []member
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		key := tok.String()
		val, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		out = append(out, member{key: key, value: val.Clone()})
	}
	return out, nil
}

// optionsOf turns an object of scalars into options; numbers keep their
// JSON text, nested values their compact JSON.
func optionsOf(v jsontext.Value) ([]engine.Option, error) {
	ms, err := orderedObject(v)
	if err != nil {
		return nil, err
	}
	opts := make([]engine.Option, 0, len(ms))
	for _, m := range ms {
		val := ""
		switch m.value.Kind() {
		case '"':
			var s string
			if err := json.Unmarshal(m.value, &s); err != nil {
				return nil, err
			}
			val = s
		case 'n':
		default:
			c := m.value.Clone()
			if err := c.Compact(); err != nil {
				return nil, err
			}
			val = string(c)
		}
		opts = append(opts, engine.Option{Key: m.key, Value: val})
	}
	return opts, nil
}

// perfFromMeta reads TREx's performance_summary: statistic rows are lists
// [min, max, mean, median, percentile...] in trtexec's printed order
// (TensorRT 8.4+ prints the 90, 95 and 99 % percentiles, earlier releases
// only the 99 %); scalars are Throughput (qps) and the totals (s).
func perfFromMeta(v jsontext.Value) (*engine.Perf, error) {
	ms, err := orderedObject(v)
	if err != nil {
		return nil, err
	}
	p := &engine.Perf{}
	for _, m := range ms {
		var row *engine.Stats
		switch m.key {
		case "Throughput":
			p.ThroughputQPS, err = finite(m.value)
		case "Total Host Walltime":
			p.WalltimeS, err = finite(m.value)
		case "Total GPU Compute Time":
			p.TotalGPUComputeS, err = finite(m.value)
		case "Latency":
			row = &p.Latency
		case "Enqueue Time":
			row = &p.Enqueue
		case "H2D Latency":
			row = &p.H2D
		case "GPU Compute Time":
			row = &p.GPUCompute
		case "D2H Latency":
			row = &p.D2H
		case "End-to-End Host Latency":
			row = &p.EndToEnd
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.key, err)
		}
		if row == nil {
			continue
		}
		var vals []float64
		if err := json.Unmarshal(m.value, &vals); err != nil {
			return nil, fmt.Errorf("%s: want a list of numbers: %w", m.key, err)
		}
		for _, x := range vals {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				return nil, fmt.Errorf("%s holds a negative or non-finite time", m.key)
			}
		}
		*row = statsFromList(vals)
	}
	if p.Latency.IsZero() && p.GPUCompute.IsZero() && p.ThroughputQPS == nil {
		return nil, fmt.Errorf("no Latency, GPU Compute Time or Throughput")
	}
	if p.TotalGPUComputeS != nil && p.GPUCompute.Mean != nil && *p.GPUCompute.Mean > 0 {
		// trtexec prints Total GPU Compute Time as mean × queries.
		if n := math.Round(*p.TotalGPUComputeS * 1000 / *p.GPUCompute.Mean); n <= 1<<53 {
			p.Samples = int(n)
		}
	}
	return p, nil
}

// statsFromList maps trtexec's printed order onto statistics.
func statsFromList(v []float64) engine.Stats {
	var s engine.Stats
	at := func(i int) *float64 {
		if i < len(v) {
			x := v[i]
			return &x
		}
		return nil
	}
	s.Min, s.Max, s.Mean, s.Median = at(0), at(1), at(2), at(3)
	switch len(v) {
	case 5:
		s.P99 = at(4)
	case 7:
		s.P90, s.P95, s.P99 = at(4), at(5), at(6)
	}
	return s
}

func finite(v jsontext.Value) (*float64, error) {
	var x float64
	if v.Kind() == '"' {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, err
		}
		f, ok := leadingNumber(s)
		if !ok {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		x = f
	} else if err := json.Unmarshal(v, &x); err != nil {
		return nil, err
	} else if v.Kind() == '0' && !jsonnum.InRange(string(v)) {
		return nil, fmt.Errorf("%.40s is out of the float64 range", v)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return nil, fmt.Errorf("negative or non-finite")
	}
	return &x, nil
}

// leadingNumber parses the first number of s ("192 bits (ECC disabled)" →
// 192, "1.425 GHz" → 1.425); at most 40 characters are looked at, so a
// hostile run of digits costs nothing.
func leadingNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	end := 0
	for end < len(s) && end < 40 && (s[end] >= '0' && s[end] <= '9' || s[end] == '.' || s[end] == '-' || s[end] == '+' || s[end] == 'e' || s[end] == 'E') {
		end++
	}
	for end > 0 {
		if f, err := strconv.ParseFloat(s[:end], 64); err == nil || errors.Is(err, strconv.ErrRange) {
			if !jsonnum.InRange(s[:end]) {
				return 0, false // 1e999, 1e-400: out of range, not a shorter number
			}
			return f, true
		}
		end--
	}
	return 0, false
}

// deviceFromOptions reads trtexec's "=== Device Information ===" keys
// (TensorRT 8: "Compute Clock Rate", TensorRT 10: "Application Compute
// Clock Rate"; clocks in GHz, bus width in bits, memory in MiB).
func deviceFromOptions(opts []engine.Option) *engine.Device {
	d := &engine.Device{CCMajor: -1}
	num := func(key string) float64 {
		v, ok := engine.Opt(opts, key)
		if !ok {
			return 0
		}
		f, ok := leadingNumber(v)
		if !ok || f < 0 {
			return 0
		}
		return f
	}
	if v, ok := engine.Opt(opts, "Selected Device"); ok {
		d.Name = strings.TrimSpace(v)
	}
	if v, ok := engine.Opt(opts, "Compute Capability"); ok {
		d.CCMajor, d.CCMinor = parseCC(v)
	}
	d.SMs = countFact(d, "SM count", num("SMs"))
	d.ClockGHz = max(num("Compute Clock Rate"), num("Application Compute Clock Rate"))
	d.MemClockGHz = max(num("Memory Clock Rate"), num("Application Memory Clock Rate"))
	d.BusWidthBits = countFact(d, "memory bus width", num("Memory Bus Width"))
	d.MemoryMiB = num("Device Global Memory")
	d.DropImplausible()
	return d
}

// parseCC reads "8.6" (or 8.6 as a number); (-1, 0) when it is not one.
func parseCC(v string) (int, int) {
	v = strings.TrimSpace(v)
	maj, minor, ok := strings.Cut(v, ".")
	a, err1 := strconv.Atoi(maj)
	b := 0
	var err2 error
	if ok {
		b, err2 = strconv.Atoi(minor)
	}
	if err1 != nil || err2 != nil || a < 0 || a > 99 || b < 0 || b > 9 {
		return -1, 0
	}
	return a, b
}

// deviceFromAttributes reads a TREx device list entry: CUDA device
// attributes (clock rates in kHz, bus width in bits, memory in bytes).
func deviceFromAttributes(m map[string]jsontext.Value) *engine.Device {
	d := &engine.Device{CCMajor: -1}
	num := func(key string) float64 {
		v, ok := m[key]
		if !ok {
			return 0
		}
		var f float64
		if json.Unmarshal(v, &f) != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return 0
		}
		return f
	}
	if v, ok := m["Name"]; ok {
		var s string
		if json.Unmarshal(v, &s) == nil {
			d.Name = strings.TrimSpace(s)
		}
	}
	var cc []int
	if v, ok := m["ComputeCapability"]; ok && json.Unmarshal(v, &cc) == nil && len(cc) == 2 && cc[0] >= 0 && cc[0] < 100 && cc[1] >= 0 && cc[1] < 10 {
		d.CCMajor, d.CCMinor = cc[0], cc[1]
	} else if _, ok := m["COMPUTE_CAPABILITY_MAJOR"]; ok {
		d.CCMajor, d.CCMinor = countFact(d, "compute capability major", num("COMPUTE_CAPABILITY_MAJOR")), countFact(d, "compute capability minor", num("COMPUTE_CAPABILITY_MINOR"))
	}
	d.SMs = countFact(d, "SM count", num("MULTIPROCESSOR_COUNT"))
	d.ClockGHz = num("CLOCK_RATE") / 1e6
	d.MemClockGHz = num("MEMORY_CLOCK_RATE") / 1e6
	d.BusWidthBits = countFact(d, "memory bus width", num("GLOBAL_MEMORY_BUS_WIDTH"))
	d.MemoryMiB = num("TotalMemory") / (1 << 20)
	d.DropImplausible()
	return d
}

// countFact converts a reported count (SMs, bits): a value that is not a
// whole number an int32 holds is noted on d and read as unknown (0);
// converting 1e30 to int would give a negative count.
func countFact(d *engine.Device, what string, f float64) int {
	if f == 0 {
		return 0
	}
	if !(f > 0 && f <= math.MaxInt32) || f != math.Trunc(f) {
		d.Notes = append(d.Notes, fmt.Sprintf("the reported %s %.4g is not a plausible count; it is ignored", what, f))
		return 0
	}
	return int(f)
}
