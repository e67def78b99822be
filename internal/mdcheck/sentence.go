package mdcheck

import (
	"regexp"
	"strings"
)

// sentence is one sentence of a line: its byte range, the code spans and
// the quotes inside it. Numbers are bound to names only within a sentence.
type sentence struct {
	start, end int
	spans      []span
	quotes     []quote
}

// abbreviations whose final dot does not end a sentence.
var abbreviations = []string{"e.g", "i.e", "vs", "etc", "approx", "cf", "resp", "incl", "no", "fig", "eq"}

// sentences splits a line at '.', '!' and '?' followed by a space or the
// end of the line, outside code spans, and not after a number's digits
// ("1.096"), an abbreviation ("e.g.") or an ellipsis.
func sentences(l *line) []sentence {
	t := l.text
	var cuts []int // end offsets (exclusive) of every sentence but the last
	si := 0
	for i := 0; i < len(t); i++ {
		for si < len(l.spans) && l.spans[si].end <= i {
			si++
		}
		if si < len(l.spans) && l.spans[si].start <= i {
			i = l.spans[si].end - 1 // skip the code span
			continue
		}
		c := t[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1 // closing emphasis, brackets and quotes belong to the sentence
		for j < len(t) && strings.IndexByte("*_)]\"'", t[j]) >= 0 {
			j++
		}
		if j < len(t) && t[j] != ' ' && t[j] != '\t' {
			continue
		}
		if c == '.' && (strings.HasSuffix(t[:i], "..") || endsWithAbbreviation(t[:i])) {
			continue
		}
		cuts = append(cuts, j)
		i = j - 1
	}
	qs := prose(l)
	out := make([]sentence, 0, len(cuts)+1)
	from := 0
	for _, end := range append(cuts, len(t)) {
		if end <= from {
			continue
		}
		s := sentence{start: from, end: end}
		for _, sp := range l.spans {
			if sp.start >= from && sp.end <= end {
				s.spans = append(s.spans, sp)
			}
		}
		for _, q := range qs {
			if q.pos >= from && q.end <= end {
				s.quotes = append(s.quotes, q)
			}
		}
		out = append(out, s)
		from = end
	}
	return out
}

func endsWithAbbreviation(s string) bool {
	low := strings.ToLower(s)
	for _, a := range abbreviations {
		if strings.HasSuffix(low, a) {
			before := len(low) - len(a)
			if before == 0 || !isWordByte(low[before-1]) {
				return true
			}
		}
	}
	return false
}

// text is the sentence as written, without a list or heading marker, for
// messages.
func (s sentence) text(l *line) string {
	t := strings.TrimSpace(l.text[s.start:s.end])
	if s.start == 0 {
		t = strings.TrimSpace(listMarkerRE.ReplaceAllString(t, ""))
	}
	return t
}

var listMarkerRE = regexp.MustCompile(`^(#+|>|[-*+]|[0-9]+[.)])\s+`)
