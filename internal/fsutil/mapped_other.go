//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsutil

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// CanMap says whether ReadMapped and MapOpen map files (true) or read
// them into memory.
const CanMap = false

func mapOpen(f *os.File) ([]byte, func() error, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "open", Path: f.Name(), Err: fmt.Errorf("it is a %s, %w", FileKind(st.Mode()), ErrNotRegular)}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
