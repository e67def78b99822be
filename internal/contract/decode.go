package contract

import (
	"fmt"
	"os"
	"strings"
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

// ReadFile reads and decodes an analyze-data.json file.
func ReadFile(path string) (*AnalyzeData, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
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
