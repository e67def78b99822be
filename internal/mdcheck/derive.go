package mdcheck

import "math"

// operand is one number a derived value may be computed from: a value of
// a name written in the sentence or another number quoted in it.
type operand struct {
	v    float64
	unit unit
	// key groups operands that a ratio or percent change may relate: the
	// same item or backend field in several backends. Quoted numbers have
	// key "" and relate to each other.
	key      string
	owner    string // the item or backend label; a pair of one owner's values in one backend is one quantity
	backend  uint32
	primary  bool
	total    bool // a backend's own number (a total a share is taken of)
	quoted   bool
	fromItem bool
}

// maxOperands bounds the pairs tried per number.
const maxOperands = 48

// derivable reports whether the qi-th quote of s can be recomputed from
// the sentence's other facts: the sum or difference of two of them, the sum
// of the named items in one backend or of the numbers quoted before it, or
// (for a percentage) the ratio or percent change of two related times or
// shares ("0.88 → 0.50 ms, 43% less", "`fp16` is 57% faster than
// `fp32`"). A value derived from rounded quotes is accepted within 1% of
// itself besides the quote's own rounding.
func (x *index) derivable(l *line, s sentence, qi int) bool {
	q := s.quotes[qi]
	var ops []operand
	for _, sp := range s.spans {
		if v := x.items[sp.text]; v != nil {
			for _, u := range []unit{unitPct, unitMs} {
				for _, f := range v.of(u) {
					ops = append(ops, operand{v: f.v, unit: u, key: "item:" + sp.text + "." + x.strs[f.field], owner: sp.text, backend: f.backend, primary: f.primary, fromItem: true})
				}
			}
		} else if lv := x.labels[sp.text]; lv != nil {
			for _, u := range []unit{unitPct, unitMs} {
				for _, f := range lv.of(u) {
					ops = append(ops, operand{v: f.v, unit: u, key: "backend." + x.strs[f.field], owner: "\x00backend", backend: f.backend, total: true})
				}
			}
		}
	}
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
	if len(ops) > maxOperands {
		ops = ops[:maxOperands]
	}
	ok := func(d float64) bool {
		return !math.IsNaN(d) && !math.IsInf(d, 0) && math.Abs(d-q.value) <= q.tol+0.01*math.Abs(d)
	}
	if nQuoted >= 2 && ok(quotedSum) {
		return true
	}
	// The named items' values in one backend, added up.
	sums := map[uint32]float64{}
	counts := map[uint32]int{}
	for _, o := range ops {
		if o.fromItem && o.primary && o.unit == q.unit {
			sums[o.backend] += o.v
			counts[o.backend]++
		}
	}
	for b, v := range sums {
		if counts[b] >= 2 && ok(v) {
			return true
		}
	}
	for i := range ops {
		for j := range ops {
			a, b := ops[i], ops[j]
			if i == j || !a.quoted && !b.quoted && a.owner == b.owner && a.backend == b.backend {
				continue
			}
			// Sums add parts of one backend; differences also compare one
			// item or field across backends ("0.034 ms more than in ...").
			sameRun := a.backend == b.backend || a.quoted || b.quoted
			if a.unit == q.unit && b.unit == q.unit && (sameRun && ok(a.v+b.v) || (sameRun || a.key == b.key) && ok(a.v-b.v)) {
				return true
			}
			if q.unit != unitPct || a.unit != b.unit || b.v == 0 {
				continue
			}
			related := a.key == b.key && a.key != "" || a.quoted && b.quoted
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
