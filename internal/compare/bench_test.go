package compare_test

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/gen"
)

// BenchmarkPair compares two generated LLM engines of n layers whose node
// names were renumbered (as another ONNX export renumbers them), so
// nothing pairs by name and everything goes through source ops. Target:
// 200k vs 200k in ≤ 3 s.
func BenchmarkPair(b *testing.B) {
	for _, n := range []int{20_000, 200_000} {
		b.Run(fmt.Sprintf("llm-%d-renamed", n), func(b *testing.B) {
			dir := b.TempDir()
			if _, _, err := gen.WriteFolder(dir, "a", gen.Options{Shape: "llm", Layers: n, Seed: 3}); err != nil {
				b.Fatal(err)
			}
			a := &analyze(b, dir).Results[0]
			renamed := renumbered(a, 1_000_000)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p, err := compare.Pair(compare.Side{Name: "a", Backend: a}, compare.Side{Name: "b", Backend: renamed}, 0)
				if err != nil {
					b.Fatal(err)
				}
				if p.Alignment.ByName != 0 || p.Alignment.ComputeAlignedPct < 90 {
					b.Fatalf("alignment %+v: want nothing by name and ≥ 90 %% of compute layers aligned", p.Alignment)
				}
			}
		})
	}
}

var digits = regexp.MustCompile(`[0-9]+`)

// renumbered copies a backend with every number in its layer names moved
// by shift and a scope prefix added (so no name of one is a name of the
// other), and its times moved by 3 %. Metadata (the source ops) is kept:
// the same model, exported again.
func renumbered(a *contract.Backend, shift int) *contract.Backend {
	b := *a
	rename := func(s string) string {
		return "export2/" + digits.ReplaceAllStringFunc(s, func(d string) string {
			v, _ := strconv.Atoi(d)
			return strconv.Itoa(v + shift)
		})
	}
	b.Layers = append([]contract.Layer(nil), a.Layers...)
	for i := range b.Layers {
		b.Layers[i].Name = rename(b.Layers[i].Name)
	}
	b.Records = append([]contract.Record(nil), a.Records...)
	for i := range b.Records {
		b.Records[i].Name = rename(b.Records[i].Name)
		b.Records[i].AvgMs *= 1.03
	}
	t := *a.Timing
	t.AverageInferenceMs *= 1.03
	b.Timing = &t
	return &b
}
