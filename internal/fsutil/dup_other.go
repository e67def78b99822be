//go:build !unix

package fsutil

import (
	"errors"
	"os"
)

// dupDescriptor: descriptor paths exist only on Unix.
func dupDescriptor(fd int) (*os.File, error) {
	return nil, errors.New("file descriptor paths are not supported on this system")
}
