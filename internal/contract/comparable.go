package contract

import "fmt"

// WhyNotComparable says why a backend's timing cannot be compared with
// another's, or "" when it can: a profile (layer_profile, or profile_only
// with its layer kinds guessed from names) with timing and records, layer
// info with the cost model's predicted time for every layer (layer_only),
// or a measured median alone (measured_only, compared on measured time
// only). compare selects backends with it and the semantic check
// holds every comparison pair to it: one rule, so analyze never writes a
// pair validate rejects.
func WhyNotComparable(b *Backend) string {
	switch b.Validation.AnalysisMode {
	case ModeLayerProfile, ModeProfileOnly:
		if b.Timing == nil || len(b.Records) == 0 {
			return fmt.Sprintf("backend %s has no timing", b.Label)
		}
		if s := b.Timing.PercentageSum; s > 0 && s < MinWholeProfilePct {
			return fmt.Sprintf("backend %s's profile holds only %.1f %% of its time (a partial table: its layer sum is not the engine's)", b.Label, s)
		}
		return ""
	case ModeMeasuredOnly:
		if MeasuredMedian(b) <= 0 {
			return fmt.Sprintf("backend %s has no per-layer data and no measured median to compare", b.Label)
		}
		return ""
	case ModeLayerOnly:
		if !HasPrediction(b) {
			return fmt.Sprintf("backend %s has layer info but neither a profile nor predicted times", b.Label)
		}
		return ""
	}
	if b.Validation.Status != StatusPassed {
		return fmt.Sprintf("backend %s failed validation", b.Label)
	}
	return fmt.Sprintf("backend %s has no timing (analysis_mode %s)", b.Label, b.Validation.AnalysisMode)
}

// MinWholeProfilePct is the share of the time a profile's rows must hold
// (their percentages add up to it) to stand for the whole engine: a pasted
// table cut after a few rows sums to a fraction, and its layer sum says
// nothing about the engine's latency.
const MinWholeProfilePct = 90.0

// HasPrediction reports whether the cost model predicted every layer of b.
func HasPrediction(b *Backend) bool {
	p := b.Prediction
	return p != nil && p.TotalMs > 0 && len(p.LayerMs) == len(b.Layers)
}

// ComparedRecords is how many records a comparison of b aligns: its
// profile's, or for a predicted layer_only backend one per layer.
func ComparedRecords(b *Backend) int {
	if len(b.Records) == 0 && HasPrediction(b) {
		return len(b.Layers)
	}
	return len(b.Records)
}

// WhyNoRowComparison says why the rows two backends' tables share cannot
// be compared row by row, or "" when they can: both hold profiled records
// (layer_profile or profile_only), and at least one of them cannot be
// compared as an engine (WhyNotComparable: a partial table), so the
// engines themselves are not compared and only their shared rows are. One
// rule for the producer and the semantic check.
func WhyNoRowComparison(a, b *Backend) string {
	for _, s := range []*Backend{a, b} {
		m := s.Validation.AnalysisMode
		if (m != ModeLayerProfile && m != ModeProfileOnly) || len(s.Records) == 0 {
			return fmt.Sprintf("backend %s has no profiled rows", s.Label)
		}
	}
	if WhyNotComparable(a) == "" && WhyNotComparable(b) == "" {
		return fmt.Sprintf("backends %s and %s are compared as engines (comparison), not row by row", a.Label, b.Label)
	}
	return ""
}

// MeasuredMedian is a backend's measured median GPU compute time per
// inference, else its measured median latency; 0 when it has neither.
func MeasuredMedian(b *Backend) float64 {
	if b.Timing == nil || b.Timing.Measured == nil {
		return 0
	}
	m := b.Timing.Measured
	for _, v := range []*float64{m.GPUComputeMs.Median, m.LatencyMs.Median} {
		if v != nil && *v > 0 {
			return *v
		}
	}
	return 0
}
