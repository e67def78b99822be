package contract

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/trtperf/trtperf/internal/contract/internal/fastjson"
)

func TestIndexSpans(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  *AnalyzeData
	}{{"small", smallDoc()}, {"big", bigDoc(3*fastjson.ChunkLen + 17)}} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			idx, err := EncodeIndexed(&buf, tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			data := buf.Bytes()
			if !bytes.Equal(data, encode(t, tc.doc)) {
				t.Fatal("EncodeIndexed wrote other bytes than Encode")
			}
			if len(idx.Results) != len(tc.doc.Results) {
				t.Fatalf("index has %d backends, want %d", len(idx.Results), len(tc.doc.Results))
			}
			for bi := range tc.doc.Results {
				b, x := &tc.doc.Results[bi], &idx.Results[bi]
				if len(x.Layers) != len(b.Layers) || len(x.Records) != len(b.Records) {
					t.Fatalf("backend %d: %d/%d spans for %d layers and %d records", bi, len(x.Layers), len(x.Records), len(b.Layers), len(b.Records))
				}
				for i := range b.Layers {
					e := enc{&fastjson.Writer{}}
					e.layer(&b.Layers[i])
					if got := data[x.Layers[i].Start:x.Layers[i].End]; !bytes.Equal(got, e.Buf) {
						t.Fatalf("backend %d layer %d: span holds %.80q, want %.80q", bi, i, got, e.Buf)
					}
				}
				for i := range b.Records {
					e := enc{&fastjson.Writer{}}
					e.record(&b.Records[i])
					if got := data[x.Records[i].Start:x.Records[i].End]; !bytes.Equal(got, e.Buf) {
						t.Fatalf("backend %d record %d: span holds %.80q, want %.80q", bi, i, got, e.Buf)
					}
				}
			}

			d, fromDecode, err := DecodeIndexed(data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d, tc.doc) {
				t.Error("DecodeIndexed's document differs from Decode's")
			}
			if !reflect.DeepEqual(fromDecode, idx) {
				t.Error("DecodeIndexed's index differs from EncodeIndexed's")
			}
			scanned, err := IndexOf(data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(scanned, idx) {
				t.Error("IndexOf's index differs from EncodeIndexed's")
			}
		})
	}
}

// Whitespace between elements (a pretty-printed file) is not part of a span.
func TestIndexSpansIndented(t *testing.T) {
	data := []byte(`{"results": [ {"label": "a", "layers": [ {"Name": "x"} ,
		{"Name": "y"} ], "records": [] }, {"layers": null} ]}`)
	x, y := int64(bytes.Index(data, []byte(`{"Name": "x"}`))), int64(bytes.Index(data, []byte(`{"Name": "y"}`)))
	want := []Span{{Start: x, End: x + 13}, {Start: y, End: y + 13}}
	idx, err := IndexOf(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(idx.Results) != 2 || !reflect.DeepEqual(idx.Results[0].Layers, want) || len(idx.Results[0].Records) != 0 || idx.Results[1].Layers != nil {
		t.Fatalf("IndexOf = %+v, want layers %v in the first backend only", idx.Results, want)
	}
}

func TestIndexOfErrors(t *testing.T) {
	for _, in := range []string{``, `[]`, `{"results":[{"layers":[{"Name":"x"}`, `{"results":[{"layers":[{]}]}`, `{"results":[]} x`} {
		if _, err := IndexOf([]byte(in)); err == nil {
			t.Errorf("IndexOf(%q) succeeded", in)
		}
	}
}

func TestDecodeIndexedErrors(t *testing.T) {
	for _, in := range []string{`{"results":[{"layers":[{"Name":1}]}]}`, `{"schema_version":"99.0"}`} {
		if _, _, err := DecodeIndexed([]byte(in)); err == nil {
			t.Errorf("DecodeIndexed(%q) succeeded", in)
		}
	}
}
