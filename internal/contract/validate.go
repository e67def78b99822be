package contract

import (
	"sync"

	"github.com/trtperf/trtperf/internal/contract/internal/fastjson"
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
		r.Semantic = []Problem{{Pointer: fastjson.ErrPointer(derr), Message: "not checked: the document does not decode (" + fastjson.ErrMessage(derr) + "); fix the schema problems first"}}
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

// checkSchema validates data against the compiled schema (see
// fastjson.CheckSchema for how it stays fast on big files).
func checkSchema(data []byte) []Problem {
	sch, err := compiledSchema()
	if err != nil {
		return []Problem{{Message: "internal error: " + err.Error()}}
	}
	ps := fastjson.CheckSchema(sch, data, maxProblems)
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = Problem(p)
	}
	return out
}
