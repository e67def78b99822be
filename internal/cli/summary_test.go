package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// --name-width 0 prints layer names whole; the default elides the middle
// of long names; a width that cannot hold an ellipsis is refused.
func TestSummaryNameWidth(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dump")
	if code, _, errs := genRun("--shape", "bert", "--layers", "60", "--out", dir); code != ExitOK {
		t.Fatalf("gen: exit %d, %s", code, errs)
	}
	code, full, errs := run(t, "summary", dir, "--name-width", "0", "--top", "50")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	_, short, _ := run(t, "summary", dir, "--top", "50")
	longest := func(s string) int {
		n := 0
		for _, l := range strings.Split(s, "\n") {
			n = max(n, len([]rune(l)))
		}
		return n
	}
	if strings.Contains(topTable(full), "…") || !strings.Contains(topTable(short), "…") {
		t.Errorf("full names still elided, or the default elides nothing:\nfull:\n%s\ndefault:\n%s", topTable(full), topTable(short))
	}
	if longest(topTable(full)) <= longest(topTable(short)) {
		t.Errorf("full-name table is not wider (%d vs %d)", longest(topTable(full)), longest(topTable(short)))
	}
	code, _, errs = run(t, "summary", dir, "--name-width", "3")
	wantError(t, code, errs, ExitCannotRun, "--name-width", "0 (full names)")
}

// topTable is the "top N of M layers" table of a summary.
func topTable(s string) string {
	i := strings.Index(s, "  top ")
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, "\n\n"); j >= 0 {
		s = s[:j]
	}
	return s
}
