package cli

import (
	"bytes"
	"fmt"
	"io"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// termWriter makes everything trtperf prints safe for a terminal: names of
// layers, backends, models and files come from the input, and a control
// character in them could move the cursor, clear the screen, set the
// clipboard (OSC 52) or reorder the text (bidi overrides). Every C0
// control but newline and tab, DEL, every C1 control and the bidi
// controls are written as visible escapes (\x1b, \u009b, \u202e). With
// colour on, only the exact SGR sequences the summary colours with pass.
// Inside JSON strings the escapes \u009b and \u202e mean the same
// character, so JSON stays valid and equal; C0 controls never reach the
// writer raw from a JSON encoder.
type termWriter struct {
	w       io.Writer
	color   bool   // let allowedSGR through
	pending []byte // an incomplete escape sequence or UTF-8 character
}

// allowedSGR are the colour sequences of internal/summary's palette.
var allowedSGR = [][]byte{[]byte("\x1b[0m"), []byte("\x1b[1m"), []byte("\x1b[2m"), []byte("\x1b[31m"), []byte("\x1b[32m"), []byte("\x1b[33m")}

func newTermWriter(w io.Writer) *termWriter { return &termWriter{w: w} }

// rawWriter returns the writer under a termWriter, for output that must be
// byte-exact (the contract JSON of analyze, which escapes controls itself).
func rawWriter(w io.Writer) io.Writer {
	if t, ok := w.(*termWriter); ok {
		t.flushPending()
		return t.w
	}
	return w
}

func (t *termWriter) Write(p []byte) (int, error) {
	n := len(p)
	if len(t.pending) > 0 {
		p = append(t.pending, p...)
		t.pending = nil
	}
	var out bytes.Buffer
	out.Grow(len(p))
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\n' || c == '\t' || c >= 0x20 && c < 0x7f:
			out.WriteByte(c)
			i++
			continue
		case c == 0x1b && t.color:
			if sgr := matchSGR(p[i:]); sgr > 0 {
				out.Write(p[i : i+sgr])
				i += sgr
				continue
			} else if sgr < 0 { // may complete in the next write
				t.pending = append(t.pending, p[i:]...)
				i = len(p)
				continue
			}
		case c < 0x80:
			fmt.Fprintf(&out, `\x%02x`, c)
			i++
			continue
		}
		if c < 0x80 { // ESC that is not an allowed colour
			fmt.Fprintf(&out, `\x%02x`, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 && !utf8.FullRune(p[i:]) {
			t.pending = append(t.pending, p[i:]...)
			break
		}
		if unsafeRune(r) {
			writeRuneEscape(&out, r)
		} else if r == utf8.RuneError && size == 1 { // not UTF-8: 0x9b is CSI elsewhere
			fmt.Fprintf(&out, `\x%02x`, c)
		} else {
			out.Write(p[i : i+size])
		}
		i += size
	}
	if _, err := t.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return n, nil
}

// flushPending writes an incomplete tail as escapes (end of output).
func (t *termWriter) flushPending() {
	if len(t.pending) == 0 {
		return
	}
	p := t.pending
	t.pending = nil
	var out bytes.Buffer
	for _, c := range p {
		fmt.Fprintf(&out, `\x%02x`, c)
	}
	t.w.Write(out.Bytes())
}

// matchSGR returns the length of an allowed colour sequence at the start
// of p, -1 when p is a prefix of one, 0 otherwise.
func matchSGR(p []byte) int {
	for _, s := range allowedSGR {
		if bytes.HasPrefix(p, s) {
			return len(s)
		}
	}
	for _, s := range allowedSGR {
		if len(p) < len(s) && bytes.HasPrefix(s, p) {
			return -1
		}
	}
	return 0
}

// unsafeRune reports the characters a terminal must not get raw: C1
// controls and bidi controls (they act), and every character that shows
// nothing or shows as a plain space, so that two labels or names that
// differ only by one (fp16 and fp16 with a zero-width space) look
// different: Unicode format characters (zero-width spaces and joiners,
// word joiner, BOM, soft hyphen, tags), line and paragraph separators,
// spaces other than U+0020, variation selectors, the combining grapheme
// joiner and the blank Hangul fillers and Braille pattern.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == ' ' || r < 0x80:
		return false
	case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Zs, unicode.Variation_Selector):
		return true
	}
	switch r {
	case 0x034f, 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800:
		return true
	}
	return false
}

// writeRuneEscape writes r as \uXXXX (a surrogate pair above U+FFFF), an
// escape JSON reads as the same character.
func writeRuneEscape(out *bytes.Buffer, r rune) {
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		fmt.Fprintf(out, `\u%04x\u%04x`, hi, lo)
		return
	}
	fmt.Fprintf(out, `\u%04x`, r)
}
