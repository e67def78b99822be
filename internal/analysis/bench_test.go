package analysis

import (
	"fmt"
	"testing"

	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/load"
)

// BenchmarkAnalyze measures the whole analysis (read, gate, graph, facts,
// records, findings) of generated LLM engines; JSON writing is measured in
// internal/contract and the command end to end by scripts/bench.sh.
func BenchmarkAnalyze(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		b.Run(fmt.Sprintf("llm-%d", n), func(b *testing.B) {
			dir := b.TempDir()
			lp, _, err := gen.WriteFolder(dir, "fp16", gen.Options{Shape: "llm", Layers: n, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			sc, err := discover.Folder(dir)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(fileSize(b, lp))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				d, err := AnalyzeParsed(sc, load.Source(sc), Options{})
				if err != nil || d.Results[0].Validation.Status != "passed" {
					b.Fatalf("analyze: %v", err)
				}
			}
		})
	}
}
