package analysis

import (
	"sync"

	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/engine"
)

// Load reads and parses the files of one backend: the loader between
// discovery and the analysis, which itself works on parsed Inputs. The
// layer info and the profile are parsed concurrently: on big engines both
// files are large and independent.
func Load(b discover.Backend) Inputs {
	var in Inputs
	var wg sync.WaitGroup
	if b.LayerPath != "" {
		wg.Go(func() { in.LayerInfo, in.LayerInfoErr = dump.ReadLayerInfo(b.LayerPath) })
	}
	if b.ProfilePath != "" {
		wg.Go(func() {
			in.Profile, in.ProfileErr = dump.ReadProfile(b.ProfilePath)
			in.FirstProfile = dump.FirstProfile(b.ProfilePath, in.ProfileErr)
			in.ProfileRuns = dump.ProfileRuns(b.ProfilePath, in.ProfileErr)
		})
		if b.TimesPath != "" {
			wg.Go(func() {
				in.Times, in.TimesErr = dump.ReadTimes(b.TimesPath)
				in.TimesRuns = dump.TimesRuns(b.TimesPath, in.TimesErr)
			})
		}
	}
	in.Metas = make([]Companion, len(b.MetaPaths))
	for i, p := range b.MetaPaths {
		wg.Go(func() {
			in.Metas[i].Path = p
			var r *engine.Run
			if r, in.Metas[i].Err = dump.ReadMeta(p); r != nil {
				in.Metas[i].Runs = []engine.Run{*r}
			}
		})
	}
	in.Logs = make([]Companion, len(b.LogPaths))
	for i, p := range b.LogPaths {
		wg.Go(func() {
			in.Logs[i].Path = p
			in.Logs[i].Runs, in.Logs[i].Err = dump.ReadTrtexecLog(p)
		})
	}
	wg.Wait()
	return in
}
