package contract

import (
	"bytes"
	"fmt"
	"github.com/trtperf/trtperf/internal/contract/internal/fastjson"
	"io"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Index locates the big per-layer arrays inside an encoded analyze-data.json,
// so that a consumer (the report's per-layer detail files) can reuse the
// encoded bytes of each layer and record instead of encoding them again.
type Index struct {
	Results []BackendIndex // one per results[] element, in order
}

// BackendIndex holds the spans of one backend's layers and records
// elements, in array order.
type BackendIndex struct {
	Layers  []Span
	Records []Span
}

// Span is one array element's bytes: data[Start:End] is the complete JSON
// value (an object), without the separating comma or whitespace.
type Span = fastjson.Span

// EncodeIndexed is Encode that also returns where each backend's layers and
// records elements are in the bytes written to w (offsets from the first
// byte written).
func EncodeIndexed(w io.Writer, d *AnalyzeData) (*Index, error) {
	idx := &Index{}
	if err := encodeTo(w, d, idx); err != nil {
		return nil, err
	}
	return idx, nil
}

// DecodeIndexed is Decode that also returns the spans of every backend's
// layers and records elements in data, at no extra cost: the decoder finds
// each element's bytes anyway.
func DecodeIndexed(data []byte) (*AnalyzeData, *Index, error) {
	idx := &Index{}
	d := new(AnalyzeData)
	if err := unmarshalIndexed(data, d, idx); err != nil {
		return nil, nil, fmt.Errorf("decode analyze-data: %w", err)
	}
	if major(d.SchemaVersion) != major(SchemaVersion) {
		return nil, nil, fmt.Errorf("decode analyze-data: schema_version %q, this trtperf reads %s.x; re-run `trtperf analyze` with this version", d.SchemaVersion, major(SchemaVersion))
	}
	if len(idx.Results) < len(d.Results) {
		idx.Results = append(idx.Results, make([]BackendIndex, len(d.Results)-len(idx.Results))...)
	}
	return d, idx, nil
}

// spanSink is the callback through which the decoder hands idx the
// element offsets it finds; nil when there is no index to fill.
func (idx *Index) spanSink(data []byte) func(base string, elems [][2]int) {
	if idx == nil {
		return nil
	}
	return func(base string, elems [][2]int) { idx.addSpans(base, data, elems) }
}

// addSpans records the element spans collect found for the array at the
// JSON pointer base (/results/N/layers or /results/N/records).
func (idx *Index) addSpans(base string, data []byte, spans [][2]int) {
	rest, ok := strings.CutPrefix(base, "/results/")
	if !ok {
		return
	}
	num, field, ok := strings.Cut(rest, "/")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 0 {
		return
	}
	for len(idx.Results) <= n {
		idx.Results = append(idx.Results, BackendIndex{})
	}
	out := make([]Span, len(spans))
	for i, s := range spans {
		out[i] = trimSpan(data, s[0], s[1])
	}
	switch field {
	case "layers":
		idx.Results[n].Layers = out
	case "records":
		idx.Results[n].Records = out
	}
}

// trimSpan drops the leading separator and whitespace the decoder counts
// as part of an element.
func trimSpan(data []byte, start, end int) Span {
	for start < end {
		switch data[start] {
		case ' ', '\t', '\n', '\r', ',':
			start++
			continue
		}
		break
	}
	return Span{Start: int64(start), End: int64(end)}
}

// IndexOf finds the spans of every backend's layers and records elements
// in data, an encoded analyze-data.json, for callers that have the bytes
// but neither EncodeIndexed's nor DecodeIndexed's index. It checks JSON
// syntax as it goes; it does not decode values.
func IndexOf(data []byte) (*Index, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	idx := &Index{}
	fail := func(err error) (*Index, error) {
		return nil, fmt.Errorf("index analyze-data: %w", err)
	}
	if tok, err := dec.ReadToken(); err != nil {
		return fail(err)
	} else if tok.Kind() != '{' {
		return fail(fmt.Errorf("the document is not an object"))
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return fail(err)
		}
		if name.String() != "results" || dec.PeekKind() != '[' {
			if err := dec.SkipValue(); err != nil {
				return fail(err)
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return fail(err)
		}
		for dec.PeekKind() != ']' {
			var bi BackendIndex
			if err := indexBackend(dec, data, &bi); err != nil {
				return fail(err)
			}
			idx.Results = append(idx.Results, bi)
		}
		if _, err := dec.ReadToken(); err != nil {
			return fail(err)
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return fail(err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			err = fmt.Errorf("more data after the JSON document")
		}
		return fail(err)
	}
	return idx, nil
}

func indexBackend(dec *jsontext.Decoder, data []byte, bi *BackendIndex) error {
	if dec.PeekKind() != '{' {
		return dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return err
		}
		var dst *[]Span
		switch name.String() {
		case "layers":
			dst = &bi.Layers
		case "records":
			dst = &bi.Records
		}
		if dst == nil || dec.PeekKind() != '[' {
			if err := dec.SkipValue(); err != nil {
				return err
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		spans := []Span{}
		for dec.PeekKind() != ']' {
			start := int(dec.InputOffset())
			if err := dec.SkipValue(); err != nil {
				return err
			}
			spans = append(spans, trimSpan(data, start, int(dec.InputOffset())))
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		*dst = spans
	}
	_, err := dec.ReadToken()
	return err
}
