package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/speed"
)

var packageLayers = flag.Int("package-layers", 50_000, "layers of the generated LLM engine BenchmarkPackage packages (issue 12's target is for 200000)")

// BenchmarkPackage runs `trtperf package DIR --report-dir R` in-process on
// a generated LLM engine (-package-layers, default 50k; issue 12 targets
// 200k layers ≤ 3 s and ≤ 1.2 GB). Besides time it reports the bytes
// allocated, the user+sys CPU and the minor page faults per run: on a
// shared machine CPU and faults are steadier than wall time, and fresh
// memory is what the faults cost.
func BenchmarkPackage(b *testing.B) {
	n := *packageLayers
	b.Run(fmt.Sprintf("llm-%d", n), func(b *testing.B) {
		dir := b.TempDir()
		if _, _, err := gen.WriteFolder(filepath.Join(dir, "dumps"), "fp16", gen.Options{Shape: "llm", Layers: n, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		u0, p0 := usage(), speed.Primed()
		i := 0
		for b.Loop() {
			out := filepath.Join(dir, fmt.Sprint("report", i))
			i++
			var stdout, stderr bytes.Buffer
			if code := Main([]string{"package", filepath.Join(dir, "dumps"), "--report-dir", out}, &stdout, &stderr); code != 0 {
				b.Fatalf("package exit %d: %s", code, stderr.String())
			}
			b.StopTimer()
			os.RemoveAll(out)
			b.StartTimer()
		}
		u1, p1 := usage(), speed.Primed()
		runtime.ReadMemStats(&ms1)
		ops := float64(b.N)
		// The primed heap (speed.PrepareForDumps) is allocated but never
		// touched: reported apart.
		b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc-uint64(p1-p0))/1e6/ops, "MB-alloc/op")
		b.ReportMetric(float64(p1-p0)/1e6/ops, "MB-primed/op")
		if u0.ok && u1.ok {
			b.ReportMetric((u1.cpu-u0.cpu)/ops, "cpu-s/op")
			b.ReportMetric(float64(u1.faults-u0.faults)/ops, "faults/op")
		}
	})
}
