package mdcheck

import (
	"fmt"
	"math"
	"sort"
)

// operand is one number a derived value may be computed from: a value of
// a name written in the sentence or another number quoted in it.
type operand struct {
	v    float64
	unit unit
	// key groups operands that a ratio or percent change may relate: the
	// same item or backend field in several backends. Quoted numbers have
	// key "" and relate to each other.
	key     string
	owner   string // the item or backend label; a pair of one owner's values in one backend is one quantity
	backend uint32
	field   uint32 // the field of an item's value
	item    bool   // a value of a named item
	total   bool   // a backend's own number (a total a share is taken of)
	quoted  bool
	// context marks a number of the previous sentence: it relates only to
	// this sentence's own numbers, never to another earlier one or to the
	// data directly.
	context bool
}

// maxOperands bounds the pairs tried per number.
const maxOperands = 160

// derivable reports whether the qi-th quote of s can be recomputed from
// the sentence's other facts: the sum or difference of two of them, the sum
// of the named items in one backend or of the numbers quoted before it, or
// (for a percentage) the ratio or percent change of two related times or
// shares ("0.88 → 0.50 ms, 43% less", "`fp16` is 57% faster than
// `fp32`"). A value computed from the data must match within the quote's
// rounding; one derived from other rounded quotes is accepted within 1% of
// itself besides that. With wide, a sentence that names no backend also
// relates the numbers of every backend in sc ("the engine is 0.41 ms
// slower": a difference of two backends' totals).
func (x *index) derivable(l *line, s sentence, qi int, bound []span, sc scope, wide bool, context []quote) bool {
	q := s.quotes[qi]
	// A value computed from n values of the data may be written as the
	// sum of their rounded values: each part and the result rounded to the
	// quote's last digit. One computed from other rounded quotes may be
	// off by 1% more.
	exactN := func(d float64, n int) bool {
		return !math.IsNaN(d) && !math.IsInf(d, 0) && math.Abs(d-q.value) <= float64(n+1)*q.tol*(1+1e-9)+1e-12
	}
	exact := func(d float64) bool { return exactN(d, 2) }
	rounded := func(d float64) bool {
		return !math.IsNaN(d) && !math.IsInf(d, 0) && math.Abs(d-q.value) <= q.tol+0.01*math.Abs(d)
	}
	if x.namedSum(s.spans, q.unit, exactN) || len(bound) >= 2 && x.namedSum(bound, q.unit, exactN) {
		return true
	}
	// Quoted numbers come first: with many names, the operands kept for
	// the pairwise search are the sentence's own numbers.
	var ops []operand
	var quotedSum float64
	nQuoted := 0
	for j, o := range s.quotes {
		if j == qi {
			continue
		}
		ops = append(ops, operand{v: o.value, unit: o.unit, quoted: true})
		if j < qi && o.unit == q.unit {
			quotedSum += o.value
			nQuoted++
		}
	}
	if nQuoted >= 2 && rounded(quotedSum) {
		return true
	}
	// The previous sentence's numbers: "That is 61% of the 0.114 ms
	// between the layer sums" relates a number written just before.
	for _, o := range context {
		ops = append(ops, operand{v: o.value, unit: o.unit, quoted: true, context: true})
	}
	backendOps := func(lv *values) {
		for _, u := range units {
			for _, f := range lv.of(u) {
				ops = append(ops, operand{v: f.v, unit: u, key: "backend." + x.strs[f.field], owner: "\x00backend", backend: f.backend, total: true})
			}
		}
	}
	for _, sp := range s.spans {
		if v := x.lookup(sp.text, sc); v != nil {
			for _, u := range units {
				for _, f := range v.of(u) {
					ops = append(ops, operand{v: f.v, unit: u, key: "item:" + sp.text + "." + x.strs[f.field], owner: sp.text, backend: f.backend, field: f.field, item: true})
				}
			}
		} else if lv := x.labels[sp.text]; lv != nil {
			backendOps(lv)
		}
	}
	if wide && sc.labels == nil {
		labels := make([]string, 0, len(x.labels))
		for l := range x.labels {
			labels = append(labels, l)
		}
		sort.Strings(labels)
		for _, l := range labels {
			backendOps(x.labels[l])
		}
	}
	if len(ops) > maxOperands {
		ops = ops[:maxOperands]
	}
	for i := range ops {
		for j := range ops {
			a, b := ops[i], ops[j]
			ok := exact
			if a.quoted || b.quoted {
				ok = rounded
			}
			if i == j || !a.quoted && !b.quoted && a.owner == b.owner && a.backend == b.backend {
				continue
			}
			if (a.context || b.context) && !(a.quoted && b.quoted && !(a.context && b.context)) {
				continue
			}
			if a.item && b.item && a.field != b.field {
				continue // two items relate through one field: avg_ms with avg_ms, recoverable_ms with recoverable_ms
			}
			// Sums add parts of one backend; differences also compare one
			// item or field across backends ("0.034 ms more than in ...").
			sameRun := a.backend == b.backend || a.quoted || b.quoted
			// A backend's own numbers (dozens of times and statistics)
			// add to a quote or an item's value only by chance: they
			// relate to the same field of another backend.
			if a.total != b.total || a.total && b.total {
				sameRun = false
			}
			if a.unit == q.unit && b.unit == q.unit && (sameRun && ok(a.v+b.v) || (sameRun || a.key == b.key) && ok(a.v-b.v)) {
				return true
			}
			if a.unit != b.unit || b.v == 0 {
				continue
			}
			// One field relates across backends (or items); two elements
			// of one backend's list (its largest activations' bytes) do
			// not.
			related := a.key == b.key && a.key != "" && !(a.total && b.total && a.backend == b.backend) || a.quoted && b.quoted
			if q.unit == unitRatio {
				// "1.36× slower": the same quantity in two backends, two
				// of one backend's totals ("the layer sum is 1.34× the
				// measured latency"), or two quoted numbers.
				if (related || a.total && b.total && a.backend == b.backend) && ok(a.v/b.v) {
					return true
				}
				continue
			}
			if q.unit != unitPct {
				continue
			}
			share := a.unit == unitMs && b.total && (a.backend == b.backend || a.quoted)
			if (related || share) && ok(100*a.v/b.v) {
				return true
			}
			if related && (ok(100*(a.v-b.v)/b.v) || ok(100*(b.v-a.v)/b.v)) {
				return true
			}
		}
	}
	return false
}

// namedSum reports whether the values of two or more distinct named items
// (layers, types, precisions, tags, findings) in spans add up to an
// accepted value: per backend and per field ("the two QuantizeLinear
// layers take 2.27% together", "`qdq_placement` and `input_quantize`
// recover 0.333 ms"), each item counted once. Backend labels are context,
// not parts.
func (x *index) namedSum(spans []span, u unit, ok func(sum float64, parts int) bool) bool {
	for _, g := range x.sumGroups(spans, u) {
		if g.parts >= 2 && ok(g.sum, g.parts) {
			return true
		}
	}
	return false
}

// sumGroup is the sum of one field of the named items in one backend.
type sumGroup struct {
	backend, field uint32
	sum            float64
	parts          int
}

// sumGroups adds up the named items' values per backend, field and kind
// (layers with layers, findings with findings), each item once, in the
// order of the sentence.
func (x *index) sumGroups(spans []span, u unit) []sumGroup {
	type key struct {
		backend, field uint32
		kind           kind
	}
	sums := map[key]float64{}
	counts := map[key]int{}
	var order []key
	seen := map[string]bool{}
	for _, sp := range spans {
		v := x.lookup(sp.text, scope{}) // an item, or `records[N]`
		if v == nil || seen[sp.text] {
			continue
		}
		seen[sp.text] = true
		once := map[key]bool{}
		for _, f := range v.of(u) {
			k := key{f.backend, f.field, v.kind}
			if once[k] {
				continue // a repeated name in one backend: its first value
			}
			once[k] = true
			if _, ok := sums[k]; !ok {
				order = append(order, k)
			}
			sums[k] += f.v
			counts[k]++
		}
	}
	out := make([]sumGroup, 0, len(order))
	for _, k := range order {
		out = append(out, sumGroup{k.backend, k.field, sums[k], counts[k]})
	}
	return out
}

// closestSum describes the sum of the named items closest to v ("" when
// fewer than two items have values of that unit), for messages.
func (x *index) closestSum(spans []span, u unit, v float64) string {
	var best *sumGroup
	gs := x.sumGroups(spans, u)
	for i := range gs {
		if gs[i].parts >= 2 && (best == nil || math.Abs(gs[i].sum-v) < math.Abs(best.sum-v)) {
			best = &gs[i]
		}
	}
	if best == nil {
		return ""
	}
	suffix := u.suffix()
	return fmt.Sprintf("; their %s in `%s` add up to %s%s", x.strs[best.field], x.strs[best.backend], fmtNum(best.sum), suffix)
}
