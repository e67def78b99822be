// Command encgen writes the contract's JSON encoder (encode_gen.go) and the
// decoder of the big per-layer arrays (decode_gen.go) from the struct
// declarations of internal/contract/types.go, so a field is declared once:
// run `go generate ./internal/contract` after changing types.go.
//
// What it reads from a field: its Go type, its `json` tag (name,
// omitempty, omitzero) and its `contract` tag: "null" writes a nil slice as
// null instead of [], "intern" makes the decoder of the big arrays share one
// copy of each distinct string value. A few fields are written
// by hand-written methods in encode.go (the streamed arrays): streamed
// lists them by element type.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"unicode"
)

// streamed are the slices encode.go writes itself, by element type: the
// method of enc that writes them (it takes the *stream and returns an error).
var streamed = map[string]string{
	"Backend": "results",
	"Layer":   "layers",
	"Record":  "records",
}

// decoded are the roots of the hand-tuned decoder: the elements of the big
// arrays, read member by member (decodefast.go calls dscan.layer and
// dscan.record).
var decoded = []string{"Layer", "Record"}

// field is one member of a struct as the encoder sees it.
type field struct {
	goName   string
	key      string
	typ      ast.Expr
	omit     string // "", "omitempty" or "omitzero"
	emitNull bool
	intern   bool
}

type model struct {
	order   []string // struct names in file order
	structs map[string][]field
	aliases map[string]bool // RawObject and the like: pre-encoded JSON
}

// Generate returns encode_gen.go and decode_gen.go for the types.go source.
func Generate(src []byte) (enc, dec []byte, err error) {
	m, err := parse(src)
	if err != nil {
		return nil, nil, err
	}
	if enc, err = m.encoder(); err != nil {
		return nil, nil, err
	}
	if dec, err = m.decoder(); err != nil {
		return nil, nil, err
	}
	return enc, dec, nil
}

func parse(src []byte) (*model, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "types.go", src, 0)
	if err != nil {
		return nil, err
	}
	m := &model{structs: map[string][]field{}, aliases: map[string]bool{}}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			if ts.Assign.IsValid() {
				if sel, ok := ts.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Value" {
					m.aliases[ts.Name.Name] = true
					continue
				}
				return nil, fmt.Errorf("type %s: only aliases of jsontext.Value are supported", ts.Name.Name)
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return nil, fmt.Errorf("type %s: not a struct", ts.Name.Name)
			}
			var fs []field
			for _, fl := range st.Fields.List {
				if len(fl.Names) == 0 {
					return nil, fmt.Errorf("type %s: embedded fields are not supported", ts.Name.Name)
				}
				tag := ""
				if fl.Tag != nil {
					tag, _ = strconv.Unquote(fl.Tag.Value)
				}
				for _, n := range fl.Names {
					if !n.IsExported() {
						continue
					}
					js := reflect.StructTag(tag).Get("json")
					name, opts, _ := strings.Cut(js, ",")
					if name == "-" && opts == "" {
						continue
					}
					if name == "" {
						name = n.Name
					}
					c := reflect.StructTag(tag).Get("contract")
					fd := field{goName: n.Name, key: name, typ: fl.Type, intern: c == "intern", emitNull: c == "null"}
					if c != "" && c != "intern" && c != "null" {
						return nil, fmt.Errorf("%s.%s: contract tag %q is not intern or null", ts.Name.Name, n.Name, c)
					}
					for _, o := range strings.Split(opts, ",") {
						switch o {
						case "":
						case "omitempty", "omitzero":
							fd.omit = o
						default:
							return nil, fmt.Errorf("%s.%s: json option %q is not supported", ts.Name.Name, n.Name, o)
						}
					}
					fs = append(fs, fd)
				}
			}
			if len(fs) > 0 && fs[0].omit != "" {
				return nil, fmt.Errorf("type %s: the first field %s may not be omitted (the encoder writes it without a comma)", ts.Name.Name, fs[0].goName)
			}
			m.order = append(m.order, ts.Name.Name)
			m.structs[ts.Name.Name] = fs
		}
	}
	if _, ok := m.structs["AnalyzeData"]; !ok {
		return nil, fmt.Errorf("no AnalyzeData struct")
	}
	return m, nil
}

func lowerFirst(s string) string {
	r := []rune(s)
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) && (i == 0 || i+1 >= len(r) || unicode.IsUpper(r[i+1])) {
		r[i] = unicode.ToLower(r[i])
		i++
	}
	return string(r)
}

// reachable lists the structs reachable from root, in file order.
func (m *model) reachable(roots ...string) []string {
	seen := map[string]bool{}
	var visit func(ast.Expr)
	visit = func(t ast.Expr) {
		switch t := t.(type) {
		case *ast.Ident:
			if fs, ok := m.structs[t.Name]; ok && !seen[t.Name] {
				seen[t.Name] = true
				for _, f := range fs {
					visit(f.typ)
				}
			}
		case *ast.StarExpr:
			visit(t.X)
		case *ast.ArrayType:
			visit(t.Elt)
		case *ast.MapType:
			visit(t.Value)
		}
	}
	for _, r := range roots {
		visit(ast.NewIdent(r))
	}
	var out []string
	for _, n := range m.order {
		if seen[n] {
			out = append(out, n)
		}
	}
	return out
}

// streams reports whether a struct holds a streamed slice (its encoder then
// takes the stream and returns an error).
func (m *model) streams(name string) bool {
	var has func(ast.Expr, map[string]bool) bool
	has = func(t ast.Expr, seen map[string]bool) bool {
		switch t := t.(type) {
		case *ast.Ident:
			if seen[t.Name] {
				return false
			}
			seen[t.Name] = true
			for _, f := range m.structs[t.Name] {
				if a, ok := f.typ.(*ast.ArrayType); ok && a.Len == nil {
					if id, ok := a.Elt.(*ast.Ident); ok && streamed[id.Name] != "" {
						return true
					}
				}
				if has(f.typ, seen) {
					return true
				}
			}
		case *ast.StarExpr:
			return has(t.X, seen)
		case *ast.ArrayType:
			return has(t.Elt, seen)
		}
		return false
	}
	return has(ast.NewIdent(name), map[string]bool{})
}

type writer struct {
	bytes.Buffer
	depth int // nesting of loops, for fresh index names
}

func (w *writer) p(format string, args ...any) { fmt.Fprintf(&w.Buffer, format+"\n", args...) }

const header = "// Code generated by encgen from types.go; DO NOT EDIT.\n// Regenerate with `go generate ./internal/contract`.\n\n"

func (m *model) encoder() ([]byte, error) {
	w := &writer{}
	w.WriteString(header)
	w.p("package contract\n")
	for _, name := range m.reachable("AnalyzeData") {
		st := m.streams(name)
		recv := "v"
		w.p("// %s writes a %s object.", lowerFirst(name), name)
		if st {
			w.p("func (e enc) %s(%s *%s, s *stream) error {", lowerFirst(name), recv, name)
		} else {
			w.p("func (e enc) %s(%s *%s) {", lowerFirst(name), recv, name)
		}
		w.p("e.Buf = append(e.Buf, '{')")
		for i, f := range m.structs[name] {
			x := recv + "." + f.goName
			cond := ""
			switch f.omit {
			case "omitempty":
				cond = m.emptyCond(x, f.typ)
			case "omitzero":
				cond = m.zeroCond(x, f.typ)
			}
			if cond != "" {
				w.p("if %s {", cond)
			}
			w.p("e.Key(%t, %q)", i == 0, f.key)
			if a, ok := f.typ.(*ast.ArrayType); ok && a.Len == nil {
				if id, ok := a.Elt.(*ast.Ident); ok && streamed[id.Name] != "" {
					if !st {
						return nil, fmt.Errorf("%s.%s: streamed field outside a streaming struct", name, f.goName)
					}
					w.p("if err := e.%s(s, %s); err != nil {\nreturn err\n}", streamed[id.Name], x)
					if cond != "" {
						w.p("}")
					}
					continue
				}
			}
			if f.emitNull {
				w.p("if %s == nil {\ne.Null()\n} else {", x)
			}
			if err := m.value(w, x, f.typ, lowerFirst(name)+"."+f.key, st); err != nil {
				return nil, fmt.Errorf("%s.%s: %w", name, f.goName, err)
			}
			if f.emitNull {
				w.p("}")
			}
			if cond != "" {
				w.p("}")
			}
		}
		w.p("e.Buf = append(e.Buf, '}')")
		if st {
			w.p("return nil")
		}
		w.p("}\n")
	}
	return format.Source(w.Bytes())
}

func (m *model) emptyCond(x string, t ast.Expr) string {
	switch t := t.(type) {
	case *ast.Ident:
		switch {
		case t.Name == "string":
			return x + ` != ""`
		case m.aliases[t.Name]:
			return "len(" + x + ") != 0"
		}
	case *ast.StarExpr:
		return x + " != nil"
	case *ast.ArrayType:
		if t.Len == nil {
			return "len(" + x + ") != 0"
		}
	case *ast.MapType:
		return "len(" + x + ") != 0"
	}
	return "" // never empty: an unsupported omitempty is caught by the drift test
}

func (m *model) zeroCond(x string, t ast.Expr) string {
	switch t := t.(type) {
	case *ast.Ident:
		switch {
		case t.Name == "string":
			return x + ` != ""`
		case t.Name == "bool":
			return x
		case t.Name == "int" || t.Name == "int64" || t.Name == "float64":
			return x + " != 0"
		case m.aliases[t.Name]:
			return x + " != nil"
		}
	case *ast.StarExpr, *ast.MapType:
		return x + " != nil"
	case *ast.ArrayType:
		if t.Len == nil {
			return x + " != nil"
		}
	}
	return ""
}

// value writes the code that encodes expression x of type t; name is the
// dotted name a non-finite float is reported under.
func (m *model) value(w *writer, x string, t ast.Expr, name string, st bool) error {
	switch t := t.(type) {
	case *ast.Ident:
		switch t.Name {
		case "string":
			w.p("e.Str(%s)", x)
		case "bool":
			w.p("e.Bool(%s)", x)
		case "int":
			w.p("e.Int(int64(%s))", x)
		case "int64":
			w.p("e.Int(%s)", x)
		case "float64":
			w.p("e.Float(%q, %s)", name, x)
		default:
			switch {
			case m.aliases[t.Name]:
				w.p("e.Raw(%s)", x)
			case m.structs[t.Name] != nil:
				if m.streams(t.Name) {
					if !st {
						return fmt.Errorf("streaming struct %s inside a non-streaming one", t.Name)
					}
					w.p("if err := e.%s(&%s, s); err != nil {\nreturn err\n}", lowerFirst(t.Name), x)
				} else {
					w.p("e.%s(&%s)", lowerFirst(t.Name), x)
				}
			default:
				return fmt.Errorf("type %s is not supported", t.Name)
			}
		}
	case *ast.StarExpr:
		id, ok := t.X.(*ast.Ident)
		if !ok {
			return fmt.Errorf("pointer to a non-named type")
		}
		switch id.Name {
		case "string":
			w.p("e.OptStr(%s)", x)
		case "bool":
			w.p("e.OptBool(%s)", x)
		case "int":
			w.p("e.OptInt(%s)", x)
		case "int64":
			w.p("e.OptInt64(%s)", x)
		case "float64":
			w.p("e.OptFloat(%q, %s)", name, x)
		default:
			if m.structs[id.Name] == nil || m.streams(id.Name) {
				return fmt.Errorf("pointer to %s is not supported", id.Name)
			}
			w.p("if %s == nil {\ne.Null()\n} else {\ne.%s(%s)\n}", x, lowerFirst(id.Name), x)
		}
	case *ast.ArrayType:
		if id, ok := t.Elt.(*ast.Ident); ok && t.Len == nil {
			switch id.Name {
			case "string":
				w.p("e.Strs(%s)", x)
				return nil
			case "int":
				w.p("e.Ints(%s)", x)
				return nil
			case "int64":
				w.p("e.Int64s(%s)", x)
				return nil
			}
		}
		i := fmt.Sprintf("i%d", w.depth)
		w.depth++
		defer func() { w.depth-- }()
		w.p("e.Buf = append(e.Buf, '[')")
		w.p("for %s := range %s {", i, x)
		w.p("if %s > 0 {\ne.Buf = append(e.Buf, ',')\n}", i)
		if err := m.value(w, x+"["+i+"]", t.Elt, name, st); err != nil {
			return err
		}
		w.p("}")
		w.p("e.Buf = append(e.Buf, ']')")
	case *ast.MapType:
		if k, ok := t.Key.(*ast.Ident); !ok || k.Name != "string" {
			return fmt.Errorf("maps need string keys")
		}
		if v, ok := t.Value.(*ast.Ident); !ok || v.Name != "float64" {
			return fmt.Errorf("only map[string]float64 is supported")
		}
		w.p("e.floatMap(%q, %s)", name, x)
	default:
		return fmt.Errorf("type %T is not supported", t)
	}
	return nil
}

func (m *model) decoder() ([]byte, error) {
	w := &writer{}
	w.WriteString(header)
	w.p("package contract\n")
	w.p("import \"github.com/trtperf/trtperf/internal/contract/internal/fastjson\"\n")
	roots := m.reachable(decoded...)
	for _, name := range roots {
		w.p("// %s reads a %s object; unknown members are skipped.", lowerFirst(name), name)
		w.p("func (s dscan) %s(v *%s) error {", lowerFirst(name), name)
		w.p("return s.Object(func(name []byte) error {")
		w.p("switch string(name) {")
		for _, f := range m.structs[name] {
			w.p("case %q:", f.key)
			if err := m.read(w, "v."+f.goName, f.typ, f.intern); err != nil {
				return nil, fmt.Errorf("%s.%s: %w", name, f.goName, err)
			}
		}
		w.p("}\ns.Skip()\nreturn nil\n})\n}\n")
	}
	return format.Source(w.Bytes())
}

// read writes the code that decodes into x (addressable) of type t.
func (m *model) read(w *writer, x string, t ast.Expr, intern bool) error {
	switch t := t.(type) {
	case *ast.Ident:
		switch t.Name {
		case "string":
			w.p("return s.Str(&%s, %t)", x, intern)
		case "bool":
			w.p("return s.Bool(&%s)", x)
		case "int":
			w.p("return s.Int(&%s)", x)
		case "int64":
			w.p("return s.Int64(&%s)", x)
		case "float64":
			w.p("return s.Float(&%s)", x)
		default:
			switch {
			case m.aliases[t.Name]:
				w.p("return s.Raw(&%s)", x)
			case m.structs[t.Name] != nil:
				w.p("return s.%s(&%s)", lowerFirst(t.Name), x)
			default:
				return fmt.Errorf("type %s is not supported", t.Name)
			}
		}
	case *ast.StarExpr:
		id, ok := t.X.(*ast.Ident)
		if !ok {
			return fmt.Errorf("pointer to a non-named type")
		}
		switch id.Name {
		case "int":
			w.p("return s.OptInt(&%s)", x)
			return nil
		case "float64":
			w.p("return s.OptFloat(&%s)", x)
			return nil
		}
		w.p("if s.Null() {\n%s = nil\nreturn nil\n}", x)
		w.p("%s = new(%s)", x, id.Name)
		switch {
		case id.Name == "string":
			w.p("return s.Str(%s, %t)", x, intern)
		case id.Name == "bool":
			w.p("return s.Bool(%s)", x)
		case id.Name == "int64":
			w.p("return s.Int64(%s)", x)
		case m.structs[id.Name] != nil:
			w.p("return s.%s(%s)", lowerFirst(id.Name), x)
		default:
			return fmt.Errorf("pointer to %s is not supported", id.Name)
		}
	case *ast.ArrayType:
		id, ok := t.Elt.(*ast.Ident)
		if !ok || t.Len != nil {
			return fmt.Errorf("only slices of named types are supported")
		}
		switch {
		case id.Name == "string":
			w.p("return s.Strs(&%s, %t)", x, intern)
		case id.Name == "int64":
			w.p("return s.Int64s(&%s)", x)
		case m.structs[id.Name] != nil:
			w.p("return fastjson.Slice(s.Reader, &%s, 2, s.%s)", x, lowerFirst(id.Name))
		default:
			return fmt.Errorf("[]%s is not supported", id.Name)
		}
	default:
		return fmt.Errorf("type %T is not supported", t)
	}
	return nil
}
