package contract

import (
	"bytes"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/trtperf/trtperf/internal/contract/internal/fastjson"
	"github.com/trtperf/trtperf/internal/golden"
)

func encode(t testing.TB, d *AnalyzeData) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Encode(&buf, d); err != nil {
		t.Fatalf("Encode: %v", err)
	}
	return buf.Bytes()
}

func TestEncodeGolden(t *testing.T) {
	got := encode(t, smallDoc())
	golden.CheckJSON(t, filepath.Join("testdata", "small.golden.json"), got)
}

func TestEncodeRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  *AnalyzeData
	}{{"small", smallDoc()}, {"big", bigDoc(3*fastjson.ChunkLen + 17)}} {
		t.Run(tc.name, func(t *testing.T) {
			first := encode(t, tc.doc)
			d, err := Decode(first)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d, tc.doc) {
				t.Error("Decode(Encode(d)) != d")
			}
			if second := encode(t, d); !bytes.Equal(first, second) {
				t.Error("Encode(Decode(Encode(d))) != Encode(d)")
			}
			if again := encode(t, tc.doc); !bytes.Equal(first, again) {
				t.Error("encoding twice gave different bytes")
			}
		})
	}
}

// TestEncodeMatchesJSONv2 pins the generated encoder to the reflection
// encoder: a field added to types.go without go generate fails here.
func TestEncodeMatchesJSONv2(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  *AnalyzeData
	}{{"small", smallDoc()}, {"big", bigDoc(2*fastjson.ChunkLen + 3)}} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.doc
			for i := range d.Results {
				// JSON v2 writes nil slices as []; Encode writes these two as null.
				g := &d.Results[i].Graph
				if g.Cycle == nil {
					g.Cycle = []string{}
				}
				if g.TopoOrder == nil {
					g.TopoOrder = []int{}
				}
			}
			want, err := jsonv2.Marshal(d, jsonv2.Deterministic(true))
			if err != nil {
				t.Fatal(err)
			}
			got := bytes.TrimSuffix(encode(t, d), []byte("\n"))
			if !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Fatalf("Encode differs from json v2 at byte %d:\nEncode: %.200s\njson v2: %.200s", i, got[max(0, i-80):], want[max(0, i-80):])
			}
		})
	}
}

func TestEncodeNullsAndEscapes(t *testing.T) {
	d := smallDoc()
	d.Results[0].Layers[0].Name = "bad\xffutf8 \"quoted\" \u001e\t<&>"
	out := string(encode(t, d))
	for _, want := range []string{`"cycle":null,"topo_order":[0,1,2,3]`, `"cycle":["A","B","A"],"topo_order":null`,
		"\"Name\":\"bad\ufffdutf8 \\\"quoted\\\" \\u001e\\t<&>\"", `"Metadata":"[ONNX Layer: /conv1/Conv]␞[ONNX Layer: /relu/Relu]"`,
		`"metrics":{"avg_ms":1.25,"count":1,"share":62.5}`, `"timing":null`, `"profile":null`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	if r := Validate([]byte(out)); !r.SchemaOK() {
		t.Errorf("escaped output fails the schema: %v", r.Schema)
	}
}

func TestEncodeFloats(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{{0, "0"}, {1, "1"}, {0.1, "0.1"}, {1.0 / 3, "0.3333333333333333"}, {1e-7, "1e-7"}, {123456789.125, "123456789.125"}, {1e21, "1e+21"}, {-2.5e-9, "-2.5e-9"}} {
		e := &fastjson.Writer{}
		e.Float("x", tc.f)
		if string(e.Buf) != tc.want {
			t.Errorf("float(%v) = %s, want %s", tc.f, e.Buf, tc.want)
		}
	}
}

func TestEncodeRejectsNonFinite(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1)} {
		d := bigDoc(fastjson.ChunkLen + 10)
		d.Results[0].Records[fastjson.ChunkLen+5].AvgMs = f
		if err := Encode(&bytes.Buffer{}, d); err == nil || !strings.Contains(err.Error(), "avg_ms") {
			t.Errorf("Encode with avg_ms %v: err = %v, want an error naming avg_ms", f, err)
		}
		d = smallDoc()
		d.Results[0].Timing.TotalMs = f
		if err := Encode(&bytes.Buffer{}, d); err == nil || !strings.Contains(err.Error(), "total_ms") {
			t.Errorf("Encode with total_ms %v: err = %v, want an error naming total_ms", f, err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not json", "nope", "decode analyze-data"},
		{"wrong type", `{"schema_version":"1.0","results":{}}`, "results"},
		{"major", `{"schema_version":"2.0"}`, "schema_version"},
	} {
		if _, err := Decode([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("ReadFile of a missing file: err = %v", err)
	}
	d, err := ReadFile(filepath.Join("testdata", "small.golden.json"))
	if err != nil || len(d.Results) != 2 {
		t.Errorf("ReadFile(golden) = %v, %v", d, err)
	}
}

// TestStrEscapesAtEveryPosition puts each byte that needs care at every
// offset of a 20-byte string, so the eight-at-a-time skip in plainRun is
// exercised on word boundaries, and compares with the JSON library.
func TestStrEscapesAtEveryPosition(t *testing.T) {
	specials := []string{`"`, `\`, "\x00", "\x1f", "\n", "é", "\u2028", "\xff", "␞", "\x7f", " "}
	for _, sp := range specials {
		for pos := 0; pos <= 20; pos++ {
			s := strings.Repeat("a", pos) + sp + strings.Repeat("b", 20-pos)
			var e fastjson.Writer
			e.Str(s)
			want, err := jsonv2.Marshal(s)
			if err != nil {
				// invalid UTF-8: the encoder writes U+FFFD instead
				want, _ = jsonv2.Marshal(strings.ToValidUTF8(s, "\ufffd"))
			}
			if string(e.Buf) != string(want) {
				t.Errorf("str(%q) = %s, want %s", s, e.Buf, want)
			}
		}
	}
}
