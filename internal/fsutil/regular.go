package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by ReadRegular's error for a path that is a
// folder, FIFO, device or socket.
var ErrNotRegular = errors.New("not a regular file")

// ReadRegular reads a regular file whole. It opens the path without blocking
// (openNoBlock) and checks what it opened, so a FIFO with no writer, a
// device or a socket is refused at once instead of hanging the command or
// reading forever; the error names the kind of file.
func ReadRegular(path string) ([]byte, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, 0, st.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// StatRegular checks, without opening it, that path is a regular file
// holding data: not a folder, FIFO, device or socket, and not a file of a
// kernel pseudo file system (/proc/kmsg looks regular but blocks and
// drains the kernel log when read; /proc and /sys files report size 0
// and may never end). The error wraps ErrNotRegular and names the kind.
func StatRegular(path string) (fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("it is a %s, %w", FileKind(st.Mode()), ErrNotRegular)}
	}
	if where := pseudoFile(path); where != "" {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("it is a kernel pseudo-file (%s), %w; copy what you need into a file first", where, ErrNotRegular)}
	}
	return st, nil
}

// ReadRegularLimit is ReadRegular for a file of at most limit bytes: a
// larger one is refused (wrapping ErrTooLarge) before it is opened, and
// one that grows past limit while read is refused too.
func ReadRegularLimit(path string, limit int64) ([]byte, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes: %w of %d bytes", path, st.Size(), ErrTooLarge, limit)
	}
	data := make([]byte, 0, st.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, fmt.Errorf("%s grew past %d bytes while read: %w", path, limit, ErrTooLarge)
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// OpenRegular opens path for reading as ReadRegular does: without
// blocking, and only if it is a regular file (the error names the kind of
// file otherwise; StatRegular checks before the open, the opened file is
// checked again). It returns the file's information too.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	if _, err := StatRegular(path); err != nil {
		return nil, nil, err
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("it is a %s, %w", FileKind(st.Mode()), ErrNotRegular)}
	}
	return f, st, nil
}

// FileKind names a file mode for messages: "folder", "FIFO (named pipe)",
// "character device", "block device", "socket" or "special file".
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "folder"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO (named pipe)"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}
