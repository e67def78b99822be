// Package speed is trtperf's memory tuning for big runs, in one place so
// the feature packages read as the plain algorithm: the command driver
// (internal/cli) says what a run is about to do, and this package decides
// how the Go heap and the kernel are prepared for it.
//
//   - PrepareForDumps / PrepareForJSON: before reading n bytes of dumps or
//     of analyze-data.json, mark the heap the run will grow into for huge
//     pages (hugepage.go).
//   - ReportPhase: collect more often while the report is written.
//   - Buffer: a write buffer for encodings of hundreds of MB.
//
// Every function is safe to skip: without it the run is the same, slower.
package speed

import (
	"os"
	"runtime/debug"
	"sync/atomic"
)

// heapPerDumpByte bounds the peak heap of 'package' per byte of dumps:
// 1.27 GB for the 229 MB of a 200k-layer LLM engine while it held the dump
// and the encoding in the heap, about 0.7 GB since it maps both. Priming
// more than is used costs nothing (the space is never touched), so the
// bound stays generous.
const heapPerDumpByte = 6

// heapPerJSONByte is about the peak heap of reading and validating an
// analyze-data.json per byte of it (800 MB for the 275 MB of a 200k-layer
// engine).
const heapPerJSONByte = 3

// primed counts what the Prepare functions allocated (never touched).
var primed atomic.Int64

// PrepareForDumps readies the heap that analysing n bytes of dumps grows
// to for huge pages: the first touch of fresh memory, one page fault per
// 4 KiB, cost 2–3 s of the 200k-layer run on a virtual machine, more than
// any stage of the analysis.
func PrepareForDumps(n int64) { primed.Add(primeHeap(heapPerDumpByte * n)) }

// PrepareForJSON is PrepareForDumps for commands that read the
// analyze-data.json at path (validate, summary, compare, package
// --analyze-data): 197k first-touch faults were half of validate's time on
// the 200k-layer file. A path that is not a regular file prepares nothing
// (reading it reports the problem).
func PrepareForJSON(path string) {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		primed.Add(primeHeap(heapPerJSONByte * st.Size()))
	}
}

// Primed is the heap the Prepare functions reserved so far (allocated,
// never touched), which benchmarks leave out of the bytes allocated.
func Primed() int64 { return primed.Load() }

// HugePages reports whether this system gives advised memory huge pages
// (when not, the Prepare functions do nothing).
func HugePages() bool { return available() }

// reportGCPercent is the GOGC of the report phase (encode, validate, write
// the report), unless GOGC is set in the environment. That phase adds the
// encoded analysis and short-lived buffers on top of the analysis, which
// stays live to the end: collecting when the heap has grown by half
// rather than doubled keeps the peak lower for an extra collection or two
// of a heap that is mostly pointer-free bytes.
const reportGCPercent = 50

// ReportPhase sets the garbage collector for writing a report and returns
// the function that restores it.
func ReportPhase() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(reportGCPercent)
	return func() { debug.SetGCPercent(old) }
}
