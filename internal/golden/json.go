package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// MaxLine is the longest line a golden file may hold: longer ones cannot
// be reviewed in a diff. CheckJSON and CheckFiles fail on them.
const MaxLine = 1000

// inlineWidth is the widest array of scalars Pretty keeps on one line.
const inlineWidth = 100

// Pretty indents a JSON document for review: one object member per line,
// two spaces per level, arrays of scalars (and of small arrays of
// scalars) on one line when they fit in 100 bytes. Every token is copied
// verbatim (number spellings, string escapes, member order). A string
// longer than 300 bytes is cut after spaces into pieces written on
// continuation lines ("first part "\n    "second part"), so no line is too
// long to review; joining the pieces and compacting gives back the input's
// bytes.
func Pretty(doc []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := pretty(&out, jsontext.Value(bytes.TrimSpace(doc)), ""); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func pretty(out *bytes.Buffer, v jsontext.Value, indent string) error {
	switch v.Kind() {
	case '{':
		dec := jsontext.NewDecoder(bytes.NewReader(v))
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		if dec.PeekKind() == '}' {
			out.WriteString("{}")
			return nil
		}
		out.WriteString("{\n")
		first := true
		for dec.PeekKind() != '}' {
			name, err := dec.ReadValue() // the member name, verbatim
			if err != nil {
				return err
			}
			name = slices.Clone(name)
			val, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if !first {
				out.WriteString(",\n")
			}
			first = false
			out.WriteString(indent + "  ")
			out.Write(name)
			out.WriteString(": ")
			if err := pretty(out, val, indent+"  "); err != nil {
				return err
			}
		}
		out.WriteString("\n" + indent + "}")
	case '[':
		elems, err := elements(v)
		if err != nil {
			return err
		}
		if len(elems) == 0 {
			out.WriteString("[]")
			return nil
		}
		if inline, ok := inlineArray(elems); ok && len(indent)+len(inline) <= inlineWidth {
			out.WriteString(inline)
			return nil
		}
		out.WriteString("[\n")
		for i, e := range elems {
			if i > 0 {
				out.WriteString(",\n")
			}
			out.WriteString(indent + "  ")
			if err := pretty(out, e, indent+"  "); err != nil {
				return err
			}
		}
		out.WriteString("\n" + indent + "]")
	case '"':
		writeString(out, v, indent)
	default:
		out.Write(v)
	}
	return nil
}

// longString and piece are when a string is cut and the size of its pieces.
const longString, piece = 300, 120

// writeString writes a string token; one longer than longString bytes is
// cut after spaces into quoted pieces of about piece bytes, one per line,
// which read as one string the way adjacent literals do in C.
func writeString(out *bytes.Buffer, v jsontext.Value, indent string) {
	if len(v) <= longString {
		out.Write(v)
		return
	}
	body := v[1 : len(v)-1]
	for len(body) > 0 {
		cut := len(body)
		if cut > piece {
			// After the first space at or beyond piece bytes (a space is a
			// space in a JSON string, never part of an escape).
			if i := bytes.IndexByte(body[piece:], ' '); i >= 0 {
				cut = piece + i + 1
			}
		}
		out.WriteByte('"')
		out.Write(body[:cut])
		out.WriteByte('"')
		body = body[cut:]
		if len(body) > 0 {
			out.WriteString("\n" + indent + "    ")
		}
	}
}

func elements(v jsontext.Value) ([]jsontext.Value, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	var elems []jsontext.Value
	for dec.PeekKind() != ']' {
		e, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		elems = append(elems, slices.Clone(e))
	}
	return elems, nil
}

// inlineArray is an array of scalars, or of arrays of scalars, on one line.
func inlineArray(elems []jsontext.Value) (string, bool) {
	parts := make([]string, len(elems))
	for i, e := range elems {
		switch e.Kind() {
		case '{':
			return "", false
		case '[':
			sub, err := elements(e)
			if err != nil {
				return "", false
			}
			s, ok := inlineArray(sub)
			if !ok || strings.HasPrefix(s, "[[") {
				return "", false
			}
			parts[i] = s
		default:
			parts[i] = string(e)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]", true
}

// CheckJSON compares the JSON document got, pretty-printed, with the
// golden file at path (rewritten with -update). The golden file holds
// got's tokens verbatim, so it pins the bytes as well as the values; got
// itself must be compact (the encoders' output).
func CheckJSON(t testing.TB, path string, got []byte) {
	t.Helper()
	CheckFiles(t, filepath.Dir(path), map[string][]byte{filepath.Base(path): got}, false)
}

// CheckFiles compares a set of JSON documents with the golden files of the
// same names in dir, each pretty-printed. With own, dir belongs to this
// set alone: a file there that the set lacks is an error (-update deletes
// it), so a section that disappears shows in the diff.
func CheckFiles(t testing.TB, dir string, docs map[string][]byte, own bool) {
	t.Helper()
	names := make([]string, 0, len(docs))
	for name := range docs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		doc := docs[name]
		var compact bytes.Buffer
		if err := compactTo(&compact, doc); err != nil {
			t.Errorf("%s: not JSON: %v", name, err)
			continue
		} else if !bytes.Equal(compact.Bytes(), bytes.TrimSuffix(doc, []byte("\n"))) {
			t.Errorf("%s: the document is not compact JSON (insignificant whitespace)", name)
		}
		p, err := Pretty(doc)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for i, l := range strings.Split(string(p), "\n") {
			if len(l) > MaxLine {
				t.Errorf("%s line %d: %d bytes, more than a golden line may hold (%d): the value is too long to review", name, i+1, len(l), MaxLine)
				break
			}
		}
		Check(t, filepath.Join(dir, name), p)
	}
	if !own {
		return
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if _, ok := docs[e.Name()]; ok || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if *update {
			if err := os.Remove(path); err != nil {
				t.Error(err)
			}
			continue
		}
		t.Errorf("%s is a golden file the output no longer has; run go test with -update to delete it", path)
	}
}

func compactTo(dst *bytes.Buffer, doc []byte) error {
	v := jsontext.Value(slices.Clone(bytes.TrimSuffix(doc, []byte("\n"))))
	if err := v.Compact(); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	dst.Write(v)
	return nil
}

// continuation is the break Pretty puts inside a long string.
var continuation = regexp.MustCompile(`"\n *"`)

// ReadJSON reads a golden file written by CheckJSON or CheckFiles back as
// the compact JSON document it pins.
func ReadJSON(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	// In Pretty's output a quote, a line break, spaces and a quote occur
	// only where a long string was cut: elements and members end in a comma.
	b = continuation.ReplaceAll(b, nil)
	var out bytes.Buffer
	if err := compactTo(&out, b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out.Bytes(), nil
}
