package mdcheck

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

func FuzzCheck(f *testing.F) {
	f.Add([]byte(okDoc))
	f.Add([]byte("Summary\n===\n`a``b` 1.5 ms total\n\n    code\n## Details\n```\n`x`\n"))
	f.Add([]byte("## Summary\n`MaxPool_12` 8.7% 95µs\n## Details\n\\`` `QuantizeLinear_2` 13.0%\n"))
	d := fixture()
	f.Fuzz(func(t *testing.T, md []byte) {
		lines := bytes.Count(md, []byte("\n")) + 1
		for _, p := range Check(md, d) {
			if p.Line < 0 || p.Line > lines || p.Message == "" {
				t.Fatalf("bad problem %+v for %d lines", p, lines)
			}
		}
	})
}

// BenchmarkCheck measures a typical analyze.md against an LLM-sized
// analysis (100k layers): the index build dominates.
func BenchmarkCheck(b *testing.B) {
	const n = 100_000
	be := contract.Backend{Label: "fp16", Timing: &contract.Timing{TotalMs: 50, AverageInferenceMs: 50}}
	for i := range n {
		name := fmt.Sprintf("/model/layers.%d/attn/MatMul + /model/layers.%d/attn/Add", i, i)
		be.Layers = append(be.Layers, contract.Layer{Name: name, Inputs: []contract.Tensor{{Name: fmt.Sprint("t", i)}}, Outputs: []contract.Tensor{{Name: fmt.Sprint("t", i+1)}}})
		be.Records = append(be.Records, contract.Record{Name: name, AvgMs: 0.0005, TimeMs: 0.0005, Percentage: 0.001})
	}
	d := &contract.AnalyzeData{Results: []contract.Backend{be}}
	var md bytes.Buffer
	md.WriteString("# x\n\n## Summary\n\nTotal inference time is 50 ms.\n\n## Details\n\n")
	for i := range 200 {
		fmt.Fprintf(&md, "- `/model/layers.%d/attn/MatMul + /model/layers.%d/attn/Add` takes 0.001%% (0.0005 ms).\n", i, i)
	}
	b.ReportAllocs()
	for b.Loop() {
		if ps := Check(md.Bytes(), d); len(ps) != 0 {
			b.Fatal(ps)
		}
	}
}
