//go:build unix

package load

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO named like a model config is skipped at once: reading it would
// block the analysis until something writes to it.
func TestConfigsSkipFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	good := filepath.Join(dir, "model_index.json")
	if err := os.WriteFile(good, []byte(`{"_class_name":"UNet2DConditionModel"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan int)
	go func() { done <- len(Configs([]string{fifo, good})) }()
	select {
	case n := <-done:
		if n != 1 {
			t.Errorf("read %d configs, want only the regular file", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Configs blocked on a FIFO")
	}
}
