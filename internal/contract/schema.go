package contract

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaJSON is the JSON Schema (draft 2020-12) of analyze-data.json.
//
//go:embed schema/analyze-data.schema.json
var SchemaJSON []byte

// SchemaURL is the schema's $id.
const SchemaURL = "https://github.com/trtperf/trtperf/schema/analyze-data.schema.json"

// compiledSchema compiles the embedded schema once per process.
var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON))
	if err != nil {
		return nil, fmt.Errorf("embedded schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaURL, doc); err != nil {
		return nil, fmt.Errorf("embedded schema: %w", err)
	}
	sch, err := c.Compile(SchemaURL)
	if err != nil {
		return nil, fmt.Errorf("embedded schema: %w", err)
	}
	return sch, nil
})

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
