package mdcheck

import (
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// kind says what a name in the data is, for messages.
type kind uint8

const (
	kindLayer kind = iota + 1
	kindType
	kindPrecision
	kindTag
	kindBackend
)

func (k kind) String() string {
	switch k {
	case kindLayer:
		return "layer"
	case kindType:
		return "layer type"
	case kindPrecision:
		return "precision"
	case kindTag:
		return "tag"
	case kindBackend:
		return "backend"
	}
	return "item"
}

// values are the numbers a name may be quoted with: its shares (percent)
// and its times (ms), from every backend that has it.
type values struct {
	kind kind
	pcts []float64
	ms   []float64
}

// total is one backend's whole-inference times.
type total struct {
	label string
	ms    []float64 // average_inference_ms, total_ms, median_inference_ms
}

// index is what analyze.md may cite: names with their numbers, other names
// that exist (tensors, tactics, finding ids), and the backends' totals.
type index struct {
	items  map[string]*values
	layers map[string]struct{} // layer and record names
	parts  map[string]struct{} // source ops inside fused names ("A + B")
	known  map[string]struct{} // tensors, tactics, finding ids, labels...
	totals []total
}

// newIndex reads every backend. It is linear in the data's size and keeps
// only references to strings the document already holds.
func newIndex(d *contract.AnalyzeData) *index {
	x := &index{
		items:  map[string]*values{},
		layers: map[string]struct{}{},
		parts:  map[string]struct{}{},
		known:  map[string]struct{}{},
	}
	for i := range d.Results {
		b := &d.Results[i]
		x.known[b.Label] = struct{}{}
		for j := range b.Layers {
			l := &b.Layers[j]
			x.addLayerName(l.Name)
			for _, t := range l.Inputs {
				x.known[t.Name] = struct{}{}
			}
			for _, t := range l.Outputs {
				x.known[t.Name] = struct{}{}
			}
			if l.TacticName != "" {
				x.known[l.TacticName] = struct{}{}
			}
		}
		for j := range b.Records {
			r := &b.Records[j]
			x.addLayerName(r.Name)
			ms := []float64{r.AvgMs, r.TimeMs}
			if r.MedianMs != nil {
				ms = append(ms, *r.MedianMs)
			}
			x.add(r.Name, kindLayer, r.Percentage, ms...)
			if r.Tactic != "" {
				x.known[r.Tactic] = struct{}{}
			}
		}
		for _, bd := range b.TypeBreakdown {
			x.add(bd.Name, kindType, bd.Percentage, bd.TimeMs)
		}
		for _, bd := range b.PrecisionBreakdown {
			x.add(bd.Name, kindPrecision, bd.Percentage, bd.TimeMs)
		}
		for _, bd := range b.TagBreakdown {
			x.add(bd.Name, kindTag, bd.Percentage, bd.TimeMs)
		}
		for _, f := range b.Issues {
			x.known[f.ID] = struct{}{}
		}
		for _, p := range b.Positives {
			x.known[p.ID] = struct{}{}
		}
		if t := b.Timing; t != nil {
			tt := total{label: b.Label, ms: []float64{t.AverageInferenceMs, t.TotalMs}}
			if t.MedianInferenceMs != nil {
				tt.ms = append(tt.ms, *t.MedianInferenceMs)
			}
			// The measured end-to-end latency (trtexec --exportTimes) is a
			// per-inference total too.
			if e := t.EndToEnd; e != nil {
				tt.ms = append(tt.ms, e.MeanMs, e.MedianMs, e.P90Ms, e.P99Ms, e.MinMs, e.MaxMs)
				if e.ComputeMeanMs != nil {
					tt.ms = append(tt.ms, *e.ComputeMeanMs)
				}
			}
			x.totals = append(x.totals, tt)
			x.addMs(b.Label, kindBackend, tt.ms...)
		}
	}
	return x
}

func (x *index) addLayerName(name string) {
	if _, ok := x.layers[name]; ok {
		return
	}
	x.layers[name] = struct{}{}
	if strings.Contains(name, " + ") {
		for _, p := range strings.Split(name, " + ") {
			x.parts[strings.TrimSpace(p)] = struct{}{}
		}
	}
}

func (x *index) add(name string, k kind, pct float64, ms ...float64) {
	v := x.addMs(name, k, ms...)
	v.pcts = append(v.pcts, pct)
}

// addMs records times only: a backend label has no share to quote.
func (x *index) addMs(name string, k kind, ms ...float64) *values {
	v := x.items[name]
	if v == nil {
		v = &values{kind: k}
		x.items[name] = v
	}
	v.ms = append(v.ms, ms...)
	return v
}

// exists reports whether s names anything in the data.
func (x *index) exists(s string) bool {
	if _, ok := x.layers[s]; ok {
		return true
	}
	if _, ok := x.parts[s]; ok {
		return true
	}
	if _, ok := x.items[s]; ok {
		return true
	}
	_, ok := x.known[s]
	return ok
}
