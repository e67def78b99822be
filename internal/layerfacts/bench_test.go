package layerfacts

import (
	"bytes"
	"testing"

	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/gen"
)

// genLayers generates and parses an engine of n layers of a shape, as the
// analysis sees it.
func genLayers(b *testing.B, shape string, n int) []engine.Layer {
	b.Helper()
	var buf bytes.Buffer
	if err := gen.Generate(gen.Options{Shape: shape, Layers: n, Seed: 1}, &buf, nil); err != nil {
		b.Fatalf("generate %s: %v", shape, err)
	}
	li, err := dump.ParseLayerInfo(buf.Bytes())
	if err != nil {
		b.Fatalf("parse %s: %v", shape, err)
	}
	return li.Layers
}

// BenchmarkDeriveEngine derives every layer of generated engines (one op is
// one layer; the LLM shape is what 200k-layer dumps look like).
func BenchmarkDeriveEngine(b *testing.B) {
	for _, shape := range []string{"llm", "cnn"} {
		b.Run(shape, func(b *testing.B) {
			n := 20000
			if testing.Short() {
				n = 2000
			}
			layers := genLayers(b, shape, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				_ = Derive(&layers[i%len(layers)])
			}
		})
		// As the analysis derives a whole engine: one Deriver per goroutine.
		b.Run(shape+"-deriver", func(b *testing.B) {
			n := 20000
			if testing.Short() {
				n = 2000
			}
			layers := genLayers(b, shape, n)
			d := NewDeriver()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				_ = d.Derive(&layers[i%len(layers)])
			}
		})
	}
}
