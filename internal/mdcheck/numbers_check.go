package mdcheck

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// checkNumbers checks every number with a unit in each sentence of l. A
// number is bound to the names written before it in its sentence, back to
// the previous number of the same unit (never across a sentence end):
// layers, layer types, precisions, tags and finding ids, and a backend
// label written right before it ("`fp16`: 0.86 ms"). A bound number must
// be one of their values, a value of another item the sentence names, a
// backend total, or a number the checker can recompute from the
// sentence's facts (a sum, a difference, a ratio or a percent change). A
// number bound to nothing is about the backends the sentence names (all
// of them when it names none): it must be one of their numbers (timing,
// diagnosis, findings, breakdowns, comparison, device), or a difference,
// ratio, percent change or share of them. A time introduced as a total
// must be some backend's.
func checkNumbers(l *line, x *index) []Problem {
	var ps []Problem
	var context []quote // the previous sentence's numbers
	for _, s := range sentences(l) {
		var lastEnd [numUnits]int
		for i := range lastEnd {
			lastEnd[i] = s.start
		}
		sc := x.scopeOf(s)
		for qi, q := range s.quotes {
			if x.inProperName(l.text, q.pos, q.end) {
				continue // "NVIDIA A100 80GB PCIe": part of a name
			}
			if isThreshold(l.text[s.start:q.pos]) {
				// "`FP16` layers below 5 %": a cut-off the writer chose,
				// not a value of the names before it.
				lastEnd[q.unit] = q.end
				continue
			}
			var cands []fact
			var bound []span
			for _, sp := range s.spans {
				if sp.start < lastEnd[q.unit] || sp.end > q.pos {
					continue
				}
				if v := x.lookup(sp.text, sc); v != nil && len(v.of(q.unit)) > 0 {
					cands = append(cands, v.of(q.unit)...)
					bound = append(bound, sp)
				} else if lv := x.labels[sp.text]; lv != nil && len(lv.of(q.unit)) > 0 && labelAdjacent(l.text[sp.end:q.pos]) {
					cands = append(cands, lv.of(q.unit)...)
					bound = append(bound, sp)
				}
			}
			lastEnd[q.unit] = q.end
			totals := x.allTotals()
			switch {
			case len(bound) > 0:
				if q.matchesFact(cands) || q.unit == unitMs && q.matchesFact(totals) || x.derivable(l, s, qi, bound, sc, false, context) || q.matchesFact(x.namedFacts(s, q.unit, sc)) || q.matchesFact(x.pairFacts(sc, q.unit)) || q.matchesFact(x.ownerFacts(bound, q.unit, sc)) {
					continue
				}
				near := cands
				if q.unit == unitMs {
					near = append(near[:len(near):len(near)], totals...)
				}
				ps = append(ps, Problem{l.no, fmt.Sprintf("%s after %s matches none of their values (closest: %s%s) and is not a sum, difference, ratio or percent change of this sentence's numbers; quote the data's value rounded, or give a number about something else its own sentence — in: %q",
					q.text, names(bound), x.describe(closest(near, q.value), q.unit), x.closestSum(bound, q.unit, q.value), clip(s.text(l)))})
			case q.unit == unitMs && x.isTotalMention(l, s, q):
				if q.matchesFact(totals) || x.derivable(l, s, qi, nil, sc, false, context) {
					continue
				}
				near := ""
				if len(totals) > 0 {
					near = "closest: " + x.describe(closest(totals, q.value), unitMs) + "; "
				}
				ps = append(ps, Problem{l.no, fmt.Sprintf("%s is quoted as a total/inference time but no backend has it (%s%s) — in: %q", q.text, near, x.totalsText(), clip(s.text(l)))})
			default:
				pool := x.scopeFacts(sc, q.unit)
				pool = append(pool, x.namedFacts(s, q.unit, sc)...)
				pool = append(pool, x.pairFacts(sc, q.unit)...)
				if q.matchesFact(pool) || x.derivable(l, s, qi, nil, sc, true, context) {
					continue
				}
				ps = append(ps, Problem{l.no, fmt.Sprintf("%s is not a number of %s in the data (closest: %s) nor a sum, difference, ratio or percent change of them; quote the value from analyze-data.json rounded, name what it belongs to in backticks, or write a number that is not from the data without a unit — in: %q",
					q.text, x.scopeText(sc), x.describe(closest(pool, q.value), q.unit), clip(s.text(l)))})
			}
		}
		context = s.quotes
	}
	return ps
}

// labelAdjacentRE is the text allowed between a backend label and the
// number that is the label's own: punctuation and a linking verb
// ("`fp16`: 0.86 ms", "`int8` takes 1.1 ms", "`fp32` (2.00 ms)").
var labelAdjacentRE = regexp.MustCompile(`(?i)^[\s:=,(\[~≈–—-]*((takes|took|is|was|runs in|runs at|at|measures|measured|needs|averages|of)\s+)?(about|around|approximately|~|≈)?\s*$`)

func labelAdjacent(gap string) bool { return labelAdjacentRE.MatchString(gap) }

// thresholdRE ends the text before a number that is a cut-off, not a
// measured value: "below 5 %", "under 1%", "> 3 %", "at least 0.1 ms".
var thresholdRE = regexp.MustCompile(`(?i)(\b(below|under|above|over|exceeding|beyond|less than|more than|fewer than|greater than|at least|at most|threshold( of)?|cut-?off( of)?)|[<>≤≥])\s*[~≈]?\s*$`)

func isThreshold(before string) bool { return thresholdRE.MatchString(before) }

func (q quote) matchesFact(fs []fact) bool {
	for _, f := range fs {
		if q.matches(f.v) {
			return true
		}
	}
	return false
}

// matches reports whether v, written to the quote's precision, is the
// quote (in either reading of an ambiguous byte unit).
func (q quote) matches(v float64) bool {
	return math.Abs(v-q.value) <= q.tol*(1+1e-9)+1e-12 || q.alt != 0 && math.Abs(v-q.alt) <= q.altTol*(1+1e-9)+1e-12
}

func closest(fs []fact, v float64) *fact {
	var best *fact
	for i := range fs {
		if best == nil || math.Abs(fs[i].v-v) < math.Abs(best.v-v) {
			best = &fs[i]
		}
	}
	return best
}

// describe names a fact for a message: "`MaxPool_12` (layer) percentage
// 8.6916% in `int8-qat`".
func (x *index) describe(f *fact, u unit) string {
	if f == nil {
		return "none"
	}
	suffix := u.suffix()
	if f.owner.name == "" {
		return fmt.Sprintf("`%s` %s %s%s", x.strs[f.backend], x.strs[f.field], fmtNum(f.v), suffix)
	}
	return fmt.Sprintf("`%s` (%s) %s %s%s in `%s`", clip(f.owner.name), f.owner.kind, x.strs[f.field], fmtNum(f.v), suffix, x.strs[f.backend])
}

func names(items []span) string {
	parts := make([]string, 0, len(items))
	seen := map[string]bool{}
	for _, s := range items {
		if !seen[s.text] {
			seen[s.text] = true
			parts = append(parts, "`"+clip(s.text)+"`")
		}
	}
	return strings.Join(parts, " / ")
}

var (
	totalBeforeRE = regexp.MustCompile(`(?i)\b(total|inference|end-to-end)(\s+(time|latency))?(\s+(is|was|of|at|about|around|approximately|≈|~|=|:))*\s*[:=~≈]?\s*$`)
	totalAfterRE  = regexp.MustCompile(`(?i)^\s*(total\b|of total inference\b|end[- ]to[- ]end\b)`)
	perInfRE      = regexp.MustCompile(`(?i)^\s*(per|an|each|a single|one) inference\b`)
	// partRE finds a counted group of layers before a number: its total
	// is the group's, not the inference's.
	partRE  = regexp.MustCompile(`(?i)\b([0-9]+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|these|those|both)\s+(\S+\s+)?(layers|reformats|kernels|convolutions|convs|ops|nodes|quantizes|dequantizes|copies|transposes|gemms|matmuls|findings|casts)\b|\btogether\b`)
	wholeRE = regexp.MustCompile(`(?i)\b(engine|build|model|network|backend)s?\b`)
)

// isTotalMention is true for "total 1.096 ms", "average inference time of
// 1.096 ms", "0.862 ms end to end" and "the engine takes 0.5 ms per
// inference". "The reformat takes 0.08 ms per inference" is not: a layer's
// cost is per inference too.
func (x *index) isTotalMention(l *line, s sentence, q quote) bool {
	text := l.text
	from := max(0, q.pos-48)
	if totalBeforeRE.MatchString(text[from:q.pos]) || totalAfterRE.MatchString(text[q.end:]) {
		// "12 reformats take a total of 0.279 ms" totals a part.
		return !partRE.MatchString(text[s.start:q.pos])
	}
	if !perInfRE.MatchString(text[q.end:]) || !wholeRE.MatchString(text[s.start:q.pos]) {
		return false
	}
	for _, sp := range s.spans {
		if sp.end <= q.pos && x.items[sp.text] != nil {
			return false // "`Conv_0` in the fp16 engine takes 0.1 ms per inference"
		}
	}
	return true
}

func (x *index) allTotals() []fact {
	var fs []fact
	for _, t := range x.totals {
		fs = append(fs, t.ms...)
	}
	return fs
}

func (x *index) totalsText() string {
	if len(x.totals) == 0 {
		return "the data has no timed backend"
	}
	parts := make([]string, 0, len(x.totals))
	for _, t := range x.totals {
		avg := t.ms[0]
		for _, f := range t.ms {
			if strings.HasSuffix(x.strs[f.field], "average_inference_ms") {
				avg = f
			}
		}
		parts = append(parts, fmt.Sprintf("%s %s %s", t.label, x.strs[avg.field][strings.LastIndexByte(x.strs[avg.field], '.')+1:], fmtNum(avg.v)))
	}
	if len(parts) > 6 {
		parts = append(parts[:6], fmt.Sprintf("and %d more", len(parts)-6))
	}
	return strings.Join(parts, ", ")
}
