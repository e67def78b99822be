package engine

import "fmt"

// Physical bounds of the device facts a source reports: a value outside
// is a broken or hostile source (an SM count of 1e30 overflows the peaks,
// a clock of 1e-300 makes every roofline percentage infinite), so it is
// dropped with a note, never used. The bounds are generous: they hold
// every GPU made and any this decade is likely to bring.
var deviceBounds = struct {
	ccMajorMin, ccMajorMax int
	smsMin, smsMax         int
	clockMin, clockMax     float64 // GHz, compute and memory clock
	busMin, busMax         int     // bits
	memMiBMin, memMiBMax   float64
}{
	ccMajorMin: 1, ccMajorMax: 99,
	smsMin: 1, smsMax: 4096,
	clockMin: 0.01, clockMax: 20,
	busMin: 8, busMax: 65536,
	memMiBMin: 1, memMiBMax: 1 << 30, // 1 PiB
}

// DropImplausible clears each fact of d outside its physical bounds
// (unknown instead of wrong: CCMajor -1, zero otherwise) and records a
// note per fact dropped in d.Notes. A zero (unknown) fact is left alone.
func (d *Device) DropImplausible() {
	if d == nil {
		return
	}
	b := deviceBounds
	drop := func(what, value, bounds string) {
		d.Notes = append(d.Notes, fmt.Sprintf("the reported %s %s is outside the physical range %s; it is ignored", what, value, bounds))
	}
	if d.CCMajor >= 0 && (d.CCMajor < b.ccMajorMin || d.CCMajor > b.ccMajorMax || d.CCMinor < 0 || d.CCMinor > 9) {
		drop("compute capability", fmt.Sprintf("%d.%d", d.CCMajor, d.CCMinor), fmt.Sprintf("%d.0-%d.9", b.ccMajorMin, b.ccMajorMax))
		d.CCMajor, d.CCMinor = -1, 0
	}
	if d.SMs != 0 && (d.SMs < b.smsMin || d.SMs > b.smsMax) {
		drop("SM count", fmt.Sprint(d.SMs), fmt.Sprintf("%d-%d", b.smsMin, b.smsMax))
		d.SMs = 0
	}
	if d.ClockGHz != 0 && !(d.ClockGHz >= b.clockMin && d.ClockGHz <= b.clockMax) {
		drop("compute clock", fmt.Sprintf("%.4g GHz", d.ClockGHz), fmt.Sprintf("%g-%g GHz", b.clockMin, b.clockMax))
		d.ClockGHz = 0
	}
	if d.MemClockGHz != 0 && !(d.MemClockGHz >= b.clockMin && d.MemClockGHz <= b.clockMax) {
		drop("memory clock", fmt.Sprintf("%.4g GHz", d.MemClockGHz), fmt.Sprintf("%g-%g GHz", b.clockMin, b.clockMax))
		d.MemClockGHz = 0
	}
	if d.BusWidthBits != 0 && (d.BusWidthBits < b.busMin || d.BusWidthBits > b.busMax) {
		drop("memory bus width", fmt.Sprintf("%d bits", d.BusWidthBits), fmt.Sprintf("%d-%d bits", b.busMin, b.busMax))
		d.BusWidthBits = 0
	}
	if d.MemoryMiB != 0 && !(d.MemoryMiB >= b.memMiBMin && d.MemoryMiB <= b.memMiBMax) {
		drop("device memory", fmt.Sprintf("%.4g MiB", d.MemoryMiB), fmt.Sprintf("%g-%g MiB", b.memMiBMin, b.memMiBMax))
		d.MemoryMiB = 0
	}
}
