package mdcheck

import (
	"bytes"
	"strings"
)

// line is one source line of analyze.md with what the checks need: its
// heading (if any) and its inline code spans. Lines inside fenced or
// indented code blocks carry no spans and are not read for numbers.
type line struct {
	no      int    // 1-based
	text    string // without the line ending
	code    bool   // inside a code block
	heading int    // ATX or setext heading level, 0 when not a heading
	title   string // heading text, trimmed
	spans   []span // inline code spans, in order
}

// span is one inline code span: its content and where it sits in the line
// (start of the opening backticks, end after the closing ones).
type span struct {
	text       string
	start, end int
}

// scan splits md into lines and finds headings and code spans. It follows
// CommonMark closely enough for analyze.md: fenced blocks (``` and ~~~),
// indented code after a blank line, ATX headings, setext headings, and code
// spans delimited by equal backtick runs on one line.
func scan(md []byte) []line {
	md = bytes.TrimPrefix(md, []byte("\xef\xbb\xbf")) // a BOM is not text
	raw := strings.Split(strings.ReplaceAll(string(md), "\r\n", "\n"), "\n")
	if n := len(raw); n > 0 && raw[n-1] == "" {
		raw = raw[:n-1]
	}
	lines := make([]line, len(raw))
	var fence string // the opening fence run while inside a fenced block
	prevBlank := true
	prevPara := false // previous line is paragraph text (for setext)
	indented := false // inside an indented code block
	for i, t := range raw {
		l := &lines[i]
		l.no, l.text = i+1, t
		trim := strings.TrimLeft(t, " ")
		indent := len(t) - len(trim)
		if fence != "" {
			l.code = true
			if indent < 4 && strings.HasPrefix(trim, fence) && strings.Trim(trim, fence[:1]+" \t") == "" {
				fence = ""
			}
			prevBlank, prevPara = false, false
			continue
		}
		if f := fenceRun(trim); f != "" && indent < 4 {
			l.code, fence = true, f
			prevBlank, prevPara = false, false
			continue
		}
		blank := strings.TrimSpace(t) == ""
		if !blank && indent >= 4 && (prevBlank || indented) {
			// An indented code block starts after a blank line and runs
			// over indented lines (blank lines inside do not end it).
			l.code, indented = true, true
			prevBlank, prevPara = false, false
			continue
		}
		if !blank {
			indented = false
		}
		if lvl, title, ok := atxHeading(trim, indent); ok {
			l.heading, l.title = lvl, title
			l.spans = codeSpans(t)
			prevBlank, prevPara = false, false
			continue
		}
		if prevPara && indent < 4 {
			if lvl := setextLevel(trim); lvl > 0 {
				prev := &lines[i-1]
				prev.heading, prev.title = lvl, strings.TrimSpace(prev.text)
				prevBlank, prevPara = false, false
				continue
			}
		}
		if !blank {
			l.spans = codeSpans(t)
		}
		prevBlank = blank
		prevPara = !blank && !isThematicBreak(trim) && !strings.HasPrefix(trim, ">")
	}
	return lines
}

// fenceRun returns the backtick or tilde run that opens a fenced block.
func fenceRun(s string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		if n >= 3 {
			if c == '`' && strings.Contains(s[n:], "`") {
				return "" // an info string cannot hold a backtick
			}
			return s[:n]
		}
	}
	return ""
}

// atxHeading parses "## Title ##".
func atxHeading(s string, indent int) (int, string, bool) {
	if indent > 3 {
		return 0, "", false
	}
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(s) && s[n] != ' ' && s[n] != '\t') {
		return 0, "", false
	}
	title := strings.TrimSpace(s[n:])
	// A closing run of '#' preceded by a space is not part of the title.
	if j := strings.TrimRight(title, "#"); j != title && (j == "" || strings.HasSuffix(j, " ")) {
		title = strings.TrimSpace(j)
	}
	return n, title, true
}

// setextLevel is 1 for "===" and 2 for "---" underlines, else 0.
func setextLevel(s string) int {
	s = strings.TrimRight(s, " \t")
	if s == "" {
		return 0
	}
	if strings.Trim(s, "=") == "" {
		return 1
	}
	if strings.Trim(s, "-") == "" {
		return 2
	}
	return 0
}

func isThematicBreak(s string) bool {
	s = strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), "\t", "")
	if len(s) < 3 {
		return false
	}
	return strings.Trim(s, "-") == "" || strings.Trim(s, "*") == "" || strings.Trim(s, "_") == ""
}

// codeSpans finds `code` spans on one line: an opening run of n backticks
// closes at the next run of exactly n. One leading and trailing space is
// stripped when both are present, as CommonMark does.
func codeSpans(t string) []span {
	var out []span
	for i := 0; i < len(t); {
		if t[i] == '\\' && i+1 < len(t) {
			i += 2 // an escaped backtick opens nothing
			continue
		}
		if t[i] != '`' {
			i++
			continue
		}
		n := run(t, i)
		closeAt := -1
		for j := i + n; j < len(t); {
			if t[j] != '`' {
				j++
				continue
			}
			m := run(t, j)
			if m == n {
				closeAt = j
				break
			}
			j += m
		}
		if closeAt < 0 {
			i += n // unmatched run: literal backticks
			continue
		}
		c := t[i+n : closeAt]
		if len(c) >= 2 && c[0] == ' ' && c[len(c)-1] == ' ' && strings.Trim(c, " ") != "" {
			c = c[1 : len(c)-1]
		}
		out = append(out, span{text: c, start: i, end: closeAt + n})
		i = closeAt + n
	}
	return out
}

func run(t string, i int) int {
	n := 0
	for i+n < len(t) && t[i+n] == '`' {
		n++
	}
	return n
}
