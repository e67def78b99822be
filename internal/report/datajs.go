package report

import (
	"bufio"
	"encoding/binary"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// writeJSAssignment writes `window.NAME = JSON;` with JSON made safe to sit
// in a script: `<`, `>` and `&` become \u escapes (no `</script>` or `<!--`
// can appear), and so does every character outside ASCII (U+2028/U+2029 are
// line terminators in older JS; and a script with even one non-ASCII
// character is held by V8 as two-byte text, which made Chromium on the
// benchmark VM scan a 4 MB columns script ~40% slower). These characters can
// only occur inside JSON strings, where a \u escape means the same
// character, so the value is unchanged.
func writeJSAssignment(w io.Writer, name string, json []byte) error {
	return writeJSWrapped(w, "window."+name+" = ", json, ";\n")
}

// writeJSWrapped writes prefix, json made script-safe, and suffix.
func writeJSWrapped(w io.Writer, prefix string, json []byte, suffix string) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := bw.WriteString(prefix); err != nil {
		return err
	}
	if err := writeEscapedJSON(bw, json); err != nil {
		return err
	}
	if _, err := bw.WriteString(suffix); err != nil {
		return err
	}
	return bw.Flush()
}

// special marks the bytes writeEscapedJSON must look at: the three ASCII
// characters and every byte of a multibyte UTF-8 sequence.
var special = func() (s [256]bool) {
	s['<'], s['>'], s['&'] = true, true, true
	for c := 0x80; c < 0x100; c++ {
		s[c] = true
	}
	return s
}()

const hexDigits = "0123456789abcdef"

// appendU16 appends the escape \uXXXX of the UTF-16 code unit u.
func appendU16(b []byte, u rune) []byte {
	return append(b, '\\', 'u', hexDigits[u>>12&15], hexDigits[u>>8&15], hexDigits[u>>4&15], hexDigits[u&15])
}

// writeEscapedJSON copies json to w, escaping the characters above
// (characters beyond U+FFFF as a surrogate pair, as JSON spells them; a byte
// that is not valid UTF-8, which the contract's encoder never writes, as
// U+FFFD, the character a browser would show). Plain runs are found eight
// bytes at a time and copied in one call, so it runs at about memory speed,
// linear and allocation-free.
func writeEscapedJSON(w *bufio.Writer, json []byte) error {
	var esc [12]byte
	start := 0
	for i := 0; i < len(json); {
		i = safeRun(json, i)
		if i == len(json) {
			break
		}
		var e []byte
		size := 1
		switch c := json[i]; {
		case c < utf8.RuneSelf:
			e = appendU16(esc[:0], rune(c))
		default:
			var r rune
			r, size = utf8.DecodeRune(json[i:])
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				e = appendU16(appendU16(esc[:0], r1), r2)
			} else {
				e = appendU16(esc[:0], r)
			}
		}
		if _, err := w.Write(json[start:i]); err != nil {
			return err
		}
		if _, err := w.Write(e); err != nil {
			return err
		}
		i += size
		start = i
	}
	_, err := w.Write(json[start:])
	return err
}

// safeRun returns the index of the first byte from i on that may need
// escaping (see special), or len(b), testing eight bytes at a time: a word
// is skipped when none of its bytes equals '<', '>' or '&' and none has its
// high bit set. The zero-byte test can flag a plain byte after a real match,
// never miss one; the caller's byte check sorts that out.
func safeRun(b []byte, i int) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		lt, gt, amp := x^(ones*'<'), x^(ones*'>'), x^(ones*'&')
		if (x|(lt-ones)&^lt|(gt-ones)&^gt|(amp-ones)&^amp)&high != 0 {
			break
		}
	}
	for ; i < len(b) && !special[b[i]]; i++ {
	}
	return i
}
