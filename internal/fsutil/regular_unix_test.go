//go:build unix

package fsutil

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO with no writer is refused at once; reading it used to block.
func TestReadRegularFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "analyze-data.json")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := ReadRegular(p)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO (named pipe)") {
		t.Fatalf("err = %v, want a FIFO refused as not a regular file", err)
	}
}
