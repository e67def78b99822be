package contract

import (
	"bufio"
	"fmt"
	"io"
	"slices"

	"github.com/trtperf/trtperf/internal/contract/internal/fastjson"
)

// The encoder and the big arrays' decoder are generated from types.go (this
// runs before tsgen, which needs the package to build):
//go:generate go run ./internal/encgen -types types.go -enc encode_gen.go -dec decode_gen.go

// enc writes the contract's types with the byte-level writer of package
// fastjson. Its methods per type are generated from types.go into
// encode_gen.go (go generate ./internal/contract); this file holds the
// stream (the big arrays written in parallel chunks, straight to the
// output) and the helpers the generated code calls.
type enc struct{ *fastjson.Writer }

// AppendString appends s as a JSON string, exactly as Encode writes string
// values (invalid UTF-8 becomes U+FFFD), so other writers of the same data
// (the report's scripts) need no second, slower encoder.
func AppendString(dst []byte, s string) []byte { return fastjson.AppendString(dst, s) }

// Encode writes d as compact, deterministic JSON (the same d gives the same
// bytes: fields in declaration order, map keys sorted, floats in their
// shortest round-trip form). Nil slices are written as [] except those
// tagged contract:"null" (graph.cycle and graph.topo_order), which are
// null when nil. It fails on NaN or ±Inf, which JSON cannot carry. The big
// layers and records arrays are encoded in parallel chunks and written in
// order.
func Encode(w io.Writer, d *AnalyzeData) error {
	return encodeTo(w, d, nil)
}

// stream is where the encoder flushes its buffer before a big array, which
// is then written in chunks; idx, when not nil, gets the arrays' spans.
type stream struct {
	e   enc
	w   *fastjson.CountingWriter
	idx *Index
	cur *BackendIndex // the backend being written, when indexing
}

func (s *stream) flush() error {
	if s.e.Err != nil {
		return s.e.Err
	}
	_, err := s.w.Write(s.e.Buf)
	s.e.Buf = s.e.Buf[:0]
	return err
}

// encodeTo writes d to w; a non-nil idx gets the spans of every backend's
// layers and records (see EncodeIndexed).
func encodeTo(w io.Writer, d *AnalyzeData, idx *Index) error {
	bw := &fastjson.CountingWriter{W: bufio.NewWriterSize(w, 1<<20)}
	e := enc{&fastjson.Writer{Buf: make([]byte, 0, 64<<10)}}
	s := &stream{e: e, w: bw, idx: idx}
	if idx != nil {
		idx.Results = make([]BackendIndex, len(d.Results))
	}
	if err := e.analyzeData(d, s); err != nil {
		return err
	}
	e.Buf = append(e.Buf, '\n')
	if err := s.flush(); err != nil {
		return fmt.Errorf("encode analyze-data: %w", err)
	}
	if err := bw.W.Flush(); err != nil {
		return fmt.Errorf("write analyze-data: %w", err)
	}
	return nil
}

// results writes the backends, each with its big arrays streamed.
func (e enc) results(s *stream, v []Backend) error {
	e.Buf = append(e.Buf, '[')
	for i := range v {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		if s.idx != nil {
			s.cur = &s.idx.Results[i]
		}
		if err := e.backend(&v[i], s); err != nil {
			return fmt.Errorf("encode results[%d] (%s): %w", i, v[i].Label, err)
		}
	}
	e.Buf = append(e.Buf, ']')
	return nil
}

func (e enc) layers(s *stream, v []Layer) error {
	if err := s.flush(); err != nil {
		return err
	}
	var spans []Span
	if s.cur != nil {
		spans = make([]Span, len(v))
		s.cur.Layers = spans
	}
	if err := fastjson.EncodeChunked(s.w, v, spans, func(w *fastjson.Writer, l *Layer) { enc{w}.layer(l) }); err != nil {
		return fmt.Errorf("layers: %w", err)
	}
	return nil
}

func (e enc) records(s *stream, v []Record) error {
	if err := s.flush(); err != nil {
		return err
	}
	var spans []Span
	if s.cur != nil {
		spans = make([]Span, len(v))
		s.cur.Records = spans
	}
	if err := fastjson.EncodeChunked(s.w, v, spans, func(w *fastjson.Writer, r *Record) { enc{w}.record(r) }); err != nil {
		return fmt.Errorf("records: %w", err)
	}
	return nil
}

// floatMap writes a map with its keys sorted, so the bytes are stable.
func (e enc) floatMap(name string, m map[string]float64) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.Buf = append(e.Buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Str(k)
		e.Buf = append(e.Buf, ':')
		e.Float(name+"."+k, m[k])
	}
	e.Buf = append(e.Buf, '}')
}
