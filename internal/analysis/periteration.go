package analysis

import (
	"slices"

	"github.com/trtperf/trtperf/internal/contract"
)

// perIteration is the series the report plots from --exportTimes records:
// GPU compute time when every record has it, else latency. Runs longer
// than contract.MaxPerIterationPoints are cut into consecutive buckets of
// iterations, each kept as its minimum and its maximum in run order, so
// spikes and the band of the run survive and the same file always gives
// the same points.
func perIteration(source string, latency, compute []float64) *contract.PerIteration {
	v, of := latency, "latency"
	if len(compute) > 0 && len(compute) == len(latency) {
		v, of = compute, "gpu_compute"
	}
	n := len(v)
	if n == 0 {
		return nil
	}
	sorted := slices.Clone(v)
	slices.Sort(sorted)
	s := &contract.PerIteration{Of: of, Source: source, Iterations: n, MedianMs: quantile(sorted, 0.5), P99Ms: quantile(sorted, 0.99)}
	if n <= contract.MaxPerIterationPoints {
		s.Index = make([]int, n)
		for i := range s.Index {
			s.Index[i] = i
		}
		s.Ms = append([]float64(nil), v...)
		return s
	}
	s.Downsampled = true
	buckets := contract.MaxPerIterationPoints / 2
	s.Index = make([]int, 0, contract.MaxPerIterationPoints)
	s.Ms = make([]float64, 0, contract.MaxPerIterationPoints)
	for k := range buckets {
		lo, hi := k*n/buckets, (k+1)*n/buckets
		mi, ma := lo, lo
		for i := lo + 1; i < hi; i++ {
			if v[i] < v[mi] {
				mi = i
			}
			if v[i] > v[ma] {
				ma = i
			}
		}
		switch {
		case mi == ma:
			s.Index = append(s.Index, mi)
		case mi < ma:
			s.Index = append(s.Index, mi, ma)
		default:
			s.Index = append(s.Index, ma, mi)
		}
	}
	for _, i := range s.Index {
		s.Ms = append(s.Ms, v[i])
	}
	return s
}
