package engine

// Facts only a trtexec console log holds: the per-layer tables that
// --dumpProfile prints, the engine layer information and tactic timing of a
// --verbose build, DLA placement, trace averages, and the line each fact was
// read from (1-based), so a reader can quote its evidence.

// Profile table layouts, by the trtexec release that printed them.
const (
	// LayoutNameFirst: "Layer  Time (ms)  Avg. Time (ms)  Time %" with the
	// name right-aligned first (TensorRT 7.0-8.2; 7.0 and 7.1 print the
	// average with two decimals, later releases with four).
	LayoutNameFirst = "name, total, average, percent"
	// LayoutNameFirstMedian adds "Median Time (ms)" (TensorRT 8.4 to 8.6.0
	// EA).
	LayoutNameFirstMedian = "name, total, average, median, percent"
	// LayoutNumbersFirst: "Time(ms)  Avg.(ms)  Median(ms)  Time(%)  Layer"
	// (TensorRT 8.6.1 and later).
	LayoutNumbersFirst = "total, average, median, percent, name"
)

// ProfileTable is one per-layer table of a log: one profiled run.
type ProfileTable struct {
	Layout string // a Layout* constant
	// Line is the line of the table's first line read (its "=== Profile"
	// line, its column header or its first row); EndLine its last.
	Line, EndLine int
	// Header is true when the column header line was read; Iterations is
	// the count of its "=== Profile (N iterations ) ===" line (0 when that
	// line is missing).
	Header     bool
	Iterations int
	// AvgDecimals is the decimals every row prints its average with (2 in
	// TensorRT 7.0/7.1's name-first table, 4 from 7.2); -1 when rows
	// differ, 0 when no row was read.
	AvgDecimals int
	// Profile holds the rows read, in order (Kind ProfileTrtexec; Count is
	// Iterations when known, else the ratio of total to average time).
	Profile Profile
	// RowLines are the line numbers of Profile.Records.
	RowLines []int
	// Total is the "Total" row (nil when it was not read) and TotalLine its
	// line.
	Total     *ProfileRecord
	TotalLine int
	// Partial says why the rows read may not be the whole table, one reason
	// each ("no column header", "no Total row", "the rows read make 43.1%
	// of the time"); empty when the table is complete.
	Partial []string
}

// LogLayer is one line of a verbose build's engine layer information
// ("Layer(CaskConvolution): name, Tactic: 0x…, in[Int8(…)] -> out[Half(…)]").
type LogLayer struct {
	Line  int
	Layer Layer
}

// TacticTiming is what a verbose build log says of one layer's autotuning:
// which format combinations (in -> out) were timed, the fastest time of
// each, and the one chosen.
type TacticTiming struct {
	Line    int    // the "Timing Runner" line (or the first line of the layer's timing)
	Layer   string // the layer timed
	Runner  string // the runner type in parentheses ("CaskConvolution", "PluginV2", "Myelin")
	Timed   []TimedFormat
	Chosen  string // "Chose Runner Type: … Tactic: …" text, "" when not read
	ChosenL int
}

// TimedFormat is one format combination of a layer's autotuning and the
// fastest time any tactic took in it (ms; nil when no time was read).
type TimedFormat struct {
	Formats string // "Float(…) -> Float(…)"
	Fastest *float64
	Line    int
}

// Placement is a build log's device placement (DLA builds).
type Placement struct {
	DLA         [][]string // "Layers running on DLA:" groups, one per DLA subgraph
	GPU         []string   // "Layers running on GPU:"
	Unsupported []string   // "Layer '<name>' (TYPE): Unsupported on DLA" names
	Line        int
}

// Trace is the average of trtexec's "Average on N runs - GPU latency: …"
// trace lines.
type Trace struct {
	Lines               int // trace lines read
	Line, EndLine       int
	RunsPerLine         int
	GPU, Host, Enqueue  Stats // over the lines' averages: min, max, mean, median
	EndToEnd            Stats // TensorRT 7-8.2 "(end to end …)"; zero when absent
	GPUMeans, HostMeans []float64
}

// LogFact is one fact of a log with the line it came from.
type LogFact struct {
	Key   string // a Fact* constant
	Value string
	Line  int
}

// Log fact keys.
const (
	FactCommand           = "command"             // the trtexec command line
	FactPrecision         = "precision"           // Build Options "Precision:" or the command's precision flags
	FactHalf2NoNativeFP16 = "half2_without_fp16"  // builder warning: Half2 on a GPU without native FP16
	FactCalibratorUnused  = "calibrator_not_used" // builder warning: no calibrator, dynamic ranges needed
	FactFallback          = "fallback"            // a builder warning about a layer or precision falling back
	FactInstanceNorm      = "instancenorm_import" // "native" or "plugin" (ONNX parser option or parser trace)
	FactEngineSizeMiB     = "engine_size_mib"     // "Loaded engine size: N MiB"
	FactPlugin            = "plugin"              // a plugin the parser created or the build timed
	FactInputShape        = "input_shape"         // "Input inference shape : name=1x3x224x224" (or build shapes)
	FactIOFormats         = "io_formats"          // --inputIOFormats / --outputIOFormats of the command
	FactLoadEngine        = "load_engine"         // the run loads a built engine (--loadEngine)
	FactPerfSummary       = "perf_summary"        // the performance summary's first line
	FactGPUCompute        = "gpu_compute"         // the GPU Compute line
	FactH2D               = "h2d"                 // the H2D Latency line
	FactD2H               = "d2h"                 // the D2H Latency line
	FactLatency           = "latency"             // the (host) Latency line
	FactEnqueue           = "enqueue"             // the Enqueue Time line
	FactWarning           = "warning"             // a trtexec summary warning ("* Throughput may be bound by …")
	FactTimingFormat      = "autotune_formats"    // an "Autotuning format combination" line
	FactEngineLayers      = "engine_layers"       // the first engine layer information line
	FactTacticName        = "tactic_name"         // the first tactic a --verbose build timed by kernel name
	FactTF32Tactic        = "tf32_tactic"         // the first TF32 tactic a --verbose build timed (its name)
)

// LogFacts are the facts a log run holds besides its options and summary.
type LogFacts struct {
	Tables  []ProfileTable
	Layers  []LogLayer
	Timings []TacticTiming
	DLA     *Placement
	Trace   *Trace
	Facts   []LogFact
	// Lines is the number of lines of the run in its log.
	Lines int
}

// Fact returns the first fact of key.
func (f *LogFacts) Fact(key string) (LogFact, bool) {
	if f == nil {
		return LogFact{}, false
	}
	for _, x := range f.Facts {
		if x.Key == key {
			return x, true
		}
	}
	return LogFact{}, false
}

// All returns the facts of key, in order.
func (f *LogFacts) All(key string) []LogFact {
	if f == nil {
		return nil
	}
	var out []LogFact
	for _, x := range f.Facts {
		if x.Key == key {
			out = append(out, x)
		}
	}
	return out
}
