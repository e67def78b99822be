package fsutil

// ReadMapped returns the contents of the regular file at path without
// copying them into the heap where it can: on Linux, macOS and the BSDs
// the file is mapped read-only, so its bytes are the page cache's pages
// (no fresh memory, nothing copied); elsewhere it is read into memory.
// release frees the mapping; the bytes must not be used after it, nor
// after the file has been truncated by another process (reading a page
// past the new end raises SIGBUS, a fatal error unless the reading
// goroutine set runtime/debug.SetPanicOnFault). So map only files nothing
// else writes, such as the files of a private staging folder.
func ReadMapped(path string) (data []byte, release func() error, err error) {
	return readMapped(path)
}
