package corpustest

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The note a checkout without the corpus gets: one line per `go test` run
// naming every capability left untested.
//
// `go test ./...` buffers each test binary's stdout and stderr and shows them
// only when the package fails (or with -v, -bench, -json), so a line written
// to stderr by a passing package would never be seen. The note therefore goes
// to the go command's own stderr when the system lets a child reach it
// (Linux: /proc/PPID/fd/2 or fd/1, when that is a terminal or a pipe — never
// a regular file, where a second writer would overwrite the log), else to the
// controlling terminal, else to this binary's stderr (seen with -v or -bench,
// as CI runs it). Under -json the note is a test log line, so test2json keeps
// its stream. Test binaries of one run share a marker file in the temp folder
// (keyed by the go command's process) so only the first prints.

var noteOnce sync.Once

// markerMaxAge bounds how long a marker silences the note: a marker older
// than this belongs to an earlier run whose process id was reused.
const markerMaxAge = time.Hour

func announceMissing(t testing.TB, dir string) {
	line := noteLine(dir)
	if jsonOutput() {
		t.Log(line)
		return
	}
	noteOnce.Do(func() {
		if !firstInRun() {
			return
		}
		w, closeW := noteWriter()
		defer closeW()
		_, _ = io.WriteString(w, line+"\n")
	})
}

func noteLine(dir string) string {
	return fmt.Sprintf("corpustest: %s not found; tests that need real dumps skipped, untested: %s (put the shared corpus there to run them)",
		filepath.Clean(dir), untested())
}

// jsonOutput reports whether go test runs with -json (test2json).
func jsonOutput() bool {
	f := flag.Lookup("test.v")
	return f != nil && f.Value.String() == "test2json"
}

// firstInRun claims the run's marker; false when another test binary of the
// same go command already printed the note.
func firstInRun() bool {
	marker := filepath.Join(os.TempDir(), fmt.Sprintf("trtperf-corpus-note-%d%s", os.Getppid(), parentStart()))
	for range 2 {
		f, err := os.OpenFile(marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			return true
		}
		if !errors.Is(err, fs.ErrExist) {
			return true // no marker possible: print rather than stay silent
		}
		info, err := os.Stat(marker)
		if err != nil || time.Since(info.ModTime()) < markerMaxAge {
			return false
		}
		os.Remove(marker) // stale: a reused process id
	}
	return false
}

// parentStart is the go command's start time on Linux ("-" + clock ticks
// since boot), so a reused process id never matches an old marker; elsewhere
// markerMaxAge bounds that.
func parentStart() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", os.Getppid()))
	if err != nil {
		return ""
	}
	// Fields after the command name (which may hold spaces) start at state;
	// starttime is field 22 overall, the 20th after ")".
	s := string(raw)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 20 {
		return ""
	}
	return "-" + fields[19]
}

// noteWriter opens the most visible place for the note (see the comment at
// the top of this file).
func noteWriter() (io.Writer, func()) {
	var candidates []string
	if runtime.GOOS == "linux" {
		ppid := os.Getppid()
		candidates = append(candidates, fmt.Sprintf("/proc/%d/fd/2", ppid), fmt.Sprintf("/proc/%d/fd/1", ppid))
	}
	if runtime.GOOS != "windows" {
		candidates = append(candidates, "/dev/tty")
	}
	for _, path := range candidates {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			continue
		}
		info, err := f.Stat()
		if err == nil && info.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0 {
			return f, func() { f.Close() }
		}
		f.Close()
	}
	return os.Stderr, func() {}
}
