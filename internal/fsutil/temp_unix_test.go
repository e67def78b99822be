//go:build unix

package fsutil

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSignalRemovesTracked runs a child that tracks a temp file and a
// staging folder, then interrupts it: both are gone, and the child died of
// the signal.
func TestSignalRemovesTracked(t *testing.T) {
	if dir := os.Getenv("FSUTIL_SIGNAL_CHILD"); dir != "" {
		f, err := CreateTemp(dir, "out.json", "tmp")
		if err != nil {
			panic(err)
		}
		s, err := MkdirTemp(dir, "staging")
		if err != nil {
			panic(err)
		}
		os.WriteFile(filepath.Join(s, "index.html"), []byte("x"), 0o644)
		os.Stdout.WriteString(f.Name() + "\n")
		time.Sleep(time.Minute)
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalRemovesTracked$")
	cmd.Env = append(os.Environ(), "FSUTIL_SIGNAL_CHILD="+dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("child ended with %v, want killed by SIGTERM", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

// testFIFOOutput: a FIFO is written to, not replaced.
func testFIFOOutput(t *testing.T, dir string, write func(string) error) {
	// A FIFO is written to, not replaced.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := write(fifo); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "new" {
		t.Errorf("FIFO read %q", s)
	}
	if st, _ := os.Lstat(fifo); st.Mode()&fs.ModeNamedPipe == 0 {
		t.Error("FIFO replaced")
	}

}
