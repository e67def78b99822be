package report

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// The columns script is on the way to the first interactive table and
// graph, and Chromium reads, decodes and parses a script at a few tens of
// MB/s (a 13.5 MB script of 10^5 layers took 0.6 s to load even as one
// comment), so its bytes are the cost. appendColumns therefore writes the
// columns in a compact form that web/src/loader.ts expands. Numbers go in
// base64 strings of bytes ("binary" below): V8 scans a base64 string
// literal at about twice the speed per byte of an array of numbers, and
// the bytes are a third to a half of the decimal text.
//
//	binary ints an int column: base64 of each value's zigzag LEB128 varint
//	            (encoding/binary's Uvarint of (v << 1) ^ (v >> 63)): one
//	            byte for -64..63, two up to ±8191
//	ints        binary ints, one per value, or {"runs": binary ints of
//	            value, count, ...} when that is shorter (precision,
//	            subgraph, Myelin graph ids)
//	names       {"parts": [[piece, ...], ...], "t": ints, "v": binary
//	            ints}: each name is a template (the text between its
//	            decimal numbers) and the numbers; name i is parts[t[i]]
//	            joined with the next len(parts[t[i]])-1 numbers of v.
//	            Plain array of names when that is not shorter.
//	floats      {"dec": binary ints}: each value as m, e, the digits of its
//	            shortest decimal form and the power of ten, so that value
//	            = m / 10^-e (e < 0) or m × 10^e — one correctly rounded
//	            operation on two exact doubles, so the same double as the
//	            decimal text — when that holds for every value; else
//	            {"f64": base64 of the little-endian doubles}. null when
//	            untimed.
//	edges       binary ints of producer/consumer pairs as differences:
//	            producer minus the previous producer, consumer minus its
//	            producer
//	topo        null for the identity order
//
// Strings and the roofline are written as they are. The tactic column is in
// its own script (writeTactics), loaded later.

// appendColumns appends c as the JSON object the loader expects.
func appendColumns(b []byte, c *columns) ([]byte, error) {
	b = append(b, `{"n":`...)
	b = strconv.AppendInt(b, int64(c.N), 10)
	b = append(b, `,"timed":`...)
	b = strconv.AppendBool(b, c.Timed)
	b = append(b, `,"strings":`...)
	b = appendStrings(b, c.Strings)
	b = append(b, `,"names":`...)
	b = appendNames(b, c.Names)
	for _, col := range []struct {
		key string
		v   []int32
	}{{"type", c.TypeID}, {"precision", c.PrecID}, {"subgraph", c.SubID}, {"myelin", c.Myelin}, {"conv", c.Conv}, {"edge_label", c.EdgeLabel}} {
		b = append(b, `,"`...)
		b = append(b, col.key...)
		b = append(b, `":`...)
		b = appendInts(b, col.v)
	}
	var err error
	b = append(b, `,"avg":`...)
	if b, err = appendFloatColumn(b, "avg_ms", c.Avg); err != nil {
		return nil, err
	}
	b = append(b, `,"pct":`...)
	if b, err = appendFloatColumn(b, "percentage", c.Pct); err != nil {
		return nil, err
	}
	b = append(b, `,"layer":`...)
	if c.Layer == nil {
		b = append(b, "null"...)
	} else {
		b = appendInts(b, c.Layer)
	}
	b = append(b, `,"predicted":`...)
	b = strconv.AppendBool(b, c.Predicted)
	b = append(b, `,"topo":`...)
	b = appendTopo(b, c.Topo)
	b = append(b, `,"edges":`...)
	raw := make([]byte, 0, len(c.EdgesFlat)*2)
	prev := int32(0)
	for k := 0; k+1 < len(c.EdgesFlat); k += 2 {
		p, q := c.EdgesFlat[k], c.EdgesFlat[k+1]
		raw = appendZigzag(raw, int64(p-prev))
		raw = appendZigzag(raw, int64(q-p))
		prev = p
	}
	b = appendB64(b, raw)
	b = append(b, `,"roofline":`...)
	if b, err = appendRoofline(b, c.Roofline); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func appendStrings(b []byte, s []string) []byte {
	b = append(b, '[')
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = contract.AppendString(b, v)
	}
	return append(b, ']')
}

func appendIntList(b []byte, v []int32) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// appendZigzag appends v's zigzag varint.
func appendZigzag(raw []byte, v int64) []byte {
	return binary.AppendUvarint(raw, uint64(v<<1)^uint64(v>>63))
}

// appendB64 appends raw as a base64 JSON string.
func appendB64(b, raw []byte) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, raw)
	return append(b, '"')
}

// appendInts writes v as binary ints, or as runs when that is shorter.
func appendInts(b []byte, v []int32) []byte {
	plain := make([]byte, 0, len(v))
	for _, x := range v {
		plain = appendZigzag(plain, int64(x))
	}
	var runs []byte
	for i := 0; i < len(v) && len(runs) < len(plain); {
		j := i + 1
		for j < len(v) && v[j] == v[i] {
			j++
		}
		runs = appendZigzag(appendZigzag(runs, int64(v[i])), int64(j-i))
		i = j
	}
	enc := base64.StdEncoding
	if enc.EncodedLen(len(runs))+len(`{"runs":}`) >= enc.EncodedLen(len(plain)) {
		return appendB64(b, plain)
	}
	b = append(b, `{"runs":`...)
	return append(appendB64(b, runs), '}')
}

// digits is the length of x in decimal.
func digits(x int64) int {
	n := 1
	if x < 0 {
		n, x = 2, -x
	}
	for ; x >= 10; x /= 10 {
		n++
	}
	return n
}

func appendFloat(b []byte, name string, f float64) ([]byte, error) {
	if err := checkFinite(name, f); err != nil {
		return nil, err
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64), nil
}

func checkFinite(name string, f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("layer column %s holds %v, which the report cannot carry", name, f)
	}
	return nil
}

func appendFloats(b []byte, name string, v []float64) ([]byte, error) {
	if v == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	var err error
	for i, f := range v {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendFloat(b, name, f); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// pow10 are the powers of ten a double holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimal returns f as m × 10^e, m the digits of f's shortest decimal
// form, when m / 10^-e (e < 0) or m × 10^e gives f back: m and the power
// are exact doubles (|m| < 2^53, |e| ≤ 22), so the one operation is
// correctly rounded, in JavaScript as in Go. The result is checked anyway.
func decimal(f float64, buf []byte) (m int64, e int, ok bool) {
	if f == 0 {
		return 0, 0, !math.Signbit(f) // -0 would come back as 0
	}
	s := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // -d.ddde-05
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	k := bytes.IndexByte(s, 'e')
	if k < 0 {
		return 0, 0, false
	}
	x, err := strconv.Atoi(string(s[k+1:]))
	if err != nil {
		return 0, 0, false
	}
	e = x
	for i, c := range s[:k] {
		if c == '.' {
			e -= k - i - 1
			continue
		}
		if m > (1<<53-1-9)/10 {
			return 0, 0, false
		}
		m = m*10 + int64(c-'0')
	}
	if e < -22 || e > 22 {
		return 0, 0, false
	}
	g := float64(m)
	if e < 0 {
		g /= pow10[-e]
	} else {
		g *= pow10[e]
	}
	if neg {
		m, g = -m, -g
	}
	return m, e, g == f
}

// appendFloatColumn writes v as floats (see the top of the file).
func appendFloatColumn(b []byte, name string, v []float64) ([]byte, error) {
	if v == nil {
		return append(b, "null"...), nil
	}
	dec := make([]byte, 0, 4*len(v))
	var buf [32]byte
	for _, f := range v {
		if err := checkFinite(name, f); err != nil {
			return nil, err
		}
		m, e, ok := decimal(f, buf[:])
		if !ok {
			dec = nil
			break
		}
		dec = appendZigzag(appendZigzag(dec, m), int64(e))
	}
	if dec != nil && len(dec) <= 8*len(v) {
		b = append(b, `{"dec":`...)
		return append(appendB64(b, dec), '}'), nil
	}
	raw := make([]byte, 0, 8*len(v))
	for _, f := range v {
		raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(f))
	}
	b = append(b, `{"f64":`...)
	return append(appendB64(b, raw), '}'), nil
}

func appendTopo(b []byte, topo []int) []byte {
	identity := true
	for i, v := range topo {
		if v != i {
			identity = false
			break
		}
	}
	if identity {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range topo {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

func appendRoofline(b []byte, r *rooflineColumns) ([]byte, error) {
	if r == nil {
		return append(b, "null"...), nil
	}
	b = append(b, `{"layer":`...)
	b = appendIntList(b, r.Layer)
	var err error
	for _, col := range []struct {
		key string
		v   []float64
	}{{"intensity", r.Intensity}, {"tflops", r.TFLOPS}, {"time_ms", r.TimeMs}, {"pct", r.Pct}} {
		b = append(b, `,"`...)
		b = append(b, col.key...)
		b = append(b, `":`...)
		if b, err = appendFloats(b, "roofline "+col.key, col.v); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"peak":`...)
	b = appendIntList(b, r.Peak)
	b = append(b, `,"bound":`...)
	b = appendIntList(b, r.Bound)
	return append(b, '}'), nil
}

// maxNumberDigits bounds the digit runs a name template takes out as
// numbers: JavaScript prints integers of up to 15 digits exactly.
const maxNumberDigits = 15

// nameNumber returns the end of the digit run at s[i:] and whether it is a
// number the template form can carry (no leading zero, at most
// maxNumberDigits digits), which then prints back as the same text.
func nameNumber(s string, i int) (end int, ok bool) {
	end = i
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	return end, end-i <= maxNumberDigits && (s[i] != '0' || end-i == 1)
}

// appendNames writes the names as templates and numbers when that is
// shorter than the plain array (LLM names such as
// "/model/layers.12/mlp/down_proj/MatMul_myl3_40" share a few dozen
// templates), else as the plain array.
func appendNames(b []byte, names []string) []byte {
	plainSize := 0
	for _, s := range names {
		plainSize += len(s) + 3
		if strings.IndexByte(s, 0) >= 0 {
			// NUL separates a template's pieces in its key below.
			return appendStrings(b, names)
		}
	}
	ids := make(map[string]int32)
	var templates []string // keys: pieces joined by NUL
	tid := make([]int32, len(names))
	var nums []int64
	var key []byte
	numSize := 0
	for i, s := range names {
		key = key[:0]
		last := 0
		for j := 0; j < len(s); {
			if s[j] < '0' || s[j] > '9' {
				j++
				continue
			}
			end, ok := nameNumber(s, j)
			if ok {
				key = append(key, s[last:j]...)
				key = append(key, 0)
				v, _ := strconv.ParseInt(s[j:end], 10, 64)
				nums = append(nums, v)
				numSize += end - j + 1
				last = end
			}
			j = end
		}
		key = append(key, s[last:]...)
		id, ok := ids[string(key)]
		if !ok {
			id = int32(len(templates))
			ids[string(key)] = id
			templates = append(templates, string(key))
		}
		tid[i] = id
		if len(templates) > len(names)/2+16 {
			return appendStrings(b, names) // names do not share templates
		}
	}
	tmplSize := 0
	for _, t := range templates {
		tmplSize += len(t) + 8
	}
	tidSize := 0
	for _, id := range tid {
		tidSize += digits(int64(id)) + 1
	}
	if tmplSize+tidSize+numSize >= plainSize {
		return appendStrings(b, names)
	}
	b = append(b, `{"parts":[`...)
	for k, t := range templates {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for p, piece := range strings.Split(t, "\x00") {
			if p > 0 {
				b = append(b, ',')
			}
			b = contract.AppendString(b, piece)
		}
		b = append(b, ']')
	}
	b = append(b, `],"t":`...)
	b = appendInts(b, tid)
	b = append(b, `,"v":`...)
	raw := make([]byte, 0, 2*len(nums))
	for _, v := range nums {
		raw = appendZigzag(raw, v)
	}
	return append(appendB64(b, raw), '}')
}

// writeColumns writes the columns script of backend bi.
func writeColumns(w *bufio.Writer, bi int, c *columns) error {
	raw, err := appendColumns(make([]byte, 0, 64<<10), c)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "window.TRTPERF_COLUMNS = window.TRTPERF_COLUMNS || {};\nwindow.TRTPERF_COLUMNS[%d] = ", bi); err != nil {
		return err
	}
	if err := writeEscapedJSON(w, raw); err != nil {
		return err
	}
	_, err = w.WriteString(";\n")
	return err
}

// writeTactics writes the tactics script of backend bi: {"strings": [...],
// "tactic": ints}, each layer's tactic as an id in strings.
func writeTactics(w *bufio.Writer, bi int, c *columns) error {
	raw := append(make([]byte, 0, 64<<10), `{"strings":`...)
	raw = appendStrings(raw, c.Tactics)
	raw = append(raw, `,"tactic":`...)
	raw = appendInts(raw, c.TacticID)
	raw = append(raw, '}')
	if _, err := fmt.Fprintf(w, "window.TRTPERF_TACTICS = window.TRTPERF_TACTICS || {};\nwindow.TRTPERF_TACTICS[%d] = ", bi); err != nil {
		return err
	}
	if err := writeEscapedJSON(w, raw); err != nil {
		return err
	}
	_, err := w.WriteString(";\n")
	return err
}
