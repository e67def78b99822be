package analysis

import (
	"flag"
	"fmt"
	"runtime"
	"testing"

	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/inputs"
	"github.com/trtperf/trtperf/internal/load"
)

var parsedLayers = flag.Int("parsed-layers", 50_000, "layers of the generated LLM engine BenchmarkAnalyzeParsed analyses (issue 12 measures 200000)")

// BenchmarkAnalyzeParsed measures the analysis alone: the dumps are read
// and parsed once, outside the loop, so what is timed is AnalyzeParsed
// (gate, graph, facts, records, memory, findings, model). Besides time it
// reports CPU seconds (all goroutines and the GC) and MB allocated per run:
// fresh memory costs page clearing, so allocation is part of the price.
func BenchmarkAnalyzeParsed(b *testing.B) {
	n := *parsedLayers
	b.Run(fmt.Sprintf("llm-%d", n), func(b *testing.B) {
		dir := b.TempDir()
		if _, _, err := gen.WriteFolder(dir, "fp16", gen.Options{Shape: "llm", Layers: n, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		sc, err := discover.Folder(dir)
		if err != nil {
			b.Fatal(err)
		}
		files := load.Source(sc)
		parsed := make([]inputs.Backend, len(sc.Backends))
		for i := range parsed {
			parsed[i] = files.Backend(i)
		}
		src := inputs.InMemory(files.Configs, parsed...)
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		cpu0, ok0 := cpuSeconds()
		b.ResetTimer()
		for b.Loop() {
			d, err := AnalyzeParsed(sc, src, Options{})
			if err != nil || d.Results[0].Validation.Status != "passed" {
				b.Fatalf("analyze: %v", err)
			}
		}
		b.StopTimer()
		cpu1, ok1 := cpuSeconds()
		runtime.ReadMemStats(&ms1)
		ops := float64(b.N)
		b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/1e6/ops, "MB-alloc/op")
		b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/ops, "mallocs/op")
		if ok0 && ok1 {
			b.ReportMetric((cpu1-cpu0)/ops, "cpu-s/op")
		}
	})
}
