package gen

import (
	"fmt"
	"io"
	"testing"
)

type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkGenerate measures the generator per engine size; MB/s is layer
// info + profile bytes written.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000, 200000} {
		for _, shape := range []string{"llm", "cnn"} {
			if shape == "cnn" && n > 10000 {
				continue
			}
			b.Run(fmt.Sprintf("%s/%d", shape, n), func(b *testing.B) {
				o := Options{Shape: shape, Layers: n, Seed: 1}
				var size int64
				for b.Loop() {
					var lw, pw countingWriter
					if err := Generate(o, &lw, &pw); err != nil {
						b.Fatal(err)
					}
					size = lw.n + pw.n
				}
				b.SetBytes(size)
			})
		}
	}
}

// BenchmarkGenerate200k is the bench script's largest input alone.
func BenchmarkGenerate200k(b *testing.B) {
	o := Options{Shape: "llm", Layers: 200000, Seed: 1}
	for b.Loop() {
		if err := Generate(o, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
