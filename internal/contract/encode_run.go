package contract

// Encoders of the run facts: timing.measured, device and build.

func (e enc) optBool(v *bool) {
	if v == nil {
		e.Null()
		return
	}
	e.Bool(*v)
}

func (e enc) stats(name string, s *Stats) {
	e.Buf = append(e.Buf, '{')
	for i, f := range []struct {
		key string
		v   *float64
	}{{"min", s.Min}, {"mean", s.Mean}, {"median", s.Median}, {"p90", s.P90}, {"p95", s.P95}, {"p99", s.P99}, {"max", s.Max}} {
		e.Key(i == 0, f.key)
		e.OptFloat(name+"."+f.key, f.v)
	}
	e.Buf = append(e.Buf, '}')
}

func (e enc) optStats(name string, s *Stats) {
	if s == nil {
		e.Null()
		return
	}
	e.stats(name, s)
}

func (e enc) measuredSource(s *MeasuredSource) {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "file")
	e.Str(s.File)
	e.Key(false, "kind")
	e.Str(s.Kind)
	e.Key(false, "run")
	e.OptInt(s.Run)
	e.Key(false, "samples")
	e.OptInt(s.Samples)
	e.Key(false, "latency_median_ms")
	e.OptFloat("timing.measured.sources.latency_median_ms", s.LatencyMedianMs)
	e.Key(false, "gpu_compute_median_ms")
	e.OptFloat("timing.measured.sources.gpu_compute_median_ms", s.GPUComputeMedianMs)
	e.Buf = append(e.Buf, '}')
}

func (e enc) measured(m *Measured) {
	if m == nil {
		e.Null()
		return
	}
	const p = "timing.measured."
	e.Buf = append(e.Buf, '{')
	e.Key(true, "source")
	e.measuredSource(&m.Source)
	e.Key(false, "sources")
	e.Buf = append(e.Buf, '[')
	for i := range m.Sources {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.measuredSource(&m.Sources[i])
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "latency_ms")
	e.stats(p+"latency_ms", &m.LatencyMs)
	e.Key(false, "gpu_compute_ms")
	e.stats(p+"gpu_compute_ms", &m.GPUComputeMs)
	e.Key(false, "enqueue_ms")
	e.stats(p+"enqueue_ms", &m.EnqueueMs)
	e.Key(false, "h2d_ms")
	e.optStats(p+"h2d_ms", m.H2DMs)
	e.Key(false, "d2h_ms")
	e.optStats(p+"d2h_ms", m.D2HMs)
	e.Key(false, "throughput_qps")
	e.OptFloat(p+"throughput_qps", m.Throughput)
	e.Key(false, "samples")
	e.OptInt(m.Samples)
	e.Key(false, "cv")
	e.OptFloat(p+"cv", m.CV)
	e.Key(false, "cv_of")
	e.Str(m.CVOf)
	e.Key(false, "cuda_graph")
	e.optBool(m.CUDAGraph)
	e.Key(false, "spin_wait")
	e.optBool(m.SpinWait)
	e.Key(false, "separate_profile_run")
	e.optBool(m.SeparateProfileRun)
	e.Key(false, "profile_overhead")
	e.OptFloat(p+"profile_overhead", m.ProfileOverhead)
	e.Key(false, "profile_overhead_basis")
	e.Str(m.ProfileOverheadBasis)
	e.Key(false, "few_samples")
	e.Bool(m.FewSamples)
	e.Key(false, "notes")
	e.Strs(m.Notes)
	e.Key(false, "per_iteration")
	e.perIteration(m.PerIteration)
	e.Buf = append(e.Buf, '}')
}

func (e enc) perIteration(s *PerIteration) {
	if s == nil {
		e.Null()
		return
	}
	e.Buf = append(e.Buf, '{')
	e.Key(true, "of")
	e.Str(s.Of)
	e.Key(false, "source")
	e.Str(s.Source)
	e.Key(false, "iterations")
	e.Int(int64(s.Iterations))
	e.Key(false, "median_ms")
	e.Float("timing.measured.per_iteration.median_ms", s.MedianMs)
	e.Key(false, "p99_ms")
	e.Float("timing.measured.per_iteration.p99_ms", s.P99Ms)
	e.Key(false, "downsampled")
	e.Bool(s.Downsampled)
	e.Key(false, "index")
	e.Ints(s.Index)
	e.Key(false, "ms")
	e.Buf = append(e.Buf, '[')
	for i, v := range s.Ms {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Float("timing.measured.per_iteration.ms", v)
	}
	e.Buf = append(e.Buf, ']')
	e.Buf = append(e.Buf, '}')
}

func (e enc) device(d *Device) {
	if d == nil {
		e.Null()
		return
	}
	e.Buf = append(e.Buf, '{')
	e.Key(true, "name")
	e.Str(d.Name)
	e.Key(false, "compute_capability")
	e.OptStr(d.ComputeCapability)
	e.Key(false, "sm_count")
	e.OptInt(d.SMCount)
	e.Key(false, "clock_ghz")
	e.OptFloat("device.clock_ghz", d.ClockGHz)
	e.Key(false, "memory_gib")
	e.OptFloat("device.memory_gib", d.MemoryGiB)
	e.Key(false, "memory_bandwidth_gbs")
	e.OptFloat("device.memory_bandwidth_gbs", d.MemoryBandwidthGBs)
	e.Key(false, "memory_bandwidth_basis")
	e.Str(d.BandwidthBasis)
	e.Key(false, "peak_tflops")
	e.Buf = append(e.Buf, '{')
	e.Key(true, "fp32")
	e.OptFloat("device.peak_tflops.fp32", d.PeakTFLOPS.FP32)
	e.Key(false, "tf32")
	e.OptFloat("device.peak_tflops.tf32", d.PeakTFLOPS.TF32)
	e.Key(false, "fp16")
	e.OptFloat("device.peak_tflops.fp16", d.PeakTFLOPS.FP16)
	e.Key(false, "int8")
	e.OptFloat("device.peak_tflops.int8", d.PeakTFLOPS.INT8)
	e.Buf = append(e.Buf, '}')
	e.Key(false, "peak_basis")
	e.Str(d.PeakBasis)
	e.Key(false, "source")
	e.Str(d.Source)
	e.Key(false, "notes")
	e.Strs(d.Notes)
	e.Buf = append(e.Buf, '}')
}

func (e enc) build(b *Build) {
	if b == nil {
		e.Null()
		return
	}
	e.Buf = append(e.Buf, '{')
	e.Key(true, "tensorrt_version")
	e.OptStr(b.TensorRTVersion)
	e.Key(false, "precision")
	e.OptStr(b.Precision)
	e.Key(false, "precision_flags")
	e.Strs(b.PrecisionFlags)
	e.Key(false, "command")
	e.OptStr(b.Command)
	e.Key(false, "model_format")
	e.OptStr(b.ModelFormat)
	e.Key(false, "batch")
	e.OptStr(b.Batch)
	e.Key(false, "build_shapes")
	e.OptStr(b.BuildShapes)
	e.Key(false, "inference_shapes")
	e.OptStr(b.InferenceShapes)
	e.Key(false, "options")
	e.Buf = append(e.Buf, '[')
	for i, o := range b.Options {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Buf = append(e.Buf, '{')
		e.Key(true, "name")
		e.Str(o.Name)
		e.Key(false, "value")
		e.Str(o.Value)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "warnings")
	e.Strs(b.Warnings)
	e.Key(false, "sources")
	e.Strs(b.Sources)
	e.Buf = append(e.Buf, '}')
}
