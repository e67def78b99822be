// Package golden is the test helper behind every golden file: compare
// output with testdata, or rewrite it with `go test ./internal/PKG -update`.
// It is imported by tests only.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
		t.Errorf("output differs from %s at line %d, column %d; review the change and run go test with -update if it is deliberate\n%s", path, line, col, diff(want, got))
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

// maxDiffLines caps each side of the diff.
const maxDiffLines = 20

// diff shows the lines that differ between want (the golden file) and got:
// the common leading and trailing lines are dropped (one line of context
// kept on each side), the rest printed as "-" (golden) and "+" (output)
// lines. Long lines (compact JSON) are cut to a window around the first
// byte where the pair differs.
func diff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	pre := 0
	for pre < len(w) && pre < len(g) && w[pre] == g[pre] {
		pre++
	}
	suf := 0
	for suf < len(w)-pre && suf < len(g)-pre && w[len(w)-1-suf] == g[len(g)-1-suf] {
		suf++
	}
	wd, gd := w[pre:len(w)-suf], g[pre:len(g)-suf]
	col := 0 // where the first differing lines part, for the window
	if len(wd) > 0 && len(gd) > 0 {
		a, b := wd[0], gd[0]
		for col < len(a) && col < len(b) && a[col] == b[col] {
			col++
		}
	}
	var sb strings.Builder
	if pre > 0 {
		fmt.Fprintf(&sb, "  %s\n", window(w[pre-1], col))
	}
	side := func(mark string, ls []string) {
		for i, l := range ls {
			if i == maxDiffLines {
				fmt.Fprintf(&sb, "%s … %d more lines\n", mark, len(ls)-i)
				break
			}
			fmt.Fprintf(&sb, "%s %s\n", mark, window(l, col))
		}
	}
	side("-", wd)
	side("+", gd)
	if suf > 0 {
		fmt.Fprintf(&sb, "  %s\n", window(w[len(w)-suf], col))
	}
	return fmt.Sprintf("--- %d lines of the golden file, +++ %d lines of the output, from line %d:\n%s", len(wd), len(gd), pre+1, sb.String())
}

// window cuts a long line to 160 bytes around col.
func window(l string, col int) string {
	const half = 80
	if len(l) <= 2*half {
		return l
	}
	lo := max(0, min(col-half, len(l)-2*half))
	hi := min(len(l), lo+2*half)
	out := l[lo:hi]
	if lo > 0 {
		out = "…" + out
	}
	if hi < len(l) {
		out += "…"
	}
	return out
}
