package analysis

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// ErrGPUContradicted marks a GPU given for the analysis that a backend's
// own files prove wrong: kernels built for a newer architecture than the
// GPU's, or a profiled layer faster than the GPU's peak allows. Prices and
// advice for the wrong GPU would mislead, so the analysis refuses.
var ErrGPUContradicted = errors.New("the files contradict the GPU given")

// The physics a measured layer rate is held to. A rate above the peak is
// proof only when nothing but the peak can explain it:
const (
	// contradictMinBytes: a layer must move at least this many bytes for
	// its bandwidth to be DRAM bandwidth — more than any GPU's L2 cache
	// (96 MB on AD102, the largest of the gpu table; 50 MB on H100), so
	// repeated profiling iterations cannot serve it from cache.
	contradictMinBytes = 128e6
	// contradictBWRatio: measured bytes/s above the peak memory bandwidth
	// by more than this (memory overclocks give ~10 %).
	contradictBWRatio = 1.2
	// contradictFLOPRatio: measured FLOP/s above the device's fastest
	// dense peak by more than this. FLOPs are counted as the direct
	// convolution does them; Winograd kernels do up to 4× fewer
	// multiplications (F(4×4, 3×3)), and 2:4 sparsity halves them again.
	contradictFLOPRatio = 8.0
	// contradictMinMs: layers shorter than this are not timed precisely
	// enough to prove anything.
	contradictMinMs = 0.01
)

// checkGivenGPU returns an error wrapping ErrGPUContradicted when a
// backend analysed with the GPU given (its device source is from) has
// evidence that it ran on another GPU: a tactic built for a compute
// capability above the given GPU's, or a profiled layer faster than its
// peak memory bandwidth or compute allow. nil when nothing contradicts it.
func checkGivenGPU(results []contract.Backend, ins []modelInput, from string) error {
	var why []string
	for i := range results {
		b := &results[i]
		if b.Device == nil || b.Device.Source != from {
			continue
		}
		if s := contradiction(b, &ins[i]); len(s) > 0 {
			why = append(why, fmt.Sprintf("backend %s: %s", b.Label, strings.Join(s, ", and ")))
		}
	}
	if len(why) == 0 {
		return nil
	}
	d := results[0].Device
	for i := range results {
		if results[i].Device != nil && results[i].Device.Source == from {
			d = results[i].Device
			break
		}
	}
	return fmt.Errorf("%w (%s): %s; analyse without naming a GPU (the files' own evidence, or a default of the kernels' architecture, is used), or name the GPU the engines were built and profiled on",
		ErrGPUContradicted, describeGiven(d), strings.Join(why, "; "))
}

// warnFileDevice adds a warning to every backend whose device facts come
// from its own files (not the GPU given, source from) and which its
// kernels or measured layer rates contradict: the files are kept (they
// are what the user has), but prices and advice follow that device.
func warnFileDevice(results []contract.Backend, ins []modelInput, from string) {
	for i := range results {
		b := &results[i]
		if b.Device == nil || b.Device.Source == from {
			continue
		}
		if s := contradiction(b, &ins[i]); len(s) > 0 {
			b.Validation.Messages = append(b.Validation.Messages, contract.Message{Level: contract.LevelWarning, Code: CodeDeviceContradicted,
				Message: fmt.Sprintf("the device facts from %s (%s) disagree with this backend's own evidence: %s; prices and advice are for that device, so check that the device facts come from the machine that built and profiled this engine",
					b.Device.Source, describeGiven(b.Device), strings.Join(s, ", and "))})
		}
	}
}

// describeGiven is "GTX 1080, compute capability 6.1, 320 GB/s".
func describeGiven(d *contract.Device) string {
	s := d.Name
	if d.ComputeCapability != nil {
		s += ", compute capability " + *d.ComputeCapability
	}
	if d.MemoryBandwidthGBs != nil {
		s += fmt.Sprintf(", %.0f GB/s", *d.MemoryBandwidthGBs)
	}
	return s
}

// contradiction is the evidence of b's files against its device: the
// highest architecture a tactic names, and the first layer faster than the
// device's peak bandwidth or compute; nil when none.
func contradiction(b *contract.Backend, mi *modelInput) []string {
	var out []string
	cc := ccOf(b.Device)
	arch, from := mi.arch, mi.archFrom
	for i := range b.Records {
		if v := layerfacts.SMVersion(b.Records[i].Tactic); v > arch {
			arch, from = v, b.Records[i].Tactic
		}
	}
	if cc > 0 && arch > cc {
		out = append(out, fmt.Sprintf("its kernels are built for compute capability %d.%d or newer (tactic %s), and kernels compiled for sm_%d cannot run on a %d.%d GPU",
			arch/10, arch%10, cut(from, 48), arch, cc/10, cc%10))
	}
	bw := 0.0
	if p := b.Device.MemoryBandwidthGBs; p != nil {
		bw = *p
	}
	peak := 0.0
	for _, p := range []*float64{b.Device.PeakTFLOPS.FP32, b.Device.PeakTFLOPS.TF32, b.Device.PeakTFLOPS.FP16, b.Device.PeakTFLOPS.INT8} {
		if p != nil {
			peak = max(peak, *p)
		}
	}
	for i := range b.Records {
		r := &b.Records[i]
		if r.AvgMs < contradictMinMs {
			continue
		}
		// avg_ms includes per-layer profiling overhead, so the rates
		// below are lower bounds of the kernels' own.
		if r.Bytes != nil && *r.Bytes >= contradictMinBytes && bw > 0 {
			if gbs := *r.Bytes / (r.AvgMs * 1e6); gbs > contradictBWRatio*bw {
				return append(out, fmt.Sprintf("layer %q moved %.1f MB in %.4f ms = %.0f GB/s, %.2f× the GPU's peak memory bandwidth of %.0f GB/s (more bytes than any L2 cache holds, so they came from memory)",
					cut(r.Name, 60), *r.Bytes/1e6, r.AvgMs, gbs, gbs/bw, bw))
			}
		}
		if r.FLOPs != nil && peak > 0 {
			if tf := *r.FLOPs / (r.AvgMs * 1e9); tf > contradictFLOPRatio*peak {
				return append(out, fmt.Sprintf("layer %q did %.3g FLOP in %.4f ms = %.1f TFLOP/s, %.1f× the GPU's fastest dense peak of %.4g TFLOP/s (more than Winograd's 4× and sparsity's 2× together explain)",
					cut(r.Name, 60), *r.FLOPs, r.AvgMs, tf, tf/peak, peak))
			}
		}
	}
	return out
}

// cut shortens s to n bytes at a rune boundary, marking the cut with "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// ccOf is a device's compute capability as 61 for "6.1"; 0 when unknown.
func ccOf(d *contract.Device) int {
	if d == nil || d.ComputeCapability == nil {
		return 0
	}
	maj, min, ok := strings.Cut(*d.ComputeCapability, ".")
	a, err1 := strconv.Atoi(maj)
	b, err2 := strconv.Atoi(min)
	if !ok || err1 != nil || err2 != nil {
		return 0
	}
	return a*10 + b
}
