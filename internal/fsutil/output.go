package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// Output is a file being written as a whole (analyze --output): readers
// never see it half-written and a failed run leaves what was there.
//
//   - no file, or a regular file (also through a symlink) at the path: the
//     data goes to a temporary file beside the real file and is renamed
//     over it on Commit, keeping the old file's permission bits (a new
//     file gets 0666 less the umask, as a shell redirection would); a
//     symlink stays a symlink.
//   - a FIFO or a character device (a pipe, /dev/null, a terminal): written
//     to directly, never replaced.
//   - an open file descriptor named by path (/dev/stdout, /dev/stderr,
//     /dev/fd/N, /proc/self/fd/N, or a symlink to one): written through
//     that descriptor, so a shell's ">> log" appends and nothing is
//     truncated or renamed over the file behind it.
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
	if fd, ok := DescriptorPath(path); ok {
		f, err := dupDescriptor(fd)
		if err != nil {
			return nil, fmt.Errorf("%s names file descriptor %d, which is not open for writing (%v)", path, fd, err)
		}
		return &Output{File: f, path: path}, nil
	}
	final := path
	mode := fs.FileMode(0)   // a new file: as created
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
	f, err := CreateTempMode(filepath.Dir(final), filepath.Base(final), "tmp", 0o666)
	if err != nil {
		return nil, err
	}
	return &Output{File: f, path: path, final: final, mode: mode}, nil
}

// DescriptorPath reports whether path names an open file descriptor of
// this process (/dev/stdout, /dev/stderr, /dev/stdin, /dev/fd/N,
// /proc/self/fd/N, /proc/PID/fd/N with this PID), directly or through
// symlinks, and which one.
func DescriptorPath(path string) (int, bool) {
	p := path
	for hop := 0; hop < 40; hop++ {
		if fd, ok := descriptorName(filepath.Clean(p)); ok {
			return fd, true
		}
		target, err := os.Readlink(p)
		if err != nil {
			return 0, false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return 0, false
}

func descriptorName(p string) (int, bool) {
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	dir, base := filepath.Split(p)
	switch dir {
	case "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/":
	default:
		return 0, false
	}
	n, err := strconv.Atoi(base)
	return n, err == nil && n >= 0
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
	if o.mode != 0 {
		if err := os.Chmod(o.File.Name(), o.mode); err != nil {
			o.discard()
			return err
		}
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
