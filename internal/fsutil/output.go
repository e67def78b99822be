package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Output is a file being written as a whole (analyze --output): readers
// never see it half-written and a failed run leaves what was there.
//
//   - no file, or a regular file (also through a symlink) at the path: the
//     data goes to a temporary file beside the real file and is renamed
//     over it on Commit, keeping the old file's permission bits (0644 for
//     a new one); a symlink stays a symlink.
//   - a FIFO or a character device (a pipe, /dev/null, a terminal): written
//     to directly, never replaced.
//   - anything else (a folder, a socket, a block device, a dangling
//     symlink): refused with an error that says so.
type Output struct {
	*os.File
	path   string // what the user named
	final  string // the file renamed onto ("" when written directly)
	mode   fs.FileMode
	closed bool
}

// ErrNotWritable says the output path names something that is neither a
// regular file nor a stream.
var ErrNotWritable = errors.New("not a file trtperf can write")

// CreateOutput opens path for a whole-file output (see Output).
func CreateOutput(path string) (*Output, error) {
	final := path
	mode := fs.FileMode(0o644)
	st, err := os.Stat(path) // follows symlinks
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if lst, lerr := os.Lstat(path); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symlink to a missing file (%w); remove the link or give another path", path, ErrNotWritable)
		}
	case err != nil:
		return nil, err
	case st.Mode().IsRegular():
		mode = st.Mode().Perm()
		if final, err = filepath.EvalSymlinks(path); err != nil {
			return nil, err
		}
	case st.Mode()&fs.ModeNamedPipe != 0 || st.Mode()&fs.ModeCharDevice != 0:
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &Output{File: f, path: path}, nil
	case st.IsDir():
		return nil, fmt.Errorf("%s is a folder (%w); give a file path such as %s", path, ErrNotWritable, filepath.Join(path, "analyze-data.json"))
	default:
		return nil, fmt.Errorf("%s is a %s (%w); give a regular file path, a FIFO, or - for stdout", path, kindOf(st.Mode()), ErrNotWritable)
	}
	f, err := CreateTemp(filepath.Dir(final), filepath.Base(final), "tmp")
	if err != nil {
		return nil, err
	}
	return &Output{File: f, path: path, final: final, mode: mode}, nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeIrregular != 0:
		return "special file"
	}
	return "non-regular file"
}

// Direct reports whether the output is written in place (a stream).
func (o *Output) Direct() bool { return o.final == "" }

// Commit closes the output and, for a regular file, renames it into place.
func (o *Output) Commit() error {
	o.closed = true
	if err := o.File.Close(); err != nil {
		o.discard()
		return err
	}
	if o.Direct() {
		return nil
	}
	if err := os.Chmod(o.File.Name(), o.mode); err != nil {
		o.discard()
		return err
	}
	if err := os.Rename(o.File.Name(), o.final); err != nil {
		o.discard()
		return err
	}
	Untrack(o.File.Name())
	return nil
}

// Abort drops what was written: the temporary file is removed and the old
// output kept. It is a no-op after Commit.
func (o *Output) Abort() {
	if o.closed {
		return
	}
	o.closed = true
	o.File.Close()
	o.discard()
}

func (o *Output) discard() {
	if !o.Direct() {
		Discard(o.File.Name())
	}
}
