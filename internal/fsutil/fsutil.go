// Package fsutil holds the file-system steps that commands writing whole
// folders (report, suite, skill) share, so that each leaves nothing behind
// on failure in the same way.
package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// EnsureDir creates dir and its missing parents, returning the topmost
// folder it created ("" when dir existed) so a failure can remove it again
// with RemoveCreated.
func EnsureDir(dir string) (created string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", dir, err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err == nil {
			if !st.IsDir() {
				return "", fmt.Errorf("%s is a file, not a folder; choose another output folder", d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("check %s: %w", d, err)
		}
		created = d
		if filepath.Dir(d) == d {
			break
		}
	}
	if created == "" {
		return "", nil
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		RemoveCreated(abs, created)
		return "", fmt.Errorf("cannot create %s: %w; choose a writable folder", dir, err)
	}
	return created, nil
}

// RemoveCreated undoes EnsureDir(dir) = created: it removes dir and its
// parents up to created, each only while it is empty, so a folder that
// gained content meanwhile (another run published a report into it) is
// kept with everything above it.
func RemoveCreated(dir, created string) {
	if created == "" {
		return
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	for d := abs; ; d = filepath.Dir(d) {
		if err := os.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return // not empty (or not removable): keep it and its parents
		}
		if d == created || filepath.Dir(d) == d {
			return
		}
	}
}

// ErrTooLarge says an input is over its size limit.
var ErrTooLarge = errors.New("over the size limit")

// ReadFileLimit reads path, which may be a pipe (process substitution),
// but never more than limit bytes: a larger input is refused with
// ErrTooLarge before it fills memory.
func ReadFileLimit(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a folder, not a file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w of %d bytes", path, ErrTooLarge, limit)
	}
	return data, nil
}
