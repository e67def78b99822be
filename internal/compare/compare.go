// Package compare sets analysed backends side by side: it aligns their
// layers across builds and exports (align.go), puts every millisecond of
// the difference on one measure and one aligned group (pair.go), and says
// whether the difference is real (verdict.go). It reads the contract only
// and fills its comparison types.
package compare

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// Side is one backend being compared, with a name for headings.
type Side struct {
	Name    string // e.g. "dumps#fp16"
	Backend *contract.Backend
}

// Interpretable reports why a backend cannot be compared, or "". Every
// backend with times can: a layer_profile backend on its measured or
// profiled times, a profile_only one on its profile (layer kinds guessed
// from names), a layer_only one on the cost model's predicted times.
func Interpretable(b *contract.Backend) string {
	why := contract.WhyNotComparable(b)
	if why != "" && b.Validation.Status != contract.StatusPassed && b.Validation.AnalysisMode == contract.ModeUnusable {
		return fmt.Sprintf("%s (%s)", why, firstError(b.Validation.Messages))
	}
	return why
}

// predicted reports whether the cost model predicted every layer's time.
func predicted(b *contract.Backend) bool { return contract.HasPrediction(b) }

// recordsOf are the records a comparison reads: the profile's, or for a
// layer_only backend one per layer with the cost model's predicted time.
func recordsOf(b *contract.Backend) []contract.Record {
	if len(b.Records) > 0 || !predicted(b) {
		return b.Records
	}
	return layerRecords(b, b.Prediction.LayerMs)
}

// layerRecords are one record per layer of b's layer info, with the facts
// the analysis derives for a profiled layer (type, precision, tactic
// family, tensor cores, tags), timed by ms (nil: untimed). What a layer
// computes, runs on and writes follows from the layer info alone, so the
// kinship evidence and a comparison on predicted times read them when
// there is no profile.
func layerRecords(b *contract.Backend, ms []float64) []contract.Record {
	out := make([]contract.Record, len(b.Layers))
	var d layerfacts.Deriver
	for i := range b.Layers {
		l := &b.Layers[i]
		f := d.Derive(layerfacts.EngineLayer(l))
		out[i] = contract.Record{Name: l.Name, Layer: i, LayerType: f.DerivedType, RawLayerType: l.LayerType,
			Precision: f.Precision, InputTypes: nonNil(f.InputTypes), OutputTypes: nonNil(f.OutputTypes),
			Tactic: l.TacticName, TacticFamily: f.TacticFamily, TensorCore: f.TensorCore.Bool(),
			FusedOps: f.FusedOps, Tags: nonNil(f.Tags)}
		if f.MyelinGraph >= 0 {
			g := f.MyelinGraph
			out[i].MyelinGraph = &g
		}
		if i < len(ms) {
			out[i].AvgMs = ms[i]
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func firstError(ms []contract.Message) string {
	for _, m := range ms {
		if m.Level == contract.LevelError {
			return m.Code
		}
	}
	return "no error message"
}

// ErrUnknownBaseline is wrapped by Section's error for a baseline that is
// not a backend with usable timing.
var ErrUnknownBaseline = errors.New("not a backend with usable timing")

// Section compares the usable backends of one analysis: each against the
// baseline, which is the label given or else the fastest on the measure
// they share. Nil when fewer than two backends have usable timing.
func Section(d *contract.AnalyzeData, baseline string) (*contract.Comparison, error) {
	var usable []Side
	for i := range d.Results {
		if Interpretable(&d.Results[i]) == "" {
			usable = append(usable, Side{Name: d.Results[i].Label, Backend: &d.Results[i]})
		}
	}
	// A side with measured time only compares on measured time: keep it
	// only when every side has a measure of that kind.
	if slices.ContainsFunc(usable, measuredOnly) && !sharedMeasured(usable) {
		usable = slices.DeleteFunc(usable, measuredOnly)
	}
	// A side with predicted times only compares on predicted times: keep
	// it only when every side has them.
	if slices.ContainsFunc(usable, func(s Side) bool { return len(s.Backend.Records) == 0 && !measuredOnly(s) }) &&
		slices.ContainsFunc(usable, func(s Side) bool { return !predicted(s.Backend) }) {
		usable = slices.DeleteFunc(usable, func(s Side) bool { return len(s.Backend.Records) == 0 && !measuredOnly(s) })
	}
	if baseline != "" {
		k := slices.IndexFunc(usable, func(s Side) bool { return s.Name == baseline })
		if k < 0 {
			return nil, fmt.Errorf("baseline %q: %w (usable: %s); name one of those, or none to compare against the fastest", baseline, ErrUnknownBaseline, sideNames(usable))
		}
	}
	if len(usable) < 2 {
		return nil, nil
	}
	c := &contract.Comparison{Baseline: baseline, BaselineReason: "chosen", Pairs: []contract.ComparisonPair{}}
	if baseline == "" {
		c.Baseline, c.BaselineReason = fastest(usable), "fastest"
	}
	var base Side
	for _, s := range usable {
		if s.Name == c.Baseline {
			base = s
		}
	}
	for _, s := range usable {
		if s.Name == c.Baseline {
			continue
		}
		p, err := Pair(base, s, DefaultRows)
		if err != nil {
			return nil, err
		}
		c.Pairs = append(c.Pairs, *p)
	}
	return c, nil
}

// fastest is the backend with the smallest time on the best measure all
// usable backends share (measured GPU compute, measured end-to-end, layer
// sum); ties go to the first label.
func fastest(ss []Side) string {
	all := func(f func(*contract.Backend) float64) bool {
		for _, s := range ss {
			if f(s.Backend) <= 0 {
				return false
			}
		}
		return true
	}
	gpu := func(b *contract.Backend) float64 { g, _ := measured(b); return g }
	e2e := func(b *contract.Backend) float64 { _, e := measured(b); return e }
	sum := func(b *contract.Backend) float64 { return layerSum(b.Records) }
	pred := func(b *contract.Backend) float64 {
		if predicted(b) {
			return b.Prediction.TotalMs
		}
		return 0
	}
	by := sum
	switch {
	case !all(sum) && all(gpu):
		by = gpu // measured_only sides
	case !all(sum) && all(e2e):
		by = e2e
	case !all(sum) && all(pred):
		by = pred
	case !all(sum):
		by = func(b *contract.Backend) float64 { return max(sum(b), pred(b)) }
	case all(gpu):
		by = gpu
	case all(e2e):
		by = e2e
	}
	best := 0
	for i := range ss {
		if by(ss[i].Backend) < by(ss[best].Backend) {
			best = i
		}
	}
	return ss[best].Name
}

func sideNames(ss []Side) string {
	if len(ss) == 0 {
		return "none"
	}
	n := make([]string, len(ss))
	for i, s := range ss {
		n[i] = s.Name
	}
	return strings.Join(n, ", ")
}

// stripMyelinSuffix removes a trailing `_myl<G>_<K>` kernel numbering.
func stripMyelinSuffix(name string) string {
	i := strings.LastIndex(name, "_myl")
	if i < 0 {
		return name
	}
	rest := name[i+4:]
	g, k, ok := strings.Cut(rest, "_")
	if !ok || !allDigits(g) || !allDigits(k) {
		return name
	}
	return name[:i]
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// measuredOnly reports whether a side has measured time and nothing per
// layer (analysis_mode measured_only).
func measuredOnly(s Side) bool {
	return s.Backend.Validation.AnalysisMode == contract.ModeMeasuredOnly
}

// sharedMeasured reports whether every side has a measured GPU compute
// median, or every side a measured latency median: the measures a side of
// measured time only compares on.
func sharedMeasured(ss []Side) bool {
	gpu, e2e := true, true
	for _, s := range ss {
		g, e := measured(s.Backend)
		gpu, e2e = gpu && g > 0, e2e && e > 0
	}
	return gpu || e2e
}
