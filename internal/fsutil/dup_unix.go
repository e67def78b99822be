//go:build unix

package fsutil

import (
	"os"
	"strconv"
	"syscall"
)

// dupDescriptor returns a new *os.File on a duplicate of fd, so closing it
// leaves fd open; the duplicate shares fd's offset and O_APPEND flag.
func dupDescriptor(fd int) (*os.File, error) {
	n, err := syscall.Dup(fd)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(n)
	return os.NewFile(uintptr(n), "/dev/fd/"+strconv.Itoa(fd)), nil
}
