package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
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

// Problem is one failed check, located by a JSON pointer (RFC 6901) into
// the document; "" is the whole document.
type Problem struct {
	Pointer string
	Message string
}

// Report is the verdict of Validate.
type Report struct {
	Schema   []Problem // against the embedded JSON Schema
	Semantic []Problem // counts, statuses, totals, graph (see semantic.go)
	// Data is the decoded document, nil when it did not decode.
	Data *AnalyzeData
}

// SchemaOK reports whether the document matches the schema.
func (r *Report) SchemaOK() bool { return len(r.Schema) == 0 }

// SemanticOK reports whether every semantic check passed.
func (r *Report) SemanticOK() bool { return len(r.Semantic) == 0 }

// maxProblems caps each list so a file broken in every record stays cheap
// to report; the last entry then says that more were left out.
const maxProblems = 1000

// keepHead is how many leading elements of each big array the generic
// validator sees; the rest go through the fast checker (fast.go).
const keepHead = 16

// Validate checks data against the schema and the semantic rules. The
// schema pass and the typed decode behind the semantic checks run
// concurrently.
func Validate(data []byte) *Report {
	r := &Report{}
	var derr error
	var wg sync.WaitGroup
	wg.Go(func() {
		d := new(AnalyzeData)
		if derr = unmarshal(data, d); derr == nil {
			r.Data = d
		}
	})
	r.Schema = checkSchema(data)
	wg.Wait()
	if derr != nil {
		r.Semantic = []Problem{{Pointer: errPointer(derr), Message: "not checked: the document does not decode (" + decodeMessage(derr) + "); fix the schema problems first"}}
		return r
	}
	r.Semantic = checkSemantics(r.Data)
	return r
}

// ValidateData is Validate for a caller that already holds the decoded
// document: d must be what data decodes to (data written by Encode(d), or
// d returned by Decode(data); Encode and Decode round-trip exactly). The
// schema check reads data as Validate does; the semantic checks run on d,
// concurrently, instead of on a second full decode of data, which saves
// the time and the memory of another copy of the analysis.
func ValidateData(d *AnalyzeData, data []byte) *Report {
	r := &Report{Data: d}
	var wg sync.WaitGroup
	wg.Go(func() { r.Semantic = checkSemantics(d) })
	r.Schema = checkSchema(data)
	wg.Wait()
	return r
}

func errPointer(err error) string {
	var de *decodeError
	if errors.As(err, &de) {
		return de.ptr
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

func decodeMessage(err error) string {
	var de *decodeError
	if errors.As(err, &de) {
		return de.msg
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

// checkSchema validates data against the compiled schema: the document
// with its big arrays cut to keepHead elements through the generic
// validator, every further element through the fast checker, in parallel.
func checkSchema(data []byte) []Problem {
	sch, err := compiledSchema()
	if err != nil {
		return []Problem{{Message: "internal error: " + err.Error()}}
	}
	t := &treeBuilder{dec: jsontext.NewDecoder(bytes.NewBuffer(data)), data: data}
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
		return []Problem{{Pointer: errPointer(err), Message: "not valid JSON: " + decodeMessage(err)}}
	}
	problems := genericProblems(sch.Validate(root))
	problems = append(problems, t.rangeProblems...)
	problems = append(problems, fastProblems...)
	sortProblems(problems)
	return capProblems(problems)
}

// overflowsFloat64 reports whether the JSON number num lies beyond the
// range of a 64-bit float. Only a number with an exponent or hundreds of
// digits can, so most numbers are not parsed.
func overflowsFloat64(num string) bool {
	if len(num) < 300 && !strings.ContainsAny(num, "eE") {
		return false
	}
	f, err := strconv.ParseFloat(num, 64)
	return math.IsInf(f, 0) || (err != nil && !isRangeErr(err))
}

func rangeMessage(num string) string {
	if len(num) > 40 {
		num = num[:40] + "..."
	}
	return "number " + num + " is out of range (beyond a 64-bit float)"
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
	wg            sync.WaitGroup
	out           [][]Problem
}

const batchLen = 256

func (t *treeBuilder) startWorkers() {
	t.jobs = make(chan []job, 8)
	n := max(1, runtime.GOMAXPROCS(0))
	t.out = make([][]Problem, n)
	for w := range n {
		t.wg.Go(func() {
			c := &fastChecker{limit: maxProblems}
			for batch := range t.jobs {
				for _, j := range batch {
					c.b, c.i, c.base, c.path = t.data[j.start:j.end], 0, j.base+"/"+strconv.Itoa(j.idx), c.path[:0]
					c.check(j.node)
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
		sb.WriteString(escapePointer(p))
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
			if cut && i >= keepHead && item != nil {
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
		t.batch = make([]job, 0, batchLen)
	}
}

// truncatable reports whether an array matching s may be shown to the
// generic validator with only its head: no keyword of s looks at the
// array as a whole beyond what keepHead elements satisfy.
func truncatable(s *jsonschema.Schema) bool {
	s = deref(s)
	if s == nil || s.Ref != nil || hasCombinators(s) {
		return false
	}
	return s.MaxItems == nil && !s.UniqueItems && s.Contains == nil &&
		(s.MinItems == nil || *s.MinItems <= keepHead)
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
				out = append(out, Problem{Pointer: ptr + "/" + escapePointer(m), Message: "required property missing"})
			}
		case *kind.AdditionalProperties:
			for _, m := range k.Properties {
				out = append(out, Problem{Pointer: ptr + "/" + escapePointer(m), Message: "unknown property (the schema allows no other members here)"})
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
		sb.WriteString(escapePointer(t))
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

func capProblems(ps []Problem) []Problem {
	if len(ps) <= maxProblems {
		return ps
	}
	n := len(ps) - maxProblems
	return append(ps[:maxProblems:maxProblems], Problem{Message: fmt.Sprintf("%d more problems not listed", n)})
}
