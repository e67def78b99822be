// Package mdcheck checks an AI-written analyze.md against the
// analyze-data.json it discusses: exactly the two sections `## Summary` and
// `## Details`, only layer names that exist in the data, and no number that
// contradicts it.
//
// Conventions the checks rely on (SKILL.md tells agents about them): layer,
// layer-type, precision, tag, finding and backend names are written in
// backticks; a name too long to write is `records[N]` (its index in the
// backend's records). Every number with a unit (%, ms, µs, ×, GB/s,
// TFLOP/s, MiB...) is checked, per sentence, never across a sentence end.
// A number written after such names (back to the previous number of the
// same unit) must be one of their values, a value of another item the
// sentence names, or a sum, difference, ratio or percent change the
// checker can recompute from the sentence's facts (and the previous
// sentence's numbers). A backend label binds the number right after it
// ("`fp16`: 0.86 ms"), which must be one of that backend's own numbers. A
// number bound to no name is about the backends the sentence names (all
// of them when it names none) and must be one of their numbers or derived
// from them. Whole-inference times introduced by "total", "inference
// time" or "end to end" must be some backend's. Cut-offs ("below 5 %") are
// the writer's. Each failure names the sentence, the number and the
// closest fact found.
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
			if l.code {
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
	if i := strings.LastIndexByte(s, '#'); i >= 0 && x.labels[s[i+1:]] != nil {
		return false // "run/analyze-data.json#fp16": a backend reference, as compare prints it
	}
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
