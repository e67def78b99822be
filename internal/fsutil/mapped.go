package fsutil

import (
	"fmt"
	"io/fs"
	"os"
)

// ReadMapped returns the contents of the regular file at path without
// copying them into the heap where it can (CanMap): on Linux, macOS and
// the BSDs the file is mapped read-only, so its bytes are the page cache's
// pages (no fresh memory, nothing copied); elsewhere it is read into
// memory. release frees the mapping; the bytes must not be used after it,
// nor after the file has been truncated by another process (reading a
// page past the new end raises SIGBUS, a fatal error unless the reading
// goroutine set runtime/debug.SetPanicOnFault). So map only files nothing
// else writes, such as the files of a private staging folder, or read
// them under SetPanicOnFault.
func ReadMapped(path string) (data []byte, release func() error, err error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close() // a mapping outlives the descriptor
	return MapOpen(f)
}

// MapOpen is ReadMapped for an open file: it maps the whole of f (its size
// when called) where CanMap, and reads it from its current offset to the
// end elsewhere.
func MapOpen(f *os.File) (data []byte, release func() error, err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "open", Path: f.Name(), Err: fmt.Errorf("it is a %s, %w", FileKind(st.Mode()), ErrNotRegular)}
	}
	return mapOpen(f, st.Size())
}
