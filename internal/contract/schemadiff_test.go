package contract

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/trtperf/trtperf/internal/contract/internal/fastjson"
	"github.com/trtperf/trtperf/internal/golden"
)

// schemaDiffDocs are the valid documents FuzzSchemaFastMatchesGeneric
// mutates: the hand-built small document, one whose big arrays reach the
// fast checker (KeepHead+4 elements), and an analysis of a generated
// names-only dump (internal/analysis's golden, when present).
func schemaDiffDocs(tb testing.TB) [][]byte {
	docs := [][]byte{encode(tb, smallDoc()), encode(tb, bigDoc(fastjson.KeepHead+4))}
	if b, err := goldenDoc(filepath.Join("..", "analysis", "testdata", "golden", "names-only")); err == nil {
		docs = append(docs, b)
	} else {
		tb.Fatalf("the names-only analysis golden: %v", err)
	}
	return docs
}

// goldenDoc puts an analysis golden folder (document.json and one backend's
// sections) back together as one analyze-data.json, members grouped by
// section.
func goldenDoc(dir string) ([]byte, error) {
	root, err := golden.ReadJSON(filepath.Join(dir, "document.json"))
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	backend := []byte{'{'}
	for _, e := range entries {
		if e.Name() == "document.json" {
			continue
		}
		b, err := golden.ReadJSON(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if len(backend) > 1 {
			backend = append(backend, ',')
		}
		backend = append(backend, b[1:len(b)-1]...)
	}
	backend = append(backend, '}')
	doc := append(root[:len(root)-1:len(root)-1], `,"results":[`...)
	doc = append(doc, backend...)
	return append(doc, ']', '}'), nil
}

// FuzzSchemaFastMatchesGeneric is the differential test of the schema
// check: CheckSchema (big arrays' heads through the generic validator, the
// rest through the hand-written fast checker) must accept exactly the
// documents the generic validator accepts on the whole document. Each input
// is one edit of a valid document — replace, delete or append the value at
// the at-th JSON pointer — so nearly every execution is valid JSON that
// tests the schema rather than the parser.
func FuzzSchemaFastMatchesGeneric(f *testing.F) {
	docs := schemaDiffDocs(f)
	sch, err := compiledSchema()
	if err != nil {
		f.Fatal(err)
	}
	for which := range docs {
		for _, v := range []string{`"yes"`, `-1`, `{}`, `[]`, `null`, `2.5`, `true`, `[1,"2"]`, `{"Name":"x"}`, `-0`, `1.0`, `3e2`, `-2e-3`, `1e400`, `"a\"b"`} {
			for _, at := range []uint16{7, 150, 401, 977} {
				f.Add(uint8(which), at, uint8(at%3), []byte(v))
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, at uint16, op uint8, value []byte) {
		doc := docs[int(which)%len(docs)]
		data, ok := editDoc(t, doc, int(at), op%3, value)
		if !ok {
			return
		}
		generic, err := fastjson.CheckSchemaGeneric(sch, data)
		if err != nil {
			t.Fatalf("the edited document is not JSON: %v", err)
		}
		fast := fastjson.CheckSchema(sch, data, maxProblems)
		if (len(fast) == 0) != (len(generic) == 0) {
			t.Errorf("fast check %d problems %v, generic %d problems %v", len(fast), firstProblems(fast), len(generic), firstProblems(generic))
		}
	})
}

func firstProblems(ps []fastjson.Problem) []fastjson.Problem {
	return ps[:min(len(ps), 3)]
}

// editDoc applies one edit to doc: op 0 replaces the value at the at-th
// pointer (in a fixed walk order) with value, op 1 deletes it (object
// members only), op 2 appends value to it (arrays only). value is JSON, or
// else taken as a string. ok is false for edits that do not apply and for
// numbers beyond float64 (refused by both checkers' callers before the
// schema library sees them; see TestValidateHugeNumbers).
func editDoc(t *testing.T, doc []byte, at int, op uint8, value []byte) ([]byte, bool) {
	root := decodeGeneric(t, doc)
	var v any
	if json.Valid(value) {
		dec := json.NewDecoder(bytes.NewReader(value))
		dec.UseNumber()
		if dec.Decode(&v) != nil {
			return nil, false
		}
	} else {
		v = string(value)
	}
	if !finiteNumbers(v) {
		return nil, false
	}
	var target []string
	n := 0
	walkPointers(root, nil, func(ptr []string) bool {
		if n == at {
			target = slices.Clone(ptr)
			return false
		}
		n++
		return true
	})
	if target == nil {
		return nil, false
	}
	if len(target) == 0 { // the root itself
		if op != 0 {
			return nil, false
		}
		root = v
	} else {
		parent := lookup(root, target[:len(target)-1])
		last := target[len(target)-1]
		switch p := parent.(type) {
		case map[string]any:
			switch op {
			case 0:
				p[last] = v
			case 1:
				delete(p, last)
			case 2:
				arr, ok := p[last].([]any)
				if !ok {
					return nil, false
				}
				p[last] = append(arr, v)
			}
		case []any:
			i, _ := strconv.Atoi(last)
			switch op {
			case 0:
				p[i] = v
			case 2:
				arr, ok := p[i].([]any)
				if !ok {
					return nil, false
				}
				p[i] = append(arr, v)
			default:
				return nil, false
			}
		}
	}
	out, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return out, true
}

func decodeGeneric(t *testing.T, doc []byte) any {
	var root any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		t.Fatal(err)
	}
	return root
}

// walkPointers calls visit with the path of every value, parents first,
// object members in sorted order; visit returns false to stop.
func walkPointers(v any, path []string, visit func([]string) bool) bool {
	if !visit(path) {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !walkPointers(x[k], append(path, k), visit) {
				return false
			}
		}
	case []any:
		for i, e := range x {
			if !walkPointers(e, append(path, strconv.Itoa(i)), visit) {
				return false
			}
		}
	}
	return true
}

func lookup(v any, path []string) any {
	for _, tok := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, _ := strconv.Atoi(tok)
			v = x[i]
		}
	}
	return v
}

// finiteNumbers reports whether every number in v fits a float64.
func finiteNumbers(v any) bool {
	switch x := v.(type) {
	case json.Number:
		_, err := strconv.ParseFloat(string(x), 64) // ErrRange past float64
		return err == nil
	case map[string]any:
		for _, e := range x {
			if !finiteNumbers(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !finiteNumbers(e) {
				return false
			}
		}
	}
	return true
}

func TestGoldenDocIsValid(t *testing.T) {
	docs := schemaDiffDocs(t)
	if r := Validate(docs[len(docs)-1]); !r.SchemaOK() || !r.SemanticOK() {
		t.Errorf("the reassembled names-only golden is not a valid document: %v %v", r.Schema, r.Semantic)
	}
}
