package findings

import (
	"fmt"

	"github.com/trtperf/trtperf/internal/contract"
)

// Reference sources of a diagnosis (contract: diagnosis.reference_source).
const (
	RefGPUComputeMedian = "gpu_compute_median"
	RefLatencyMedian    = "latency_median"
	RefLayerSum         = "layer_sum"
	// RefPredicted is the cost model's predicted layer sum of a
	// layer_only backend (no measured time at all).
	RefPredicted = "predicted"
)

// reference returns what one inference takes on the GPU and where that
// number comes from: a measured GPU compute time beats a measured latency,
// which beats the profiled layer sum (per-layer profiling adds CUDA-event
// overhead: the sum overstates small CNNs by 1.3–1.7×).
func reference(b *contract.Backend, layerSum float64) (ms float64, source string) {
	if t := b.Timing; t != nil {
		if m := measuredOf(t); m.gpuMedian > 0 {
			return m.gpuMedian, RefGPUComputeMedian
		} else if m.latencyMedian > 0 {
			return m.latencyMedian, RefLatencyMedian
		}
	}
	return layerSum, RefLayerSum
}

// measured is what findings read of a backend's measured timing.
type measured struct {
	gpuMedian, latencyMedian float64
	enqueueMedian            float64 // 0 when unknown
	samples                  int64   // 0 when unknown
	source                   string
}

// measuredOf reads the measured timing of a backend: timing.measured (trex
// metadata, trtexec log or --exportTimes, in order of trust), else the
// older timing.end_to_end summary.
func measuredOf(t *contract.Timing) measured {
	var m measured
	if x := t.Measured; x != nil {
		get := func(p *float64) float64 {
			if p == nil {
				return 0
			}
			return *p
		}
		m.gpuMedian = get(x.GPUComputeMs.Median)
		m.latencyMedian = get(x.LatencyMs.Median)
		m.enqueueMedian = get(x.EnqueueMs.Median)
		if x.Samples != nil {
			m.samples = int64(*x.Samples)
		}
		m.source = x.Source.File
		if m.gpuMedian > 0 || m.latencyMedian > 0 {
			return m
		}
	}
	if e := t.EndToEnd; e != nil {
		m.latencyMedian = e.MedianMs
		if e.ComputeMeanMs != nil {
			m.gpuMedian = *e.ComputeMeanMs
		}
		m.samples = int64(e.Iterations)
		m.source = e.Source
	}
	return m
}

// sampleCount is how many timed iterations the prices rest on: the
// measured iterations, else the per-layer samples of the profile.
func sampleCount(b *contract.Backend, m measured) int64 {
	if m.samples > 0 {
		return m.samples
	}
	if b.Count != nil && b.CountSource == "samples" {
		return *b.Count
	}
	return 0
}

// price fills a finding's recoverable time from the time of the layers it
// owns (ms, on the profile's clock) and a factor band: owned × scale ×
// factor, where scale maps the profile's clock onto the reference.
func (c *evaluation) price(f *contract.Finding, ownedMs float64, b band, how string) {
	c.priceMs(f, ownedMs*c.scale*b.low, ownedMs*c.scale*b.est, ownedMs*c.scale*b.high,
		fmt.Sprintf("%s: owned layer time %.4f ms × profile scale %.3f × %.2f (range %.2f–%.2f)", how, ownedMs, c.scale, b.est, b.low, b.high))
	f.PriceBasis = "estimate"
}

// priceMs sets absolute recoverable times (already on the reference clock).
func (c *evaluation) priceMs(f *contract.Finding, low, est, high float64, how string) {
	ref := c.ref
	clamp := func(x float64) float64 { return round(max(0, min(x, ref)), 6) }
	f.RecoverableLowMs, f.RecoverableMs, f.RecoverableHighMs = clamp(low), clamp(est), clamp(high)
	if f.RecoverableLowMs > f.RecoverableMs {
		f.RecoverableLowMs = f.RecoverableMs
	}
	if f.RecoverableHighMs < f.RecoverableMs {
		f.RecoverableHighMs = f.RecoverableMs
	}
	f.PriceFactor = how
	if f.PriceBasis == "" {
		f.PriceBasis = "estimate"
	}
	c.rescore(f)
}

// rescore derives recoverable_share and score from recoverable_ms.
func (c *evaluation) rescore(f *contract.Finding) {
	share := 0.0
	if c.ref > 0 {
		share = f.RecoverableMs / c.ref * 100
	}
	f.RecoverableShare = round(min(share, 100), 3)
	f.Score = round(min(1, f.RecoverableShare/100*weight(f)), 4)
}

// weight is what a finding's recoverable share counts for in its score:
// its certainty, and a tenth of that for a gain that costs accuracy (a
// narrower precision that needs calibration or QAT): fixes that keep the
// build's numerics come first.
func weight(f *contract.Finding) float64 {
	w := certainty[f.Confidence]
	if f.Metrics[MetricAccuracyTradeoff] > 0 {
		w *= limits.accuracyTradeoffWeight
	}
	return w
}

// MetricAccuracyTradeoff is the metric (1) of a finding whose gain needs a
// narrower precision than the build's.
const MetricAccuracyTradeoff = contract.MetricAccuracyTradeoff
