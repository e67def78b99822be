package analysis

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/engine"
)

// Inputs are the parsed files of one backend: what the analysis works on.
// Load reads them from a backend's files; a caller holding dumps in memory
// (a test, a fuzzer, another tool) parses them with the dump package and
// passes them to AnalyzeParsed. A file that could not be read or parsed has
// its error instead of its value; the analysis turns it into a message.
type Inputs struct {
	LayerInfo    *engine.LayerInfo
	LayerInfoErr error
	Profile      *engine.Profile
	ProfileErr   error
	// FirstProfile is the first document of a profile file that holds
	// several concatenated ones (ProfileErr says how many), nil otherwise.
	FirstProfile *engine.Profile
	// ProfileRuns are all the documents of such a file, one per run.
	ProfileRuns []*engine.Profile
	// Times are trtexec --exportTimes records, read only when the backend
	// has a profile (they give the real latency beside the profiled sum).
	Times    *engine.Times
	TimesErr error
	// TimesRuns are the lists of a times file that holds several
	// concatenated ones (TimesErr says so), one per run.
	TimesRuns []*engine.Times
	// Metas and Logs are the TREx metadata and trtexec logs beside the
	// dumps, in discovery order; a file that cannot be read has its error.
	Metas []Companion
	Logs  []Companion
}

// Companion is one parsed metadata file or log: its runs or its error.
type Companion struct {
	Path string
	Runs []engine.Run
	Err  error
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// readError turns a parse or I/O error into a message with a stable code.
func readError(side, path string, err error) (code, text string) {
	var fe *dump.FormatError
	if errors.As(err, &fe) {
		return side + "_" + fe.Code, fmt.Sprintf("%s %s: %s", sideWords(side), filepath.Base(path), fe.Error())
	}
	return side + "_unreadable", fmt.Sprintf("%s %s cannot be read: %v; check the file exists and is readable", sideWords(side), filepath.Base(path), err)
}

func sideWords(side string) string {
	switch side {
	case sideLayerInfo:
		return "layer info"
	case "times":
		return "times file"
	case sideMeta:
		return "metadata"
	case sideLog:
		return "trtexec log"
	}
	return "profile"
}
