// Package corpustest finds the shared corpus of real TensorRT dumps
// (../shared/corpus beside the repository) for tests, and says what went
// untested when it is absent.
package corpustest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the corpus folder. When ../shared is absent (a checkout
// without the shared material) it skips the test, naming the capability
// that went untested, and prints the run's one-line note (see note.go).
func Dir(t testing.TB, c Capability) string {
	t.Helper()
	root := ModuleRoot(t)
	dir := filepath.Join(root, "..", "shared", "corpus")
	if _, err := os.Stat(filepath.Join(dir, "expected.json")); err != nil {
		announceMissing(t, dir)
		t.Skipf("SKIP: shared corpus not found at %s; untested: %s", dir, c.describe())
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
