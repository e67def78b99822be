package report

import (
	"bufio"
	"fmt"
	"io"
	"unicode/utf8"
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

// special marks the bytes writeEscapedJSON must look at.
var special = [256]bool{'<': true, '>': true, '&': true, 0xE2: true}

// writeEscapedJSON copies json to w, escaping the characters above. It
// copies unescaped runs in one call, so it is linear and allocation-free.
func writeEscapedJSON(w *bufio.Writer, json []byte) error {
	start := 0
	for i := 0; i < len(json); {
		// Skip to the next byte that may need escaping (0xE2 starts U+2028/9).
		for i < len(json) && !special[json[i]] {
			i++
		}
		if i == len(json) {
			break
		}
		c := json[i]
		var esc string
		size := 1
		switch {
		case c == '<':
			esc = `\u003c`
		case c == '>':
			esc = `\u003e`
		case c == '&':
			esc = `\u0026`
		case c == 0xE2 && i+2 < len(json) && json[i+1] == 0x80 && (json[i+2] == 0xA8 || json[i+2] == 0xA9):
			r, n := utf8.DecodeRune(json[i:])
			size = n
			esc = fmt.Sprintf(`\u%04x`, r)
		}
		if esc == "" {
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
