package report

import (
	"bufio"
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
// columns in a compact form that web/src/loader.ts expands:
//
//	names       {"parts": [[piece, ...], ...], "t": ints, "v": [number, ...]}:
//	            each name is a template (the text between its decimal
//	            numbers) and the numbers; name i is parts[t[i]] joined with
//	            the next len(parts[t[i]])-1 numbers of v. Plain array of
//	            names when that is not shorter.
//	ints        an int column: [v, ...], or {"runs": [v, count, ...]} when
//	            that is shorter (precision, subgraph, Myelin graph ids)
//	edges       producer/consumer pairs as differences: producer minus the
//	            previous producer, consumer minus its producer
//	topo        null for the identity order
//
// Everything else (strings, avg, pct, roofline) is written as it is. The
// tactic column is in its own script (writeTactics), loaded later.

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
	}{{"type", c.TypeID}, {"precision", c.PrecID}, {"subgraph", c.SubID}, {"myelin", c.Myelin}, {"edge_label", c.EdgeLabel}} {
		b = append(b, `,"`...)
		b = append(b, col.key...)
		b = append(b, `":`...)
		b = appendInts(b, col.v)
	}
	var err error
	b = append(b, `,"avg":`...)
	if b, err = appendFloats(b, "avg_ms", c.Avg); err != nil {
		return nil, err
	}
	b = append(b, `,"pct":`...)
	if b, err = appendFloats(b, "percentage", c.Pct); err != nil {
		return nil, err
	}
	b = append(b, `,"topo":`...)
	b = appendTopo(b, c.Topo)
	b = append(b, `,"edges":[`...)
	prev := int32(0)
	for k := 0; k+1 < len(c.EdgesFlat); k += 2 {
		if k > 0 {
			b = append(b, ',')
		}
		p, q := c.EdgesFlat[k], c.EdgesFlat[k+1]
		b = strconv.AppendInt(b, int64(p-prev), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(q-p), 10)
		prev = p
	}
	b = append(b, `],"roofline":`...)
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

// appendInts writes v as a plain array or as runs, whichever is shorter.
func appendInts(b []byte, v []int32) []byte {
	runs, size := 0, 0 // runs, and the digits of their values and counts
	for i := 0; i < len(v); {
		j := i + 1
		for j < len(v) && v[j] == v[i] {
			j++
		}
		runs++
		size += digits(int64(v[i])) + digits(int64(j-i)) + 2
		i = j
	}
	plain := len(v)
	for _, x := range v {
		plain += digits(int64(x))
	}
	if size+len(`{"runs":}`) >= plain {
		return appendIntList(b, v)
	}
	b = append(b, `{"runs":[`...)
	for i := 0; i < len(v); {
		j := i + 1
		for j < len(v) && v[j] == v[i] {
			j++
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v[i]), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(j-i), 10)
		i = j
	}
	return append(b, "]}"...)
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
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("layer column %s holds %v, which the report cannot carry", name, f)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64), nil
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
	b = append(b, `,"v":[`...)
	for k, v := range nums {
		if k > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	return append(b, "]}"...)
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
