package analysis

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/inputs"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// Count sources.
const (
	CountFromHeader    = "header"
	CountFromSamples   = "samples"
	CountFromTimeRatio = "inferred_time_ratio"
	CountUnknown       = "none"
)

// iterations returns the profiling iteration count and where it came from:
// the {"count": N} header, the samples per layer of a latency dict, or the
// typical timeMs/averageMs ratio when the header is missing.
func iterations(p *engine.Profile) (*int64, string) {
	if p.HasCount {
		n := p.Count
		return &n, sourceForKind(p.Kind)
	}
	if p.AveragesOnly {
		return nil, CountUnknown
	}
	var ratios []float64
	for _, r := range p.Records {
		if r.AverageMs > 0 && r.TimeMs > 0 {
			ratios = append(ratios, r.TimeMs/r.AverageMs)
		}
	}
	if len(ratios) == 0 {
		return nil, CountUnknown
	}
	slices.Sort(ratios)
	n := int64(math.Round(ratios[len(ratios)/2]))
	if n < 1 {
		return nil, CountUnknown
	}
	return &n, CountFromTimeRatio
}

func sourceForKind(kind string) string {
	if kind == engine.ProfileLatencyDict {
		return CountFromSamples
	}
	return CountFromHeader
}

// timing sums the records and adds consistency notes; problems found become
// warnings (never failures: the numbers are still usable).
func timing(p *engine.Profile, count *int64, msgs *messages) *contract.Timing {
	t := &contract.Timing{Notes: []string{}}
	var medianSum float64
	allMedian := len(p.Records) > 0
	mismatched := 0
	for _, r := range p.Records {
		t.TotalMs += r.TimeMs
		t.AverageInferenceMs += r.AverageMs
		t.PercentageSum += r.Percentage
		if r.HasMedian {
			medianSum += r.MedianMs
		} else {
			allMedian = false
		}
		if r.AverageMs == 0 && r.TimeMs == 0 {
			t.ZeroTimeRecords++
		}
		if count != nil && p.Kind == engine.ProfileTrtexec && r.AverageMs > 0 {
			want := r.AverageMs * float64(*count)
			if math.Abs(r.TimeMs-want) > 0.01*want+1e-6 {
				mismatched++
			}
		}
	}
	if allMedian {
		t.MedianInferenceMs = &medianSum
	}
	t.Notes = append(t.Notes, "average_inference_ms is the sum of per-layer averages; per-layer profiling adds CUDA-event overhead, so it is larger than the engine's end-to-end latency (see trtexec --exportTimes or a run with --separateProfileRun)")
	n := len(p.Records)
	switch {
	case n > 0 && t.ZeroTimeRecords == n:
		msgs.warning(CodeAllZeroTimes, "every profile record has 0 ms: the profile carries no timing (was profiling enabled? run trtexec with --dumpProfile --exportProfile=F)")
	case t.ZeroTimeRecords > 0:
		msgs.info(CodeZeroTimeLayers, fmt.Sprintf("%d of %d layers take 0 ms (NoOps and reformats TensorRT elides at run time)", t.ZeroTimeRecords, n))
	}
	if n > 0 && t.ZeroTimeRecords < n && math.Abs(t.PercentageSum-100) > 1 {
		msgs.warning(CodePercentageSum, fmt.Sprintf("profile percentages sum to %.3g, not about 100: the profile may be truncated or merged from several runs", t.PercentageSum))
	}
	if mismatched > 0 {
		msgs.warning(CodeTimeAvgCount, fmt.Sprintf("%d of %d records have timeMs different from averageMs × count (%d) by more than 1%%", mismatched, n, *count))
	}
	return t
}

// fillTiming computes timing, count, records and breakdowns of a backend
// whose gate passed with a profile.
func fillTiming(out *contract.Backend, p *engine.Profile, recs []engine.ProfileRecord, m matchResult, layers []engine.Layer, facts []layerfacts.Facts, msgs *messages) {
	// A profile without percentages (or a latency dict) gets each record's
	// share of the summed averages.
	var sumAvg float64
	for _, r := range recs {
		sumAvg += r.AverageMs
	}
	for i := range recs {
		if !recs[i].HasPercent {
			recs[i].Percentage = share(recs[i].AverageMs, sumAvg)
		}
	}
	count, source := iterations(p)
	out.Count, out.CountSource = count, source
	switch source {
	case CountFromTimeRatio:
		msgs.info(CodeCountInferred, fmt.Sprintf("the profile has no {\"count\": N} header; %d iterations inferred from the typical timeMs / averageMs ratio", *count))
	case CountUnknown:
		msgs.info(CodeCountUnknown, "the profile says nothing of how many iterations were timed")
	}
	sub := *p
	sub.Records = recs
	out.Timing = timing(&sub, count, msgs)
	out.Records = buildRecords(recs, m.layerOf, layers, facts)
	total := out.Timing.AverageInferenceMs
	out.TypeBreakdown = breakdown(out.Records, total, func(r *contract.Record) []string { return []string{r.LayerType} })
	out.PrecisionBreakdown = breakdown(out.Records, total, func(r *contract.Record) []string { return []string{r.Precision} })
	out.TagBreakdown = breakdown(out.Records, total, func(r *contract.Record) []string { return r.Tags })
	out.Concentration = concentration(out.Records, total)
}

// endToEnd summarises trtexec --exportTimes records (their latencyMs: host
// latency) and relates them to the profiled sum of layer averages.
func endToEnd(t *engine.Times, source string, profiledMs float64) *contract.EndToEnd {
	lat := slices.Clone(t.LatencyMs)
	slices.Sort(lat)
	n := len(lat)
	e := &contract.EndToEnd{
		Source: source, Iterations: n, MeanMs: mean(lat),
		MedianMs: quantile(lat, 0.5), P90Ms: quantile(lat, 0.9), P99Ms: quantile(lat, 0.99),
		MinMs: lat[0], MaxMs: lat[n-1],
	}
	if len(t.ComputeMs) == n {
		c := mean(t.ComputeMs)
		e.ComputeMeanMs = &c
	}
	if r := profiledMs / e.MeanMs; e.MeanMs > 0 && !math.IsInf(r, 0) {
		e.ProfileOverhead = r
	}
	return e
}

// mean of finite values, summed as value/n so that values near the
// largest float64 (a hostile or broken times file) do not overflow to +Inf.
func mean(xs []float64) float64 {
	n := float64(len(xs))
	var m float64
	for _, v := range xs {
		m += v / n
	}
	return m
}

// quantile of sorted values, by the nearest-rank method.
func quantile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// addEndToEnd attaches the --exportTimes summary to a backend's timing; a
// broken times file is a warning (the profile stays usable).
func addEndToEnd(out *contract.Backend, in inputs.Backend, path string, msgs *messages) {
	switch {
	case path == "" || out.Timing == nil:
		return
	case in.TimesErr != nil:
		code, text := readError("times", path, in.TimesErr)
		msgs.warning(code, text+"; the end-to-end latency is left out")
		return
	}
	e := endToEnd(in.Times, filepath.Base(path), out.Timing.AverageInferenceMs)
	out.Timing.EndToEnd = e
	note := fmt.Sprintf("%s: %d inferences took %.4g ms of %s on average (median %.4g, p99 %.4g); the sum of profiled layer averages is %.2f× that", e.Source, e.Iterations, e.MeanMs, contract.HostLatencyWords, e.MedianMs, e.P99Ms, e.ProfileOverhead)
	if n := len(in.Times.EndToEndMs); n == e.Iterations {
		s := slices.Clone(in.Times.EndToEndMs)
		slices.Sort(s)
		note += fmt.Sprintf("; its endToEndMs (TensorRT 7.0-8.2: from the input copy's start to the output copy's end, waits included) is %.4g ms on average (median %.4g, p99 %.4g)", mean(s), quantile(s, 0.5), quantile(s, 0.99))
	}
	out.Timing.Notes = append(out.Timing.Notes, note)
}
