// Package golden is the test helper behind every golden file: compare
// output with testdata, or rewrite it with `go test ./internal/PKG -update`.
// It is imported by tests only.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/ instead of comparing with them")

// Update reports whether the test run was asked to rewrite golden files.
func Update() bool { return *update }

// Check compares got with the golden file at path. With -update it writes
// got there instead (creating missing folders).
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v (run go test with -update to create it)", path, err)
	}
	if !bytes.Equal(got, want) {
		line, col := position(got, want)
		t.Errorf("output differs from %s at line %d, column %d; review the change and run go test with -update if it is deliberate", path, line, col)
	}
}

// position is the line and column of the first byte where a and b differ.
func position(a, b []byte) (line, col int) {
	line, col = 1, 1
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return line, col
		}
		if a[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
