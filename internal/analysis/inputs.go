package analysis

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/engine"
)

// inputs are the parsed files of one backend.
type inputs struct {
	info    *engine.LayerInfo
	infoErr error
	prof    *engine.Profile
	profErr error
	// firstProf is the first document of a profile file that holds
	// several concatenated ones (profErr says how many), nil otherwise.
	firstProf *engine.Profile
	// times are trtexec --exportTimes records, read only when the backend
	// has a profile (they give the real latency beside the profiled sum).
	times    *engine.Times
	timesErr error
	// metas and logs are the TREx metadata and trtexec logs beside the
	// dumps, in discovery order; a file that cannot be read has its error.
	metas []companion
	logs  []companion
}

// companion is one parsed metadata file or log: its runs or its error.
type companion struct {
	path string
	runs []engine.Run
	err  error
}

// readInputs parses the layer info and the profile concurrently: on big
// engines both files are large and independent.
func readInputs(b discover.Backend) inputs {
	var in inputs
	var wg sync.WaitGroup
	if b.LayerPath != "" {
		wg.Go(func() { in.info, in.infoErr = dump.ReadLayerInfo(b.LayerPath) })
	}
	if b.ProfilePath != "" {
		wg.Go(func() {
			in.prof, in.profErr = dump.ReadProfile(b.ProfilePath)
			in.firstProf = dump.FirstProfile(b.ProfilePath, in.profErr)
		})
		if b.TimesPath != "" {
			wg.Go(func() { in.times, in.timesErr = dump.ReadTimes(b.TimesPath) })
		}
	}
	in.metas = make([]companion, len(b.MetaPaths))
	for i, p := range b.MetaPaths {
		wg.Go(func() {
			in.metas[i].path = p
			var r *engine.Run
			if r, in.metas[i].err = dump.ReadMeta(p); r != nil {
				in.metas[i].runs = []engine.Run{*r}
			}
		})
	}
	in.logs = make([]companion, len(b.LogPaths))
	for i, p := range b.LogPaths {
		wg.Go(func() {
			in.logs[i].path = p
			in.logs[i].runs, in.logs[i].err = dump.ReadTrtexecLog(p)
		})
	}
	wg.Wait()
	return in
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
