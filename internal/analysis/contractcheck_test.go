package analysis

import (
	"bytes"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// keepsContract encodes d as analyze writes it and reports (failing t)
// whether the bytes pass the schema and the semantic rules: "analyze
// exits 0" must mean a file validate, summary and package accept.
func keepsContract(t *testing.T, d *contract.AnalyzeData) bool {
	t.Helper()
	var buf bytes.Buffer
	if err := contract.Encode(&buf, d); err != nil {
		// Only non-finite numbers are refused by the encoder; the parsers
		// must already have turned those into a failed backend.
		t.Errorf("encode: %v", err)
		return false
	}
	if r := contract.Validate(buf.Bytes()); !r.SchemaOK() || !r.SemanticOK() {
		t.Errorf("analyze-data.json breaks the contract: schema %v, semantic %v", r.Schema, r.Semantic)
		return false
	}
	return true
}
