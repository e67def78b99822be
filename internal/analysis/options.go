// Package analysis turns parsed dumps (internal/inputs, read from files by
// internal/load) into the analyze-data.json model: for each backend it runs
// the integrity gate (name matching, DAG, consistency) and computes timing,
// records, breakdowns, identity and findings. It reads no file and knows
// nothing of how results are printed.
package analysis

// Options tune one analysis run.
type Options struct {
	// ModelName, when set, wins over every inferred identity.
	ModelName string
	// ModelNameFrom says where ModelName came from (a command line passes
	// the flag that set it); it is recorded as the name's evidence detail,
	// "model name option" when empty.
	ModelNameFrom string
	// ToolVersion is written into analyze-data.json's tool field.
	ToolVersion string
	// Baseline is the label every backend is compared against in the
	// comparison section; "" compares against the fastest.
	Baseline string
	// GPU names the GPU the engines ran on (a name of the table of common
	// GPUs, internal/gpu): backends whose files name no GPU get its facts,
	// so the cost model predicts and prices for it instead of a default.
	// Files that name a GPU keep theirs. An unknown name is an error
	// wrapping gpu.ErrUnknown.
	GPU string
	// GPUFrom says where GPU came from (a command line passes the flag);
	// it is recorded as the device's source, "GPU option" when empty.
	GPUFrom string
	// Run selects, in a profile file of several runs (runs appended to one
	// file, as a batch sweep writes them), the run to analyse layer by
	// layer (1-based; the runs table lists them all). 0 analyses the run
	// whose layer names match the layer info, or the first without it.
	Run int
}

// ToolName is the name written into analyze-data.json's tool field.
const ToolName = "trtperf"
