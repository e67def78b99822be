package fastjson

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Writer appends compact JSON to Buf. It is hand-written rather than
// reflection-based because analyze-data.json for a 200k-layer engine is
// hundreds of MB; the bytes it produces are identical to
// go-json-experiment's with Deterministic(true) (the contract's tests pin
// this on every field of the model).
type Writer struct {
	Buf []byte
	Err error // first non-finite number met
}

// needEscape marks ASCII bytes that cannot appear verbatim in a JSON string.
var needEscape = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// AppendString appends s as a JSON string, exactly as Writer.Str writes string
// values (invalid UTF-8 becomes U+FFFD), so other writers of the same data
// (the report's scripts) need no second, slower encoder.
func AppendString(dst []byte, s string) []byte {
	e := Writer{Buf: dst}
	e.Str(s)
	return e.Buf
}

// Str writes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func (e *Writer) Str(s string) {
	b := append(e.Buf, '"')
	i := 0 // start of the run not yet copied
	for n := 0; n < len(s); {
		n = plainRun(s, n)
		if n == len(s) {
			break
		}
		c := s[n]
		if c < utf8.RuneSelf {
			n++
			if !needEscape[c] {
				continue
			}
			b = append(b, s[i:n-1]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				const hex = "0123456789abcdef"
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i = n
			continue
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		n += size
		if r == utf8.RuneError && size == 1 {
			// Invalid UTF-8 cannot be written as JSON; keep the output valid.
			b = append(b, s[i:n-1]...)
			b = append(b, "\ufffd"...)
			i = n
		}
	}
	b = append(b, s[i:]...)
	e.Buf = append(b, '"')
}

// plainRun skips, eight bytes at a time, the bytes from n on that JSON
// writes verbatim (ASCII, not a control character, quote or backslash) and
// returns the index of the first other byte, or len(s). Names, tactics and
// formats are almost all plain, so the byte loop above rarely runs.
func plainRun(s string, n int) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	for ; n+8 <= len(s); n += 8 {
		x := uint64(s[n]) | uint64(s[n+1])<<8 | uint64(s[n+2])<<16 | uint64(s[n+3])<<24 |
			uint64(s[n+4])<<32 | uint64(s[n+5])<<40 | uint64(s[n+6])<<48 | uint64(s[n+7])<<56
		ctl := (x - ones*0x20) &^ x
		q := x ^ (ones * '"')
		q = (q - ones) &^ q
		bs := x ^ (ones * '\\')
		bs = (bs - ones) &^ bs
		if (ctl|q|bs|x)&high != 0 {
			break
		}
	}
	return n
}

// Key writes `,"name":` (or without the comma for the first member); names
// are constants of the caller and never need escaping.
func (e *Writer) Key(first bool, name string) {
	if !first {
		e.Buf = append(e.Buf, ',')
	}
	e.Buf = append(e.Buf, '"')
	e.Buf = append(e.Buf, name...)
	e.Buf = append(e.Buf, '"', ':')
}

func (e *Writer) Int(v int64) { e.Buf = strconv.AppendInt(e.Buf, v, 10) }

func (e *Writer) Bool(v bool) { e.Buf = strconv.AppendBool(e.Buf, v) }

func (e *Writer) Null() { e.Buf = append(e.Buf, "null"...) }

// OptBool writes a nullable bool.
func (e *Writer) OptBool(v *bool) {
	if v == nil {
		e.Null()
		return
	}
	e.Bool(*v)
}

// Float writes the shortest representation that round-trips, in the
// ECMAScript style JSON libraries share (exponent only below 1e-6 or from 1e21).
func (e *Writer) Float(name string, f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if e.Err == nil {
			e.Err = fmt.Errorf("%s is %v: JSON cannot carry non-finite numbers", name, f)
		}
		e.Buf = append(e.Buf, '0')
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	e.Buf = strconv.AppendFloat(e.Buf, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9, as ECMAScript writes it.
		n := len(e.Buf)
		if n >= 4 && e.Buf[n-4] == 'e' && e.Buf[n-3] == '-' && e.Buf[n-2] == '0' {
			e.Buf[n-2] = e.Buf[n-1]
			e.Buf = e.Buf[:n-1]
		}
	}
}

func (e *Writer) Strs(v []string) {
	e.Buf = append(e.Buf, '[')
	for i, s := range v {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Str(s)
	}
	e.Buf = append(e.Buf, ']')
}

func (e *Writer) Ints(v []int) {
	e.Buf = append(e.Buf, '[')
	for i, x := range v {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Buf = strconv.AppendInt(e.Buf, int64(x), 10)
	}
	e.Buf = append(e.Buf, ']')
}

func (e *Writer) Int64s(v []int64) {
	e.Buf = append(e.Buf, '[')
	for i, x := range v {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Buf = strconv.AppendInt(e.Buf, x, 10)
	}
	e.Buf = append(e.Buf, ']')
}

func (e *Writer) OptInt(v *int) {
	if v == nil {
		e.Null()
		return
	}
	e.Int(int64(*v))
}

func (e *Writer) OptInt64(v *int64) {
	if v == nil {
		e.Null()
		return
	}
	e.Int(*v)
}

func (e *Writer) OptFloat(name string, v *float64) {
	if v == nil {
		e.Null()
		return
	}
	e.Float(name, *v)
}

func (e *Writer) OptStr(v *string) {
	if v == nil {
		e.Null()
		return
	}
	e.Str(*v)
}

// Raw writes a pre-encoded JSON object as is; an empty value writes {}.
func (e *Writer) Raw(v jsontext.Value) {
	if len(v) == 0 {
		e.Buf = append(e.Buf, '{', '}')
		return
	}
	e.Buf = append(e.Buf, v...)
}
