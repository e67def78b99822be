package analysis

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/load"
)

// maxAllocPerInputByte bounds what Analyze allocates in total per byte of
// input (layer info + profile). It is the ceiling behind the memory figure in
// README's performance note: peak RSS stays under this multiple plus the Go
// runtime's baseline. Names-only dumps are the hard case: a layer costs the
// same in memory whatever its size in the file, and their files are small.
const maxAllocPerInputByte = dump.MemoryPerInputByte

// TestAllocationProportionalToInput fails when analysis starts allocating
// more than maxAllocPerInputByte per input byte on detailed or names-only
// dumps (a names-only list once grew its slice by appends: 13× the input).
func TestAllocationProportionalToInput(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	for _, c := range []struct {
		name string
		opt  gen.Options
	}{
		{"detailed", gen.Options{Shape: "llm", Layers: 5000, Seed: 1}},
		{"names-only", gen.Options{Shape: "llm", Layers: 5000, Seed: 1, NamesOnly: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ratio := allocPerInputByte(t, c.opt)
			t.Logf("%.2f bytes allocated per input byte", ratio)
			if ratio > maxAllocPerInputByte {
				t.Errorf("analysis allocated %.1f bytes per input byte, over the ceiling of %d (dump.MemoryPerInputByte)", ratio, maxAllocPerInputByte)
			}
		})
	}
}

// allocPerInputByte analyses a generated folder once and returns the bytes
// allocated per byte of its dump files.
func allocPerInputByte(tb testing.TB, o gen.Options) float64 {
	tb.Helper()
	dir := tb.TempDir()
	lp, pp, err := gen.WriteFolder(dir, "fp16", o)
	if err != nil {
		tb.Fatal(err)
	}
	sc, err := discover.Folder(dir)
	if err != nil {
		tb.Fatal(err)
	}
	input := fileSize(tb, lp) + fileSize(tb, pp)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d, err := AnalyzeParsed(sc, load.Source(sc), Options{})
	runtime.ReadMemStats(&after)
	if err != nil || len(d.Results) != 1 {
		tb.Fatalf("analyze: %v", err)
	}
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(input)
}

// BenchmarkAnalyzeNamesOnly measures names-only dumps, whose memory per input
// byte is the highest of any input (see maxAllocPerInputByte).
func BenchmarkAnalyzeNamesOnly(b *testing.B) {
	for _, n := range []int{50_000} {
		b.Run(fmt.Sprintf("llm-%d", n), func(b *testing.B) {
			o := gen.Options{Shape: "llm", Layers: n, Seed: 1, NamesOnly: true}
			dir := b.TempDir()
			lp, pp, err := gen.WriteFolder(dir, "fp16", o)
			if err != nil {
				b.Fatal(err)
			}
			sc, err := discover.Folder(dir)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(fileSize(b, lp) + fileSize(b, pp))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := AnalyzeParsed(sc, load.Source(sc), Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			// After the loop: ResetTimer deletes metrics reported earlier.
			b.ReportMetric(allocPerInputByte(b, o), "alloc-bytes/input-byte")
		})
	}
}
