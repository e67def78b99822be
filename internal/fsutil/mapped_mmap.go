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

// mapOpen maps the n bytes of the regular file f read-only.
func mapOpen(f *os.File, n int64) ([]byte, func() error, error) {
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
