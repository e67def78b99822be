package report

import (
	"bufio"
	"bytes"
	"encoding/json"
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
	Avg       []float64       `json:"avg"`
	Pct       []float64       `json:"pct"`
	Topo      []int           `json:"topo"`
	Edges     []int32         `json:"edges"`
	Roofline  *struct {
		Layer []int32 `json:"layer"`
	} `json:"roofline"`
}

func expandInts(t *testing.T, raw json.RawMessage, n int) []int32 {
	t.Helper()
	var plain []int32
	if json.Unmarshal(raw, &plain) == nil {
		return plain
	}
	var r struct{ Runs []int32 }
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("int column %s: %v", raw, err)
	}
	out := make([]int32, 0, n)
	for k := 0; k+1 < len(r.Runs); k += 2 {
		for range r.Runs[k+1] {
			out = append(out, r.Runs[k])
		}
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
		V     []int64         `json:"v"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("names %s: %v", raw, err)
	}
	out := make([]string, n)
	at := 0
	for i, id := range expandInts(t, p.T, n) {
		parts := p.Parts[id]
		s := parts[0]
		for _, piece := range parts[1:] {
			s += strconv.FormatInt(p.V[at], 10) + piece
			at++
		}
		out[i] = s
	}
	if at != len(p.V) {
		t.Errorf("names use %d of %d numbers", at, len(p.V))
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
		edges := make([]int32, len(p.Edges))
		prev := int32(0)
		for k := 0; k+1 < len(p.Edges); k += 2 {
			prev += p.Edges[k]
			edges[k], edges[k+1] = prev, prev+p.Edges[k+1]
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
			{"avg", p.Avg, c.Avg}, {"pct", p.Pct, c.Pct}, {"topo", topo, c.Topo}, {"edges", edges, c.EdgesFlat},
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
