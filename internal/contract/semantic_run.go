package contract

import "strconv"

// measured checks that timing.measured agrees with itself and with the
// timing it sits in: source is sources[0], statistics are ordered, and
// profile_overhead is average_inference_ms over the median it names.
func (c *checker) measured(p string, t *Timing) {
	m := t.Measured
	if m == nil {
		return
	}
	mp := p + "/timing/measured"
	if len(m.Sources) == 0 || !sameSource(m.Sources[0], m.Source) {
		c.add(mp+"/source", "source must equal sources[0]")
	}
	for name, s := range map[string]*Stats{"latency_ms": &m.LatencyMs, "gpu_compute_ms": &m.GPUComputeMs, "enqueue_ms": &m.EnqueueMs, "h2d_ms": m.H2DMs, "d2h_ms": m.D2HMs} {
		if s == nil {
			continue
		}
		if s.Min != nil && s.Max != nil && *s.Min > *s.Max {
			c.add(mp+"/"+name, "min %v exceeds max %v", *s.Min, *s.Max)
		}
		for _, v := range []*float64{s.Mean, s.Median, s.P90, s.P95, s.P99} {
			if v != nil && (s.Min != nil && *v < *s.Min*(1-relTol)-1e-9 || s.Max != nil && *v > *s.Max*(1+relTol)+1e-9) {
				c.add(mp+"/"+name, "statistic %v lies outside [min %v, max %v]", *v, optText(s.Min), optText(s.Max))
				break
			}
		}
	}
	var basis *float64
	switch m.ProfileOverheadBasis {
	case "gpu_compute_median":
		basis = m.GPUComputeMs.Median
	case "latency_median":
		basis = m.LatencyMs.Median
	}
	switch {
	case m.ProfileOverhead == nil && m.ProfileOverheadBasis != "":
		c.add(mp+"/profile_overhead", "profile_overhead is null but profile_overhead_basis is %q", m.ProfileOverheadBasis)
	case m.ProfileOverhead != nil && (basis == nil || *basis <= 0):
		c.add(mp+"/profile_overhead_basis", "profile_overhead is set but its basis %q names no positive median", m.ProfileOverheadBasis)
	case m.ProfileOverhead != nil && !near(*m.ProfileOverhead, t.AverageInferenceMs / *basis, 1e-6):
		c.add(mp+"/profile_overhead", "profile_overhead is %v but average_inference_ms / %s is %v", *m.ProfileOverhead, m.ProfileOverheadBasis, t.AverageInferenceMs / *basis)
	}
	if (m.CV == nil) != (m.CVOf == "") {
		c.add(mp+"/cv_of", "cv_of must be set exactly when cv is")
	}
	c.perIteration(mp+"/per_iteration", m.PerIteration)
}

// perIteration checks the series is plottable: one time per index, indices
// increasing inside [0, iterations), every iteration kept unless
// downsampled.
func (c *checker) perIteration(p string, s *PerIteration) {
	if s == nil {
		return
	}
	if len(s.Index) != len(s.Ms) {
		c.add(p+"/ms", "ms has %d points but index has %d", len(s.Ms), len(s.Index))
	}
	for i, x := range s.Index {
		if x >= s.Iterations || i > 0 && x <= s.Index[i-1] {
			c.add(p+"/index/"+strconv.Itoa(i), "index %d is not increasing inside [0, %d)", x, s.Iterations)
			break
		}
	}
	if !s.Downsampled && len(s.Index) != s.Iterations {
		c.add(p+"/downsampled", "downsampled is false but %d of %d iterations are kept", len(s.Index), s.Iterations)
	}
}

func sameSource(a, b MeasuredSource) bool {
	eq := func(x, y *float64) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	eqi := func(x, y *int) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	return a.File == b.File && a.Kind == b.Kind && eqi(a.Run, b.Run) && eqi(a.Samples, b.Samples) &&
		eq(a.LatencyMedianMs, b.LatencyMedianMs) && eq(a.GPUComputeMedianMs, b.GPUComputeMedianMs)
}

func optText(v *float64) any {
	if v == nil {
		return "null"
	}
	return *v
}

// device checks the device's numbers are plausible.
func (c *checker) device(p string, d *Device) {
	if d == nil {
		return
	}
	if cc := d.ComputeCapability; cc != nil {
		maj, minor, ok := cut(*cc)
		if !ok || maj < 1 || minor < 0 {
			c.add(p+"/device/compute_capability", "compute_capability %q is not MAJOR.MINOR", *cc)
		}
	}
}

func cut(s string) (int, int, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			a, err1 := strconv.Atoi(s[:i])
			b, err2 := strconv.Atoi(s[i+1:])
			return a, b, err1 == nil && err2 == nil
		}
	}
	return 0, 0, false
}
