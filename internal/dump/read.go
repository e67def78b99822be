package dump

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/trtperf/trtperf/internal/fsutil"
)

// MaxFileBytes is the largest input file read (a 200k-layer dump is about
// 230 MB). The command line sets it from its --max-input-bytes flag, and
// adds that flag's name to the CodeTooLarge message it prints.
var MaxFileBytes int64 = 2 << 30

// MemoryPerInputByte is the documented ceiling of analysis memory per byte
// of dump files (internal/analysis TestAllocationProportionalToInput holds
// the code to it): detailed dumps take about 4, names-only dumps about 7.5.
const MemoryPerInputByte = 10

// MemoryPerLayer is the documented ceiling of analysis memory per layer on
// top of MemoryPerInputByte: a layer costs memory however few bytes it
// takes in the file (a names-only list of short names is 5 bytes a
// layer), so memory is bounded per input byte and per layer, and
// engine.MaxLayers bounds the layers (internal/analysis
// TestAllocationPerLayer holds the code to it).
const MemoryPerLayer = 2048

// Size limits of the companion files, each also within MaxFileBytes: far
// beyond any real one (a --verbose trtexec log of a big engine is tens of
// MB, TREx metadata a few KB, --exportTimes 200 bytes per inference), so
// a hostile or mistaken file is refused before it is read.
const (
	MaxLogBytes   = 256 << 20
	MaxMetaBytes  = 64 << 20
	MaxTimesBytes = 512 << 20
)

// inputKind says how a file is checked before it is read.
type inputKind struct {
	json      bool  // must start like JSON ('{' or '[')
	inspector bool  // layer info: JSON, or inspector text recognised in its head
	table     bool  // per-layer times: JSON, or a CSV/TSV table recognised in its head
	limit     int64 // size limit (0: MaxFileBytes)
}

var (
	kindLayerFile   = inputKind{inspector: true}
	kindJSONDump    = inputKind{json: true}
	kindProfileFile = inputKind{json: true, table: true}
	kindLogFile     = inputKind{limit: MaxLogBytes}
	kindMetaFile    = inputKind{json: true, limit: MaxMetaBytes}
	kindTimesFile   = inputKind{json: true, limit: MaxTimesBytes}
)

func (k inputKind) max() int64 {
	if k.limit > 0 && k.limit < MaxFileBytes {
		return k.limit
	}
	return MaxFileBytes
}

// CodeTooLarge: the file is over its size limit. CodeTooManyLayers: it
// lists more than engine.MaxLayers layers or records. CodeNotFile: the
// path is not a regular file (a folder, FIFO, device, socket or kernel
// pseudo-file).
const (
	CodeTooLarge      = "too_large"
	CodeTooManyLayers = "too_many_layers"
	CodeNotFile       = "not_a_file"
)

// readInput reads a dump file with bounded work: it refuses anything but a
// regular file before opening it (a FIFO would block, a device never
// ends), refuses a file over MaxFileBytes, and, when json is set, looks at
// the first bytes before reading the rest: a file that does not start like
// JSON ('{' or '[' after an optional BOM and white space) is refused at
// once, however large it is.
func readInput(path string, k inputKind) ([]byte, error) {
	data, _, err := openInput(path, k, false)
	return data, err
}

// mapMinBytes is the size from which parseInput maps a file instead of
// reading it (a variable so tests can map small files).
var mapMinBytes int64 = 1 << 20

// mappedFiles counts the files parseInput mapped (for tests).
var mappedFiles atomic.Int64

// parseInput reads path as readInput does and returns parse's result on
// its bytes. Where the platform allows (fsutil.CanMap) a file of at least
// mapMinBytes is mapped read-only instead of copied into the heap: its
// bytes are the page cache's, so a 230 MB dump costs no fresh memory and
// no copy (analyze 200k: 0.8 s less system time on a virtual machine).
// That is safe because
//   - parse keeps no reference to the bytes: the scanner copies every
//     string and raw value into its arenas (TestMappedParseKeepsNoInput
//     unmaps the file and then reads the whole result), and the mapping is
//     released when parse returns;
//   - a file truncated by another process while it is parsed cannot crash
//     the process: reading a page past its new end faults (SIGBUS), and
//     parse runs with debug.SetPanicOnFault (as does the helper goroutine
//     of a parallel layer decode), so the fault becomes this error:
//     the file was truncated while being read (TestMappedInputTruncated).
//
// readErr is an error reading the file (such a truncation included),
// parseErr parse's error.
func parseInput[T any](path string, k inputKind, parse func([]byte) (T, error)) (v T, readErr, parseErr error) {
	data, release, err := openInput(path, k, true)
	if err != nil {
		return v, err, nil
	}
	defer release()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if f, ok := r.(interface{ Addr() uintptr }); ok && len(data) > 0 {
			lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
			if a := f.Addr(); a >= lo && a < lo+uintptr(len(data)) {
				var zero T
				v, readErr, parseErr = zero, errPlain(CodeMalformed, "it was truncated while being read (is another program writing it?); read it again once it is complete"), nil
				return
			}
		}
		panic(r)
	}()
	v, parseErr = parse(data)
	return v, nil, parseErr
}

// openInput is readInput; with mayMap it maps a large file (see
// parseInput), and release frees what it returned. Every check that can
// refuse a file is made before its bulk is read or mapped: the kind of
// file (by stat, never by opening it), its size against the kind's
// limit, and its head (SniffSize bytes): a JSON kind must start like
// JSON, a layer file like JSON or like inspector text.
func openInput(path string, k inputKind, mayMap bool) (data []byte, release func() error, err error) {
	st, err := fsutil.StatRegular(path)
	if err != nil {
		if errors.Is(err, fsutil.ErrNotRegular) {
			return nil, nil, errPlain(CodeNotFile, notFileDetail(err))
		}
		return nil, nil, err
	}
	limit := k.max()
	tooLarge := func(n int64) error {
		if limit < MaxFileBytes && limit == k.limit { // a companion's fixed limit
			return errPlain(CodeTooLarge, fmt.Sprintf("it is %d bytes, over the limit of %d for this kind of file (real ones are far smaller); check that it is the file you meant", n, limit))
		}
		return errPlain(CodeTooLarge, fmt.Sprintf("it is %d bytes, over the limit of %d (analysis needs up to about %d times a dump's size in memory); if it really is a dump and the memory is there, raise the limit", n, limit, MemoryPerInputByte))
	}
	if st.Size() > limit {
		return nil, nil, tooLarge(st.Size())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	head := make([]byte, min(int64(SniffSize), st.Size()))
	n, err := io.ReadFull(f, head)
	head = head[:n]
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, nil, err
	}
	if c, ok := firstJSONByte(head); ok && c != '{' && c != '[' {
		switch {
		case k.table && isTimeTableHead(head):
		case k.json:
			return nil, nil, errPlain(CodeMalformed, fmt.Sprintf("it starts with %s, not '{' or '[': it is not a JSON dump%s", describeByte(c), whatItIs(head)))
		case k.inspector && !looksLikeInspectorText(head):
			return nil, nil, errPlain(CodeMalformed, fmt.Sprintf("it starts with %s, not '{' or '[': it is not a JSON dump nor per-layer inspector output%s", describeByte(c), whatItIs(head)))
		}
	}
	if mayMap && fsutil.CanMap && st.Size() >= mapMinBytes {
		data, release, err := fsutil.MapOpen(f)
		if err != nil {
			return nil, nil, err
		}
		if int64(len(data)) > limit { // it grew since Stat
			release()
			return nil, nil, tooLarge(int64(len(data)))
		}
		mappedFiles.Add(1)
		return data, release, nil
	}
	// The size from Stat sizes the buffer; a file that grows meanwhile is
	// still read to its end, within the limit.
	data = make([]byte, n, st.Size()+1)
	copy(data, head)
	for {
		if int64(len(data)) > limit {
			return nil, nil, errPlain(CodeTooLarge, fmt.Sprintf("it grew past the limit of %d bytes while being read", limit))
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		k, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+k]
		if err == io.EOF {
			return data, func() error { return nil }, nil
		}
		if err != nil {
			return nil, nil, err
		}
	}
}

// whatItIs ends a refusal of a file that is no dump with what it is: how
// to re-save it when it is in another encoding, else what its content is
// (" (it is a PNG image)").
func whatItIs(head []byte) string {
	if h := fsutil.EncodingHint(head); h != "" {
		return h
	}
	return " (it is " + Describe(head, KindUnknown) + ")"
}

// notFileDetail words a StatRegular refusal for a FormatError ("it is a
// FIFO (named pipe), not a regular file; ...").
func notFileDetail(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "it is a "); i >= 0 {
		msg = msg[i:]
	}
	msg = strings.Replace(msg, ", "+fsutil.ErrNotRegular.Error(), ", not a regular file", 1)
	return msg + "; trtperf reads dumps only from regular files"
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
