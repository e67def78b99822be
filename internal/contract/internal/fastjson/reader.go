package fastjson

import (
	"fmt"
	"github.com/trtperf/trtperf/internal/jsonnum"
	"strconv"
	"sync"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// DecodeError is a type error at a JSON pointer.
type DecodeError struct {
	Pointer string
	Message string
}

func (e *DecodeError) Error() string { return fmt.Sprintf("%s: %s", e.Pointer, e.Message) }

// At prefixes the pointer of err, when it is a *DecodeError, with tok.
func At(err error, tok string) error {
	if de, ok := err.(*DecodeError); ok {
		de.Pointer = "/" + EscapePointer(tok) + de.Pointer
	}
	return err
}

// Collect finds the elements of one array and decodes them in chunks on
// worker goroutines, into a slice allocated once at its final length. A
// non-nil spans gets the JSON pointer of the array and the elements'
// offsets in data (each may include a leading separator and whitespace).
func Collect[T any](dec *jsontext.Decoder, data []byte, v *[]T, spans func(base string, elems [][2]int), wg *sync.WaitGroup, sem chan struct{}, fail func(error), one func(*Reader, *T) error) error {
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
		return &DecodeError{Pointer: string(dec.StackPointer()), Message: "want an array"}
	}
	base := string(dec.StackPointer())
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	var elems [][2]int
	for dec.PeekKind() != ']' {
		start := int(dec.InputOffset())
		if _, err := dec.ReadValue(); err != nil {
			return err
		}
		elems = append(elems, [2]int{start, int(dec.InputOffset())})
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if spans != nil {
		spans(base, elems)
	}
	out := make([]T, len(elems))
	*v = out
	const chunk = 2048
	for lo := 0; lo < len(elems); lo += chunk {
		hi := min(lo+chunk, len(elems))
		work := func() {
			s := &Reader{b: data, intern: map[string]string{}}
			for i := lo; i < hi; i++ {
				s.i = elems[i][0]
				s.ws()
				if s.b[s.i] == ',' {
					s.i++
				}
				if err := one(s, &out[i]); err != nil {
					err = At(err, strconv.Itoa(i))
					if de, ok := err.(*DecodeError); ok {
						de.Pointer = base + de.Pointer
					}
					fail(err)
					return
				}
			}
		}
		if len(elems) <= chunk {
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

// Reader reads values from syntactically valid JSON.
type Reader struct {
	b      []byte
	i      int
	intern map[string]string
}

func (s *Reader) ws() { s.i = SkipWS(s.b, s.i) }

func (s *Reader) kind() string {
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

func (s *Reader) typeErr(want string) error {
	return &DecodeError{Message: fmt.Sprintf("cannot decode JSON %s into %s", s.kind(), want)}
}

// Null consumes a null and reports whether there was one.
func (s *Reader) Null() bool {
	s.ws()
	if s.b[s.i] == 'n' {
		s.i += 4
		return true
	}
	return false
}

// rawStr consumes a string, returning its raw bytes and whether they hold escapes.
func (s *Reader) rawStr() ([]byte, bool) {
	raw, end, esc := ScanString(s.b, s.i)
	s.i = end
	return raw, esc
}

// unquote decodes the escapes of a raw string.
func unquote(raw []byte) ([]byte, error) {
	u, err := jsontext.AppendUnquote(nil, append(append([]byte{'"'}, raw...), '"'))
	if err != nil {
		return nil, &DecodeError{Message: err.Error()}
	}
	return u, nil
}

func (s *Reader) Str(v *string, intern bool) error {
	if s.Null() {
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

func (s *Reader) num() ([]byte, error) {
	s.ws()
	c := s.b[s.i]
	if c != '-' && (c < '0' || c > '9') {
		return nil, s.typeErr("number")
	}
	start := s.i
	s.i = ScalarEnd(s.b, s.i)
	return s.b[start:s.i], nil
}

func (s *Reader) Int64(v *int64) error {
	if s.Null() {
		return nil // like jsonv2: null leaves the value alone
	}
	raw, err := s.num()
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(unsafe.String(&raw[0], len(raw)), 10, 64)
	if err != nil {
		return &DecodeError{Message: fmt.Sprintf("cannot decode JSON number %s into integer", raw)}
	}
	*v = n
	return nil
}

func (s *Reader) Int(v *int) error {
	var n int64 = int64(*v)
	if err := s.Int64(&n); err != nil {
		return err
	}
	if int64(int(n)) != n {
		return &DecodeError{Message: fmt.Sprintf("%d overflows int", n)}
	}
	*v = int(n)
	return nil
}

func (s *Reader) Float(v *float64) error {
	if s.Null() {
		return nil
	}
	raw, err := s.num()
	if err != nil {
		return err
	}
	f, ok := jsonnum.Parse(unsafe.String(&raw[0], len(raw)))
	if !ok {
		return &DecodeError{Message: fmt.Sprintf("cannot decode JSON number %.40s into float64 (out of range)", raw)}
	}
	*v = f
	return nil
}

// OptInt decodes a nullable int: null gives nil (written out for the
// reason Int64s is).
func (s *Reader) OptInt(v **int) error {
	if s.Null() {
		*v = nil
		return nil
	}
	x := new(int)
	if err := s.Int(x); err != nil {
		return err
	}
	*v = x
	return nil
}

// OptFloat decodes a nullable float64: null gives nil (written out for the
// reason Int64s is).
func (s *Reader) OptFloat(v **float64) error {
	if s.Null() {
		*v = nil
		return nil
	}
	x := new(float64)
	if err := s.Float(x); err != nil {
		return err
	}
	*v = x
	return nil
}

func (s *Reader) Bool(v *bool) error {
	if s.Null() {
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

// Raw copies an object as is; null is kept as the literal, as jsonv2 does.
func (s *Reader) Raw(v *jsontext.Value) error {
	if s.Null() {
		*v = jsontext.Value("null")
		return nil
	}
	if s.b[s.i] != '{' {
		return s.typeErr("object")
	}
	start := s.i
	s.Skip()
	*v = jsontext.Value(append([]byte(nil), s.b[start:s.i]...))
	return nil
}

func (s *Reader) Skip() { s.i = ValueEnd(s.b, s.i) }

// Object calls member for each member of an object; null leaves v alone.
func (s *Reader) Object(member func(name []byte) error) error {
	if s.Null() {
		return nil
	}
	if s.b[s.i] != '{' {
		return s.typeErr("object")
	}
	s.i++
	for {
		var done bool
		if s.i, done = NextItem(s.b, s.i, '}'); done {
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
			return At(err, string(name))
		}
	}
}

// Array calls elem for each element; null gives a nil slice (length -1).
func (s *Reader) Array(elem func(i int) error) (int, error) {
	if s.Null() {
		return -1, nil
	}
	if s.b[s.i] != '[' {
		return 0, s.typeErr("array")
	}
	s.i++
	n := 0
	for {
		var done bool
		if s.i, done = NextItem(s.b, s.i, ']'); done {
			return n, nil
		}
		if err := elem(n); err != nil {
			return 0, At(err, strconv.Itoa(n))
		}
		n++
	}
}

// Slice decodes an array into a new slice; null gives nil.
func Slice[T any](s *Reader, v *[]T, capHint int, one func(*T) error) error {
	out := make([]T, 0, capHint)
	n, err := s.Array(func(int) error {
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

func (s *Reader) Strs(v *[]string, intern bool) error {
	return Slice(s, v, 2, func(x *string) error { return s.Str(x, intern) })
}

// Int64s decodes an array of integers; null gives nil. It is written out
// rather than through Slice so that, inlined into another package, no
// method value escapes to the heap (one allocation per tensor otherwise).
func (s *Reader) Int64s(v *[]int64) error {
	out := make([]int64, 0, 4)
	n, err := s.Array(func(int) error {
		var x int64
		if err := s.Int64(&x); err != nil {
			return err
		}
		out = append(out, x)
		return nil
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
