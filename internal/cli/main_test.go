package cli

import (
	"bytes"
	"strings"
	"testing"
)

// run calls Main in-process and returns exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runWith(t, defaultDeps(), args...)
}

// runWith is run with the commands' dependencies given (a test's own
// publisher, analysis, serve interrupt or executable).
func runWith(t *testing.T, d *deps, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := mainWith(d, args, &out, &errb)
	return code, out.String(), errb.String()
}

// wantError checks the contract's error shape: exit code and one stderr
// line starting "error: " that contains every hint.
func wantError(t *testing.T, code int, stderr string, wantCode int, hints ...string) {
	t.Helper()
	if code != wantCode {
		t.Errorf("exit %d, want %d (stderr %q)", code, wantCode, stderr)
	}
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") {
		t.Errorf("stderr must be one line starting 'error: ', got %q", stderr)
	}
	for _, h := range hints {
		if !strings.Contains(stderr, h) {
			t.Errorf("stderr %q lacks %q", stderr, h)
		}
	}
}
