// Package inputs holds the parsed inputs of an analysis: each backend's
// dumps and companions, and the model configs beside them. internal/load
// fills them from files; internal/analysis works on them and reads no file
// itself. Data flows one way: files → discover (paths) → dump (parsers) →
// load → inputs → analysis.
package inputs

import "github.com/trtperf/trtperf/internal/engine"

// Source gives the analysis its parsed inputs. internal/load makes one
// from a scope's files (load.Source); a caller holding dumps in memory (a
// test, a fuzzer, another tool) parses them with the dump package and uses
// InMemory.
type Source struct {
	// Configs are the model configs beside the dumps (Hugging Face
	// config.json, diffusers model_index.json, ...), as read; they name
	// the model and its size.
	Configs []ModelConfig
	// Backend returns the inputs of scope.Backends[i]. The analysis asks
	// for each backend once, in order, and is done with its inputs before
	// it asks for the next, so a loader that reads files here holds one
	// backend's dumps in memory at a time.
	Backend func(i int) Backend
}

// InMemory is the Source of inputs already parsed: in[i] holds the inputs
// of scope.Backends[i].
func InMemory(configs []ModelConfig, in ...Backend) Source {
	return Source{Configs: configs, Backend: func(i int) Backend { return in[i] }}
}

// ModelConfig is one model config file: its path (the file name is
// quoted as evidence) and its bytes.
type ModelConfig struct {
	Path string
	Data []byte
}

// Backend holds the parsed files of one backend (a discover.Backend's
// files, read): what the analysis works on. A file that could not be read
// or parsed has its error instead of its value; the analysis turns it into
// a message.
type Backend struct {
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
	// ProfileLog is the log whose per-layer table is Profile (a backend
	// without a profile file), "" otherwise; ProfileTable is that table
	// (its lines and how it may be partial) and ProfileRun the 1-based run
	// of the log it belongs to.
	ProfileLog   string
	ProfileTable *engine.ProfileTable
	ProfileRun   int
	// LayerInfoLog is the log whose engine layer information lines are
	// LayerInfo (a backend without a layer-info file), "" otherwise.
	LayerInfoLog string
}

// Companion is one parsed metadata file or log: its runs or its error.
type Companion struct {
	Path string
	Runs []engine.Run
	Err  error
}
