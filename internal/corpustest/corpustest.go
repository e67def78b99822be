// Package corpustest finds the shared corpus of real TensorRT dumps
// (../shared/corpus beside the repository) for tests, and says what went
// untested when it is absent.
package corpustest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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

// IssuesDir returns ../shared/issues: real trtexec console output pasted in
// public issue threads, one folder per thread with PROVENANCE.md and
// RESOLUTION.md. It skips the test, as Dir does, when the folder is absent.
func IssuesDir(t testing.TB, c Capability) string {
	t.Helper()
	root := ModuleRoot(t)
	dir := filepath.Join(root, "..", "shared", "issues")
	if _, err := os.Stat(filepath.Join(dir, "INDEX.md")); err != nil {
		announceMissing(t, filepath.Join(root, "..", "shared", "corpus"))
		t.Skipf("SKIP: shared issues not found at %s; untested: %s", dir, c.describe())
	}
	return dir
}

// Resolution is what a case's RESOLUTION.md says an expert tool should lead
// with.
type Resolution struct {
	Kind                 string // "kind:" line
	ExpectedFirstProblem string // "expected_first_problem:" line
}

// LoadResolution reads the kind and expected first problem of a case folder.
func LoadResolution(t testing.TB, caseDir string) Resolution {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(caseDir, "RESOLUTION.md"))
	if err != nil {
		t.Fatal(err)
	}
	var r Resolution
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "kind:"); ok {
			r.Kind = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "expected_first_problem:"); ok {
			r.ExpectedFirstProblem = strings.TrimSpace(v)
		}
	}
	return r
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
