//go:build unix

package trtexecflags

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestShellQuoteInRealShell runs every hostile argument, quoted with
// ShellQuote, through /bin/sh: the program receives it unchanged and
// nothing in it runs.
func TestShellQuoteInRealShell(t *testing.T) {
	dir := t.TempDir()
	for _, a := range hostileArgs {
		if strings.ContainsRune(a, 0) {
			continue
		}
		cmd := exec.Command("/bin/sh", "-c", "printf '%s\\000' "+ShellQuote(a))
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("sh -c printf %s: %v", ShellQuote(a), err)
			continue
		}
		if got := strings.TrimSuffix(string(out), "\x00"); got != a {
			t.Errorf("sh received %q for ShellQuote(%q) = %s", got, a, ShellQuote(a))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Error("a quoted argument ran a command")
	}
}
