package mdcheck

import (
	"encoding/json"
	"math"
	"sort"
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
	kindFinding
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
	case kindFinding:
		return "finding"
	}
	return "item"
}

// fact is one number of the data: its value, the backend it belongs to and
// the field it was read from (for messages).
// Facts are many (four per profiled layer), so strings are interned.
type fact struct {
	v       float64
	owner   *values // the item it belongs to, or the backend's own numbers
	backend uint32  // index into index.strs
	field   uint32  // index into index.strs
	// primary marks the one value per item and backend that sums add up
	// (avg_ms of a record, time_ms of a breakdown).
	primary bool
}

// values are the numbers a name may be quoted with, by unit (shares,
// times, ratios, rates, sizes), from every backend that has it.
type values struct {
	name string // "" for a backend's own numbers
	kind kind
	by   [numUnits][]fact
}

func (v *values) of(u unit) []fact { return v.by[u] }

func (v *values) add(u unit, fs ...fact) { v.by[u] = append(v.by[u], fs...) }

// index is what analyze.md may cite: names with their numbers, other names
// that exist (tensors, tactics), the backends' own numbers (timing,
// diagnosis: every *_ms field), and the totals a "total" may quote.
type index struct {
	pairs  map[[2]string]*values // the numbers of a comparison's reasons, by its two labels
	items  map[string]*values
	labels map[string]*values  // backend label → its backend-level numbers
	layers map[string]struct{} // layer and record names
	parts  map[string]struct{} // source ops inside fused names ("A + B")
	known  map[string]struct{} // tensors, tactics...
	totals []total
	strs   []string // interned backend labels and field names
	strIdx map[string]uint32
	// summary are the items that are not layers (types, precisions,
	// tags, findings, positives, overview entries): the numbers a
	// sentence may quote about a backend without naming a layer.
	summary []*values
	// records holds each backend's record names by index, so that
	// `records[N]` can stand for a name too long to write.
	records map[string][]string
	// owners maps a backend label and a layer name to the findings and
	// overview items that own the layer: a sentence about a layer may
	// quote the numbers of the item that owns it ("`GlobalAveragePool_747`
	// and its input copy: 2.42% of the measured time", minor_items' price).
	owners map[ownerKey][]*values
	// concentration lists the backends whose concentration says how many
	// layers make 50, 80 and 90 % of the time.
	concentration []string
	// proper are names the data gives things that hold digits and units
	// ("NVIDIA A100 80GB PCIe"): a number inside one is part of the name.
	proper []string
}

type ownerKey struct{ label, layer string }

func (x *index) intern(s string) uint32 {
	if i, ok := x.strIdx[s]; ok {
		return i
	}
	i := uint32(len(x.strs))
	x.strs = append(x.strs, s)
	x.strIdx[s] = i
	return i
}

// total is one backend's whole-inference times, for messages.
type total struct {
	label string
	ms    []fact
}

// newIndex reads every backend. It is linear in the data's size and keeps
// only references to strings the document already holds.
func newIndex(d *contract.AnalyzeData) *index {
	x := &index{
		items:   map[string]*values{},
		pairs:   map[[2]string]*values{},
		labels:  map[string]*values{},
		layers:  map[string]struct{}{},
		parts:   map[string]struct{}{},
		known:   map[string]struct{}{},
		strIdx:  map[string]uint32{},
		records: map[string][]string{},
		owners:  map[ownerKey][]*values{},
	}
	for i := range d.Results {
		b := &d.Results[i]
		lb := b.Label
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
		names := make([]string, len(b.Records))
		x.records[lb] = names
		for j := range b.Records {
			r := &b.Records[j]
			names[j] = r.Name
			x.addLayerName(r.Name)
			v := x.item(r.Name, kindLayer)
			v.add(unitPct, x.fact(v, r.Percentage, lb, "percentage", true))
			v.add(unitMs, x.fact(v, r.AvgMs, lb, "avg_ms", true), x.fact(v, r.TimeMs, lb, "time_ms", false))
			if r.MedianMs != nil {
				v.add(unitMs, x.fact(v, *r.MedianMs, lb, "median_ms", false))
			}
			if r.Tactic != "" {
				x.known[r.Tactic] = struct{}{}
			}
			if rr := r.Roofline; rr != nil {
				// summary prints these per layer: "22.7% of its compute
				// roof", "141.8 TFLOP/s".
				v.add(unitMs, x.fact(v, rr.TimeMs, lb, "roofline.time_ms", false))
				v.add(unitTFLOPs, x.fact(v, rr.AchievedTFLOPS, lb, "roofline.achieved_tflops", false))
				if rr.AchievedGBs != nil {
					v.add(unitGBs, x.fact(v, *rr.AchievedGBs, lb, "roofline.achieved_gbs", false))
				}
				if rr.AttainableTFLOPS != nil {
					v.add(unitTFLOPs, x.fact(v, *rr.AttainableTFLOPS, lb, "roofline.attainable_tflops", false))
				}
				if rr.PctOfAttainable != nil {
					v.add(unitPct, x.fact(v, *rr.PctOfAttainable, lb, "roofline.pct_of_attainable", false))
				}
			}
		}
		for _, g := range []struct {
			bd []contract.Breakdown
			k  kind
		}{{b.TypeBreakdown, kindType}, {b.PrecisionBreakdown, kindPrecision}, {b.TagBreakdown, kindTag}} {
			for _, bd := range g.bd {
				v := x.item(bd.Name, g.k)
				v.add(unitPct, x.fact(v, bd.Percentage, lb, "percentage", true))
				v.add(unitMs, x.fact(v, bd.TimeMs, lb, "time_ms", true))
			}
		}
		x.addBackendNumbers(b)
		x.addOwners(b)
		if b.Device != nil && b.Device.Name != "" {
			x.proper = append(x.proper, b.Device.Name)
		}
	}
	x.addComparison(d.Comparison)
	return x
}

// addComparison adds the numbers of the comparison section: each pair's
// times on its measure to the two labels (with the percent change), and the
// per-type, per-precision, per-region and per-layer times of the aligned
// groups to those names. On a measured basis they are layer times scaled to
// the measured latency, so they differ from records[].avg_ms. Deltas are
// added as magnitudes: prose writes "0.42 ms less", not "-0.42 ms".
func (x *index) addComparison(c *contract.Comparison) {
	if c == nil {
		return
	}
	label := func(l string) *values {
		v := x.labels[l]
		if v == nil {
			v = &values{}
			x.labels[l] = v
		}
		return v
	}
	for _, p := range c.Pairs {
		a, b := label(p.A), label(p.B)
		x.addPairReasons(p)
		a.add(unitMs, x.fact(a, p.AMs, p.A, "comparison.a_ms", false))
		b.add(unitMs, x.fact(b, p.BMs, p.B, "comparison.b_ms", false), x.fact(b, math.Abs(p.DeltaMs), p.B, "comparison.delta_ms", false))
		b.add(unitPct, x.fact(b, math.Abs(p.DeltaPct), p.B, "comparison.delta_pct", false),
			x.fact(b, p.Noise.Pct, p.B, "comparison.noise.pct", false), x.fact(b, p.Alignment.ComputeAlignedPct, p.B, "comparison.alignment.compute_aligned_pct", false))
		a.add(unitPct, x.fact(a, p.Noise.APct, p.A, "comparison.noise.a_pct", false))
		b.add(unitPct, x.fact(b, p.Noise.BPct, p.B, "comparison.noise.b_pct", false))
		b.add(unitMs, x.fact(b, p.Noise.Ms, p.B, "comparison.noise.ms", false))
		if p.AMs > 0 && p.BMs > 0 {
			// "1.36× slower" and "0.74× the time" read the same pair.
			b.add(unitRatio, x.fact(b, p.BMs/p.AMs, p.B, "comparison.b_ms/a_ms", false), x.fact(b, p.AMs/p.BMs, p.B, "comparison.a_ms/b_ms", false))
		}
		for _, g := range []struct {
			rows []contract.GroupDelta
			k    kind
		}{{p.ByType, kindType}, {p.ByPrec, kindPrecision}, {p.ByRegion, kindType}} {
			for _, r := range g.rows {
				v := x.item(r.Name, g.k)
				v.add(unitMs, x.fact(v, r.AMs, p.A, "comparison.a_ms", false), x.fact(v, r.BMs, p.B, "comparison.b_ms", false), x.fact(v, math.Abs(r.DeltaMs), p.B, "comparison.delta_ms", false))
			}
		}
		for _, r := range p.Rows {
			for _, side := range []struct {
				name, label string
				ms          float64
				field       string
			}{{r.AName, p.A, r.AMs, "comparison.rows.a_ms"}, {r.BName, p.B, r.BMs, "comparison.rows.b_ms"}} {
				if side.name == "" {
					continue
				}
				v := x.item(side.name, kindLayer)
				v.add(unitMs, x.fact(v, side.ms, side.label, side.field, false), x.fact(v, math.Abs(r.DeltaMs), side.label, "comparison.rows.delta_ms", false))
			}
		}
	}
}

// addBackendNumbers reads the backend's own numbers without naming its
// fields: every *_ms value of timing (the profiled sums, the measured
// latencies) and of any other backend-level object (diagnosis...) belongs
// to the label, and every object with an "id" (findings, positives,
// overview entries) is an item with its *_ms and share values. The big
// per-layer parts are left out before encoding.
func (x *index) addBackendNumbers(b *contract.Backend) {
	slim := *b
	slim.Layers, slim.Records, slim.Graph = nil, nil, contract.Graph{}
	slim.TypeBreakdown, slim.TagBreakdown, slim.PrecisionBreakdown = nil, nil, nil
	slim.Model, slim.Engines, slim.Validation = contract.Model{}, contract.Engines{}, contract.BackendValidation{}
	// The roofline's time_ms sums the layers with work (convolutions,
	// GEMMs), not a whole inference: a label's number, never a total.
	slim.Roofline = nil
	// The prediction's per-layer times are a per-layer part and its
	// error_pct is the model's, not the engine's; its total stays a label's
	// number.
	if p := b.Prediction; p != nil {
		pp := *p
		pp.LayerMs, pp.LayerBound, pp.ErrorPct = nil, nil, 0
		slim.Prediction = &pp
	}
	slim.Issues = make([]contract.Finding, len(b.Issues))
	for i, f := range b.Issues {
		f.Layers, f.Records = nil, nil
		slim.Issues[i] = f
	}
	raw, err := json.Marshal(&slim)
	if err != nil {
		return // a backend that does not encode has no numbers to cite
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	lv := x.labels[b.Label]
	if lv == nil {
		lv = &values{}
		x.labels[b.Label] = lv
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic fact order, hence messages
	for _, k := range keys {
		x.walk(m[k], k, b.Label, lv)
	}
	if b.Concentration != nil {
		x.concentration = append(x.concentration, b.Label)
	}
	if b.Timing != nil && len(lv.of(unitMs)) > 0 {
		x.totals = append(x.totals, total{b.Label, lv.of(unitMs)})
	}
	if rf := b.Roofline; rf != nil {
		lv.add(unitMs, x.fact(lv, rf.TimeMs, b.Label, "roofline.time_ms", false))
		lv.add(unitTFLOPs, x.fact(lv, rf.AchievedTFLOPS, b.Label, "roofline.achieved_tflops", false))
		lv.add(unitBytes, x.fact(lv, float64(rf.Bytes), b.Label, "roofline.bytes", false))
	}
}

// walk collects the numbers under path into into; an object with a string
// "id" collects into that item instead.
func (x *index) walk(n any, path, label string, into *values) {
	x.walkNamed(n, path, label, "", into)
}

func (x *index) walkNamed(n any, path, label, name string, into *values) {
	switch t := n.(type) {
	case map[string]any:
		if id, ok := t["id"].(string); ok && id != "" {
			x.known[id] = struct{}{}
			into = x.item(id, kindFinding)
			path, name = "", id
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "layers" {
				continue
			}
			if k == "evidence" {
				if name != "" {
					x.addEvidence(t[k], label, into)
				}
				continue
			}
			p := k
			if path != "" {
				p = path + "." + k
			}
			x.walkNamed(t[k], p, label, name, into)
		}
	case []any:
		for _, e := range t {
			x.walkNamed(e, path, label, name, into)
		}
	case float64:
		if u, scale := fieldUnit(path); u != 0 {
			into.add(u, x.fact(into, t*scale, label, path, false))
		}
	case string:
		x.addQuotedNames(t)
		if k := path[strings.LastIndexByte(path, '.')+1:]; k == "title" || k == "summary" {
			// A title ("94% of convolution/GEMM time runs on tensor
			// cores") is the tool's sentence: its numbers may be quoted.
			x.addEvidence([]any{t}, label, into)
		}
	}
}

// inProperName reports whether text[pos:end] lies inside a device or
// model name the data holds ("80GB" in "NVIDIA A100 80GB PCIe").
func (x *index) inProperName(text string, pos, end int) bool {
	for _, n := range x.proper {
		for from := 0; ; {
			i := strings.Index(text[from:], n)
			if i < 0 {
				break
			}
			i += from
			if i <= pos && end <= i+len(n) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// addOwners records, for each layer a finding or an overview item owns,
// that item (whose numbers addBackendNumbers has read).
func (x *index) addOwners(b *contract.Backend) {
	add := func(id string, layers []int) {
		v := x.items[id]
		if v == nil {
			return
		}
		for _, li := range layers {
			if li >= 0 && li < len(b.Layers) {
				k := ownerKey{b.Label, b.Layers[li].Name}
				x.owners[k] = append(x.owners[k], v)
			}
		}
	}
	for i := range b.Issues {
		add(b.Issues[i].ID, b.Issues[i].Layers)
		// A profile_only finding owns records, which have no layer.
		if v := x.items[b.Issues[i].ID]; v != nil {
			for _, r := range b.Issues[i].Records {
				if r >= 0 && r < len(b.Records) {
					k := ownerKey{b.Label, b.Records[r].Name}
					x.owners[k] = append(x.owners[k], v)
				}
			}
		}
	}
	for i := range b.Overview {
		add(b.Overview[i].ID, b.Overview[i].Layers)
	}
}

// ownerFacts returns the numbers of unit u, in their own backend, of the
// items that own the layers spans name.
func (x *index) ownerFacts(spans []span, u unit, sc scope) []fact {
	var out []fact
	for _, sp := range spans {
		for l := range x.labels {
			if !sc.has(l) {
				continue
			}
			for _, v := range x.owners[ownerKey{l, sp.text}] {
				for _, f := range v.of(u) {
					if x.strs[f.backend] == l {
						out = append(out, f)
					}
				}
			}
		}
	}
	return out
}

// addQuotedNames records what the tool's own sentences (a finding's
// action and next_check, titles, notes) write in backticks: "check that the
// activations are fused into the convolution names (`Conv + Relu`)". An
// analysis that copies such a pattern names something the data says.
func (x *index) addQuotedNames(s string) {
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			return
		}
		if name := s[i+1 : i+1+j]; name != "" {
			x.known[name] = struct{}{}
		}
		s = s[i+j+2:]
	}
}

// fieldUnit is the unit of a number field by its name: "total_ms" and the
// statistics of "latency_ms": {median: ...} are times; shares and
// percentages; "*_gbs" bandwidths; "*tflops*" rates; "*bytes" sizes;
// "*_scale" and "*ratio" ratios; "*_gib" sizes in GiB. Other
// numbers (counts, clocks) have no unit a sentence could quote. The scale
// converts the field to the unit's base.
func fieldUnit(path string) (unit, float64) {
	key := path[strings.LastIndexByte(path, '.')+1:]
	switch {
	case strings.HasSuffix(key, "_ms") || strings.Contains(path, "_ms."):
		return unitMs, 1
	case key == "cv":
		return unitPct, 100 // a fraction, written as a percentage
	case key == "share" || key == "percentage" || key == "pct" || strings.HasSuffix(key, "_share") || strings.HasSuffix(key, "_pct") || strings.HasSuffix(key, "_percent"):
		return unitPct, 1
	case strings.HasSuffix(key, "_gbs"):
		return unitGBs, 1
	case strings.Contains(key, "tflops") || strings.Contains(path, "tflops."):
		return unitTFLOPs, 1
	case key == "bytes" || strings.HasSuffix(key, "_bytes"):
		return unitBytes, 1
	case strings.HasSuffix(key, "_gib"):
		return unitBytes, 1 << 30
	case key == "scale" || strings.HasSuffix(key, "_scale") || strings.HasSuffix(key, "ratio"):
		return unitRatio, 1
	}
	return 0, 0
}

// addPairReasons reads the times and percentages written in a comparison
// pair's reasons ("22 matched layers run FP16 in trtexec and FP32 in
// onnx-trt (+0.7730 ms)"): a sentence that names both builds may quote them.
func (x *index) addPairReasons(p contract.ComparisonPair) {
	key := [2]string{p.A, p.B}
	v := x.pairs[key]
	if v == nil {
		v = &values{name: p.A + " vs " + p.B}
		x.pairs[key] = v
	}
	x.addEvidence(toAny(p.Reasons), p.B, v)
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// maxEvidenceNumbers bounds the numbers read from one item's evidence.
const maxEvidenceNumbers = 64

// addEvidence reads the percentages and times written in an item's
// evidence sentences ("Plugins 8.31%, Scale 3.72%"): the tool printed
// them from the data, so an analysis may quote them for that item.
func (x *index) addEvidence(n any, label string, into *values) {
	list, _ := n.([]any)
	added := 0
	for _, e := range list {
		s, _ := e.(string)
		for _, q := range quotes(s, 0) {
			if added == maxEvidenceNumbers {
				return
			}
			added++
			into.add(q.unit, x.fact(into, q.value, label, "evidence", false))
			if q.alt != 0 {
				into.add(q.unit, x.fact(into, q.alt, label, "evidence", false))
			}
		}
	}
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

func (x *index) fact(owner *values, f float64, backend, field string, primary bool) fact {
	return fact{v: f, owner: owner, backend: x.intern(backend), field: x.intern(field), primary: primary}
}

func (x *index) item(name string, k kind) *values {
	v := x.items[name]
	if v == nil {
		v = &values{name: name, kind: k}
		x.items[name] = v
		if k != kindLayer {
			x.summary = append(x.summary, v)
		}
	}
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
	if _, ok := x.labels[s]; ok {
		return true
	}
	_, ok := x.known[s]
	return ok
}
