package contract

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
)

// The contract is written once, in types.go; these tests pin every other
// copy to it on values built by reflection, so a field added to a struct is
// covered the moment it exists: the generated encoder (encode_gen.go) and
// decoder (decode_gen.go) must agree with encoding/json/v2 on it, and the
// JSON Schema must describe it (web/src/contract.ts is generated from the
// schema and pinned by tsgen's test).

// fullDoc is a document with every field of every struct set, two backends.
func fullDoc() *AnalyzeData {
	d := new(AnalyzeData)
	fill(reflect.ValueOf(d).Elem(), 1)
	d.SchemaVersion = SchemaVersion
	return d
}

func TestEveryFieldEncodesLikeJSONv2(t *testing.T) {
	d := fullDoc()
	want, err := jsonv2.Marshal(d, jsonv2.Deterministic(true))
	if err != nil {
		t.Fatal(err)
	}
	got := bytes.TrimSuffix(encode(t, d), []byte("\n"))
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("Encode differs from json v2 at byte %d (encode_gen.go stale? run go generate ./internal/contract):\nEncode:  %.160s\njson v2: %.160s", i, got[max(0, i-80):], want[max(0, i-80):])
	}
	back, err := Decode(got)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, d) {
		t.Error("Decode(Encode(d)) != d for the document with every field set (decode_gen.go stale? run go generate ./internal/contract)")
	}
}

// TestStructsMatchSchema walks the Go types and the schema together: every
// struct field's JSON name is a property of the schema object at the same
// place, and every property of the schema is a field.
func TestStructsMatchSchema(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(SchemaJSON, &schema); err != nil {
		t.Fatal(err)
	}
	defs, _ := schema["$defs"].(map[string]any)
	var walk func(path string, typ reflect.Type, s map[string]any)
	resolve := func(s map[string]any) map[string]any {
		for {
			ref, ok := s["$ref"].(string)
			if !ok {
				return s
			}
			s, _ = defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		}
	}
	walk = func(path string, typ reflect.Type, s map[string]any) {
		s = resolve(s)
		for typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		switch typ.Kind() {
		case reflect.Slice:
			if typ == reflect.TypeFor[RawObject]() {
				return
			}
			items, _ := s["items"].(map[string]any)
			if items == nil {
				prefix, _ := s["prefixItems"].([]any)
				if len(prefix) > 0 {
					items, _ = prefix[0].(map[string]any)
				}
			}
			if items == nil {
				t.Errorf("%s: a Go slice, the schema has no items", path)
				return
			}
			walk(path+"/0", typ.Elem(), items)
		case reflect.Map:
			add, _ := s["additionalProperties"].(map[string]any)
			if add == nil {
				t.Errorf("%s: a Go map, the schema has no additionalProperties schema", path)
				return
			}
			walk(path+"/*", typ.Elem(), add)
		case reflect.Struct:
			props, _ := s["properties"].(map[string]any)
			var names []string
			for f := range typ.Fields() {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if !f.IsExported() || name == "-" {
					continue
				}
				if name == "" {
					name = f.Name
				}
				names = append(names, name)
				ps, ok := props[name].(map[string]any)
				if !ok {
					t.Errorf("%s/%s: field %s.%s is not in the schema", path, name, typ.Name(), f.Name)
					continue
				}
				walk(path+"/"+name, f.Type, ps)
			}
			for name := range props {
				if !slices.Contains(names, name) {
					t.Errorf("%s/%s: in the schema, not a field of %s", path, name, typ.Name())
				}
			}
		}
	}
	walk("", reflect.TypeFor[AnalyzeData](), schema)
}
