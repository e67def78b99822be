package gen

import (
	"bufio"
	"math"
	"strconv"
)

// jw is a tiny append-only JSON writer over a bufio.Writer. The generator
// writes text in TensorRT's own layout (trtexec's hand-rolled JSON), which no
// encoder reproduces, and at 200k layers it must not build a tree first.
type jw struct {
	w   *bufio.Writer
	tmp []byte
}

func (j *jw) raw(s string) { j.w.WriteString(s) }

func (j *jw) byte(c byte) { j.w.WriteByte(c) }

// str writes s as a JSON string; control characters become \u00xx as
// trtexec writes them (e.g. the U+001E Metadata separator).
func (j *jw) str(s string) {
	j.w.WriteByte('"')
	j.body(s)
	j.w.WriteByte('"')
}

// body writes s escaped, without quotes.
func (j *jw) body(s string) {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		j.w.WriteString(s[start:i])
		switch c {
		case '"':
			j.w.WriteString(`\"`)
		case '\\':
			j.w.WriteString(`\\`)
		case '\n':
			j.w.WriteString(`\n`)
		case '\t':
			j.w.WriteString(`\t`)
		default:
			j.w.WriteString(`\u00`)
			j.w.WriteByte(hexDigits[c>>4])
			j.w.WriteByte(hexDigits[c&15])
		}
		start = i + 1
	}
	j.w.WriteString(s[start:])
}

func (j *jw) int(v int64) {
	j.tmp = strconv.AppendInt(j.tmp[:0], v, 10)
	j.w.Write(j.tmp)
}

// dims writes [1,3,224,224] without spaces, as trtexec does.
func (j *jw) dims(d []int64, sep string) {
	j.w.WriteByte('[')
	for i, v := range d {
		if i > 0 {
			j.w.WriteString(sep)
		}
		j.int(v)
	}
	j.w.WriteByte(']')
}

// g6 writes v with 6 significant digits, like C++ iostreams' default (what
// trtexec's profile uses).
func (j *jw) g6(v float64) {
	j.tmp = strconv.AppendFloat(j.tmp[:0], v, 'g', 6, 64)
	j.w.Write(j.tmp)
}

// pyFloat writes v as Python's repr(float) would (shortest round-trip, ".0"
// on integral values), for the latency dicts Python profilers dump.
func (j *jw) pyFloat(v float64) {
	j.tmp = strconv.AppendFloat(j.tmp[:0], v, 'g', -1, 64)
	if v == math.Trunc(v) && math.Abs(v) < 1e16 {
		j.tmp = append(j.tmp, '.', '0')
	}
	j.w.Write(j.tmp)
}

// round6 rounds v to 6 significant digits so derived numbers (timeMs =
// averageMs × count) are computed from what the file says.
func round6(v float64) float64 {
	if v == 0 {
		return 0
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return f
}
