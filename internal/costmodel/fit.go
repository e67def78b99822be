package costmodel

import (
	"math"
	"slices"
)

// Calibrated are the constants Fit gives on the measured corpus (see the
// package comment; TestCostModelCalibration in internal/analysis refits
// them). Paths the corpus has no timed layer of take the value of their
// nearest kin, said per line.
var Calibrated = Params{
	FloorMs:     0.0103,
	MemEff:      0.844,
	ReformatEff: 0.764,
	Compute: map[Path]float64{
		PathTCFP16:   0.705,
		PathTCINT8:   0.727,
		PathTCTF32:   0.625,
		PathTCFP8:    0.727, // no FP8 engine in the corpus: the INT8 tensor-core value (same operand width)
		PathCUDAFP32: 0.752,
		PathCUDAFP16: 0.696,
		PathCUDAINT8: 0.505,
		PathUnknown:  0.197,
	},
}

// ErrorPct is the model's median absolute error, percent, on the predicted
// layer sums of the calibration corpus' backends (TestCostModelValidation
// measures it; model-priced findings span ± this).
const ErrorPct = 17.0

// Sample is one profiled layer: the model's view of it, the device it ran
// on and its measured per-layer average.
type Sample struct {
	Device *Device
	Layer  Layer
	Ms     float64
}

// Fit returns the parameters that minimise the time-weighted absolute log
// error Σ ms × |ln(predicted / ms)| over every sample at once, by
// coordinate descent over logarithmic grids (four passes from start). A
// path no sample runs on keeps start's value; so does any parameter whose
// grid does not lower the error.
func Fit(samples []Sample, start Params) Params {
	p := Params{FloorMs: start.FloorMs, MemEff: start.MemEff, ReformatEff: start.ReformatEff, Compute: map[Path]float64{}}
	for k, v := range start.Compute {
		p.Compute[k] = v
	}
	used := map[Path]bool{}
	for i := range samples {
		s := &samples[i]
		if s.Layer.Op == OpMatmul {
			path, _ := s.Device.path(&s.Layer)
			used[path] = true
		}
	}
	loss := func() float64 {
		sum := 0.0
		for i := range samples {
			s := &samples[i]
			if s.Ms <= 0 || s.Layer.Op == OpNone {
				continue
			}
			e := p.Time(s.Device, &s.Layer).Ms
			sum += s.Ms * math.Abs(math.Log(e/s.Ms))
		}
		return sum
	}
	grid := func(lo, hi float64, n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = lo * math.Pow(hi/lo, float64(i)/float64(n-1))
		}
		return out
	}
	search := func(set func(float64), get func() float64, values []float64) {
		best, bestV := loss(), get()
		for _, v := range values {
			set(v)
			if l := loss(); l < best-1e-12 {
				best, bestV = l, v
			}
		}
		set(bestV)
	}
	effGrid := grid(0.02, 1, 50)
	floorGrid := grid(0.0005, 0.05, 50)
	// fine is a grid of ±10 % around v, in 1 % steps.
	fine := func(v float64) []float64 { return grid(v*0.9, v*1.1, 21) }
	// The floor and the memory efficiency trade off against each other on
	// small layers: search them together, coarse then fine.
	search2 := func(fs, ms []float64) {
		best, bf, bm := loss(), p.FloorMs, p.MemEff
		for _, f := range fs {
			for _, m := range ms {
				p.FloorMs, p.MemEff = f, min(m, 1)
				if l := loss(); l < best-1e-12 {
					best, bf, bm = l, f, min(m, 1)
				}
			}
		}
		p.FloorMs, p.MemEff = bf, bm
	}
	reformats := false
	for i := range samples {
		reformats = reformats || samples[i].Layer.Quantize && samples[i].Layer.Op == OpMemory
	}
	paths := slices.Clone(Paths)
	for pass := range 8 {
		if pass < 4 {
			search2(floorGrid, effGrid)
		} else {
			search2(fine(p.FloorMs), fine(p.MemEff))
		}
		if reformats {
			values := effGrid
			if pass >= 4 {
				values = fine(p.ReformatEff)
			}
			search(func(v float64) { p.ReformatEff = min(v, 1) }, func() float64 { return p.ReformatEff }, values)
		}
		for _, path := range paths {
			if !used[path] {
				continue
			}
			values := effGrid
			if pass >= 4 {
				values = fine(p.Compute[path])
			}
			search(func(v float64) { p.Compute[path] = min(v, 1) }, func() float64 { return p.Compute[path] }, values)
		}
	}
	// Then Nelder–Mead on the logarithms of all fitted parameters at once:
	// coordinate steps stall in valleys where two parameters trade off.
	var keys []Path
	for _, path := range paths {
		if used[path] {
			keys = append(keys, path)
		}
	}
	get := func() []float64 {
		x := []float64{math.Log(p.FloorMs), math.Log(p.MemEff), math.Log(max(p.ReformatEff, 1e-3))}
		for _, k := range keys {
			x = append(x, math.Log(p.Compute[k]))
		}
		return x
	}
	set := func(x []float64) {
		p.FloorMs, p.MemEff = math.Exp(x[0]), min(1, math.Exp(x[1]))
		if reformats {
			p.ReformatEff = min(1, math.Exp(x[2]))
		}
		for i, k := range keys {
			p.Compute[k] = min(1, math.Exp(x[3+i]))
		}
	}
	set(nelderMead(get(), func(x []float64) float64 { set(x); return loss() }, 0.1, 600))
	return p
}

// nelderMead minimises f from x0 with an initial simplex of step along each
// axis, for at most iters iterations (standard coefficients).
func nelderMead(x0 []float64, f func([]float64) float64, step float64, iters int) []float64 {
	n := len(x0)
	pts := make([][]float64, n+1)
	vals := make([]float64, n+1)
	for i := range pts {
		pts[i] = slices.Clone(x0)
		if i > 0 {
			pts[i][i-1] += step
		}
		vals[i] = f(pts[i])
	}
	at := func(c []float64, d []float64, t float64) []float64 {
		out := make([]float64, n)
		for j := range out {
			out[j] = c[j] + t*(d[j]-c[j])
		}
		return out
	}
	for range iters {
		idx := make([]int, n+1)
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int {
			switch {
			case vals[a] < vals[b]:
				return -1
			case vals[a] > vals[b]:
				return 1
			}
			return 0
		})
		ps, vs := make([][]float64, n+1), make([]float64, n+1)
		for i, k := range idx {
			ps[i], vs[i] = pts[k], vals[k]
		}
		pts, vals = ps, vs
		c := make([]float64, n)
		for _, q := range pts[:n] {
			for j := range c {
				c[j] += q[j] / float64(n)
			}
		}
		worst := pts[n]
		r := at(c, worst, -1)
		fr := f(r)
		switch {
		case fr < vals[0]:
			e := at(c, worst, -2)
			if fe := f(e); fe < fr {
				pts[n], vals[n] = e, fe
			} else {
				pts[n], vals[n] = r, fr
			}
		case fr < vals[n-1]:
			pts[n], vals[n] = r, fr
		default:
			k := at(c, worst, 0.5)
			if fk := f(k); fk < vals[n] {
				pts[n], vals[n] = k, fk
			} else {
				for i := 1; i <= n; i++ {
					pts[i] = at(pts[0], pts[i], 0.5)
					vals[i] = f(pts[i])
				}
			}
		}
	}
	best := 0
	for i := range vals {
		if vals[i] < vals[best] {
			best = i
		}
	}
	return pts[best]
}
