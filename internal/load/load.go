// Package load reads a discovered scope's files — the dumps, their
// companions (trtexec logs, TREx metadata, --exportTimes records) and the
// model configs — into the parsed inputs internal/analysis works on. It is
// the one step between discovery and the analysis that touches the file
// system: files → discover (paths) → dump (parsers) → load → inputs →
// analysis. A caller reads and analyses a scope with
//
//	analysis.AnalyzeParsed(scope, load.Source(scope), opt)
package load

import (
	"sync"

	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/fsutil"
	"github.com/trtperf/trtperf/internal/inputs"
)

// Source is the analysis source of scope's files: the model configs are
// read now, each backend's files when the analysis asks for them (one
// backend's dumps in memory at a time).
func Source(scope *discover.Scope) inputs.Source {
	if scope == nil {
		return inputs.Source{}
	}
	return inputs.Source{
		Configs: Configs(scope.ConfigFiles),
		Backend: func(i int) inputs.Backend { return Backend(scope.Backends[i]) },
	}
}

// Backend reads and parses the files of one backend. The layer info and
// the profile are parsed concurrently: on big engines both files are large
// and independent. The companions (times, metadata, logs) are read one at
// a time, on one goroutine beside them, so a backend with many companion
// files holds one of them in memory at a time, not all. A file that cannot
// be read or parsed has its error in the result instead of its value.
func Backend(b discover.Backend) inputs.Backend {
	var in inputs.Backend
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
	}
	in.Metas = make([]inputs.Companion, len(b.MetaPaths))
	in.Logs = make([]inputs.Companion, len(b.LogPaths))
	wg.Go(func() {
		if b.ProfilePath != "" && b.TimesPath != "" {
			in.Times, in.TimesErr = dump.ReadTimes(b.TimesPath)
			in.TimesRuns = dump.TimesRuns(b.TimesPath, in.TimesErr)
		}
		for i, p := range b.MetaPaths {
			in.Metas[i].Path = p
			var r *engine.Run
			if r, in.Metas[i].Err = dump.ReadMeta(p); r != nil {
				in.Metas[i].Runs = []engine.Run{*r}
			}
		}
		for i, p := range b.LogPaths {
			in.Logs[i].Path = p
			in.Logs[i].Runs, in.Logs[i].Err = dump.ReadTrtexecLog(p)
		}
	})
	wg.Wait()
	fromLogs(&in, b)
	return in
}

// fromLogs gives a backend without a profile file the per-layer tables of
// its logs (one run per table, the first analysed), and a backend without
// a layer-info file the engine layer information lines of a verbose build
// log.
func fromLogs(in *inputs.Backend, b discover.Backend) {
	for _, c := range in.Logs {
		if c.Err != nil {
			continue
		}
		for k, r := range c.Runs {
			if r.Log == nil {
				continue
			}
			if b.ProfilePath == "" {
				for i := range r.Log.Tables {
					t := &r.Log.Tables[i]
					if len(t.Profile.Records) == 0 {
						continue
					}
					if in.ProfileLog == "" {
						in.Profile, in.ProfileTable, in.ProfileLog, in.ProfileRun = &t.Profile, t, c.Path, k+1
					}
				}
			}
			if b.LayerPath == "" && in.LayerInfoLog == "" && len(r.Log.Layers) > 0 {
				li := &engine.LayerInfo{RootKind: "log"}
				for _, l := range r.Log.Layers {
					li.Layers = append(li.Layers, l.Layer)
				}
				in.LayerInfo, in.LayerInfoLog = li, c.Path
			}
		}
	}
}

// MaxConfigBytes is the largest model config read: a Hugging Face
// config.json is a few KB (model_index.json too); a larger file is left
// out like an unreadable one.
const MaxConfigBytes = 16 << 20

// Configs reads the Hugging Face / diffusers configs discovery found, in
// the order given. An unreadable config (or a FIFO, device or socket) is left out: configs are hints to
// the model's identity, never required.
func Configs(paths []string) []inputs.ModelConfig {
	var out []inputs.ModelConfig
	for _, p := range paths {
		data, err := fsutil.ReadRegularLimit(p, MaxConfigBytes) // a FIFO named config.json must not hang the analysis
		if err != nil {
			continue
		}
		out = append(out, inputs.ModelConfig{Path: p, Data: data})
	}
	return out
}
