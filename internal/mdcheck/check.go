// Package mdcheck checks an AI-written analyze.md against the
// analyze-data.json it discusses: exactly the two sections `## Summary` and
// `## Details`, only layer names that exist in the data, and no number that
// contradicts it.
//
// Conventions the checks rely on (SKILL.md tells agents about them): layer,
// layer-type, precision, tag and backend names are written in backticks; a
// percentage or time written right after such a name (before the next
// backticked name) is that item's own value; whole-inference times are
// introduced by "total" or "inference".
package mdcheck

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// Problem is one finding of the check; Line 0 is the whole document.
type Problem struct {
	Line    int
	Message string
}

func (p Problem) String() string {
	if p.Line == 0 {
		return "document: " + p.Message
	}
	return fmt.Sprintf("line %d: %s", p.Line, p.Message)
}

// Section titles analyze.md must have, in this order.
const (
	SectionSummary = "Summary"
	SectionDetails = "Details"
)

// Check returns the problems of md as an analysis of d, ordered by line.
// A nil d checks the sections only.
func Check(md []byte, d *contract.AnalyzeData) []Problem {
	lines := scan(md)
	ps := checkSections(lines)
	if d != nil {
		x := newIndex(d)
		for i := range lines {
			l := &lines[i]
			if l.code || len(l.spans) == 0 && !mentionsTotal(l.text) {
				continue
			}
			ps = append(ps, checkNames(l, x)...)
			ps = append(ps, checkNumbers(l, x)...)
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	return ps
}

// checkSections enforces: an optional level-1 title first, then
// `## Summary`, then `## Details`, nothing else at level 1 or 2, and no
// empty section.
func checkSections(lines []line) []Problem {
	var ps []Problem
	summary, details := 0, 0 // line numbers, 0 when absent
	seen := false            // a level ≤ 2 heading was seen
	content := map[int]bool{}
	cur := 0 // line of the current level-2 section
	for i := range lines {
		l := &lines[i]
		switch {
		case l.heading == 1:
			if seen {
				ps = append(ps, Problem{l.no, fmt.Sprintf("level-1 heading %q: only one optional title (# ...) is allowed, before ## Summary", l.title)})
			}
			seen = true
			cur = 0
		case l.heading == 2:
			seen = true
			cur = l.no
			switch l.title {
			case SectionSummary:
				if summary != 0 {
					ps = append(ps, Problem{l.no, fmt.Sprintf("second ## Summary (the first is on line %d); merge them", summary)})
				} else if details != 0 {
					ps = append(ps, Problem{l.no, "## Summary must come before ## Details"})
				}
				if summary == 0 {
					summary = l.no
				}
			case SectionDetails:
				if details != 0 {
					ps = append(ps, Problem{l.no, fmt.Sprintf("second ## Details (the first is on line %d); merge them", details)})
				}
				if details == 0 {
					details = l.no
				}
			default:
				hint := "use ### for sub-sections inside ## Details"
				if strings.EqualFold(l.title, SectionSummary) || strings.EqualFold(l.title, SectionDetails) {
					hint = "write the title exactly as ## Summary or ## Details"
				}
				ps = append(ps, Problem{l.no, fmt.Sprintf("section %q is not allowed: analyze.md has exactly two sections, ## Summary and ## Details; %s", "## "+l.title, hint)})
			}
		case cur != 0 && (l.heading > 2 || strings.TrimSpace(l.text) != ""):
			content[cur] = true
		}
	}
	if summary == 0 {
		ps = append(ps, Problem{0, "no ## Summary section; start with ## Summary (a few lines: verdict, biggest cost, first thing to try)"})
	} else if !content[summary] {
		ps = append(ps, Problem{summary, "## Summary is empty"})
	}
	if details == 0 {
		ps = append(ps, Problem{0, "no ## Details section; put the evidence, hypotheses and next experiments under ## Details"})
	} else if !content[details] {
		ps = append(ps, Problem{details, "## Details is empty"})
	}
	return ps
}

// checkNames flags backticked strings that look like layer names and name
// nothing in the data.
func checkNames(l *line, x *index) []Problem {
	var ps []Problem
	for _, s := range l.spans {
		name := s.text
		if x.exists(name) || !looksLikeLayer(name, x) {
			continue
		}
		msg := fmt.Sprintf("`%s` is not a layer name in the data; cite names exactly as results[].records[].name has them", clip(name))
		if strings.Contains(name, "…") {
			msg += " (issue evidence shortens long names with …; copy the full name from records)"
		}
		ps = append(ps, Problem{l.no, msg})
	}
	return ps
}

var (
	opNameRE    = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*_[0-9]+$`)
	fieldPathRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*(\[[^\]]*\])?(\.[a-z_][a-z0-9_]*(\[[^\]]*\])?)*$`)
	fileExtRE   = regexp.MustCompile(`(?i)\.(json|md|onnx|engine|plan|trt|sh|cmd|bat|txt|html|py|log|csv)$`)
	commandRE   = regexp.MustCompile(`^(trtperf|trtexec|run\.sh|run\.cmd|scripts/|nsys|ncu|polygraphy|python|go |sh |\./|\.\./|~/|\$)`)
)

// looksLikeLayer is true for strings that only a layer name would be:
// TensorRT and ONNX naming marks (a path, a fusion " + ", a bracket, Myelin
// suffixes) or an ONNX node name such as Conv_9. Commands, file names, JSON
// field paths and "A/B" lists of known names are not layer names.
func looksLikeLayer(s string, x *index) bool {
	if s == "" || strings.HasPrefix(s, "-") || strings.Contains(s, "://") || fileExtRE.MatchString(s) || commandRE.MatchString(s) || fieldPathRE.MatchString(s) {
		return false
	}
	if strings.Contains(s, "/") && !strings.Contains(s, " + ") {
		all := true
		for _, p := range strings.Split(s, "/") {
			if p == "" || !x.exists(p) {
				all = false
				break
			}
		}
		if all {
			return false // "FP16/INT8": a list of known names
		}
	}
	for _, m := range []string{"/", " + ", "[", "_myl", "{ForeignNode", "Reformatting CopyNode", "(Unnamed Layer"} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return opNameRE.MatchString(s)
}

// checkNumbers checks each percentage and time against the backticked
// items written before it on the line (back to the previous number of the
// same unit): it must be the value of one of them. Whole-inference times
// are checked against the backends' totals.
func checkNumbers(l *line, x *index) []Problem {
	var ps []Problem
	qs := prose(l)
	var lastEnd [3]int // end of the previous quote per unit
	for _, q := range qs {
		var want []float64
		var items []span
		for _, s := range l.spans {
			if s.start < lastEnd[q.unit] || s.end > q.pos {
				continue
			}
			v := x.items[s.text]
			if v == nil {
				continue
			}
			vs := v.pcts
			if q.unit == unitMs {
				vs = v.ms
			}
			if len(vs) > 0 {
				want = append(want, vs...)
				items = append(items, s)
			}
		}
		lastEnd[q.unit] = q.end
		switch {
		case len(items) > 0:
			if q.matches(want) || q.unit == unitMs && q.matches(x.allTotals()) {
				continue
			}
			ps = append(ps, Problem{l.no, fmt.Sprintf("%s after %s contradicts the data: %s", q.text, names(items), x.describe(items, q.unit))})
		case q.unit == unitMs && isTotalMention(l.text, q) && !q.matches(x.allTotals()):
			ps = append(ps, Problem{l.no, fmt.Sprintf("%s is quoted as a total/inference time but no backend has it: %s", q.text, x.totalsText())})
		}
	}
	return ps
}

func names(items []span) string {
	parts := make([]string, len(items))
	for i, s := range items {
		parts[i] = "`" + clip(s.text) + "`"
	}
	return strings.Join(parts, " / ")
}

// describe says what the data has for items, e.g. "that layer's share is
// 8.6916%".
func (x *index) describe(items []span, u unit) string {
	what := "share"
	if u == unitMs {
		what = "time"
	}
	parts := make([]string, len(items))
	for i, s := range items {
		v := x.items[s.text]
		vs := v.pcts
		if u == unitMs {
			vs = v.ms
		}
		who := "that " + v.kind.String() + "'s"
		if len(items) > 1 {
			who = "`" + clip(s.text) + "` (" + v.kind.String() + ")"
		}
		parts[i] = fmt.Sprintf("%s %s is %s", who, what, list(vs, u))
	}
	return strings.Join(parts, "; ")
}

// prose returns the quotes of a line outside its code spans.
func prose(l *line) []quote {
	var out []quote
	at := 0
	for _, s := range l.spans {
		out = append(out, quotes(l.text[at:s.start], at)...)
		at = s.end
	}
	return append(out, quotes(l.text[at:], at)...)
}

var (
	totalBeforeRE = regexp.MustCompile(`(?i)\b(total|inference|end-to-end)(\s+(time|latency))?(\s+(is|was|of|at|about|around|approximately|≈|~|=|:))*\s*[:=~≈]?\s*$`)
	totalAfterRE  = regexp.MustCompile(`(?i)^\s*(total\b|per inference\b|of (total )?inference\b|inference\b|end-to-end\b)`)
	totalWordRE   = regexp.MustCompile(`(?i)total|inference|end-to-end`)
)

func mentionsTotal(s string) bool { return totalWordRE.MatchString(s) }

// isTotalMention is true for "total 1.096 ms", "average inference time of
// 1.096 ms" and "1.096 ms per inference".
func isTotalMention(text string, q quote) bool {
	from := max(0, q.pos-48)
	return totalBeforeRE.MatchString(text[from:q.pos]) || totalAfterRE.MatchString(text[q.end:])
}

func (x *index) allTotals() []float64 {
	var vs []float64
	for _, t := range x.totals {
		vs = append(vs, t.ms...)
	}
	return vs
}

func (x *index) totalsText() string {
	if len(x.totals) == 0 {
		return "the data has no timed backend"
	}
	parts := make([]string, 0, len(x.totals))
	for _, t := range x.totals {
		parts = append(parts, fmt.Sprintf("%s average_inference_ms %s", t.label, fmtNum(t.ms[0])))
	}
	if len(parts) > 6 {
		parts = append(parts[:6], fmt.Sprintf("and %d more", len(parts)-6))
	}
	return strings.Join(parts, ", ")
}

// list formats up to four distinct values with the unit.
func list(vs []float64, u unit) string {
	suffix := " ms"
	if u == unitPct {
		suffix = "%"
	}
	seen := map[string]bool{}
	var parts []string
	for _, v := range vs {
		s := fmtNum(v) + suffix
		if seen[s] {
			continue
		}
		seen[s] = true
		parts = append(parts, s)
	}
	if len(parts) > 4 {
		parts = append(parts[:4], "...")
	}
	return strings.Join(parts, " or ")
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', 5, 64) }

// clip shortens very long names in messages (Myelin names run to 700+
// characters).
func clip(s string) string {
	if len(s) <= 120 {
		return s
	}
	r := []rune(s)
	if len(r) <= 120 {
		return s
	}
	return string(r[:117]) + "..."
}
