package findings_test

import (
	"fmt"
	"testing"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/findings"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/load"
)

// benchBackend generates an engine, analyses it as `trtperf analyze` does
// and returns its backend (setup, not timed).
func benchBackend(b *testing.B, shape string, layers int) *contract.Backend {
	b.Helper()
	dir := b.TempDir()
	if _, _, err := gen.WriteFolder(dir, "fp16", gen.Options{Shape: shape, Layers: layers, Seed: 1}); err != nil {
		b.Fatalf("generate %s: %v", shape, err)
	}
	sc, err := discover.Folder(dir)
	if err != nil {
		b.Fatalf("discover %s: %v", dir, err)
	}
	d, err := analysis.AnalyzeParsed(sc, load.Source(sc), analysis.Options{})
	if err != nil {
		b.Fatalf("analyze %s: %v", dir, err)
	}
	if len(d.Results) != 1 || d.Results[0].Validation.Status != contract.StatusPassed {
		b.Fatalf("%s: want one passed backend, got %+v", dir, d.Validation)
	}
	return &d.Results[0]
}

// benchSizes: a 200k-layer LLM is the scale target (issue 6); -short keeps
// CI runs small.
func benchSizes() []int {
	if testing.Short() {
		return []int{2000}
	}
	return []int{200000}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, shape := range []string{"llm", "cnn"} {
		for _, n := range benchSizes() {
			b.Run(fmt.Sprintf("%s-%d", shape, n), func(b *testing.B) {
				be := benchBackend(b, shape, n)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					findings.Evaluate(be)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/layer")
			})
		}
	}
}

func BenchmarkCategory(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("llm-%d", n), func(b *testing.B) {
			be := benchBackend(b, "llm", n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				findings.Category(be)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/layer")
		})
	}
}
