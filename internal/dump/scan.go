package dump

import (
	"encoding/binary"
	"fmt"
	"github.com/trtperf/trtperf/internal/jsonnum"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 10000

// strSafe marks bytes that need no attention inside a JSON string.
var strSafe = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanner is a validating JSON reader over an in-memory document. Problems
// are raised as scanError panics and recovered by the parse entry points.
type scanner struct {
	data  []byte
	pos   int
	depth int
	mem   arena
	// intern holds strings that repeat thousands of times in a dump (layer
	// types, formats, tactics, keys).
	intern  map[string]string
	scratch []byte
	// partial: the data is the head of a longer document, cut after a
	// complete member or element; its end closes every open object and
	// list (Sniff reads a head so).
	partial bool
}

func newScanner(data []byte) scanner {
	return scanner{data: data, intern: make(map[string]string, min(256, len(data)/64))}
}

func (s *scanner) failAt(off int, code, what, fix string) {
	panic(scanError{errAt(s.data, off, code, what, fix)})
}

func (s *scanner) malformed(what string) {
	s.failAt(s.pos, CodeMalformed, "malformed JSON: "+what, fixMalformed)
}

// found describes the byte at the current position for error messages.
func (s *scanner) found() string {
	if s.pos >= len(s.data) {
		return "end of file"
	}
	c := s.data[s.pos]
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (s *scanner) unexpected(want string) {
	if s.pos < len(s.data) {
		switch s.data[s.pos] {
		case 'N', 'I':
			s.nonFinite()
		case '-':
			if s.pos+1 < len(s.data) && s.data[s.pos+1] == 'I' {
				s.nonFinite()
			}
		}
	}
	s.malformed("expected " + want + ", found " + s.found())
}

func (s *scanner) nonFinite() {
	lit := "NaN"
	if rest := s.data[s.pos:]; len(rest) > 0 && rest[0] == '-' {
		lit = "-Infinity"
	} else if len(rest) > 0 && rest[0] == 'I' {
		lit = "Infinity"
	}
	s.failAt(s.pos, CodeNonFinite, "non-finite number "+lit, fixNonFinite)
}

// ws skips JSON whitespace.
func (s *scanner) ws() {
	d := s.data
	i := s.pos
	for i < len(d) {
		switch d[i] {
		case ' ', '\n', '\r', '\t':
			i++
			continue
		}
		break
	}
	s.pos = i
}

// peek skips whitespace and returns the next byte without consuming it, or
// 0 at the end of the data.
func (s *scanner) peek() byte {
	s.ws()
	if s.pos >= len(s.data) {
		return 0
	}
	return s.data[s.pos]
}

// atEnd skips whitespace and reports whether the data is exhausted (peek
// cannot tell: a NUL byte also reads as 0).
func (s *scanner) atEnd() bool {
	s.ws()
	return s.pos >= len(s.data)
}

func (s *scanner) enter() {
	s.depth++
	if s.depth > maxDepth {
		s.malformed(fmt.Sprintf("nesting deeper than %d levels", maxDepth))
	}
}

// open consumes the '{' or '[' at the current position and reports whether
// the object or list is empty, in which case its closing byte is consumed
// too.
func (s *scanner) open(closing byte) (empty bool) {
	s.pos++
	s.enter()
	if s.peek() == closing {
		s.pos++
		s.depth--
		return true
	}
	return false
}

// colon consumes the ':' after an object key.
func (s *scanner) colon() {
	if s.peek() != ':' {
		s.unexpected("':' after object key")
	}
	s.pos++
}

// more consumes the separator after a member or element: it returns true
// after ',' and false after the closing byte end.
func (s *scanner) more(end byte) bool {
	switch s.peek() {
	case ',':
		s.pos++
		return true
	case end:
		s.pos++
		s.depth--
		return false
	case 0:
		if s.partial && s.pos >= len(s.data) {
			s.depth--
			return false
		}
	}
	if end == '}' {
		s.unexpected("',' or '}' after object member")
	}
	s.unexpected("',' or ']' after array element")
	return false
}

// key consumes an object key and its colon and returns the raw key bytes
// (escapes undecoded) and whether they hold escapes.
func (s *scanner) key() ([]byte, bool) {
	if s.peek() != '"' {
		s.unexpected("an object key (a string)")
	}
	k, esc := s.rawString()
	s.colon()
	return k, esc
}

// rawString consumes the string at s.pos (which holds '"') and returns its
// content as written and whether it contains escapes. It validates escapes,
// control characters and UTF-8.
func (s *scanner) rawString() ([]byte, bool) {
	d := s.data
	i := s.pos + 1
	start := i
	esc := false
	for {
		i = skipSafe(d, i)
		if i >= len(d) {
			s.pos = start - 1
			s.malformed("string never closed")
		}
		switch c := d[i]; {
		case c == '"':
			s.pos = i + 1
			return d[start:i], esc
		case c == '\\':
			esc = true
			if i+1 >= len(d) {
				s.pos = i
				s.malformed("string never closed")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || !isHex4(d[i+2:i+6]) {
					s.pos = i
					s.malformed(`invalid \u escape in string`)
				}
				i += 6
			default:
				s.pos = i
				s.malformed("invalid escape in string")
			}
		case c < 0x20:
			s.pos = i
			s.malformed(fmt.Sprintf("raw control character U+%04X inside a string (it must be escaped)", c))
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				s.pos = i
				s.malformed("invalid UTF-8 inside a string")
			}
			i += size
		}
	}
}

// skipSafe returns the offset of the first byte at or after i that needs
// attention inside a string ('"', '\\', a control character or a non-ASCII
// byte), testing eight bytes at a time: strings are most of a dump's bytes.
func skipSafe(d []byte, i int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(d) {
		x := binary.LittleEndian.Uint64(d[i:])
		q := x ^ (lo * '"')
		b := x ^ (lo * '\\')
		m := ((q - lo) &^ q) | ((b - lo) &^ b) | ((x - lo*0x20) &^ x) | x
		if m &= hi; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	for i < len(d) && strSafe[d[i]] {
		i++
	}
	return i
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func hexVal(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c <= '9':
			r |= rune(c - '0')
		case c >= 'a':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// unescape decodes the escapes of a validated raw string into dst. C0
// control characters are made visible: U+001E → "␞", U+001F → "␟" (TensorRT
// joins Metadata entries with them), any other as the text \u00XX, so names
// print safely and stay identical wherever they appear.
func unescape(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		switch raw[i+1] {
		case 'u':
			r := hexVal(raw[i+2 : i+6])
			i += 6
			if utf16IsHigh(r) && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
				if lo := hexVal(raw[i+2 : i+6]); utf16IsLow(lo) {
					r = (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000
					i += 6
				}
			}
			if utf16IsHigh(r) || utf16IsLow(r) {
				r = utf8.RuneError
			}
			dst = appendVisible(dst, r)
			continue
		case 'b':
			dst = appendVisible(dst, '\b')
		case 'f':
			dst = appendVisible(dst, '\f')
		case 'n':
			dst = appendVisible(dst, '\n')
		case 'r':
			dst = appendVisible(dst, '\r')
		case 't':
			dst = appendVisible(dst, '\t')
		default: // '"', '\\', '/'
			dst = append(dst, raw[i+1])
		}
		i += 2
	}
	return dst
}

func utf16IsHigh(r rune) bool { return r >= 0xD800 && r < 0xDC00 }
func utf16IsLow(r rune) bool  { return r >= 0xDC00 && r < 0xE000 }

func appendVisible(dst []byte, r rune) []byte {
	switch {
	case r == 0x1e:
		return append(dst, "␞"...)
	case r == 0x1f:
		return append(dst, "␟"...)
	case r < 0x20:
		const hex = "0123456789abcdef"
		return append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
	}
	return utf8.AppendRune(dst, r)
}

// decoded returns the text of a raw string, unescaping into scratch when
// needed. The result is only valid until the next call.
func (s *scanner) decoded(raw []byte, esc bool) []byte {
	if !esc {
		return raw
	}
	s.scratch = unescape(s.scratch[:0], raw)
	return s.scratch
}

// str copies a raw string's text into the arena.
func (s *scanner) str(raw []byte, esc bool) string {
	return s.mem.string(s.decoded(raw, esc))
}

// maxIntern caps each worker's intern table so a dump of unique strings in
// an interned field cannot grow it without bound.
const maxIntern = 1 << 16

// istr returns the interned text of a raw string.
func (s *scanner) istr(raw []byte, esc bool) string {
	return s.internBytes(s.decoded(raw, esc))
}

func (s *scanner) internBytes(b []byte) string {
	if v, ok := s.intern[string(b)]; ok {
		return v
	}
	v := s.mem.string(b)
	if len(s.intern) < maxIntern {
		s.intern[v] = v
	}
	return v
}

// number consumes a JSON number and returns its bytes.
func (s *scanner) number() []byte {
	d := s.data
	i := s.pos
	start := i
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digitsEnd(d, i)
	default:
		if i < len(d) && d[i] == 'I' {
			s.nonFinite()
		}
		s.pos = i
		s.malformed("invalid number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		j := i
		if i = digitsEnd(d, i); i == j {
			s.pos = i
			s.malformed("invalid number: no digits after '.'")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := i
		if i = digitsEnd(d, i); i == j {
			s.pos = i
			s.malformed("invalid number: no digits in exponent")
		}
	}
	s.pos = i
	return d[start:i]
}

// digitsEnd returns the index of the first non-digit at or after i.
func digitsEnd(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

// parseInt converts a validated JSON number to int64; ok is false for
// fractions, exponents and out-of-range values.
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg = true
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// float consumes a number and converts it; out-of-range values are
// non-finite and rejected.
func (s *scanner) float() float64 {
	start := s.pos
	b := s.number()
	if v, ok := parseInt(b); ok {
		return float64(v)
	}
	v, ok := jsonnum.Parse(unsafe.String(unsafe.SliceData(b), len(b)))
	if !ok {
		lit := string(b)
		if len(lit) > 40 {
			lit = lit[:40] + "..."
		}
		s.failAt(start, CodeNonFinite, "number "+lit+" is out of the float64 range (too large, or non-zero and too small)", fixNonFinite)
	}
	return v
}

// literal consumes true, false or null.
func (s *scanner) literal() {
	d := s.data[s.pos:]
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(d) >= len(lit) && string(d[:len(lit)]) == lit {
			s.pos += len(lit)
			return
		}
	}
	s.unexpected("a JSON value")
}

// skip consumes and validates one value of any type.
func (s *scanner) skip() {
	switch c := s.peek(); c {
	case '{':
		if s.open('}') {
			return
		}
		for {
			s.key()
			s.skip()
			if !s.more('}') {
				return
			}
		}
	case '[':
		if s.open(']') {
			return
		}
		for {
			s.skip()
			if !s.more(']') {
				return
			}
		}
	case '"':
		s.rawString()
	case 't', 'f', 'n':
		s.literal()
	default:
		if c == '-' || c >= '0' && c <= '9' {
			if c == '-' && s.pos+1 < len(s.data) && s.data[s.pos+1] == 'I' {
				s.nonFinite()
			}
			s.number()
			return
		}
		s.unexpected("a JSON value")
	}
}

// raw consumes one value and returns it as compact JSON owned by the arena.
func (s *scanner) raw() []byte {
	s.ws()
	start := s.pos
	s.skip()
	seg := s.data[start:s.pos]
	if c := seg[0]; c != '{' && c != '[' {
		return s.mem.bytes(seg)
	}
	s.scratch = compact(s.scratch[:0], seg)
	return s.mem.bytes(s.scratch)
}

// compact appends seg, a validated JSON value, without insignificant
// whitespace.
func compact(dst, seg []byte) []byte {
	in := false
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if in {
			dst = append(dst, c)
			switch c {
			case '\\':
				i++
				dst = append(dst, seg[i])
			case '"':
				in = false
			}
			continue
		}
		switch c {
		case ' ', '\n', '\r', '\t':
			continue
		case '"':
			in = true
		}
		dst = append(dst, c)
	}
	return dst
}

// skipBOM skips a UTF-8 byte order mark some Windows tools write.
func (s *scanner) skipBOM() {
	if len(s.data) >= 3 && s.data[0] == 0xEF && s.data[1] == 0xBB && s.data[2] == 0xBF {
		s.pos = 3
	}
}

// finish checks that nothing but whitespace follows the root value. A file
// of several concatenated documents (runs appended to one file) is reported
// with the number of documents.
func (s *scanner) finish() {
	if s.atEnd() {
		return
	}
	off := s.pos
	docs := 1
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(scanError); !ok {
					panic(r)
				}
			}
		}()
		for !s.atEnd() {
			s.depth = 0
			s.skip()
			docs++
		}
	}()
	if docs == 1 {
		s.pos = off
		s.malformed("unexpected data after the end of the JSON document")
	}
	line, col := position(s.data, off)
	e := &FormatError{
		Code: CodeConcatenated,
		Detail: fmt.Sprintf("the file holds %d concatenated JSON documents (the second starts at line %d, column %d); "+
			"it looks like several runs appended to one file: split it into one file per run and analyze each", docs, line, col),
		Documents: docs,
		Offset:    off,
		Line:      line,
		Column:    col,
	}
	panic(scanError{e})
}

// recoverInto turns a scanError panic into *err; other panics propagate.
func recoverInto(err *error) {
	if r := recover(); r != nil {
		se, ok := r.(scanError)
		if !ok {
			panic(r)
		}
		*err = se.err
	}
}

// outOfRangeNumber finds the first number of a JSON text that jsonnum
// refuses (beyond float64, or non-zero and too small for one), for the
// readers that decode with encoding/json, which turns 1e-400 into 0
// silently. One pass; only numbers with an exponent or of hundreds of
// digits are parsed, and text inside strings is skipped.
func outOfRangeNumber(data []byte) (lit string, found bool) {
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inStr && c == '\\':
			i++
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '-' || c >= '0' && c <= '9':
			j := i
			for j < len(data) && (data[j] >= '0' && data[j] <= '9' || data[j] == '-' || data[j] == '+' || data[j] == '.' || data[j] == 'e' || data[j] == 'E') {
				j++
			}
			if n := unsafe.String(unsafe.SliceData(data[i:j]), j-i); jsonnum.MayBeOutOfRange(n) && !jsonnum.InRange(n) {
				if len(n) > 40 {
					n = n[:40] + "..."
				}
				return n, true
			}
			i = j - 1
		}
	}
	return "", false
}
