package report

import (
	"bufio"
	"encoding/binary"
	"io"
)

// writeJSAssignment writes `window.NAME = JSON;` with JSON made safe to sit
// in a script: `<`, `>` and `&` become \u escapes (no `</script>` or `<!--`
// can appear), and so do U+2028/U+2029 (line terminators in older JS). These
// characters can only occur inside JSON strings, where a \u escape means the
// same character, so the value is unchanged.
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

// special marks the bytes writeEscapedJSON must look at (0xE2 starts
// U+2028/9).
var special = [256]bool{'<': true, '>': true, '&': true, 0xE2: true}

// writeEscapedJSON copies json to w, escaping the characters above. Plain
// runs are found eight bytes at a time and copied in one call, so it runs at
// about memory speed, linear and allocation-free.
func writeEscapedJSON(w *bufio.Writer, json []byte) error {
	start := 0
	for i := 0; i < len(json); {
		i = safeRun(json, i)
		if i == len(json) {
			break
		}
		c := json[i]
		if !special[c] {
			i++
			continue
		}
		var esc string
		size := 1
		switch {
		case c == '<':
			esc = `\u003c`
		case c == '>':
			esc = `\u003e`
		case c == '&':
			esc = `\u0026`
		case i+2 < len(json) && json[i+1] == 0x80 && json[i+2] == 0xA8:
			esc, size = `\u2028`, 3
		case i+2 < len(json) && json[i+1] == 0x80 && json[i+2] == 0xA9:
			esc, size = `\u2029`, 3
		default: // another character starting with 0xE2
			i++
			continue
		}
		if _, err := w.Write(json[start:i]); err != nil {
			return err
		}
		if _, err := w.WriteString(esc); err != nil {
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
// is skipped when none of its bytes equals '<', '>', '&' or 0xE2. The
// zero-byte test can flag a plain byte after a real match, never miss one;
// the caller's byte check sorts that out.
func safeRun(b []byte, i int) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		lt, gt, amp, e2 := x^(ones*'<'), x^(ones*'>'), x^(ones*'&'), x^(ones*0xE2)
		if ((lt-ones)&^lt|(gt-ones)&^gt|(amp-ones)&^amp|(e2-ones)&^e2)&high != 0 {
			break
		}
	}
	for ; i < len(b) && !special[b[i]]; i++ {
	}
	return i
}
