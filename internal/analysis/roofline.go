package analysis

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/findings"
	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// fillRoofline places every record with flops and a time on the device's
// roofline and sets the backend's roofline basis. Rates are computed on
// the profiled layer average, scaled by diagnosis.profile_scale when the
// reference is a measured GPU compute median below the layer sum (the
// per-layer profile then carries event overhead that a real inference
// does not pay). A latency reference includes host transfers and a scale
// above 1 is time between kernels, so neither scales layer times.
func fillRoofline(b *contract.Backend) {
	rf := &contract.Roofline{TimeBasis: contract.RooflineAvgMs, TimeScale: 1, ReferenceSource: findings.RefLayerSum, Notes: []string{}}
	d := b.Diagnosis
	if d == nil {
		d = &contract.Diagnosis{ReferenceSource: findings.RefLayerSum}
	}
	{
		switch {
		case d.ReferenceSource == findings.RefGPUComputeMedian && d.ProfileScale > 0 && d.ProfileScale < 1:
			rf.TimeBasis, rf.TimeScale, rf.ReferenceSource = contract.RooflineAvgMsScaled, d.ProfileScale, d.ReferenceSource
			rf.Notes = append(rf.Notes, fmt.Sprintf("layer times are avg_ms × %.4g (measured GPU compute median %.4g ms ÷ layer sum %.4g ms), so per-layer profiling overhead does not lower the rates", d.ProfileScale, d.ReferenceMs, d.LayerSumMs))
		case d.ReferenceSource == findings.RefGPUComputeMedian:
			rf.Notes = append(rf.Notes, fmt.Sprintf("the layer sum %.4g ms is not above the measured GPU compute median %.4g ms (the difference is time between kernels, not layer time): layer averages are used as profiled", d.LayerSumMs, d.ReferenceMs))
		case d.ReferenceSource == findings.RefLatencyMedian:
			rf.Notes = append(rf.Notes, "the only measured time is host latency (with transfers), which does not scale layer times: layer averages are used as profiled and include per-layer profiling overhead")
		default:
			rf.Notes = append(rf.Notes, "no measured GPU compute time (trtexec log, TREx profile metadata or --exportTimes): layer averages are used as profiled and include per-layer profiling overhead, so rates are lower bounds")
		}
	}
	var bw *float64
	if b.Device != nil {
		bw = b.Device.MemoryBandwidthGBs
	}
	switch {
	case b.Device == nil:
		rf.Notes = append(rf.Notes, "the GPU is unknown: bound and percent of attainable need device facts (a trtexec log or TREx device metadata beside the dumps)")
	case bw == nil:
		rf.Notes = append(rf.Notes, fmt.Sprintf("the memory bandwidth of %s is unknown: bound and percent of attainable are null", b.Device.Name))
	}
	rs := make([]contract.RecordRoofline, len(b.Records))
	bounds := [2]string{contract.RooflineBoundMemory, contract.RooflineBoundCompute}
	noPeak := map[string]int{}
	for i := range b.Records {
		r := &b.Records[i]
		if r.FLOPs == nil || r.Bytes == nil || r.AvgMs <= 0 {
			continue
		}
		x := &rs[i]
		x.TimeMs = sig6(r.AvgMs * rf.TimeScale)
		if x.TimeMs <= 0 {
			continue
		}
		x.AchievedTFLOPS = sig6(*r.FLOPs / (x.TimeMs * 1e9))
		if *r.Bytes > 0 {
			gbs, in := sig6(*r.Bytes/(x.TimeMs*1e6)), sig6(*r.FLOPs / *r.Bytes)
			x.AchievedGBs, x.Intensity = &gbs, &in
		}
		var peak *float64
		x.PeakPrecision, peak = peakFor(r, b.Device)
		if peak == nil && b.Device != nil {
			noPeak[r.Precision]++
		}
		if peak != nil && bw != nil && x.Intensity != nil {
			att, compute := gpu.Attainable(*peak, *bw, *x.Intensity)
			att = sig6(att)
			pct := sig6(x.AchievedTFLOPS / att * 100)
			bound := &bounds[0]
			if compute {
				bound = &bounds[1]
				rf.ComputeBound++
			} else {
				rf.MemoryBound++
			}
			x.AttainableTFLOPS, x.PctOfAttainable, x.Bound = &att, &pct, bound
		}
		r.Roofline = x
		rf.Layers++
		rf.TimeMs += x.TimeMs
		rf.FLOPs += *r.FLOPs
		rf.Bytes += *r.Bytes
	}
	if rf.Layers == 0 {
		return
	}
	for _, p := range slices.Sorted(maps.Keys(noPeak)) {
		rf.Notes = append(rf.Notes, fmt.Sprintf("%d %s layer(s) have no peak in the device facts: bound and percent of attainable are null", noPeak[p], p))
	}
	rf.TimeMs = sig6(rf.TimeMs)
	rf.AchievedTFLOPS = sig6(rf.FLOPs / (rf.TimeMs * 1e9))
	b.Roofline = rf
}

// peakFor is the device peak a record is held to: its precision's, with
// FP32 layers on tensor cores held to TF32 and BF16 to the FP16 rate.
func peakFor(r *contract.Record, d *contract.Device) (string, *float64) {
	if d == nil {
		return "", nil
	}
	p := &d.PeakTFLOPS
	switch r.Precision {
	case layerfacts.FP32:
		if r.TensorCore != nil && *r.TensorCore && p.TF32 != nil {
			return "tf32", p.TF32
		}
		if p.FP32 != nil {
			return "fp32", p.FP32
		}
	case layerfacts.TF32:
		if p.TF32 != nil {
			return "tf32", p.TF32
		}
	case layerfacts.FP16, layerfacts.BF16:
		if p.FP16 != nil {
			return "fp16", p.FP16
		}
	case layerfacts.INT8:
		if p.INT8 != nil {
			return "int8", p.INT8
		}
	}
	return "", nil
}

// sig6 rounds v to 6 significant digits.
func sig6(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	e := math.Floor(math.Log10(math.Abs(v)))
	f := math.Pow(10, 5-e)
	return math.Round(v*f) / f
}
