//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsutil

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"syscall"
)

// CanMap says whether ReadMapped and MapOpen map files (true) or read
// them into memory.
const CanMap = true

func mapOpen(f *os.File) ([]byte, func() error, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "open", Path: f.Name(), Err: fmt.Errorf("it is a %s, %w", FileKind(st.Mode()), ErrNotRegular)}
	}
	n := st.Size()
	if n == 0 {
		return []byte{}, func() error { return nil }, nil
	}
	if n > math.MaxInt {
		return nil, nil, &fs.PathError{Op: "mmap", Path: f.Name(), Err: fmt.Errorf("%d bytes do not fit in this process's address space", n)}
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(n), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "mmap", Path: f.Name(), Err: err}
	}
	released := false
	return data, func() error {
		if released {
			return nil
		}
		released = true
		return syscall.Munmap(data)
	}, nil
}
