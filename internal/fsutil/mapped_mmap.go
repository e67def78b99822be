//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsutil

import (
	"fmt"
	"io/fs"
	"math"
	"syscall"
)

func readMapped(path string) ([]byte, func() error, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, nil, err
	}
	// The mapping outlives the descriptor.
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("it is a %s, %w", FileKind(st.Mode()), ErrNotRegular)}
	}
	n := st.Size()
	if n == 0 {
		return []byte{}, func() error { return nil }, nil
	}
	if n > math.MaxInt {
		return nil, nil, &fs.PathError{Op: "mmap", Path: path, Err: fmt.Errorf("%d bytes do not fit in this process's address space", n)}
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(n), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "mmap", Path: path, Err: err}
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
