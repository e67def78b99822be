// Package corpustest finds the shared corpus of real TensorRT dumps
// (../shared/corpus beside the repository) for tests.
package corpustest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the corpus folder, or skips the test with a clear message when
// ../shared is absent (a checkout without the shared material).
func Dir(t testing.TB) string {
	t.Helper()
	root := ModuleRoot(t)
	dir := filepath.Join(root, "..", "shared", "corpus")
	if _, err := os.Stat(filepath.Join(dir, "expected.json")); err != nil {
		t.Skipf("SKIP: shared corpus not found at %s (it sits beside the repository in CI); corpus checks did not run", dir)
	}
	return dir
}

// ModuleRoot returns the folder holding go.mod, walking up from the test's
// working directory.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("getwd: %v", err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no go.mod above %s", wd)
		}
	}
}

// Expected is one backend's row of corpus/expected.json: facts read straight
// from the files, independently of trtperf.
type Expected struct {
	Expect       string   `json:"expect"`
	Layers       *int     `json:"layers"`
	Profile      *int     `json:"profile"`
	Count        *int64   `json:"count"`
	SumAvgMs     *float64 `json:"sum_avg_ms"`
	DAG          *bool    `json:"dag"`
	DupProducers *int     `json:"dup_producers"`
	ProfileKind  string   `json:"profile_kind"`
	Top          string   `json:"top"`
}

// LoadExpected reads corpus/expected.json: case → label → expected outcome.
func LoadExpected(t testing.TB, dir string) map[string]map[string]Expected {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]map[string]Expected
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatalf("parse expected.json: %v", err)
	}
	return exp
}
