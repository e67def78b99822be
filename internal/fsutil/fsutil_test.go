package fsutil

import (
	"os"
	"path/filepath"
	"testing"
)

func TestEnsureDir(t *testing.T) {
	root := t.TempDir()
	created, err := EnsureDir(root)
	if err != nil || created != "" {
		t.Fatalf("existing folder: created %q, err %v", created, err)
	}
	deep := filepath.Join(root, "a", "b", "c")
	created, err = EnsureDir(deep)
	if err != nil || created != filepath.Join(root, "a") {
		t.Fatalf("new folders: created %q (want %s), err %v", created, filepath.Join(root, "a"), err)
	}
	if st, err := os.Stat(deep); err != nil || !st.IsDir() {
		t.Fatalf("%s not created: %v", deep, err)
	}
	file := filepath.Join(root, "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := EnsureDir(filepath.Join(file, "x")); err == nil {
		t.Error("a file in the path must be an error")
	}
}
