//go:build unix

package fsutil

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestHostTagPerPIDNamespace: a process in another PID namespace with the
// same host name (a container sharing the folder) gets another HOST tag,
// so neither sweeps the other's temporary files on a PID that only looks
// dead from its own namespace.
func TestHostTagPerPIDNamespace(t *testing.T) {
	if os.Getenv("FSUTIL_TAG_CHILD") != "" {
		os.Stdout.WriteString(hostTag + "\n")
		return
	}
	if _, err := os.Stat("/proc/self/ns/pid"); err != nil {
		t.Skip("no PID namespaces here")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare(1)")
	}
	cmd := exec.Command(unshare, "-Urpf", "--mount-proc", os.Args[0], "-test.run=^TestHostTagPerPIDNamespace$")
	cmd.Env = append(os.Environ(), "FSUTIL_TAG_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("cannot make a PID namespace here: %v", err)
	}
	child := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	if len(child) != 8 {
		t.Fatalf("child printed %q", out)
	}
	if child == hostTag {
		t.Errorf("a process in another PID namespace has the same HOST tag %s: it would sweep this one's live files", hostTag)
	}
}
