package contract

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/fsutil"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// Decode parses analyze-data.json. It checks JSON syntax, types and the
// schema_version's major number, not the schema or the semantics: run
// Validate for those. Unknown members are ignored so that files written by
// a newer minor version still read.
func Decode(data []byte) (*AnalyzeData, error) {
	d := new(AnalyzeData)
	if err := unmarshal(data, d); err != nil {
		return nil, fmt.Errorf("decode analyze-data: %w", err)
	}
	if major(d.SchemaVersion) != major(SchemaVersion) {
		return nil, fmt.Errorf("decode analyze-data: schema_version %q, this trtperf reads %s.x; re-run `trtperf analyze` with this version", d.SchemaVersion, major(SchemaVersion))
	}
	return d, nil
}

// InvalidError says a file failed Validate: the commands that read an
// analyze-data.json refuse it (exit 1) with its first problem.
type InvalidError struct {
	Path  string
	First Problem // the first schema problem, else the first semantic one
	Count int     // problems in all
}

func (e *InvalidError) Error() string {
	ptr := e.First.Pointer
	if ptr == "" {
		ptr = "(document)"
	}
	more := ""
	if e.Count > 1 {
		more = fmt.Sprintf(" (and %d more)", e.Count-1)
	}
	return fmt.Sprintf("%s is not a valid analyze-data.json: %s: %s%s; run 'trtperf validate' on it for every problem (trtperf validate %s), or re-create it with 'trtperf analyze'", e.Path, ptr, e.First.Message, more, trtexecflags.ShellQuote(e.Path))
}

// MaxDataBytes is the largest analyze-data.json read (validate, summary,
// compare, package --analyze-data): the analysis of the largest dump
// analyze reads (2 GiB) is about 1.2 times its size. A larger file is
// refused before it is read.
var MaxDataBytes int64 = 3 << 30

// ReadValid reads an analyze-data.json file and returns it only when it
// passes Validate (schema and semantics) and has this trtperf's major
// schema_version; otherwise the error is an *InvalidError, or the read
// error. Commands that trust the numbers of a file (summary, compare) read
// it with ReadValid, so a broken file is refused instead of half-shown.
func ReadValid(path string) (*AnalyzeData, error) {
	data, err := fsutil.ReadRegularLimit(path, MaxDataBytes)
	if err != nil {
		return nil, err // names the path: "open PATH: ..."
	}
	r := Validate(data)
	ps := append(r.Schema, r.Semantic...)
	if len(ps) == 0 && major(r.Data.SchemaVersion) != major(SchemaVersion) {
		ps = []Problem{{Pointer: "/schema_version", Message: fmt.Sprintf("%q, this trtperf reads %s.x", r.Data.SchemaVersion, major(SchemaVersion))}}
	}
	if len(ps) > 0 {
		return nil, &InvalidError{Path: path, First: ps[0], Count: len(ps)}
	}
	return r.Data, nil
}

// ReadFile reads and decodes an analyze-data.json file.
func ReadFile(path string) (*AnalyzeData, error) {
	data, err := fsutil.ReadRegularLimit(path, MaxDataBytes)
	if err != nil {
		return nil, err // names the path: "open PATH: ..."
	}
	d, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

func major(v string) string {
	m, _, _ := strings.Cut(v, ".")
	return m
}
