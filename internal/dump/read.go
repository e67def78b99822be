package dump

import (
	"fmt"
	"io"
	"os"

	"github.com/trtperf/trtperf/internal/fsutil"
	"github.com/trtperf/trtperf/internal/hugepage"
)

// MaxFileBytes is the largest input file read (a 200k-layer dump is about
// 230 MB). The command line sets it from its --max-input-bytes flag, and
// adds that flag's name to the CodeTooLarge message it prints.
var MaxFileBytes int64 = 2 << 30

// MemoryPerInputByte is the documented ceiling of analysis memory per byte
// of dump files (internal/analysis TestAllocationProportionalToInput holds
// the code to it): detailed dumps take about 4, names-only dumps about 7.5.
const MemoryPerInputByte = 10

// CodeTooLarge: the file is over MaxFileBytes. CodeNotFile: the path is not
// a regular file (a folder, FIFO, device or socket).
const (
	CodeTooLarge = "too_large"
	CodeNotFile  = "not_a_file"
)

// readInput reads a dump file with bounded work: it refuses anything but a
// regular file before opening it (a FIFO would block, a device never
// ends), refuses a file over MaxFileBytes, and, when json is set, looks at
// the first bytes before reading the rest: a file that does not start like
// JSON ('{' or '[' after an optional BOM and white space) is refused at
// once, however large it is.
func readInput(path string, json bool) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errPlain(CodeNotFile, fmt.Sprintf("it is a %s, not a regular file; trtperf reads dumps only from regular files", fsutil.FileKind(st.Mode())))
	}
	if st.Size() > MaxFileBytes {
		return nil, errPlain(CodeTooLarge, fmt.Sprintf("it is %d bytes, over the limit of %d (analysis needs up to about %d times a dump's size in memory); if it really is a dump and the memory is there, raise the limit", st.Size(), MaxFileBytes, MemoryPerInputByte))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, min(int64(SniffSize), st.Size()))
	n, err := io.ReadFull(f, head)
	head = head[:n]
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	if json {
		if c, ok := firstJSONByte(head); ok && c != '{' && c != '[' {
			return nil, errPlain(CodeMalformed, fmt.Sprintf("it starts with %s, not '{' or '[': it is not a JSON dump", describeByte(c)))
		}
	}
	// The size from Stat sizes the buffer; a file that grows meanwhile is
	// still read to its end, within the limit.
	data := make([]byte, n, st.Size()+1)
	hugepage.Advise(data)
	copy(data, head)
	for {
		if int64(len(data)) > MaxFileBytes {
			return nil, errPlain(CodeTooLarge, fmt.Sprintf("it grew past the limit of %d bytes while being read", MaxFileBytes))
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		k, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+k]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// firstJSONByte returns the first byte after a UTF-8 BOM and JSON white
// space; ok is false when head holds none (empty or all white space).
func firstJSONByte(head []byte) (byte, bool) {
	if len(head) >= 3 && head[0] == 0xef && head[1] == 0xbb && head[2] == 0xbf {
		head = head[3:]
	}
	for _, c := range head {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c, true
	}
	return 0, false
}

func describeByte(c byte) string {
	if c >= 0x21 && c < 0x7f {
		return fmt.Sprintf("%q", string(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}
