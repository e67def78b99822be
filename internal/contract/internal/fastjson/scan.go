package fastjson

import "bytes"

// Scanning helpers shared by the fast schema checker (schemacheck.go) and the
// fast decoder (reader.go). Both read JSON that is already known to be
// syntactically valid, so these only find boundaries; they never report
// errors. Each takes the buffer and a position and returns the position
// after what it consumed.

// SkipWS returns the index of the first non-whitespace byte at or after i.
func SkipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// ScanString reads the string whose opening quote is at b[i]: its raw
// (still escaped) contents, the index after the closing quote, and whether
// it holds escapes. The quote is found with bytes.IndexByte (vectorised)
// and only a string with a backslash before it is walked byte by byte:
// strings are most of an analysis' bytes and few hold an escape.
func ScanString(b []byte, i int) (raw []byte, end int, esc bool) {
	start := i + 1
	q := bytes.IndexByte(b[start:], '"')
	if q < 0 {
		return b[start:], len(b), bytes.IndexByte(b[start:], '\\') >= 0
	}
	if bytes.IndexByte(b[start:start+q], '\\') < 0 {
		return b[start : start+q], start + q + 1, false
	}
	for j := start; j < len(b); j++ {
		switch b[j] {
		case '\\':
			esc = true
			j++
		case '"':
			return b[start:j], j + 1, esc
		}
	}
	return b[start:], len(b), esc
}

// ScalarEnd returns the end of the number or literal starting at b[i].
func ScalarEnd(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// ValueEnd returns the index after the value at or after i (leading
// whitespace skipped).
func ValueEnd(b []byte, i int) int {
	i = SkipWS(b, i)
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		_, i, _ = ScanString(b, i)
		return i
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				_, i, _ = ScanString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	return ScalarEnd(b, i)
}

// NextItem moves to the next member or element of the object or array
// being read, past whitespace and a separating ','; done reports that the
// closing byte was reached instead (and consumed).
func NextItem(b []byte, i int, closing byte) (next int, done bool) {
	i = SkipWS(b, i)
	switch b[i] {
	case closing:
		return i + 1, true
	case ',':
		i = SkipWS(b, i+1)
	}
	return i, false
}
