// Package gpu knows the peak memory bandwidth and dense tensor throughput of
// NVIDIA GPUs: computed from what the device reports (SM count × clock ×
// the per-SM rate of its architecture; bus width × memory clock) or, when a
// source only names the GPU, read from a table of common GPUs.
//
// Per-SM dense rates (FLOP or OP per clock per SM; a fused multiply-add is
// two) come from NVIDIA's architecture whitepapers: Volta (V100), Turing
// (TU102), Ampere (GA100, GA102), Ada (AD102), Hopper (H100), and the Jetson
// AGX Xavier / Orin technical briefs; each was checked against the
// datasheet peak of one product (A100 PCIe: 108 SMs × 1.41 GHz × 2048 =
// 312 FP16 TFLOP/s; T4: 40 × 1.59 × 1024 = 65; H100 SXM: 132 × 1.83 ×
// 4096 = 989; L4: 58 × 2.04 × 1024 = 121; RTX 3090: 82 × 1.695 × 1024 =
// 142). FP16 is the FP16-accumulate tensor rate (GeForce cards run FP32
// accumulation at half that); TF32 on GeForce Ampere/Ada is half the
// professional rate. Sparse rates (2× dense) are never used.
//
// The product table holds SM count, boost clock (GHz) and memory bandwidth
// (GB/s) from the product datasheets and spec pages at nvidia.com (A100,
// H100, H200, L4, L40, L40S, A10, A30, A40, T4, V100, RTX A-series, GeForce
// RTX 20/30/40 series, Jetson AGX Xavier, Xavier NX, AGX Orin, Orin NX,
// Orin Nano).
package gpu

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Device is what a source reported; zero means unknown (CCMajor < 0 too).
type Device struct {
	Name         string
	CCMajor      int
	CCMinor      int
	SMs          int
	ClockGHz     float64
	MemClockGHz  float64
	BusWidthBits int
}

// Peaks are dense peak throughputs in TFLOP/s (TOP/s for int8); nil when
// the architecture has no such path or it is unknown. FP16, BF16, INT8,
// TF32 and FP8 are tensor-core rates where the GPU has tensor cores for
// that precision (see TensorCores), else the CUDA-core rate (FP16 on
// Pascal P100/Jetson: twice FP32; INT8 on Pascal GP10x: DP4A).
type Peaks struct {
	FP32, TF32, FP16, BF16, INT8, FP8 *float64
}

// Facts are a device's derived performance facts.
type Facts struct {
	Name               string
	CCMajor, CCMinor   int // -1 when unknown
	SMs                int
	ClockGHz           float64
	MemoryBandwidthGBs *float64
	BandwidthBasis     string // "bus_width_x_memory_clock", "table" or ""
	Peaks              Peaks
	PeakBasis          string // "sm_count_x_clock", "table" or ""
	// TensorCores lists the precisions the GPU runs on tensor cores
	// (FP16, BF16, TF32, INT8, FP8, FP4), from its compute capability and,
	// for Turing GTX 16-series parts that have none, its name.
	TensorCores []string
	// Class is data_centre, workstation, consumer or jetson.
	Class string
	// DLACores is the number of deep-learning accelerators beside the GPU
	// (Jetson AGX Xavier, Xavier NX, AGX Orin, Orin NX); 0 when none.
	DLACores int
	Notes    []string
}

// Device classes.
const (
	ClassDataCentre  = "data_centre"
	ClassWorkstation = "workstation"
	ClassConsumer    = "consumer"
	ClassJetson      = "jetson"
)

// HasTensorCores reports whether f lists precision p ("FP16", "INT8", ...)
// among its tensor-core precisions.
func (f *Facts) HasTensorCores(p string) bool {
	for _, x := range f.TensorCores {
		if x == p {
			return true
		}
	}
	return false
}

// TensorCorePrecisions lists the precisions an architecture runs on
// tensor cores (NVIDIA architecture whitepapers): Volta FP16; Turing and
// Xavier FP16 and INT8; Ampere and Orin TF32, FP16, BF16 and INT8; Ada and
// Hopper add FP8; Blackwell adds FP4. GPUs before Volta have none, and so
// do Turing GTX 16-series parts (noTC).
func TensorCorePrecisions(ccMajor, ccMinor int, noTC bool) []string {
	switch {
	case noTC || ccMajor < 7:
		return nil
	case ccMajor == 7 && ccMinor == 0:
		return []string{"FP16"}
	case ccMajor == 7:
		return []string{"FP16", "INT8"}
	case ccMajor == 8 && ccMinor < 9:
		return []string{"TF32", "FP16", "BF16", "INT8"}
	case ccMajor == 8 || ccMajor == 9:
		return []string{"TF32", "FP16", "BF16", "INT8", "FP8"}
	}
	return []string{"TF32", "FP16", "BF16", "INT8", "FP8", "FP4"}
}

// FastFP16 reports whether a GPU of compute capability major.minor
// computes FP16 faster than FP32: with tensor cores (7.0 and later, GTX 16
// included: twice FP32 on CUDA cores) or twice-rate FP16 units (5.3 Jetson
// Nano, 6.0 P100, 6.2 Jetson TX2). Maxwell (5.0, 5.2) has no FP16
// arithmetic and Pascal GP10x (6.1) runs it at 1/64 of FP32, so there
// TensorRT keeps FP32 kernels and an FP16 build gains nothing.
func FastFP16(major, minor int) bool {
	return major >= 7 || major == 5 && minor == 3 || major == 6 && minor != 1
}

// FastINT8 reports whether a GPU of compute capability major.minor
// computes INT8 faster than FP32: by DP4A (four INT8 products per FP32
// slot) from 6.1, or INT8 tensor cores (7.2, 7.5 and 8.0 on). TensorRT's
// support matrix gives no INT8 to 5.x, 6.0 (P100) or 6.2 (Jetson TX2).
func FastINT8(major, minor int) bool {
	return major >= 7 || major == 6 && minor == 1
}

// Offers names what a GPU computes faster than FP32 (tensor cores lists
// its tensor-core precisions, as Facts.TensorCores), for advice: e.g.
// "INT8 by DP4A at 4× the FP32 rate" on compute capability 6.1; "" when
// nothing is faster.
func Offers(major, minor int, tensorCores []string) string {
	var out []string
	if len(tensorCores) > 0 {
		out = append(out, strings.Join(tensorCores, ", ")+" on tensor cores")
	}
	if FastFP16(major, minor) && !slices.Contains(tensorCores, "FP16") {
		out = append(out, "FP16 at 2× the FP32 rate")
	}
	if FastINT8(major, minor) && !slices.Contains(tensorCores, "INT8") {
		out = append(out, "INT8 by DP4A at 4× the FP32 rate")
	}
	return strings.Join(out, "; ")
}

// perSM are dense per-SM-per-clock rates of one architecture (BF16 runs at
// the FP16 rate on every architecture that has it, Ampere and later).
type perSM struct{ fp32, tf32, fp16, int8, fp8 float64 }

// rates by compute capability (see the package comment for sources). The
// CUDA-core FP16 rates are the CUDA C++ Programming Guide's arithmetic
// instruction throughputs (16-bit floating-point multiply-add results per
// clock per SM: 5.3 256, 6.0 128, 6.1 2, 6.2 256; two FLOP each): FP16 is
// twice FP32 on Jetson Nano, P100 and Jetson TX2, and 1/64 of it on Pascal
// GP10x (GeForce GTX 10, TITAN Xp, P4, P40).
var rates = map[[2]int]perSM{
	{5, 3}: {fp32: 256, fp16: 512},              // Maxwell Jetson Nano (2× FP16)
	{6, 0}: {fp32: 128, fp16: 256},              // P100
	{6, 1}: {fp32: 256, fp16: 4, int8: 1024},    // Pascal GP10x: FP16 at 1/64 of FP32, INT8 by DP4A
	{6, 2}: {fp32: 256, fp16: 512},              // Jetson TX2
	{7, 0}: {fp32: 128, fp16: 1024},             // Volta: no INT8 tensor cores
	{7, 2}: {fp32: 128, fp16: 1024, int8: 2048}, // Xavier
	{7, 5}: {fp32: 128, fp16: 1024, int8: 2048}, // Turing
	{8, 0}: {fp32: 128, tf32: 1024, fp16: 2048, int8: 4096},
	{8, 6}: {fp32: 256, tf32: 512, fp16: 1024, int8: 2048},
	{8, 7}: {fp32: 256, tf32: 1024, fp16: 2048, int8: 4096}, // Orin
	{8, 9}: {fp32: 256, tf32: 512, fp16: 1024, int8: 2048, fp8: 2048},
	{9, 0}: {fp32: 256, tf32: 2048, fp16: 4096, int8: 8192, fp8: 8192},
}

// noTCRates are the rates of Turing GTX 16-series GPUs: no tensor cores,
// FP16 at twice the FP32 rate on dedicated units, INT8 by DP4A.
var noTCRates = perSM{fp32: 128, fp16: 256, int8: 512}

// product is one row of the table of common GPUs.
type product struct {
	match       []string // lower-case words that must all occur in the name
	ccMaj       int
	ccMin       int
	sms         int
	boostGHz    float64
	bandwidth   float64 // GB/s
	geforceTF32 bool    // TF32 at half the professional rate
	noTC        bool    // no tensor cores although the architecture has them (GTX 16-series)
	dla         int     // DLA cores beside the GPU (Jetson)
}

// products: most specific first (the first whose words all occur wins).
var products = []product{
	{[]string{"h200"}, 9, 0, 132, 1.98, 4800, false, false, 0},
	{[]string{"h100", "pcie"}, 9, 0, 114, 1.755, 2000, false, false, 0},
	{[]string{"h100", "nvl"}, 9, 0, 132, 1.785, 3900, false, false, 0},
	{[]string{"h100"}, 9, 0, 132, 1.83, 3350, false, false, 0},
	{[]string{"gh200"}, 9, 0, 132, 1.98, 4000, false, false, 0},
	{[]string{"a100", "80gb", "pcie"}, 8, 0, 108, 1.41, 1935, false, false, 0},
	{[]string{"a100", "pcie"}, 8, 0, 108, 1.41, 1555, false, false, 0},
	{[]string{"a100", "80gb"}, 8, 0, 108, 1.41, 2039, false, false, 0},
	{[]string{"a100"}, 8, 0, 108, 1.41, 1555, false, false, 0},
	{[]string{"a30"}, 8, 0, 56, 1.44, 933, false, false, 0},
	{[]string{"a10g"}, 8, 6, 80, 1.71, 600, false, false, 0},
	{[]string{"a10"}, 8, 6, 72, 1.695, 600, false, false, 0},
	{[]string{"a40"}, 8, 6, 84, 1.74, 696, false, false, 0},
	{[]string{"a2"}, 8, 6, 10, 1.77, 200, false, false, 0},
	{[]string{"rtx a6000"}, 8, 6, 84, 1.8, 768, false, false, 0},
	{[]string{"rtx a5000"}, 8, 6, 64, 1.695, 768, false, false, 0},
	{[]string{"rtx a4000"}, 8, 6, 48, 1.56, 448, false, false, 0},
	{[]string{"l40s"}, 8, 9, 142, 2.52, 864, false, false, 0},
	{[]string{"l40"}, 8, 9, 142, 2.49, 864, false, false, 0},
	{[]string{"l4"}, 8, 9, 58, 2.04, 300, false, false, 0},
	{[]string{"rtx 6000 ada"}, 8, 9, 142, 2.505, 960, false, false, 0},
	{[]string{"t4"}, 7, 5, 40, 1.59, 320, false, false, 0},
	{[]string{"v100", "pcie"}, 7, 0, 80, 1.38, 900, false, false, 0},
	{[]string{"v100"}, 7, 0, 80, 1.53, 900, false, false, 0},
	{[]string{"titan rtx"}, 7, 5, 72, 1.77, 672, false, false, 0},
	{[]string{"rtx 4090"}, 8, 9, 128, 2.52, 1008, true, false, 0},
	{[]string{"rtx 4080"}, 8, 9, 76, 2.505, 717, true, false, 0},
	{[]string{"rtx 4070 ti"}, 8, 9, 60, 2.61, 504, true, false, 0},
	{[]string{"rtx 4070"}, 8, 9, 46, 2.475, 504, true, false, 0},
	{[]string{"rtx 4060 ti"}, 8, 9, 34, 2.535, 288, true, false, 0},
	{[]string{"rtx 4060"}, 8, 9, 24, 2.46, 272, true, false, 0},
	{[]string{"rtx 3090 ti"}, 8, 6, 84, 1.86, 1008, true, false, 0},
	{[]string{"rtx 3090"}, 8, 6, 82, 1.695, 936, true, false, 0},
	{[]string{"rtx 3080 ti"}, 8, 6, 80, 1.665, 912, true, false, 0},
	{[]string{"rtx 3080", "laptop"}, 8, 6, 48, 1.245, 448, true, false, 0},
	{[]string{"rtx 3080"}, 8, 6, 68, 1.71, 760, true, false, 0},
	{[]string{"rtx 3070", "laptop"}, 8, 6, 40, 1.29, 448, true, false, 0},
	{[]string{"rtx 3070"}, 8, 6, 46, 1.725, 448, true, false, 0},
	{[]string{"rtx 3060", "laptop"}, 8, 6, 30, 1.425, 336, true, false, 0},
	{[]string{"rtx 3060 ti"}, 8, 6, 38, 1.665, 448, true, false, 0},
	{[]string{"rtx 3060"}, 8, 6, 28, 1.777, 360, true, false, 0},
	{[]string{"rtx 2080 ti"}, 7, 5, 68, 1.545, 616, false, false, 0},
	{[]string{"rtx 2080"}, 7, 5, 46, 1.71, 448, false, false, 0},
	{[]string{"rtx 2070"}, 7, 5, 36, 1.62, 448, false, false, 0},
	{[]string{"rtx 2060"}, 7, 5, 30, 1.68, 336, false, false, 0},
	{[]string{"gtx 1660 ti"}, 7, 5, 24, 1.77, 288, false, true, 0},
	{[]string{"gtx 1660"}, 7, 5, 22, 1.785, 192, false, true, 0},
	{[]string{"gtx 1650"}, 7, 5, 14, 1.665, 128, false, true, 0},
	{[]string{"titan v"}, 7, 0, 80, 1.455, 653, false, false, 0},
	{[]string{"titan xp"}, 6, 1, 30, 1.582, 547.7, false, false, 0},
	{[]string{"gtx 1080 ti"}, 6, 1, 28, 1.582, 484, false, false, 0},
	{[]string{"gtx 1080"}, 6, 1, 20, 1.733, 320, false, false, 0},
	{[]string{"gtx 1070"}, 6, 1, 15, 1.683, 256, false, false, 0},
	{[]string{"gtx 1060"}, 6, 1, 10, 1.708, 192, false, false, 0},
	{[]string{"p100"}, 6, 0, 56, 1.48, 732, false, false, 0},
	{[]string{"p40"}, 6, 1, 30, 1.531, 347, false, false, 0},
	{[]string{"p4"}, 6, 1, 20, 1.114, 192, false, false, 0},
	{[]string{"agx orin"}, 8, 7, 16, 1.3, 204.8, false, false, 2},
	{[]string{"orin nx"}, 8, 7, 8, 0.918, 102.4, false, false, 1},
	{[]string{"orin nano"}, 8, 7, 8, 0.625, 68, false, false, 0},
	{[]string{"orin"}, 8, 7, 16, 1.3, 204.8, false, false, 2},
	{[]string{"xavier nx"}, 7, 2, 6, 1.1, 59.7, false, false, 2},
	{[]string{"xavier"}, 7, 2, 8, 1.377, 136.5, false, false, 2},
	{[]string{"tx2"}, 6, 2, 2, 1.3, 59.7, false, false, 0},
	{[]string{"jetson", "nano"}, 5, 3, 1, 0.921, 25.6, false, false, 0},
}

// lookup finds the table row for a device name (nil when none fits). A
// compute capability that disagrees with the row rejects it.
func lookup(name string, ccMaj, ccMin int) *product {
	lower := strings.ToLower(name)
	for i := range products {
		p := &products[i]
		ok := true
		for _, w := range p.match {
			if !containsWord(lower, w) {
				ok = false
				break
			}
		}
		if ok && (ccMaj < 0 || ccMaj == p.ccMaj && ccMin == p.ccMin) {
			return p
		}
	}
	return nil
}

// containsWord reports whether w occurs in s not glued to letters or
// digits on either side ("a10" is not in "a100", "l4" not in "l40").
func containsWord(s, w string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(w)
		if (i == 0 || !isAlnum(s[i-1])) && (j == len(s) || !isAlnum(s[j])) {
			return true
		}
		from = i + 1
	}
}

func isAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// Derive computes the facts of d: measured fields first, the table for
// what they lack. A device with nothing known gives ok == false.
func Derive(d Device) (Facts, bool) {
	f := Facts{Name: d.Name, CCMajor: d.CCMajor, CCMinor: d.CCMinor, SMs: d.SMs, ClockGHz: d.ClockGHz}
	if d.Name == "" && d.CCMajor < 0 && d.SMs == 0 {
		return f, false
	}
	p := lookup(d.Name, d.CCMajor, d.CCMinor)
	if f.CCMajor < 0 && p != nil {
		f.CCMajor, f.CCMinor = p.ccMaj, p.ccMin
		f.Notes = append(f.Notes, fmt.Sprintf("compute capability %d.%d from the table of common GPUs", p.ccMaj, p.ccMin))
	}
	if d.BusWidthBits > 0 && d.MemClockGHz > 0 {
		// CUDA reports the memory clock such that DDR transfers twice per clock.
		bw := round3(2 * d.MemClockGHz * float64(d.BusWidthBits) / 8)
		f.MemoryBandwidthGBs = &bw
		f.BandwidthBasis = "bus_width_x_memory_clock"
		f.Notes = append(f.Notes, fmt.Sprintf("memory bandwidth %.4g GB/s = 2 × %.4g GHz × %d bit / 8", bw, d.MemClockGHz, d.BusWidthBits))
	} else if p != nil {
		bw := p.bandwidth
		f.MemoryBandwidthGBs = &bw
		f.BandwidthBasis = "table"
		f.Notes = append(f.Notes, fmt.Sprintf("memory bandwidth %.4g GB/s from the table of common GPUs", bw))
	}
	sms, clock, basis := d.SMs, d.ClockGHz, "sm_count_x_clock"
	if (sms == 0 || clock == 0) && p != nil {
		sms, clock, basis = p.sms, p.boostGHz, "table"
		f.SMs, f.ClockGHz = sms, clock
	}
	noTC := p != nil && p.noTC
	if f.CCMajor >= 0 {
		f.TensorCores = TensorCorePrecisions(f.CCMajor, f.CCMinor, noTC)
	}
	f.Class = classOf(d.Name, f.CCMajor, f.CCMinor)
	if p != nil {
		f.DLACores = p.dla
	}
	r, known := rates[[2]int{f.CCMajor, f.CCMinor}]
	if noTC {
		r = noTCRates
	}
	if !known || sms == 0 || clock == 0 {
		if f.CCMajor >= 0 && !known {
			f.Notes = append(f.Notes, fmt.Sprintf("no per-SM rates for compute capability %d.%d: peak throughput unknown", f.CCMajor, f.CCMinor))
		}
		return f, true
	}
	geforce := strings.Contains(strings.ToLower(d.Name), "geforce") || p != nil && p.geforceTF32
	peak := func(rate float64) *float64 {
		if rate == 0 {
			return nil
		}
		v := round3(float64(sms) * clock * rate / 1000)
		return &v
	}
	tf32 := r.tf32
	if geforce && (f.CCMajor == 8 && f.CCMinor != 0 && f.CCMinor != 7) {
		tf32 /= 2
	}
	bf16 := 0.0
	if f.CCMajor >= 8 {
		bf16 = r.fp16
	}
	f.Peaks = Peaks{FP32: peak(r.fp32), TF32: peak(tf32), FP16: peak(r.fp16), BF16: peak(bf16), INT8: peak(r.int8), FP8: peak(r.fp8)}
	f.PeakBasis = basis
	f.Notes = append(f.Notes, fmt.Sprintf("dense peaks = %d SMs × %.4g GHz × per-SM rate of compute capability %d.%d", sms, clock, f.CCMajor, f.CCMinor))
	return f, true
}

// classOf is a device's class from its name and compute capability:
// Jetson modules (compute capability 5.3, 6.2, 7.2, 8.7 or a Jetson name),
// consumer GeForce/TITAN cards, workstation RTX/Quadro cards, else data
// centre.
func classOf(name string, ccMaj, ccMin int) string {
	low := strings.ToLower(name)
	switch {
	case ccMaj == 5 && ccMin == 3, ccMaj == 6 && ccMin == 2, ccMaj == 7 && ccMin == 2, ccMaj == 8 && ccMin == 7,
		strings.Contains(low, "jetson"), strings.Contains(low, "orin"), strings.Contains(low, "xavier"):
		return ClassJetson
	case strings.Contains(low, "geforce"), strings.Contains(low, "gtx"), strings.Contains(low, "titan"),
		containsWord(low, "rtx") && !strings.Contains(low, "rtx a") && !strings.Contains(low, "ada"):
		return ClassConsumer
	case strings.Contains(low, "quadro"), strings.Contains(low, "rtx a"), strings.Contains(low, "rtx 6000"):
		return ClassWorkstation
	}
	return ClassDataCentre
}

// DefaultFor is the stated default device when a backend names no GPU but
// its kernels are built for compute capability ccMajor.ccMinor (a lower
// bound: sm80 kernels also run on 8.6, 8.7 and 8.9 GPUs): of the table's
// products of that architecture generation (same major version, minor at
// least ccMinor), the one whose memory bandwidth is the median (the middle
// of what users run, not the largest part). ok is false when the table has
// no such product.
func DefaultFor(ccMajor, ccMinor int) (Facts, bool) {
	var rows []*product
	for i := range products {
		p := &products[i]
		if p.ccMaj == ccMajor && p.ccMin >= ccMinor && !p.noTC {
			rows = append(rows, p)
		}
	}
	if len(rows) == 0 {
		return Facts{}, false
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].bandwidth < rows[j].bandwidth })
	p := rows[(len(rows)-1)/2]
	return Derive(Device{Name: productName(p), CCMajor: p.ccMaj, CCMinor: p.ccMin})
}

// ErrUnknown marks a GPU name the table of common GPUs does not hold.
var ErrUnknown = errors.New("not a GPU of the table of common GPUs")

// Named is the facts of the GPU name names, from the table of common GPUs
// (matched as device names in files are: every word of a row, most
// specific row first, so "RTX 3060 Laptop" is not the desktop RTX 3060).
// An unknown name gives an error wrapping ErrUnknown that lists the
// names the table knows.
func Named(name string) (Facts, error) {
	if lookup(name, -1, 0) == nil {
		return Facts{}, fmt.Errorf("%q is %w; known: %s", name, ErrUnknown, strings.Join(Names(), ", "))
	}
	f, _ := Derive(Device{Name: name, CCMajor: -1})
	return f, nil
}

// Names lists the table's GPUs, one name per row, in table order.
func Names() []string {
	out := make([]string, len(products))
	for i := range products {
		out[i] = strings.Join(products[i].match, " ")
	}
	return out
}

// productName spells a table row as a device name ("rtx 3070" →
// "NVIDIA RTX 3070").
func productName(p *product) string {
	return "NVIDIA " + strings.ToUpper(strings.Join(p.match, " "))
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// Attainable is the roofline bound of a kernel of arithmetic intensity
// intensity (FLOP per byte) on a device of dense peak peakTFLOPS (TFLOP/s)
// and memory bandwidth bandwidthGBs (GB/s): min(peak, intensity ×
// bandwidth), in TFLOP/s. computeBound is true at or right of the ridge
// point (intensity × bandwidth ≥ peak).
func Attainable(peakTFLOPS, bandwidthGBs, intensity float64) (tflops float64, computeBound bool) {
	roof := intensity * bandwidthGBs / 1000 // GFLOP/s → TFLOP/s
	if roof >= peakTFLOPS {
		return peakTFLOPS, true
	}
	return roof, false
}
