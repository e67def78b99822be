package costmodel

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Calibrated are the constants Fit gives on the measured corpus (see the
// package comment; TestCostModelCalibration in internal/analysis refits
// them). Paths the corpus has no timed layer of take the value of their
// nearest kin, said per line.
var Calibrated = Params{
	FloorMs:     0.00603,
	FillElems:   2715,
	MemEff:      1, // the fit reaches the bound: streaming passes run at the peak once the floor is paid
	ReformatEff: 0.708,
	Compute: map[Path]float64{
		PathTCFP16:   0.870,
		PathTCINT8:   0.833,
		PathTCTF32:   0.855,
		PathTCFP8:    0.833, // no FP8 engine in the corpus: the INT8 tensor-core value (same operand width)
		PathCUDAFP32: 0.786,
		PathCUDAFP16: 0.786, // the corpus' CUDA-core FP16 layers are matrix–vector products, set by their weights: the FP32 value (FP16 pairs run on the same cores)
		PathCUDAINT8: 0.689,
		PathUnknown:  0.202,
	},
}

// ErrorPct is the model's median absolute error, percent, on the predicted
// layer sums of the calibration corpus' backends whose files name their
// GPU (TestCostModelValidation measures it; model-priced findings span ±
// this).
const ErrorPct = 8.0

// ErrorPctDefaultGPU is the same median over the corpus' backends whose
// files name no GPU, predicted for the default of their kernels'
// generation: the real GPU's bandwidth, peaks and per-kernel floor may be
// far from the default's, so their predictions and prices span ± this.
const ErrorPctDefaultGPU = 10.0

// ErrorFor is the error band of a prediction on d: ErrorPctUnseenArch when
// the fit saw no GPU of d's architecture, else ErrorPctDefaultGPU when d
// is an assumed default, else ErrorPct.
func ErrorFor(d *Device, defaultDevice bool) float64 {
	switch {
	case !Seen(d):
		return ErrorPctUnseenArch
	case defaultDevice:
		return ErrorPctDefaultGPU
	}
	return ErrorPct
}

// UnseenNote says why d's band is wide, "" when the fit saw its
// architecture.
func UnseenNote(d *Device) string {
	if Seen(d) {
		return ""
	}
	cc := "an unknown compute capability"
	if d.CCMajor >= 0 {
		cc = fmt.Sprintf("compute capability %d.%d", d.CCMajor, d.CCMinor)
	}
	return fmt.Sprintf("the model was calibrated on GPUs of compute capability %s only, not on %s's %s: on an architecture its fit did not see, its median error is %.0f %% (each corpus architecture left out of the fit in turn, the worst), so the times span ± that",
		strings.Join(CalibrationArchs, ", "), d.Name, cc, ErrorPctUnseenArch)
}

// Sample is one profiled layer: the model's view of it, the device it ran
// on and its measured per-layer average.
type Sample struct {
	Device *Device
	Layer  Layer
	Ms     float64
}

// Fit returns the parameters that minimise Σ √ms × |ln(predicted / ms)|
// over every sample at once: coordinate descent over logarithmic grids
// (four coarse passes from start, four fine ones), then Nelder–Mead on the
// logarithms of all parameters together. A path no sample runs on keeps
// start's value; so does any parameter whose grid does not lower the
// error. Efficiencies are capped at 1 (the peak).
//
// The weight √ms sits between counting every layer once (the many
// launch-bound layers of small networks would set the efficiencies) and
// weighting by time (a few large layers of one backend would set the
// floor): each backend's small and large layers both count.
func Fit(samples []Sample, start Params) Params {
	p := Params{FloorMs: start.FloorMs, FillElems: start.FillElems, MemEff: start.MemEff, ReformatEff: start.ReformatEff, Compute: map[Path]float64{}}
	for k, v := range start.Compute {
		p.Compute[k] = v
	}
	if p.FillElems <= 0 {
		p.FillElems = 1000
	}
	// A path is fitted from the layers whose time its arithmetic sets:
	// a matrix–vector product's time is its weight stream, whatever its
	// path's efficiency.
	used := map[Path]bool{}
	for i := range samples {
		s := &samples[i]
		if s.Layer.Op == OpMatmul && !s.Layer.GEMV() {
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
			sum += math.Sqrt(s.Ms) * math.Abs(math.Log(e/s.Ms))
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
	fillGrid := grid(10, 1e5, 50)
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
		coarse := pass < 4
		if coarse {
			search2(floorGrid, effGrid)
		} else {
			search2(fine(p.FloorMs), fine(p.MemEff))
		}
		pick := func(g []float64, v float64) []float64 {
			if coarse {
				return g
			}
			return fine(v)
		}
		search(func(v float64) { p.FillElems = v }, func() float64 { return p.FillElems }, pick(fillGrid, p.FillElems))
		if reformats {
			search(func(v float64) { p.ReformatEff = min(v, 1) }, func() float64 { return p.ReformatEff }, pick(effGrid, p.ReformatEff))
		}
		for _, path := range paths {
			if !used[path] {
				continue
			}
			search(func(v float64) { p.Compute[path] = min(v, 1) }, func() float64 { return p.Compute[path] }, pick(effGrid, p.Compute[path]))
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
	const fixed = 4 // floor, fill, memory, reformat
	get := func() []float64 {
		x := []float64{math.Log(p.FloorMs), math.Log(p.FillElems), math.Log(p.MemEff), math.Log(max(p.ReformatEff, 1e-3))}
		for _, k := range keys {
			x = append(x, math.Log(p.Compute[k]))
		}
		return x
	}
	set := func(x []float64) {
		p.FloorMs, p.FillElems, p.MemEff = math.Exp(x[0]), math.Exp(x[1]), min(1, math.Exp(x[2]))
		if reformats {
			p.ReformatEff = min(1, math.Exp(x[3]))
		}
		for i, k := range keys {
			p.Compute[k] = min(1, math.Exp(x[fixed+i]))
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

// CalibrationArchs are the compute capabilities of the GPUs the fit saw
// (the corpus' layer_profile backends whose GPU is known); the test that
// measures ErrorPctUnseenArch holds this list to the corpus.
var CalibrationArchs = []string{"7.5", "8.0", "8.6"}

// ErrorPctUnseenArch is the model's median layer-sum error on a GPU
// architecture the fit never saw: each architecture of the corpus left
// out of the fit in turn, the worst held-out median (7.5 left out: 43 %;
// 8.6: 38 %; 8.0: 21 %). A GPU of another architecture has other
// per-kernel floors and achieved shares of its peaks than the fit's.
const ErrorPctUnseenArch = 43.0

// Seen reports whether the fit saw a GPU of d's compute capability; an
// unknown compute capability was not seen.
func Seen(d *Device) bool {
	return d.CCMajor >= 0 && slices.Contains(CalibrationArchs, fmt.Sprintf("%d.%d", d.CCMajor, d.CCMinor))
}
