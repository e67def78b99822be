// Package engine is trtperf's typed model of one TensorRT engine dump: the
// layers of its layer-info file and the records of its profile. It knows
// nothing of files, JSON or output; the dump package fills it and the
// analysis package reads it.
package engine

// Tensor is one input, output or constant of a layer.
type Tensor struct {
	Name     string
	Location string // "Device", "Host" or "" when the dump omits it
	Dims     []int64
	// Format is the layout and data-type string of the tensor, unified across
	// eras: the "Format/Datatype" field, or "Format" and "Datatype" joined
	// with a space when a newer release splits them.
	Format string
	// Extra keeps tensor keys the model does not name (Strides, StrideOrder,
	// ...) as raw compact JSON, in file order.
	Extra []Param
}

// Param is one key of a layer object the model does not name, kept as raw
// compact JSON so nothing the dump said is lost.
type Param struct {
	Key   string
	Value []byte
}

// MaxLayers is the most layers trtperf reads from one dump (the largest
// LLM engines have about 10^5 layers). A layer costs memory whatever its
// size in the file (a names-only list of short names is a few bytes per
// layer), so the count is bounded as well as the file's size: a dump over
// it is refused, and the generator makes none.
const MaxLayers = 1 << 21

// Layer is one fused layer of the engine, as the layer-info dump describes it.
type Layer struct {
	Index         int // position in the dump, 0-based
	Name          string
	Type          string // LayerType as written
	Inputs        []Tensor
	Outputs       []Tensor
	Constants     []Tensor
	ParameterType string
	TacticName    string
	TacticValue   string
	Origin        string
	StreamID      int
	HasStreamID   bool
	Metadata      string // control characters U+001E/U+001F made visible
	Subgraph      string // "_subgraph" id of multi-engine dumps; "" when absent
	// OptProfile is the optimization profile a layer belongs to, from a
	// " [profile N]" name suffix; 0 for the first profile.
	OptProfile int
	Params     []Param
}

// IOTensor is a declared engine input or output (Bindings, or TensorRT 11
// "I/O Tensors").
type IOTensor struct {
	Name     string
	IOMode   string // "Input", "Output" or "" when the dump does not say (Bindings)
	DataType string
	Dims     []int64
	Extra    []Param
}

// LayerInfo is everything read from one layer-info file.
type LayerInfo struct {
	// RootKind says how the file was laid out: "object" ({"Layers": ...}) or
	// "list" (a bare array of layers).
	RootKind string
	// NamesOnly is true for dumps built with the default profiling verbosity
	// (layer_names_only): Layers carry names and nothing else.
	NamesOnly bool
	Layers    []Layer
	// Bindings lists declared I/O tensor names in file order (either era).
	IO []IOTensor
	// HasIODeclaration is false when the dump declares no Bindings or I/O
	// Tensors at all (bare lists), so graph inputs must be inferred.
	HasIODeclaration bool
	// Format facts that date the file (see analysis' TensorRT range):
	// IOTensorObjects is the TensorRT 11 "I/O Tensors" key (older releases
	// write "Bindings"); SplitFormat is a tensor with separate "Format" and
	// "Datatype" keys instead of "Format/Datatype".
	IOTensorObjects, SplitFormat bool
}

// ProfileRecord is one per-layer timing record.
type ProfileRecord struct {
	Name       string
	TimeMs     float64 // total over all iterations
	AverageMs  float64
	MedianMs   float64
	HasMedian  bool
	Percentage float64
	HasPercent bool
	Samples    int // number of samples for latency dicts; 0 for trtexec
	// OptProfile is the optimization profile from a " [profile N]" name
	// suffix (stripped from Name); 0 for the first profile.
	OptProfile int
}

// Profile kinds.
const (
	ProfileTrtexec     = "trtexec"
	ProfileLatencyDict = "latency-dict"
)

// Profile is everything read from one profile file.
type Profile struct {
	Kind     string // ProfileTrtexec or ProfileLatencyDict
	Count    int64  // iterations from the {"count": N} header; 0 when absent
	HasCount bool
	// AveragesOnly: a user's table of per-layer averages without totals
	// (TimeMs is the average), so the iteration count is unknown.
	AveragesOnly bool
	// Read says how a user's own table was read, when it is not trtexec's
	// profile or a plain latency dictionary: its shape, the unit of its
	// times (named by a key, a header or a unit member, or ms assumed) and
	// a total row left out, e.g. "a CSV table; times in µs, converted to
	// ms". "" otherwise.
	Read string
	// UnitAssumed: some time of a user's table named no unit, so ms was
	// assumed (Read says so).
	UnitAssumed bool
	Records     []ProfileRecord
}

// Times are per-inference records of trtexec --exportTimes: the engine's
// host latency (and, up to 8.2, end-to-end time) without per-layer
// profiling overhead.
type Times struct {
	LatencyMs []float64 // latencyMs per inference: host latency, H2D + compute + D2H
	// EndToEndMs is endToEndMs per inference (TensorRT 7.0-8.2: from the
	// start of the input copy to the end of the output copy, waits
	// included); empty when the file has none.
	EndToEndMs []float64
	ComputeMs  []float64 // computeMs per inference; empty when the file has none
	EnqueueMs  []float64 // endEnqMs - startEnqMs; empty when absent
	H2DMs      []float64 // h2dMs (TensorRT 8+) or inMs (TensorRT 7); empty when absent
	D2HMs      []float64 // d2hMs or outMs; empty when absent
	// TRT7Keys is true when the transfers are inMs/outMs (TensorRT 7's
	// trtexec; 8.0 renamed them h2dMs/d2hMs).
	TRT7Keys bool
}
