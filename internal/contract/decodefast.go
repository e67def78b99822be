package contract

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"sync"
	"unsafe"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Decoding a 200k-layer file through reflection takes ~2 s, almost all of
// it in the layers and records arrays. unmarshal lets go-json-experiment
// read everything else, but for those two arrays only finds each element's
// bytes (a syntax-checking scan) and decodes the elements with the
// hand-written parsers below, in parallel with the rest of the document.
// The result equals jsonv2.Unmarshal's (decode_test.go pins this).

// decodeError is a type error at a JSON pointer.
type decodeError struct {
	ptr string
	msg string
}

func (e *decodeError) Error() string { return fmt.Sprintf("%s: %s", e.ptr, e.msg) }

// at prefixes the pointer of err with tok.
func at(err error, tok string) error {
	if de, ok := err.(*decodeError); ok {
		de.ptr = "/" + escapePointer(tok) + de.ptr
	}
	return err
}

func unmarshal(data []byte, d *AnalyzeData) error {
	return unmarshalIndexed(data, d, nil)
}

// unmarshalIndexed is unmarshal that also fills idx, when not nil, with the
// spans of the layers and records elements.
func unmarshalIndexed(data []byte, d *AnalyzeData, idx *Index) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		sem  = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	layers := jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *[]Layer) error {
		return collect(dec, data, v, idx, &wg, sem, fail, (*dscan).layer)
	})
	records := jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *[]Record) error {
		return collect(dec, data, v, idx, &wg, sem, fail, (*dscan).record)
	})
	err := jsonv2.Unmarshal(data, d, jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(layers, records)))
	wg.Wait()
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// collect finds the elements of one array and decodes them in chunks on
// worker goroutines, into a slice allocated once at its final length. A
// non-nil idx gets the elements' spans.
func collect[T any](dec *jsontext.Decoder, data []byte, v *[]T, idx *Index, wg *sync.WaitGroup, sem chan struct{}, fail func(error), one func(*dscan, *T) error) error {
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		*v = nil
		return err
	case '[':
	default:
		_, err := dec.ReadValue()
		if err != nil {
			return err
		}
		return &decodeError{ptr: string(dec.StackPointer()), msg: "want an array"}
	}
	base := string(dec.StackPointer())
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	var spans [][2]int
	for dec.PeekKind() != ']' {
		start := int(dec.InputOffset())
		if _, err := dec.ReadValue(); err != nil {
			return err
		}
		spans = append(spans, [2]int{start, int(dec.InputOffset())})
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if idx != nil {
		idx.addSpans(base, data, spans)
	}
	out := make([]T, len(spans))
	*v = out
	const chunk = 2048
	for lo := 0; lo < len(spans); lo += chunk {
		hi := min(lo+chunk, len(spans))
		work := func() {
			s := &dscan{b: data, intern: map[string]string{}}
			for i := lo; i < hi; i++ {
				s.i = spans[i][0]
				s.ws()
				if s.b[s.i] == ',' {
					s.i++
				}
				if err := one(s, &out[i]); err != nil {
					err = at(err, strconv.Itoa(i))
					if de, ok := err.(*decodeError); ok {
						de.ptr = base + de.ptr
					}
					fail(err)
					return
				}
			}
		}
		if len(spans) <= chunk {
			work() // not worth a goroutine
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			work()
		})
	}
	return nil
}

// dscan reads values from syntactically valid JSON.
type dscan struct {
	b      []byte
	i      int
	intern map[string]string
}

func (s *dscan) ws() { s.i = skipWS(s.b, s.i) }

func (s *dscan) kind() string {
	switch s.b[s.i] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func (s *dscan) typeErr(want string) error {
	return &decodeError{msg: fmt.Sprintf("cannot decode JSON %s into %s", s.kind(), want)}
}

// null consumes a null and reports whether there was one.
func (s *dscan) null() bool {
	s.ws()
	if s.b[s.i] == 'n' {
		s.i += 4
		return true
	}
	return false
}

// rawStr consumes a string, returning its raw bytes and whether they hold escapes.
func (s *dscan) rawStr() ([]byte, bool) {
	raw, end, esc := scanString(s.b, s.i)
	s.i = end
	return raw, esc
}

// unquote decodes the escapes of a raw string.
func unquote(raw []byte) ([]byte, error) {
	u, err := jsontext.AppendUnquote(nil, append(append([]byte{'"'}, raw...), '"'))
	if err != nil {
		return nil, &decodeError{msg: err.Error()}
	}
	return u, nil
}

func (s *dscan) str(v *string, intern bool) error {
	if s.null() {
		*v = ""
		return nil
	}
	if s.b[s.i] != '"' {
		return s.typeErr("string")
	}
	raw, esc := s.rawStr()
	if esc {
		u, err := unquote(raw)
		if err != nil {
			return err
		}
		*v = string(u)
		return nil
	}
	if intern {
		if x, ok := s.intern[string(raw)]; ok {
			*v = x
			return nil
		}
		x := string(raw)
		if len(s.intern) < 1<<14 {
			s.intern[x] = x
		}
		*v = x
		return nil
	}
	*v = string(raw)
	return nil
}

func (s *dscan) num() ([]byte, error) {
	s.ws()
	c := s.b[s.i]
	if c != '-' && (c < '0' || c > '9') {
		return nil, s.typeErr("number")
	}
	start := s.i
	s.i = scalarEnd(s.b, s.i)
	return s.b[start:s.i], nil
}

func (s *dscan) int64(v *int64) error {
	if s.null() {
		return nil // like jsonv2: null leaves the value alone
	}
	raw, err := s.num()
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(unsafe.String(&raw[0], len(raw)), 10, 64)
	if err != nil {
		return &decodeError{msg: fmt.Sprintf("cannot decode JSON number %s into integer", raw)}
	}
	*v = n
	return nil
}

func (s *dscan) int(v *int) error {
	var n int64 = int64(*v)
	if err := s.int64(&n); err != nil {
		return err
	}
	if int64(int(n)) != n {
		return &decodeError{msg: fmt.Sprintf("%d overflows int", n)}
	}
	*v = int(n)
	return nil
}

func (s *dscan) float(v *float64) error {
	if s.null() {
		return nil
	}
	raw, err := s.num()
	if err != nil {
		return err
	}
	f, err := strconv.ParseFloat(unsafe.String(&raw[0], len(raw)), 64)
	if err != nil || math.IsInf(f, 0) {
		return &decodeError{msg: fmt.Sprintf("cannot decode JSON number %s into float64", raw)}
	}
	*v = f
	return nil
}

// optional decodes a nullable value: null gives nil.
func optional[T any](s *dscan, v **T, one func(*T) error) error {
	if s.null() {
		*v = nil
		return nil
	}
	x := new(T)
	if err := one(x); err != nil {
		return err
	}
	*v = x
	return nil
}

func (s *dscan) optInt(v **int) error { return optional(s, v, s.int) }

func (s *dscan) optFloat(v **float64) error { return optional(s, v, s.float) }

func (s *dscan) bool(v *bool) error {
	if s.null() {
		return nil
	}
	switch s.b[s.i] {
	case 't':
		*v, s.i = true, s.i+4
	case 'f':
		*v, s.i = false, s.i+5
	default:
		return s.typeErr("boolean")
	}
	return nil
}

// raw copies an object as is; null is kept as the literal, as jsonv2 does.
func (s *dscan) raw(v *RawObject) error {
	if s.null() {
		*v = RawObject("null")
		return nil
	}
	if s.b[s.i] != '{' {
		return s.typeErr("object")
	}
	start := s.i
	s.skip()
	*v = RawObject(append([]byte(nil), s.b[start:s.i]...))
	return nil
}

func (s *dscan) skip() { s.i = valueEnd(s.b, s.i) }

// object calls member for each member of an object; null leaves v alone.
func (s *dscan) object(member func(name []byte) error) error {
	if s.null() {
		return nil
	}
	if s.b[s.i] != '{' {
		return s.typeErr("object")
	}
	s.i++
	for {
		var done bool
		if s.i, done = nextItem(s.b, s.i, '}'); done {
			return nil
		}
		name, esc := s.rawStr()
		if esc {
			u, err := unquote(name)
			if err != nil {
				return err
			}
			name = u
		}
		s.ws()
		s.i++ // :
		s.ws()
		if err := member(name); err != nil {
			return at(err, string(name))
		}
	}
}

// array calls elem for each element; null gives a nil slice (length -1).
func (s *dscan) array(elem func(i int) error) (int, error) {
	if s.null() {
		return -1, nil
	}
	if s.b[s.i] != '[' {
		return 0, s.typeErr("array")
	}
	s.i++
	n := 0
	for {
		var done bool
		if s.i, done = nextItem(s.b, s.i, ']'); done {
			return n, nil
		}
		if err := elem(n); err != nil {
			return 0, at(err, strconv.Itoa(n))
		}
		n++
	}
}

// slice decodes an array into a new slice; null gives nil.
func slice[T any](s *dscan, v *[]T, capHint int, one func(*T) error) error {
	out := make([]T, 0, capHint)
	n, err := s.array(func(int) error {
		var zero T
		out = append(out, zero)
		return one(&out[len(out)-1])
	})
	if err != nil {
		return err
	}
	if n < 0 {
		out = nil
	}
	*v = out
	return nil
}

func (s *dscan) strs(v *[]string, intern bool) error {
	return slice(s, v, 2, func(x *string) error { return s.str(x, intern) })
}

func (s *dscan) int64s(v *[]int64) error { return slice(s, v, 4, s.int64) }

func (s *dscan) tensors(v *[]Tensor) error {
	return slice(s, v, 2, func(t *Tensor) error {
		return s.object(func(name []byte) error {
			switch string(name) {
			case "Name":
				return s.str(&t.Name, false)
			case "Location":
				return s.str(&t.Location, true)
			case "Dimensions":
				return s.int64s(&t.Dimensions)
			case "Format/Datatype":
				return s.str(&t.Format, true)
			case "Extra":
				return s.raw(&t.Extra)
			}
			s.skip()
			return nil
		})
	})
}

func (s *dscan) layer(l *Layer) error {
	return s.object(func(name []byte) error {
		switch string(name) {
		case "Name":
			return s.str(&l.Name, false)
		case "LayerType":
			return s.str(&l.LayerType, true)
		case "Inputs":
			return s.tensors(&l.Inputs)
		case "Outputs":
			return s.tensors(&l.Outputs)
		case "Constants":
			return s.tensors(&l.Constants)
		case "ParameterType":
			return s.str(&l.ParameterType, true)
		case "TacticName":
			return s.str(&l.TacticName, true)
		case "TacticValue":
			return s.str(&l.TacticValue, false)
		case "Origin":
			return s.str(&l.Origin, true)
		case "StreamId":
			return s.optInt(&l.StreamID)
		case "Metadata":
			return s.str(&l.Metadata, false)
		case "_subgraph":
			return s.str(&l.Subgraph, true)
		case "OptimizationProfile":
			return s.int(&l.OptProfile)
		case "Parameters":
			return s.raw(&l.Parameters)
		}
		s.skip()
		return nil
	})
}

func (s *dscan) record(r *Record) error {
	return s.object(func(name []byte) error {
		switch string(name) {
		case "name":
			return s.str(&r.Name, false)
		case "layer":
			return s.int(&r.Layer)
		case "layer_type":
			return s.str(&r.LayerType, true)
		case "raw_layer_type":
			return s.str(&r.RawLayerType, true)
		case "precision":
			return s.str(&r.Precision, true)
		case "input_types":
			return s.strs(&r.InputTypes, true)
		case "output_types":
			return s.strs(&r.OutputTypes, true)
		case "tactic":
			return s.str(&r.Tactic, true)
		case "tactic_family":
			return s.str(&r.TacticFamily, true)
		case "tensor_core":
			return s.bool(&r.TensorCore)
		case "myelin_graph":
			return s.optInt(&r.MyelinGraph)
		case "fused_ops":
			return s.int(&r.FusedOps)
		case "time_ms":
			return s.float(&r.TimeMs)
		case "avg_ms":
			return s.float(&r.AvgMs)
		case "median_ms":
			return s.optFloat(&r.MedianMs)
		case "percentage":
			return s.float(&r.Percentage)
		case "tags":
			return s.strs(&r.Tags, true)
		}
		s.skip()
		return nil
	})
}
