package contract

import "math"

// rooflineTol is the relative tolerance of recomputed roofline numbers
// (the producer rounds them to 6 significant digits).
const rooflineTol = 1e-5

// peakOf is the device peak (TFLOP/s) a roofline's peak_precision names.
func peakOf(d *Device, precision string) *float64 {
	if d == nil {
		return nil
	}
	switch precision {
	case "fp32":
		return d.PeakTFLOPS.FP32
	case "tf32":
		return d.PeakTFLOPS.TF32
	case "fp16":
		return d.PeakTFLOPS.FP16
	case "int8":
		return d.PeakTFLOPS.INT8
	}
	return nil
}

// roofline checks every fact of the roofline that the record, the device
// and the backend's roofline basis determine: rates are work ÷ time, the
// attainable throughput is min(peak, intensity × bandwidth), the bound
// says on which side of the ridge the layer sits, and the totals add up.
func (c *checker) roofline(p string, b *Backend) {
	rf := b.Roofline
	if rf != nil {
		q := p + "/roofline"
		switch rf.TimeBasis {
		case RooflineAvgMs:
			if rf.TimeScale != 1 || rf.ReferenceSource != "layer_sum" {
				c.add(q+"/time_scale", "time_basis avg_ms needs time_scale 1 and reference_source layer_sum, got %v and %q", rf.TimeScale, rf.ReferenceSource)
			}
		case RooflineAvgMsScaled:
			if d := b.Diagnosis; d != nil && !near(rf.TimeScale, d.ProfileScale, rooflineTol) {
				c.add(q+"/time_scale", "time_scale %v is not diagnosis.profile_scale %v", rf.TimeScale, d.ProfileScale)
			}
		}
	}
	var layers, compute, memory int
	var timeMs, flops, bytes float64
	for i := range b.Records {
		r := &b.Records[i]
		x := r.Roofline
		if x == nil {
			continue
		}
		q := recPtr(p, i, "roofline")
		if rf == nil {
			c.add(q, "a record has a roofline but the backend's roofline is null")
			return
		}
		if r.FLOPs == nil || r.Bytes == nil {
			c.add(q, "a roofline needs flops and bytes")
			continue
		}
		layers++
		timeMs += x.TimeMs
		flops += *r.FLOPs
		bytes += *r.Bytes
		if !near(x.TimeMs, r.AvgMs*rf.TimeScale, rooflineTol) || x.TimeMs <= 0 {
			c.add(q+"/time_ms", "time_ms %v is not avg_ms %v × roofline.time_scale %v (and above 0)", x.TimeMs, r.AvgMs, rf.TimeScale)
			continue
		}
		if want := *r.FLOPs / (x.TimeMs * 1e9); !near(x.AchievedTFLOPS, want, rooflineTol) {
			c.add(q+"/achieved_tflops", "achieved_tflops %v is not flops ÷ time (%v)", x.AchievedTFLOPS, want)
		}
		if *r.Bytes > 0 {
			if x.AchievedGBs == nil || !near(*x.AchievedGBs, *r.Bytes/(x.TimeMs*1e6), rooflineTol) {
				c.add(q+"/achieved_gbs", "achieved_gbs is not bytes ÷ time (%v)", *r.Bytes/(x.TimeMs*1e6))
			}
			if x.Intensity == nil || !near(*x.Intensity, *r.FLOPs / *r.Bytes, rooflineTol) {
				c.add(q+"/intensity", "intensity is not flops ÷ bytes (%v)", *r.FLOPs / *r.Bytes)
			}
		} else if x.AchievedGBs != nil || x.Intensity != nil {
			c.add(q+"/intensity", "with 0 bytes, achieved_gbs and intensity are null")
		}
		peak := peakOf(b.Device, x.PeakPrecision)
		if x.PeakPrecision != "" && peak == nil {
			c.add(q+"/peak_precision", "peak_precision %q but device.peak_tflops has no such peak", x.PeakPrecision)
		}
		var bw *float64
		if b.Device != nil {
			bw = b.Device.MemoryBandwidthGBs
		}
		if peak == nil || bw == nil || x.Intensity == nil {
			if x.AttainableTFLOPS != nil || x.Bound != nil || x.PctOfAttainable != nil {
				c.add(q+"/attainable_tflops", "without a peak, a memory bandwidth and an intensity, attainable_tflops, bound and pct_of_attainable are null")
			}
			continue
		}
		roof := *x.Intensity * *bw / 1000 // FLOP/byte × GB/s = GFLOP/s → TFLOP/s
		want, bound := math.Min(*peak, roof), RooflineBoundMemory
		if roof >= *peak {
			bound = RooflineBoundCompute
		}
		if x.AttainableTFLOPS == nil || !near(*x.AttainableTFLOPS, want, rooflineTol) {
			c.add(q+"/attainable_tflops", "attainable_tflops is not min(peak %v, intensity × bandwidth %v)", *peak, roof)
			continue
		}
		// At the ridge point itself either word is right.
		if x.Bound == nil || (*x.Bound != bound && !near(roof, *peak, rooflineTol)) {
			c.add(q+"/bound", "bound must be %q (intensity × bandwidth %v vs peak %v)", bound, roof, *peak)
		} else if *x.Bound == RooflineBoundCompute {
			compute++
		} else {
			memory++
		}
		if x.PctOfAttainable == nil || !near(*x.PctOfAttainable, x.AchievedTFLOPS / *x.AttainableTFLOPS * 100, rooflineTol) {
			c.add(q+"/pct_of_attainable", "pct_of_attainable is not achieved ÷ attainable × 100 (%v)", x.AchievedTFLOPS / *x.AttainableTFLOPS * 100)
		}
	}
	if rf == nil {
		return
	}
	q := p + "/roofline"
	if rf.Layers != layers || rf.ComputeBound != compute || rf.MemoryBound != memory {
		c.add(q+"/layers", "layers, compute_bound, memory_bound are %d, %d, %d; the records say %d, %d, %d", rf.Layers, rf.ComputeBound, rf.MemoryBound, layers, compute, memory)
	}
	for _, s := range []struct {
		name      string
		got, want float64
	}{{"time_ms", rf.TimeMs, timeMs}, {"flops", rf.FLOPs, flops}, {"bytes", rf.Bytes, bytes}} {
		if !near(s.got, s.want, 1e-4) {
			c.add(q+"/"+s.name, "%s %v is not the sum over records with a roofline (%v)", s.name, s.got, s.want)
		}
	}
	if rf.TimeMs > 0 && !near(rf.AchievedTFLOPS, rf.FLOPs/(rf.TimeMs*1e9), 1e-4) {
		c.add(q+"/achieved_tflops", "achieved_tflops %v is not flops ÷ time_ms (%v)", rf.AchievedTFLOPS, rf.FLOPs/(rf.TimeMs*1e9))
	}
}
