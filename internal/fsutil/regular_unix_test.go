//go:build unix

package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
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

// TestStatRegularRefusesPseudoFiles: a kernel pseudo-file is refused by
// its file system, before any open (opening /proc/kmsg as root and
// reading it blocks and drains the kernel log).
func TestStatRegularRefusesPseudoFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kernel pseudo file systems are recognised on Linux")
	}
	for _, p := range []string{"/proc/kmsg", "/proc/self/status", "/sys/kernel/mm/transparent_hugepage/enabled"} {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if _, err := StatRegular(p); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "kernel pseudo-file") {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := ReadRegularLimit("/proc/self/status", 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/proc/self/status read: %v", err)
	}
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("12345"), 0o644)
	if _, err := ReadRegularLimit(p, 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	if b, err := ReadRegularLimit(p, 5); err != nil || string(b) != "12345" {
		t.Errorf("at the limit: %q %v", b, err)
	}
}
