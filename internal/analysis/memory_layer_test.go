package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/load"
)

// shortNamesFolder writes a names-only dump of n layers with the shortest
// names ("a0", "a1", ...) and, with profile, a profile of them: the input
// with the fewest bytes per layer, so the most memory per input byte
// (issue 24: 56-163 times the file size).
func shortNamesFolder(tb testing.TB, n int, profile bool) (dir string, input int64) {
	tb.Helper()
	dir = tb.TempDir()
	var l, p strings.Builder
	l.WriteString(`{"Layers":[`)
	p.WriteString(`[{"count":10}`)
	for i := range n {
		if i > 0 {
			l.WriteByte(',')
		}
		fmt.Fprintf(&l, `"a%d"`, i)
		fmt.Fprintf(&p, `,{"name":"a%d","timeMs":1,"averageMs":0.1,"percentage":%g}`, i, 100/float64(n))
	}
	l.WriteString(`],"Bindings":[]}`)
	p.WriteString(`]`)
	os.WriteFile(filepath.Join(dir, "layers_x.json"), []byte(l.String()), 0o644)
	input = int64(l.Len())
	if profile {
		os.WriteFile(filepath.Join(dir, "profile_x.json"), []byte(p.String()), 0o644)
		input += int64(p.Len())
	}
	return dir, input
}

// TestAllocationPerLayer: memory is bounded per input byte AND per layer:
// a names-only dump of short names (a few bytes per layer) allocates at
// most dump.MemoryPerInputByte per input byte plus dump.MemoryPerLayer per
// layer, and dump.MaxLayers bounds the layers.
func TestAllocationPerLayer(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	for _, profile := range []bool{false, true} {
		const n = 50_000
		dir, input := shortNamesFolder(t, n, profile)
		sc, err := discover.Folder(dir)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		d, err := AnalyzeParsed(sc, load.Source(sc), Options{})
		runtime.ReadMemStats(&after)
		if err != nil || len(d.Results) != 1 {
			t.Fatalf("analyze: %v", err)
		}
		alloc := float64(after.TotalAlloc - before.TotalAlloc)
		ceiling := float64(dump.MemoryPerInputByte*input + dump.MemoryPerLayer*n)
		t.Logf("profile %v: %.0f bytes per input byte, %.0f bytes per layer (input %d bytes)", profile, alloc/float64(input), alloc/n, input)
		if alloc > ceiling {
			t.Errorf("profile %v: allocated %.0f bytes, over %d per input byte + %d per layer = %.0f", profile, alloc, dump.MemoryPerInputByte, dump.MemoryPerLayer, ceiling)
		}
	}
}
