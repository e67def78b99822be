//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsutil

import (
	"io"
	"os"
)

// CanMap says whether ReadMapped and MapOpen map files (true) or read
// them into memory.
const CanMap = false

// mapOpen reads the regular file f from its offset to its end (n, its
// size, is not needed here: a file that grows meanwhile is read whole).
func mapOpen(f *os.File, _ int64) ([]byte, func() error, error) {
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
