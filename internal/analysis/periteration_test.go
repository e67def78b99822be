package analysis

import (
	"math"
	"slices"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

func TestPerIteration(t *testing.T) {
	long := make([]float64, 10_000)
	for i := range long {
		long[i] = 1 + float64(i%7)/100
	}
	long[4321] = 9 // a spike must survive downsampling
	long[777] = 0.5
	tests := []struct {
		name             string
		latency, compute []float64
		of               string
		points           int
		downsampled      bool
	}{
		{"compute preferred", []float64{2, 3, 4}, []float64{1, 2, 3}, "gpu_compute", 3, false},
		{"partial compute column falls back to latency", []float64{2, 3, 4}, []float64{1}, "latency", 3, false},
		{"exactly the limit is kept whole", make([]float64, contract.MaxPerIterationPoints), nil, "latency", contract.MaxPerIterationPoints, false},
		{"long run is bucketed", long, nil, "latency", 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := perIteration("times_x.json", tc.latency, tc.compute)
			if s.Of != tc.of || s.Downsampled != tc.downsampled || s.Source != "times_x.json" {
				t.Fatalf("of %q downsampled %v source %q, want %q %v", s.Of, s.Downsampled, s.Source, tc.of, tc.downsampled)
			}
			if len(s.Ms) != len(s.Index) || len(s.Ms) > contract.MaxPerIterationPoints {
				t.Fatalf("%d ms for %d indices (max %d)", len(s.Ms), len(s.Index), contract.MaxPerIterationPoints)
			}
			if tc.points > 0 && len(s.Ms) != tc.points {
				t.Fatalf("%d points, want %d", len(s.Ms), tc.points)
			}
			src := tc.latency
			if tc.of == "gpu_compute" {
				src = tc.compute
			}
			if s.Iterations != len(src) {
				t.Fatalf("iterations %d, want %d", s.Iterations, len(src))
			}
			for i, x := range s.Index {
				if i > 0 && x <= s.Index[i-1] {
					t.Fatalf("index not increasing at %d: %v", i, s.Index[max(0, i-2):i+1])
				}
				if s.Ms[i] != src[x] {
					t.Fatalf("point %d is %v, sample %d is %v", i, s.Ms[i], x, src[x])
				}
			}
			sorted := slices.Sorted(slices.Values(src))
			if s.MedianMs != sorted[(len(sorted)+1)/2-1] || s.P99Ms != sorted[int(math.Ceil(0.99*float64(len(sorted))))-1] {
				t.Fatalf("median %v p99 %v of %d sorted samples", s.MedianMs, s.P99Ms, len(sorted))
			}
			if tc.downsampled {
				if slices.Max(s.Ms) != slices.Max(src) || slices.Min(s.Ms) != slices.Min(src) {
					t.Fatalf("extremes lost: %v..%v of %v..%v", slices.Min(s.Ms), slices.Max(s.Ms), slices.Min(src), slices.Max(src))
				}
				again := perIteration("times_x.json", tc.latency, tc.compute)
				if !slices.Equal(again.Index, s.Index) {
					t.Fatal("downsampling is not deterministic")
				}
			}
		})
	}
	if perIteration("t", nil, nil) != nil {
		t.Fatal("no samples must give no series")
	}
}
