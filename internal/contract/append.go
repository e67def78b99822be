package contract

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// enc appends compact JSON to buf. It is hand-written rather than
// reflection-based because analyze-data.json for a 200k-layer engine is
// hundreds of MB; the bytes it produces are identical to
// go-json-experiment's with Deterministic(true) (a test pins this), except
// that Graph.Cycle and Graph.TopoOrder write null when nil.
type enc struct {
	buf []byte
	err error // first non-finite number met
}

// needEscape marks ASCII bytes that cannot appear verbatim in a JSON string.
var needEscape = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// AppendString appends s as a JSON string, exactly as Encode writes string
// values (invalid UTF-8 becomes U+FFFD), so other writers of the same data
// (the report's scripts) need no second, slower encoder.
func AppendString(dst []byte, s string) []byte {
	e := enc{buf: dst}
	e.str(s)
	return e.buf
}

func (e *enc) str(s string) {
	b := append(e.buf, '"')
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
	e.buf = append(b, '"')
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

// key writes `,"name":` (or without the comma for the first member); names
// are constants of this package and never need escaping.
func (e *enc) key(first bool, name string) {
	if !first {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '"', ':')
}

func (e *enc) int(v int64) { e.buf = strconv.AppendInt(e.buf, v, 10) }

func (e *enc) bool(v bool) { e.buf = strconv.AppendBool(e.buf, v) }

func (e *enc) null() { e.buf = append(e.buf, "null"...) }

// float writes the shortest representation that round-trips, in the
// ECMAScript style JSON libraries share (exponent only below 1e-6 or from 1e21).
func (e *enc) float(name string, f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if e.err == nil {
			e.err = fmt.Errorf("%s is %v: JSON cannot carry non-finite numbers", name, f)
		}
		e.buf = append(e.buf, '0')
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	e.buf = strconv.AppendFloat(e.buf, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9, as ECMAScript writes it.
		n := len(e.buf)
		if n >= 4 && e.buf[n-4] == 'e' && e.buf[n-3] == '-' && e.buf[n-2] == '0' {
			e.buf[n-2] = e.buf[n-1]
			e.buf = e.buf[:n-1]
		}
	}
}

func (e *enc) strs(v []string) {
	e.buf = append(e.buf, '[')
	for i, s := range v {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.str(s)
	}
	e.buf = append(e.buf, ']')
}

func (e *enc) ints(v []int) {
	e.buf = append(e.buf, '[')
	for i, x := range v {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	}
	e.buf = append(e.buf, ']')
}

func (e *enc) int64s(v []int64) {
	e.buf = append(e.buf, '[')
	for i, x := range v {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = strconv.AppendInt(e.buf, x, 10)
	}
	e.buf = append(e.buf, ']')
}

func (e *enc) optInt(v *int) {
	if v == nil {
		e.null()
		return
	}
	e.int(int64(*v))
}

func (e *enc) optInt64(v *int64) {
	if v == nil {
		e.null()
		return
	}
	e.int(*v)
}

func (e *enc) optFloat(name string, v *float64) {
	if v == nil {
		e.null()
		return
	}
	e.float(name, *v)
}

func (e *enc) optStr(v *string) {
	if v == nil {
		e.null()
		return
	}
	e.str(*v)
}

// raw writes a pre-encoded JSON object as is; an empty value writes {}.
func (e *enc) raw(v RawObject) {
	if len(v) == 0 {
		e.buf = append(e.buf, '{', '}')
		return
	}
	e.buf = append(e.buf, v...)
}
