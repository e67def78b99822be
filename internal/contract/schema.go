package contract

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The report app's TypeScript types are generated from the schema:
//go:generate go run ./internal/tsgen -o ../../web/src/contract.ts

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
