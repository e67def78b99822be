package fsutil

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestReadMapped(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 4095, 4096, 70000} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("xyz"), size)[:size]
		if err := os.WriteFile(p, want, 0o600); err != nil {
			t.Fatal(err)
		}
		got, release, err := ReadMapped(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("size %d: got %d bytes, err %v", size, len(got), err)
		}
		if err := release(); err != nil {
			t.Errorf("size %d: release: %v", size, err)
		}
		if err := release(); err != nil {
			t.Errorf("size %d: second release: %v", size, err)
		}
	}
	if _, _, err := ReadMapped(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("folder: err = %v, want ErrNotRegular", err)
	}
	if _, _, err := ReadMapped(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: err = %v, want not exist", err)
	}
}
