//go:build unix

package fsutil

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading with O_NONBLOCK: opening a FIFO that
// has no writer returns at once instead of waiting for one. Regular files
// ignore the flag.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
