// Package corpustest finds the shared corpus of real TensorRT dumps
// (../shared/corpus beside the repository) for tests.
package corpustest

import (
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
