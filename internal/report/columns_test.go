package report

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// packedColumns mirrors what appendColumns writes; expand undoes it the way
// web/src/loader.ts does, so the tests check that the compact form carries
// the columns unchanged.
type packedColumns struct {
	N         int             `json:"n"`
	Timed     bool            `json:"timed"`
	Strings   []string        `json:"strings"`
	Names     json.RawMessage `json:"names"`
	Type      json.RawMessage `json:"type"`
	Precision json.RawMessage `json:"precision"`
	Subgraph  json.RawMessage `json:"subgraph"`
	Myelin    json.RawMessage `json:"myelin"`
	EdgeLabel json.RawMessage `json:"edge_label"`
	Avg       json.RawMessage `json:"avg"`
	Pct       json.RawMessage `json:"pct"`
	Topo      []int           `json:"topo"`
	Edges     json.RawMessage `json:"edges"`
	Roofline  *struct {
		Layer []int32 `json:"layer"`
	} `json:"roofline"`
}

// binaryInts decodes binary ints: a base64 string of zigzag varints.
func binaryInts(t *testing.T, raw json.RawMessage) []int64 {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("binary ints %.80s: %v", raw, err)
	}
	bin, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("binary ints %.80s: %v", s, err)
	}
	var out []int64
	for len(bin) > 0 {
		u, k := binary.Uvarint(bin)
		if k <= 0 {
			t.Fatalf("binary ints: bad varint at %x", bin)
		}
		out = append(out, int64(u>>1)^-int64(u&1))
		bin = bin[k:]
	}
	return out
}

func expandInts(t *testing.T, raw json.RawMessage, n int) []int32 {
	t.Helper()
	var r struct{ Runs json.RawMessage }
	if raw[0] == '"' {
		r.Runs = nil
	} else if err := json.Unmarshal(raw, &r); err != nil || r.Runs == nil {
		t.Fatalf("int column %.80s: %v", raw, err)
	}
	out := make([]int32, 0, n)
	if r.Runs == nil {
		for _, v := range binaryInts(t, raw) {
			out = append(out, int32(v))
		}
		return out
	}
	runs := binaryInts(t, r.Runs)
	for k := 0; k+1 < len(runs); k += 2 {
		for range runs[k+1] {
			out = append(out, int32(runs[k]))
		}
	}
	return out
}

// expandFloats undoes appendFloatColumn the way loader.ts does: m / 10^-e
// or m × 10^e, or the raw doubles.
func expandFloats(t *testing.T, raw json.RawMessage) []float64 {
	t.Helper()
	if string(raw) == "null" {
		return nil
	}
	var f struct {
		Dec json.RawMessage `json:"dec"`
		F64 string          `json:"f64"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("float column %.80s: %v", raw, err)
	}
	out := []float64{}
	if f.Dec != nil {
		v := binaryInts(t, f.Dec)
		for k := 0; k+1 < len(v); k += 2 {
			m, e := float64(v[k]), v[k+1]
			if e < 0 {
				out = append(out, m/pow10[-e])
			} else {
				out = append(out, m*pow10[e])
			}
		}
		return out
	}
	bin, err := base64.StdEncoding.DecodeString(f.F64)
	if err != nil || len(bin)%8 != 0 {
		t.Fatalf("f64 column: %v (%d bytes)", err, len(bin))
	}
	for k := 0; k < len(bin); k += 8 {
		out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(bin[k:])))
	}
	return out
}

func expandNames(t *testing.T, raw json.RawMessage, n int) []string {
	t.Helper()
	var plain []string
	if json.Unmarshal(raw, &plain) == nil {
		return plain
	}
	var p struct {
		Parts [][]string      `json:"parts"`
		T     json.RawMessage `json:"t"`
		V     json.RawMessage `json:"v"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("names %s: %v", raw, err)
	}
	out := make([]string, n)
	at := 0
	v := binaryInts(t, p.V)
	for i, id := range expandInts(t, p.T, n) {
		parts := p.Parts[id]
		s := parts[0]
		for _, piece := range parts[1:] {
			s += strconv.FormatInt(v[at], 10) + piece
			at++
		}
		out[i] = s
	}
	if at != len(v) {
		t.Errorf("names use %d of %d numbers", at, len(v))
	}
	return out
}

func packColumns(t *testing.T, c *columns) (packedColumns, int) {
	t.Helper()
	raw, err := appendColumns(nil, c)
	if err != nil {
		t.Fatal(err)
	}
	var p packedColumns
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("columns are not JSON: %v\n%s", err, raw)
	}
	return p, len(raw)
}

func TestColumnsRoundTrip(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 300, WithLayerOnly: true})
	for bi := range d.Results {
		c, _ := buildColumns(&d.Results[bi])
		p, _ := packColumns(t, c)
		d := binaryInts(t, p.Edges)
		edges := make([]int32, len(d))
		prev := int32(0)
		for k := 0; k+1 < len(d); k += 2 {
			prev += int32(d[k])
			edges[k], edges[k+1] = prev, prev+int32(d[k+1])
		}
		topo := p.Topo
		if topo == nil {
			topo = make([]int, p.N)
			for i := range topo {
				topo[i] = i
			}
		}
		for _, x := range []struct {
			name      string
			got, want any
		}{
			{"n", p.N, c.N}, {"timed", p.Timed, c.Timed}, {"strings", p.Strings, c.Strings},
			{"names", expandNames(t, p.Names, p.N), c.Names},
			{"type", expandInts(t, p.Type, p.N), c.TypeID}, {"precision", expandInts(t, p.Precision, p.N), c.PrecID},
			{"subgraph", expandInts(t, p.Subgraph, p.N), c.SubID},
			{"myelin", expandInts(t, p.Myelin, p.N), c.Myelin}, {"edge_label", expandInts(t, p.EdgeLabel, len(edges)/2), c.EdgeLabel},
			{"avg", expandFloats(t, p.Avg), c.Avg}, {"pct", expandFloats(t, p.Pct), c.Pct}, {"topo", topo, c.Topo}, {"edges", edges, c.EdgesFlat},
		} {
			if !reflect.DeepEqual(x.got, x.want) {
				t.Errorf("backend %d %s: expands to %v, want %v", bi, x.name, x.got, x.want)
			}
		}
	}
}

func TestTacticsScript(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 300})
	c, _ := buildColumns(&d.Results[0])
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	if err := writeTactics(w, 2, c); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	body, ok := strings.CutPrefix(buf.String(), "window.TRTPERF_TACTICS = window.TRTPERF_TACTICS || {};\nwindow.TRTPERF_TACTICS[2] = ")
	if !ok {
		t.Fatalf("tactics script starts %.100q", buf.String())
	}
	var p struct {
		Strings []string
		Tactic  json.RawMessage
	}
	if err := json.Unmarshal([]byte(strings.TrimSuffix(body, ";\n")), &p); err != nil {
		t.Fatal(err)
	}
	ids := expandInts(t, p.Tactic, c.N)
	for _, r := range d.Results[0].Records {
		if got := p.Strings[ids[r.Layer]]; got != r.Tactic {
			t.Errorf("layer %d tactic %q, record says %q", r.Layer, got, r.Tactic)
		}
	}
}

func TestNamesForm(t *testing.T) {
	llm := make([]string, 200)
	for i := range llm {
		llm[i] = "/model/layers." + strconv.Itoa(i/10) + "/mlp/down_proj/MatMul_myl0_" + strconv.Itoa(i)
	}
	distinct := make([]string, 200)
	for i := range distinct {
		distinct[i] = strings.Repeat(string(rune('a'+i%26)), 1+i/26) + "_conv"
	}
	tests := []struct {
		name      string
		names     []string
		templated bool
	}{
		{"llm names share templates", llm, true},
		{"names without numbers stay plain", distinct, false},
		{"empty", []string{}, false},
		{"leading zeros, long numbers, unicode, NUL", []string{
			"conv007/x", "0", "a0b00c", "n1234567890123456789", "n123456789012345", "Ünïcødé 12 — 3", "x\x001", "x\x001", "x\x001",
		}, false},
		{"leading zeros kept in templates", func() []string {
			var s []string
			for i := range 100 {
				s = append(s, "block_0"+strconv.Itoa(i%10)+"/conv"+strconv.Itoa(i))
			}
			return s
		}(), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := appendNames(nil, tt.names)
			if got := raw[0] == '{'; got != tt.templated {
				t.Errorf("templated %v, want %v: %.200s", got, tt.templated, raw)
			}
			if got := expandNames(t, raw, len(tt.names)); !reflect.DeepEqual(got, tt.names) {
				t.Errorf("names expand to %q, want %q", got, tt.names)
			}
		})
	}
}

func TestIntsForm(t *testing.T) {
	runs := make([]int32, 1000)
	for i := range runs {
		runs[i] = int32(i / 300)
	}
	varied := make([]int32, 50)
	for i := range varied {
		varied[i] = int32(i*7%13) - 1
	}
	for _, v := range [][]int32{runs, varied, {}, {-1}, {5, 5}} {
		raw := appendInts(nil, v)
		if len(v) == 1000 && raw[0] != '{' {
			t.Errorf("1000 values in 4 runs written plain")
		}
		if got := expandInts(t, raw, len(v)); !reflect.DeepEqual(got, v) && !(len(v) == 0 && len(got) == 0) {
			t.Errorf("%v expands to %v", v, got)
		}
	}
}

// FuzzNames: any list of names expands back to itself.
func FuzzNames(f *testing.F) {
	f.Add("a1\nb2\nc3", "x")
	f.Add("conv007/x\n0\n9999999999999999", "\x00")
	f.Fuzz(func(t *testing.T, joined, extra string) {
		names := strings.Split(joined, "\n")
		for i := range 40 {
			names = append(names, extra+strconv.Itoa(i))
		}
		for i, s := range names {
			names[i] = strings.ToValidUTF8(s, "\uFFFD") // the encoder's strings are valid UTF-8
		}
		raw := appendNames(nil, names)
		if got := expandNames(t, raw, len(names)); !reflect.DeepEqual(got, names) {
			t.Fatalf("names expand to %q, want %q", got, names)
		}
	})
}

func TestColumnsSmallerAndDeterministic(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 2000})
	c, _ := buildColumns(&d.Results[0])
	a, _ := appendColumns(nil, c)
	b, _ := appendColumns(nil, c)
	if string(a) != string(b) {
		t.Fatal("the columns script differs between two writes")
	}
	plain, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) >= len(plain) {
		t.Errorf("compact columns %d bytes, plain JSON %d", len(a), len(plain))
	}
}

var tenth = 0.1 // a variable: constant arithmetic would be exact

func TestFloatColumn(t *testing.T) {
	tests := []struct {
		name string
		v    []float64
		form string
	}{
		{"profile numbers", []float64{0.00216144, 0.0000186164, 0.982451, 0, 12.5, 100, 1e22, 3e-22, -0.25, 123456789012345}, "dec"},
		{"16 digits among short ones", []float64{1.0 / 3, 0.5, 0.25, 1}, "dec"},
		{"16 digits: doubles are shorter", []float64{1.0 / 3, 2.0 / 3}, "f64"},
		{"shortest form of 17 digits", []float64{1, tenth + 0.2}, "f64"}, // 0.30000000000000004
		{"beyond 10^±22", []float64{1, 1e-30}, "f64"},
		{"negative zero", []float64{1, math.Copysign(0, -1)}, "f64"},
		{"subnormal and extremes", []float64{5e-324, math.MaxFloat64, -math.SmallestNonzeroFloat64}, "f64"},
		{"empty", []float64{}, "dec"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := appendFloatColumn(nil, "x", tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(raw, []byte(`{"`+tt.form+`":`)) {
				t.Errorf("written as %.20s, want the %s form", raw, tt.form)
			}
			checkFloatsExact(t, expandFloats(t, raw), tt.v)
		})
	}
	if _, err := appendFloatColumn(nil, "avg_ms", []float64{1, math.NaN()}); err == nil {
		t.Error("NaN written without an error")
	}
	if raw, _ := appendFloatColumn(nil, "x", nil); string(raw) != "null" {
		t.Errorf("untimed column written %s", raw)
	}
}

// checkFloatsExact: the same doubles bit for bit (the table shows the
// numbers analyze-data.json holds).
func checkFloatsExact(t *testing.T, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d values expand to %d", len(want), len(got))
	}
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Errorf("value %d: %v (%016x) expands to %v (%016x)", i, want[i], math.Float64bits(want[i]), got[i], math.Float64bits(got[i]))
		}
	}
}

// FuzzFloatColumn: any finite doubles expand to themselves, bit for bit.
func FuzzFloatColumn(f *testing.F) {
	f.Add(0.00216144, 1e-7, int64(0))
	f.Add(0.1, 1e22, int64(1))
	f.Add(math.Copysign(0, -1), 5e-324, int64(-1)) // negative zero
	f.Fuzz(func(t *testing.T, a, b float64, bits int64) {
		v := []float64{a, b, math.Float64frombits(uint64(bits)), a * 1e-3, b / 7}
		finite := v[:0]
		for _, x := range v {
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				finite = append(finite, x)
			}
		}
		raw, err := appendFloatColumn(nil, "x", finite)
		if err != nil {
			t.Fatal(err)
		}
		checkFloatsExact(t, expandFloats(t, raw), finite)
		for _, x := range finite {
			one, _ := appendFloatColumn(nil, "x", []float64{x})
			checkFloatsExact(t, expandFloats(t, one), []float64{x})
		}
	})
}
