//go:build !unix

package fsutil

import "os"

// openNoBlock opens path for reading. Outside Unix there are no FIFOs in the
// file system, so a plain open cannot block.
func openNoBlock(path string) (*os.File, error) {
	return os.Open(path)
}
