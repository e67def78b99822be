package contract

import (
	"io"
	"sync"
	"testing"
)

// benchLayers is the size of an LLM engine at the top of the target range.
const benchLayers = 200_000

var benchDoc = sync.OnceValues(func() (*AnalyzeData, []byte) {
	d := bigDoc(benchLayers)
	var w sliceWriter
	if err := Encode(&w, d); err != nil {
		panic(err)
	}
	return d, w.b
})

type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

func BenchmarkEncode(b *testing.B) {
	d, data := benchDoc()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := Encode(io.Discard, d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	_, data := benchDoc()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	_, data := benchDoc()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if r := Validate(data); !r.SchemaOK() || !r.SemanticOK() {
			b.Fatalf("benchmark document invalid: %v %v", r.Schema, r.Semantic)
		}
	}
}

// BenchmarkSchemaCheck is the schema half of Validate alone.
func BenchmarkSchemaCheck(b *testing.B) {
	_, data := benchDoc()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if p := checkSchema(data); len(p) > 0 {
			b.Fatal(p)
		}
	}
}

// BenchmarkValidateData is Validate for a caller that holds the decoded
// document (no second decode).
func BenchmarkValidateData(b *testing.B) {
	d, data := benchDoc()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if r := ValidateData(d, data); !r.SchemaOK() || !r.SemanticOK() {
			b.Fatalf("benchmark document invalid: %v %v", r.Schema, r.Semantic)
		}
	}
}

func BenchmarkEncodeIndexed(b *testing.B) {
	d, data := benchDoc()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := EncodeIndexed(io.Discard, d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIndexOf(b *testing.B) {
	_, data := benchDoc()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := IndexOf(data); err != nil {
			b.Fatal(err)
		}
	}
}
