package fastjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/trtperf/trtperf/internal/fsutil"
	"github.com/trtperf/trtperf/internal/jsonnum"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Problem is one failed check at a JSON pointer.
type Problem struct {
	Pointer string
	Message string
}

// KeepHead is how many leading elements of each big array the generic
// validator sees; the rest go through the fast checker (schemafast.go).
const KeepHead = 16

// CheckSchema validates data against sch: the document with its big arrays
// cut to KeepHead elements through the generic validator, every further
// element through the fast checker, in parallel. It lists at most limit
// problems, then one saying how many more there were.
func CheckSchema(sch *jsonschema.Schema, data []byte, limit int) []Problem {
	t := &treeBuilder{dec: jsontext.NewDecoder(bytes.NewBuffer(data)), data: data, limit: limit}
	t.startWorkers()
	root, err := t.value(sch)
	if err == nil {
		if _, err2 := t.dec.ReadToken(); err2 != io.EOF {
			if err2 == nil {
				err2 = errors.New("more data after the JSON document (several concatenated documents?)")
			}
			err = err2
		}
	}
	fastProblems := t.stopWorkers()
	if err != nil {
		return []Problem{{Pointer: ErrPointer(err), Message: "not valid JSON: " + ErrMessage(err) + fsutil.EncodingHint(data[:min(len(data), 64)])}}
	}
	problems := genericProblems(sch.Validate(root))
	problems = append(problems, t.rangeProblems...)
	problems = append(problems, fastProblems...)
	sortProblems(problems)
	return capProblems(problems, limit)
}

// overflowsFloat64 reports whether the JSON number num is out of the
// range of a 64-bit float: beyond it (overflow) or a non-zero number that
// rounds to zero (underflow); see jsonnum. Only a number with an exponent
// or hundreds of digits can be, so most numbers are not parsed.
func overflowsFloat64(num string) bool {
	return jsonnum.MayBeOutOfRange(num) && !jsonnum.InRange(num)
}

func rangeMessage(num string) string {
	if len(num) > 40 {
		num = num[:40] + "..."
	}
	return "number " + num + " is out of range (beyond a 64-bit float, or a non-zero number too small for one)"
}

// job is one big-array element for the fast checker.
type job struct {
	node       *fnode
	base       string // pointer of the array
	idx        int
	start, end int
}

type treeBuilder struct {
	// rangeProblems are numbers beyond float64 met by value.
	rangeProblems []Problem
	dec           *jsontext.Decoder
	data          []byte
	path          []string
	batch         []job
	jobs          chan []job
	free          chan []job // processed batches, for reuse
	wg            sync.WaitGroup
	out           [][]Problem
	limit         int
}

const batchLen = 256

func (t *treeBuilder) startWorkers() {
	t.jobs = make(chan []job, 8)
	t.free = make(chan []job, 16)
	n := max(1, runtime.GOMAXPROCS(0))
	t.out = make([][]Problem, n)
	for w := range n {
		t.wg.Go(func() {
			c := &fastChecker{limit: t.limit}
			for batch := range t.jobs {
				for _, j := range batch {
					// The element's pointer is only built for a problem.
					c.b, c.i, c.base, c.idx, c.path = t.data[j.start:j.end], 0, j.base, j.idx, c.path[:0]
					c.check(j.node)
				}
				select {
				case t.free <- batch[:0]:
				default:
				}
			}
			t.out[w] = c.problems
		})
	}
}

func (t *treeBuilder) stopWorkers() []Problem {
	if len(t.batch) > 0 {
		t.jobs <- t.batch
	}
	close(t.jobs)
	t.wg.Wait()
	return slices.Concat(t.out...)
}

func (t *treeBuilder) pointer() string {
	var sb strings.Builder
	for _, p := range t.path {
		sb.WriteByte('/')
		sb.WriteString(EscapePointer(p))
	}
	return sb.String()
}

// value reads one value into the generic form the schema validator takes
// (map[string]any, []any, json.Number, string, bool, nil).
func (t *treeBuilder) value(s *jsonschema.Schema) (any, error) {
	switch t.dec.PeekKind() {
	case '{':
		if _, err := t.dec.ReadToken(); err != nil {
			return nil, err
		}
		m := map[string]any{}
		for t.dec.PeekKind() != '}' {
			tok, err := t.dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := tok.String()
			t.path = append(t.path, name)
			v, err := t.value(child(s, name))
			t.path = t.path[:len(t.path)-1]
			if err != nil {
				return nil, err
			}
			m[name] = v
		}
		_, err := t.dec.ReadToken()
		return m, err
	case '[':
		if _, err := t.dec.ReadToken(); err != nil {
			return nil, err
		}
		arr := []any{}
		cut := truncatable(s)
		base := ""
		for i := 0; t.dec.PeekKind() != ']'; i++ {
			item := itemsOf(s, i)
			if cut && i >= KeepHead && item != nil {
				if fn := fastFor(item); fn != nil {
					if base == "" {
						base = t.pointer()
					}
					start := t.dec.InputOffset()
					if _, err := t.dec.ReadValue(); err != nil {
						return nil, err
					}
					t.push(job{node: fn, base: base, idx: i, start: int(start), end: int(t.dec.InputOffset())})
					continue
				}
			}
			t.path = append(t.path, strconv.Itoa(i))
			v, err := t.value(item)
			t.path = t.path[:len(t.path)-1]
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := t.dec.ReadToken()
		return arr, err
	default:
		tok, err := t.dec.ReadToken()
		if err != nil {
			return nil, err
		}
		switch tok.Kind() {
		case '"':
			return tok.String(), nil
		case '0':
			num := tok.String()
			if overflowsFloat64(num) {
				// The schema library turns such a number into a nil
				// *big.Rat and panics on it; the contract's numbers are
				// 64-bit floats, so it is a problem here and a harmless 0
				// for the library.
				t.rangeProblems = append(t.rangeProblems, Problem{Pointer: t.pointer(), Message: rangeMessage(num)})
				return json.Number("0"), nil
			}
			return json.Number(num), nil
		case 't', 'f':
			return tok.Bool(), nil
		default:
			return nil, nil
		}
	}
}

func (t *treeBuilder) push(j job) {
	// The element's bytes start after the separator before it.
	for j.start < j.end {
		c := t.data[j.start]
		if c != ',' && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
		j.start++
	}
	t.batch = append(t.batch, j)
	if len(t.batch) == batchLen {
		t.jobs <- t.batch
		select {
		case t.batch = <-t.free:
		default:
			t.batch = make([]job, 0, batchLen)
		}
	}
}

// truncatable reports whether an array matching s may be shown to the
// generic validator with only its head: no keyword of s looks at the
// array as a whole beyond what KeepHead elements satisfy.
func truncatable(s *jsonschema.Schema) bool {
	s = deref(s)
	if s == nil || s.Ref != nil || hasCombinators(s) {
		return false
	}
	return s.MaxItems == nil && !s.UniqueItems && s.Contains == nil &&
		(s.MinItems == nil || *s.MinItems <= KeepHead)
}

var printer = message.NewPrinter(language.English)

// genericProblems flattens the validator's error tree to its leaves.
func genericProblems(err error) []Problem {
	var ve *jsonschema.ValidationError
	if err == nil {
		return nil
	}
	if !errors.As(err, &ve) {
		return []Problem{{Message: err.Error()}}
	}
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		ptr := jsonPointer(e.InstanceLocation)
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, m := range k.Missing {
				out = append(out, Problem{Pointer: ptr + "/" + EscapePointer(m), Message: "required property missing"})
			}
		case *kind.AdditionalProperties:
			for _, m := range k.Properties {
				out = append(out, Problem{Pointer: ptr + "/" + EscapePointer(m), Message: "unknown property (the schema allows no other members here)"})
			}
		default:
			out = append(out, Problem{Pointer: ptr, Message: e.ErrorKind.LocalizedString(printer)})
		}
	}
	walk(ve)
	return out
}

func jsonPointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		sb.WriteString(EscapePointer(t))
	}
	return sb.String()
}

// sortProblems orders problems by pointer, array indexes numerically, so
// /records/9 comes before /records/10.
func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int { return comparePointers(a.Pointer, b.Pointer) })
}

func comparePointers(a, b string) int {
	for a != "" && b != "" {
		var sa, sb string
		sa, a = nextToken(a)
		sb, b = nextToken(b)
		if sa == sb {
			continue
		}
		ia, ea := strconv.Atoi(sa)
		ib, eb := strconv.Atoi(sb)
		if ea == nil && eb == nil {
			return ia - ib
		}
		return strings.Compare(sa, sb)
	}
	return len(a) - len(b)
}

func nextToken(p string) (tok, rest string) {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

func capProblems(ps []Problem, limit int) []Problem {
	if len(ps) <= limit {
		return ps
	}
	n := len(ps) - limit
	return append(ps[:limit:limit], Problem{Message: fmt.Sprintf("%d more problems not listed", n)})
}

// CheckSchemaGeneric validates the whole of data with the generic
// validator alone: the slow reference CheckSchema is tested against.
func CheckSchemaGeneric(sch *jsonschema.Schema, data []byte) ([]Problem, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return genericProblems(sch.Validate(v)), nil
}

// UsesFastPath reports whether the elements of an array matching s go
// through the fast checker (the generic validator sees only KeepHead of
// them).
func UsesFastPath(s *jsonschema.Schema) bool {
	return truncatable(s) && fastFor(itemsOf(s, 0)) != nil
}

// Child is the schema of member name of an object matching s, or nil when
// it cannot be told without evaluating combinators.
func Child(s *jsonschema.Schema, name string) *jsonschema.Schema { return child(s, name) }

// ItemsOf is the schema of element i of an array matching s, or nil.
func ItemsOf(s *jsonschema.Schema, i int) *jsonschema.Schema { return itemsOf(s, i) }

// ErrPointer is the JSON pointer a decode error names, "" if none.
func ErrPointer(err error) string {
	var de *DecodeError
	if errors.As(err, &de) {
		return de.Pointer
	}
	var se *jsonv2.SemanticError
	if errors.As(err, &se) {
		return string(se.JSONPointer)
	}
	var sy *jsontext.SyntacticError
	if errors.As(err, &sy) {
		return string(sy.JSONPointer)
	}
	return ""
}

// ErrMessage is a decode error's message without its location.
func ErrMessage(err error) string {
	var de *DecodeError
	if errors.As(err, &de) {
		return de.Message
	}
	var se *jsonv2.SemanticError
	if errors.As(err, &se) && se.Err != nil {
		return se.Err.Error()
	}
	var sy *jsontext.SyntacticError
	if errors.As(err, &sy) {
		return fmt.Sprintf("%v at byte %d", sy.Err, sy.ByteOffset)
	}
	return err.Error()
}

// deref follows $ref chains whose schemas carry nothing else that
// constrains, so a {"description", "$ref"} wrapper resolves to its target.
func deref(s *jsonschema.Schema) *jsonschema.Schema {
	for s != nil && s.Ref != nil && onlyRef(s) {
		s = s.Ref
	}
	return s
}

// child is the schema of member name of an object matching s, or nil when
// it cannot be told without evaluating combinators.
func child(s *jsonschema.Schema, name string) *jsonschema.Schema {
	s = deref(s)
	if s == nil || s.Ref != nil || hasCombinators(s) {
		return nil
	}
	if p, ok := s.Properties[name]; ok {
		return p
	}
	if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok && len(s.PatternProperties) == 0 {
		return a
	}
	return nil
}

// itemsOf is the schema of element i of an array matching s, or nil.
func itemsOf(s *jsonschema.Schema, i int) *jsonschema.Schema {
	s = deref(s)
	if s == nil || s.Ref != nil || hasCombinators(s) {
		return nil
	}
	if i < len(s.PrefixItems) {
		return s.PrefixItems[i]
	}
	return s.Items2020
}

func hasCombinators(s *jsonschema.Schema) bool {
	return s.AllOf != nil || s.AnyOf != nil || s.OneOf != nil || s.Not != nil || s.If != nil ||
		s.DynamicRef != nil || s.RecursiveRef != nil || s.UnevaluatedItems != nil || s.UnevaluatedProperties != nil
}

// onlyRef reports whether s has no keyword besides $ref and annotations.
func onlyRef(s *jsonschema.Schema) bool {
	c := *s
	c.Ref = nil
	return !constrains(&c)
}

// constrains reports whether s has any assertion keyword.
func constrains(s *jsonschema.Schema) bool {
	return s.Bool != nil || s.Ref != nil || s.Types != nil || s.Enum != nil || s.Const != nil ||
		hasCombinators(s) || s.Format != nil ||
		s.MaxProperties != nil || s.MinProperties != nil || s.Required != nil || s.PropertyNames != nil ||
		s.Properties != nil || s.PatternProperties != nil || s.AdditionalProperties != nil ||
		s.Dependencies != nil || s.DependentRequired != nil || s.DependentSchemas != nil ||
		s.MinItems != nil || s.MaxItems != nil || s.UniqueItems || s.Contains != nil ||
		s.MinContains != nil || s.MaxContains != nil || s.Items != nil || s.AdditionalItems != nil ||
		s.PrefixItems != nil || s.Items2020 != nil ||
		s.MinLength != nil || s.MaxLength != nil || s.Pattern != nil ||
		s.ContentEncoding != nil || s.ContentMediaType != nil || s.ContentSchema != nil ||
		s.Maximum != nil || s.Minimum != nil || s.ExclusiveMaximum != nil || s.ExclusiveMinimum != nil ||
		s.MultipleOf != nil || len(s.Extensions) > 0
}
