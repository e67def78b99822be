package engine

// Run facts: what trtexec (or TREx, which stores trtexec's printout as
// metadata JSON) says about how an engine was built, on which GPU it ran and
// what it measured. Every field is optional: each source knows part of it.

// Option is one "Key: Value" line of a trtexec option section, as printed.
type Option struct {
	Key   string
	Value string
}

// Stats are a performance-summary row in milliseconds; nil means the source
// did not give that statistic.
type Stats struct {
	Min, Max, Mean, Median *float64
	P90, P95, P99          *float64
}

// IsZero reports whether no statistic is known.
func (s Stats) IsZero() bool {
	return s.Min == nil && s.Max == nil && s.Mean == nil && s.Median == nil && s.P90 == nil && s.P95 == nil && s.P99 == nil
}

// Perf is a measured performance summary of one trtexec run.
type Perf struct {
	ThroughputQPS *float64
	Latency       Stats // host latency: H2D + GPU compute + D2H
	EndToEnd      Stats // TensorRT 7 "end to end" host latency
	Enqueue       Stats
	H2D           Stats
	GPUCompute    Stats
	D2H           Stats
	// Samples is the number of timed inferences (0 when unknown).
	Samples int
	// CVPercent is trtexec's coefficient of variance of GPU compute time in
	// percent, printed only when it thinks the time unstable; nil otherwise.
	CVPercent *float64
	// TotalGPUComputeS and WalltimeS are the run totals in seconds (nil when
	// not printed).
	TotalGPUComputeS *float64
	WalltimeS        *float64
	// FromTrace is true when the statistics come from trtexec's "Average on
	// N runs" trace lines (a paste without the summary): GPUCompute, Latency
	// and Enqueue are then statistics of those averages.
	FromTrace bool
}

// Device is what a source says of the GPU; zero values mean unknown.
type Device struct {
	Name         string
	CCMajor      int // compute capability; -1 when unknown
	CCMinor      int
	SMs          int
	ClockGHz     float64 // (application) compute clock
	MemClockGHz  float64 // memory clock as CUDA reports it (bandwidth = 2 × clock × bus width)
	BusWidthBits int
	MemoryMiB    float64
	// Notes say which reported facts were dropped as outside their
	// physical range (DropImplausible).
	Notes []string
}

// Known reports whether the source named or described a device at all.
func (d *Device) Known() bool { return d != nil && (d.Name != "" || d.SMs > 0 || d.CCMajor >= 0) }

// Run is one trtexec run (one log section or one set of TREx metadata).
type Run struct {
	// Command is the trtexec command line ("" when unknown).
	Command string
	// Version is the TensorRT version ("8.6.1"; "" when unknown).
	Version string
	// Era is the oldest release family the log's layout fits when it names
	// no version ("7.x": TensorRT 7's statistics blocks); "" otherwise.
	Era    string
	Model  []Option // === Model Options ===
	Build  []Option // === Build Options ===
	Infer  []Option // === Inference Options ===
	System []Option // === System Options ===
	Device *Device  // nil when the source says nothing of the device
	Perf   *Perf    // nil when the source holds no performance summary
	// Warnings are the warning lines that matter for performance, in order.
	Warnings []string
	// Log holds what only a console log says (tables, verbose build lines,
	// trace, and the line of each fact); nil for other sources.
	Log *LogFacts
}

// Opt returns the value of the first option named key in opts.
func Opt(opts []Option, key string) (string, bool) {
	for _, o := range opts {
		if o.Key == key {
			return o.Value, true
		}
	}
	return "", false
}
