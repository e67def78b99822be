// Package contract defines analyze-data.json: the Go types that are written,
// the JSON Schema that describes them (embedded), and the checks behind
// `trtperf validate`. It knows nothing of how the numbers were computed.
//
// The model reads on its own: types.go (the shape), schema.go and
// schema/ (the JSON Schema), semantic.go (invariants the schema cannot
// say), validate.go and decode.go (the API). encode_gen.go and
// decode_gen.go are generated from this file (go generate, by
// internal/encgen) over the byte-level machinery in internal/fastjson, and
// pinned to encoding/json/v2 by the tests.
package contract

import "github.com/go-json-experiment/json/jsontext"

// SchemaVersion is the version of the analyze-data.json contract.
const SchemaVersion = "1.1"

// WarningRecast starts a top-level validation warning about a file read
// for what its content is, not for what its conventional name says
// ("read by content: profile_a.json: trtexec profile metadata ..., so it
// is read as metadata of \"a\", ..."); renderers list those files.
const WarningRecast = "read by content: "

// Statuses and modes used across the contract.
const (
	StatusPassed  = "passed"
	StatusPartial = "partial" // top level only
	StatusFailed  = "failed"

	ModeLayerProfile = "layer_profile"
	ModeLayerOnly    = "layer_only"
	ModeUnusable     = "unusable"
	// ModeProfileOnly is a failed backend whose layer info is missing or
	// names-only but whose profile is usable: timing, records (layer kinds
	// guessed from names), breakdowns and concentration are filled; graph
	// and layer facts are not.
	ModeProfileOnly = "profile_only"
	// ModeMeasuredOnly is a failed backend without per-layer evidence (no
	// layers, no records) whose timing.measured holds what trtexec
	// measured end to end (a log's performance summary, TREx metadata):
	// latency, GPU compute, the host/device split, warnings. It compares
	// with other builds on measured time only.
	ModeMeasuredOnly = "measured_only"

	LevelError   = "error"
	LevelWarning = "warning"
	LevelInfo    = "info"

	ConfidenceLow    = "low"
	ConfidenceMedium = "medium"
	ConfidenceHigh   = "high"
)

// AnalyzeData is the root of analyze-data.json.
type AnalyzeData struct {
	SchemaVersion       string     `json:"schema_version"`
	Tool                Tool       `json:"tool"`
	Folder              *string    `json:"folder"`
	ModelName           string     `json:"model_name"`
	ModelNameConfidence string     `json:"model_name_confidence"`
	ModelNameEvidence   []Evidence `json:"model_name_evidence"`
	ModelComponents     []string   `json:"model_components"`
	Validation          Validation `json:"validation"`
	Results             []Backend  `json:"results"`
	// Comparison sets two or more usable backends side by side; null
	// otherwise (and absent from files written before it existed).
	Comparison *Comparison `json:"comparison"`
	// RowComparisons compare, row by row, the rows two partial per-layer
	// tables share (pasted fragments, whose sums are not the engines'
	// times); absent when no pair of backends has one.
	RowComparisons []RowComparison `json:"row_comparisons,omitempty"`
}

// Tool names the program that wrote the file.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Evidence is one reason behind an identity or category decision.
type Evidence struct {
	Source     string `json:"source"` // "flag", "config", "folder", "file_name", "layers", "inputs"
	Detail     string `json:"detail"`
	Value      string `json:"value"`
	Confidence string `json:"confidence"`
}

// Validation is the top-level roll-up of every backend's gate.
type Validation struct {
	Status       string   `json:"status"` // passed (all), partial (some), failed (none)
	BackendCount int      `json:"backend_count"`
	PassedCount  int      `json:"passed_count"`
	FailedCount  int      `json:"failed_count"`
	Warnings     []string `json:"warnings"`
}

// Backend is one engine build (one label) and everything known about it.
type Backend struct {
	Label        string            `json:"label"`
	Validation   BackendValidation `json:"validation"`
	LayerCount   int               `json:"layer_count"`
	ProfileCount int               `json:"profile_count"`
	ProfileKind  string            `json:"profile_kind"` // trtexec, latency-dict or "" without a profile
	Layers       []Layer           `json:"layers"`
	Graph        Graph             `json:"graph"`
	Count        *int64            `json:"count"`
	CountSource  string            `json:"count_source"` // header, samples, inferred_time_ratio, none
	Timing       *Timing           `json:"timing"`
	Device       *Device           `json:"device"`
	Build        *Build            `json:"build"`
	// TensorRTRange is the TensorRT releases the backend's files fit when
	// no log or metadata names the version (build.tensorrt_version null):
	// inferred from their formats. Advice names only flags every release
	// of the range accepts. Null when a version is named or nothing is
	// known (absent in older files).
	TensorRTRange *VersionRange `json:"tensorrt_range"`
	Model         Model         `json:"model"`
	Engines       Engines       `json:"engines"`
	// Runs is the table of a sweep: one row per trtexec run when the
	// profile or the trtexec log holds several; empty otherwise.
	Runs []RunRow `json:"runs"`
	// Memory is what the layer info says of the engine's memory; null
	// without detailed layer info (absent in older files).
	Memory             *Memory        `json:"memory"`
	Records            []Record       `json:"records"`
	TypeBreakdown      []Breakdown    `json:"type_breakdown"`
	TagBreakdown       []Breakdown    `json:"tag_breakdown"`
	PrecisionBreakdown []Breakdown    `json:"precision_breakdown"`
	Concentration      *Concentration `json:"concentration"`
	// Roofline says how records' roofline positions were computed and
	// sums them up; null when no record has flops and a time.
	Roofline *Roofline `json:"roofline"`
	// Prediction is the cost model's time for every layer from the layer
	// info and the device alone: predicted, never measured. Null without
	// detailed layer info (absent in older files).
	Prediction *Prediction    `json:"prediction"`
	Diagnosis  *Diagnosis     `json:"diagnosis"`
	Issues     []Finding      `json:"issues"`
	Positives  []Positive     `json:"positives"`
	Overview   []OverviewItem `json:"overview"`
}

// Prediction device sources: the backend's own device facts, the device of
// another backend of the folder whose kernels target the same architecture,
// or the stated default class of the kernels' architecture (or of no
// architecture at all).
const (
	PredictionDeviceOwn     = "device"
	PredictionDeviceFolder  = "folder"
	PredictionDeviceDefault = "default_class"
)

// Prediction bounds of a layer: what its predicted time is set by.
const (
	PredictedCompute = "compute"
	PredictedMemory  = "memory"
	PredictedLaunch  = "launch"
	PredictedNone    = "none" // the layer runs no kernel (no-op)
)

// Prediction is what the per-layer cost model (a roofline with
// efficiencies calibrated on a measured corpus) predicts each layer takes
// in a per-layer profile on the device. These times are predictions:
// renderers label them so.
type Prediction struct {
	// Basis names the model: roofline_cost_model.
	Basis string `json:"basis"`
	// Device is the GPU the times are predicted for; DeviceSource says
	// where it comes from (device, folder, default_class).
	Device       string `json:"device"`
	DeviceSource string `json:"device_source"`
	// TotalMs is the sum of layer_ms: the predicted profiled layer sum.
	TotalMs float64 `json:"total_ms"`
	// LayerMs is the predicted time of each entry of layers (0 for layers
	// that run no kernel); LayerBound what sets it (compute, memory,
	// launch, none).
	LayerMs    []float64 `json:"layer_ms"`
	LayerBound []string  `json:"layer_bound"`
	// ErrorPct is the model's median layer-sum error for such a GPU,
	// percent: measured on the calibration corpus where the files name the
	// GPU, wider for an assumed default, widest for an architecture the fit
	// did not see (notes say which); model-priced findings span ± this.
	ErrorPct float64  `json:"error_pct"`
	Notes    []string `json:"notes"`
}

// Diagnosis is the time base every finding's price is stated against: the
// measured latency when the folder has one, else the profiled layer sum.
type Diagnosis struct {
	// ReferenceMs is what one inference takes on the GPU.
	ReferenceMs float64 `json:"reference_ms"`
	// ReferenceSource names it: gpu_compute_median (measured), latency_median
	// (measured, including transfers), layer_sum (the profile) or predicted
	// (prediction.total_ms of a layer_only backend: no measurement).
	ReferenceSource string  `json:"reference_source"`
	LayerSumMs      float64 `json:"layer_sum_ms"`
	// ProfileScale is reference_ms / layer_sum_ms: findings price owned
	// layer time × profile_scale, so per-layer profiling overhead is not
	// counted as recoverable time.
	ProfileScale float64 `json:"profile_scale"`
	// RecoverableMs is the sum of the findings' recoverable_ms (at most
	// reference_ms: no layer is owned by two findings).
	RecoverableMs    float64 `json:"recoverable_ms"`
	RecoverableShare float64 `json:"recoverable_share"` // percent of reference_ms
}

// OverviewItem is an unscored description of where the time goes (time by
// type, largest layers, Myelin regions): context, not something to change.
type OverviewItem struct {
	ID       string             `json:"id"`
	Title    string             `json:"title"`
	Evidence []string           `json:"evidence"`
	Metrics  map[string]float64 `json:"metrics"`
	Layers   []int              `json:"layers"`
}

// OverviewMinorItems is the overview item listing the candidates worth too
// little to score (each priced in Metrics as "<finding id>_ms"); the
// report shows it under the findings.
const OverviewMinorItems = "minor_items"

// BackendValidation is the integrity gate's verdict for one backend.
type BackendValidation struct {
	Status          string      `json:"status"`
	AnalysisMode    string      `json:"analysis_mode"`
	Messages        []Message   `json:"messages"`
	SourcePaths     SourcePaths `json:"source_paths"`
	ReportAvailable bool        `json:"report_available"`
}

// Message is one validation message with a stable code.
type Message struct {
	Level   string `json:"level"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// SourcePaths are the files a backend was read from (absolute), or null.
type SourcePaths struct {
	Layer   *string `json:"layer"`
	Profile *string `json:"profile"`
}

// Layer is a layer record as TensorRT wrote it, normalised: control
// characters made visible, eras unified ("Format/Datatype" always present),
// unknown keys kept under Parameters in file order.
type Layer struct {
	Name          string   `json:"Name"`
	LayerType     string   `json:"LayerType" contract:"intern"`
	Inputs        []Tensor `json:"Inputs"`
	Outputs       []Tensor `json:"Outputs"`
	Constants     []Tensor `json:"Constants,omitzero"`
	ParameterType string   `json:"ParameterType,omitempty" contract:"intern"`
	TacticName    string   `json:"TacticName,omitempty" contract:"intern"`
	TacticValue   string   `json:"TacticValue,omitempty"`
	Origin        string   `json:"Origin,omitempty" contract:"intern"`
	StreamID      *int     `json:"StreamId,omitempty"`
	Metadata      string   `json:"Metadata,omitempty"`
	Subgraph      string   `json:"_subgraph,omitempty" contract:"intern"`
	OptProfile    int      `json:"OptimizationProfile,omitzero"`
	// Parameters holds the remaining keys as one raw JSON object, file order.
	Parameters RawObject `json:"Parameters,omitzero"`
}

// RawObject is a raw, compact JSON object written as is.
type RawObject = jsontext.Value

// Tensor is a normalised tensor of a layer.
type Tensor struct {
	Name       string    `json:"Name"`
	Location   string    `json:"Location,omitempty" contract:"intern"`
	Dimensions []int64   `json:"Dimensions"`
	Format     string    `json:"Format/Datatype" contract:"intern"`
	Extra      RawObject `json:"Extra,omitzero"`
}

// Graph is the data-flow graph's shape and integrity. When the graph could
// not be built (names-only or unreadable layer info) is_dag is false, cycle
// is null and edge_count is 0: nothing about it is known.
type Graph struct {
	IsDAG              bool                `json:"is_dag"`
	Ambiguous          bool                `json:"ambiguous"`
	DuplicateProducers []DuplicateProducer `json:"duplicate_producers"`
	EdgeCount          int                 `json:"edge_count"`
	ExternalInputs     []string            `json:"external_inputs"`
	GraphOutputs       []string            `json:"graph_outputs"`
	DeclaredInputs     []string            `json:"declared_inputs"`
	DeclaredOutputs    []string            `json:"declared_outputs"`
	// Cycle lists the layer names of one cycle, first name repeated at the
	// end; null when the graph is a DAG.
	Cycle []string `json:"cycle" contract:"null"`
	// TopoOrder is a topological order of layer indexes; null when not a DAG.
	TopoOrder []int `json:"topo_order" contract:"null"`
	// Edges are producer→consumer layer index pairs, deduplicated, sorted.
	Edges [][2]int `json:"edges"`
}

// DuplicateProducer is a tensor written by several layers.
type DuplicateProducer struct {
	Tensor    string `json:"tensor"`
	Producers []int  `json:"producers"` // layer indexes
}

// Timing is the backend's time budget.
type Timing struct {
	TotalMs            float64  `json:"total_ms"`             // sum of timeMs over records
	AverageInferenceMs float64  `json:"average_inference_ms"` // sum of averageMs
	MedianInferenceMs  *float64 `json:"median_inference_ms"`  // sum of medianMs, null when absent
	PercentageSum      float64  `json:"percentage_sum"`
	ZeroTimeRecords    int      `json:"zero_time_records"`
	Notes              []string `json:"notes"`
	// EndToEnd is the measured latency per inference from a trtexec
	// --exportTimes file beside the dumps; null when there is none.
	EndToEnd *EndToEnd `json:"end_to_end"`
	// Measured is what trtexec measured for this engine, from every
	// companion file that says (TREx profile metadata, trtexec logs,
	// --exportTimes); null when none does.
	Measured *Measured `json:"measured"`
}

// Measured-timing source kinds, most trusted first.
const (
	SourceTrexProfileMeta = "trex_profile_meta"
	SourceTrtexecLog      = "trtexec_log"
	SourceExportTimes     = "export_times"
)

// Measured is the engine's measured performance (no per-layer profiling
// overhead), taken from the most trusted source; samples and cv come from
// the most trusted source that has per-inference samples or a count.
type Measured struct {
	Source  MeasuredSource   `json:"source"`  // the most trusted source (= sources[0])
	Sources []MeasuredSource `json:"sources"` // every source, most trusted first
	// LatencyMs is host latency per inference (H2D + GPU compute + D2H).
	LatencyMs    Stats    `json:"latency_ms"`
	GPUComputeMs Stats    `json:"gpu_compute_ms"`
	EnqueueMs    Stats    `json:"enqueue_ms"`
	H2DMs        *Stats   `json:"h2d_ms"` // null when unknown
	D2HMs        *Stats   `json:"d2h_ms"`
	Throughput   *float64 `json:"throughput_qps"`
	Samples      *int     `json:"samples"` // timed inferences; null when unknown
	// CV is the coefficient of variation (std / mean, a fraction) of GPU
	// compute time, or of latency when there is no GPU compute column.
	CV   *float64 `json:"cv"`
	CVOf string   `json:"cv_of"` // gpu_compute, latency or "" without cv
	// CVWarned: trtexec printed its variance warning ("GPU compute time is
	// unstable, with coefficient of variance = N%"): the timing is noisy
	// beyond its own threshold. Absent in older files.
	CVWarned           bool  `json:"cv_warned,omitempty"`
	CUDAGraph          *bool `json:"cuda_graph"`
	SpinWait           *bool `json:"spin_wait"`
	SeparateProfileRun *bool `json:"separate_profile_run"`
	// ProfileOverhead is timing.average_inference_ms ÷ the median named by
	// ProfileOverheadBasis; null without a profile or a median.
	ProfileOverhead      *float64 `json:"profile_overhead"`
	ProfileOverheadBasis string   `json:"profile_overhead_basis"` // gpu_compute_median, latency_median or ""
	FewSamples           bool     `json:"few_samples"`
	Notes                []string `json:"notes"`
	// PerIteration is the time of each timed inference from a trtexec
	// --exportTimes file, for plotting; null (or absent in older files)
	// without one.
	PerIteration *PerIteration `json:"per_iteration"`
}

// MaxPerIterationPoints bounds PerIteration.Ms: longer runs are reduced to
// the minimum and the maximum of consecutive buckets of iterations.
const MaxPerIterationPoints = 2000

// PerIteration is a measured time per inference, in run order.
type PerIteration struct {
	Of         string `json:"of"`         // gpu_compute (computeMs) or latency (latencyMs)
	Source     string `json:"source"`     // base name of the --exportTimes file
	Iterations int    `json:"iterations"` // inferences in the file
	// MedianMs and P99Ms are of every inference in the file (nearest
	// rank), whether or not the points are downsampled.
	MedianMs float64 `json:"median_ms"`
	P99Ms    float64 `json:"p99_ms"`
	// Downsampled is true when the file holds more than
	// MaxPerIterationPoints inferences: each bucket of consecutive
	// iterations is then kept as its minimum and its maximum, in run order.
	Downsampled bool      `json:"downsampled"`
	Index       []int     `json:"index"` // 0-based iteration of each point
	Ms          []float64 `json:"ms"`
}

// MeasuredSource is one companion file that measured the engine.
type MeasuredSource struct {
	File               string   `json:"file"` // base name
	Kind               string   `json:"kind"` // trex_profile_meta, trtexec_log, export_times
	Run                *int     `json:"run"`  // 1-based run of a file holding several; null for one
	Samples            *int     `json:"samples"`
	LatencyMedianMs    *float64 `json:"latency_median_ms"`
	GPUComputeMedianMs *float64 `json:"gpu_compute_median_ms"`
	// Lines are the lines of a trtexec log the numbers were read from
	// ("22", "18-39" for trace averages); absent for files without lines.
	Lines *string `json:"lines,omitempty"`
}

// Stats are measured statistics in milliseconds; null for what the source
// does not give.
type Stats struct {
	Min    *float64 `json:"min"`
	Mean   *float64 `json:"mean"`
	Median *float64 `json:"median"`
	P90    *float64 `json:"p90"`
	P95    *float64 `json:"p95"`
	P99    *float64 `json:"p99"`
	Max    *float64 `json:"max"`
}

// Device is the GPU the engine was built and measured on.
type Device struct {
	Name               string   `json:"name"`
	ComputeCapability  *string  `json:"compute_capability"` // "8.0"
	SMCount            *int     `json:"sm_count"`
	ClockGHz           *float64 `json:"clock_ghz"`
	MemoryGiB          *float64 `json:"memory_gib"`
	MemoryBandwidthGBs *float64 `json:"memory_bandwidth_gbs"`
	BandwidthBasis     string   `json:"memory_bandwidth_basis"` // bus_width_x_memory_clock, table or ""
	PeakTFLOPS         Peaks    `json:"peak_tflops"`
	PeakBasis          string   `json:"peak_basis"` // sm_count_x_clock, table or ""
	Source             string   `json:"source"`     // file the device facts came from
	// TensorCores lists the precisions the GPU runs on tensor cores (FP16,
	// BF16, TF32, INT8, FP8, FP4), from its architecture; empty without
	// tensor cores or when the architecture is unknown (absent in older
	// files).
	TensorCores []string `json:"tensor_cores"`
	// Class is data_centre, workstation, consumer or jetson; "" when
	// unknown. DLACores counts the deep-learning accelerators beside the
	// GPU (Jetson AGX Xavier, Xavier NX, AGX Orin, Orin NX).
	Class    string   `json:"class"`
	DLACores int      `json:"dla_cores"`
	Notes    []string `json:"notes"`
}

// Peaks are dense tensor-path peak throughputs in TFLOP/s (TOP/s for int8);
// null when unknown or the GPU has no such path.
type Peaks struct {
	FP32 *float64 `json:"fp32"`
	TF32 *float64 `json:"tf32"`
	FP16 *float64 `json:"fp16"`
	INT8 *float64 `json:"int8"`
}

// Build is how the engine was built (and run), from trtexec logs and TREx
// build metadata.
type Build struct {
	TensorRTVersion *string `json:"tensorrt_version"`
	// Precision is trtexec's "Precision" build option ("FP32+FP16").
	Precision *string `json:"precision"`
	// PrecisionEvidence says where Precision comes from: the build log
	// line ("build.log line 12: Precision: FP32") or the build metadata
	// file; "" when Precision is null.
	PrecisionEvidence string `json:"precision_evidence,omitempty"`
	// PrecisionFlags are the precision flags of the command line (--fp16,
	// --int8, --best, --stronglyTyped, ...) or, without a command line,
	// the flags the Precision option implies.
	PrecisionFlags  []string `json:"precision_flags"`
	Command         *string  `json:"command"`
	ModelFormat     *string  `json:"model_format"`
	Batch           *string  `json:"batch"`
	BuildShapes     *string  `json:"build_shapes"`
	InferenceShapes *string  `json:"inference_shapes"`
	Options         []Option `json:"options"` // every build option as printed
	// LoadedEngine is the engine file a --loadEngine run loaded when no
	// source saw the build: that run's "Precision", shapes and options are
	// trtexec's defaults, not how the engine was built, so they are left
	// out. Absent when a build was seen or nothing was loaded.
	LoadedEngine *string `json:"loaded_engine,omitempty"`
	// TF32Timed answers whether the build tried TF32 kernels: true when a
	// --verbose build log timed a TF32 tactic, false when it timed tactics
	// and none was TF32 (or the command said --noTF32); absent without a
	// verbose build log or flag.
	TF32Timed *bool `json:"tf32_timed,omitempty"`
	// TF32Evidence is the log line or flag that answers it ("" when absent).
	TF32Evidence string   `json:"tf32_evidence,omitempty"`
	Warnings     []string `json:"warnings"`
	Sources      []string `json:"sources"` // base names
}

// VersionRange is the TensorRT releases Min..Max ("7.0".."8.2") a
// backend's files fit, with the format facts that bound it.
type VersionRange struct {
	Min string `json:"min"`
	// Max is null when no newest release is known.
	Max      *string  `json:"max"`
	Evidence []string `json:"evidence"`
}

// Option is one trtexec option as printed.
type Option struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// HostLatencyWords name what trtexec calls latency (latencyMs, "Latency",
// "Host latency"): the sum of an inference's input copy, compute and
// output copy, not its end-to-end time (TensorRT 7.0-8.2's endToEndMs,
// "end to end", which adds the waits between them).
const HostLatencyWords = "host latency (H2D + compute + D2H)"

// EndToEnd summarises trtexec --exportTimes records: what one inference
// really takes, without the CUDA-event overhead of per-layer profiling.
// Its statistics are of latencyMs, the host latency (HostLatencyWords),
// whatever the release; the name is the contract's.
type EndToEnd struct {
	Source        string   `json:"source"` // file name
	Iterations    int      `json:"iterations"`
	MeanMs        float64  `json:"mean_ms"`
	MedianMs      float64  `json:"median_ms"`
	P90Ms         float64  `json:"p90_ms"`
	P99Ms         float64  `json:"p99_ms"`
	MinMs         float64  `json:"min_ms"`
	MaxMs         float64  `json:"max_ms"`
	ComputeMeanMs *float64 `json:"compute_mean_ms"` // GPU compute only; null when the file has no computeMs
	// ProfileOverhead is average_inference_ms / mean_ms: how much larger
	// the sum of profiled layer averages is than a real inference.
	ProfileOverhead float64 `json:"profile_overhead"`
}

// Model is what is known of the model behind a backend.
type Model struct {
	Name               string       `json:"name"`
	NameConfidence     string       `json:"name_confidence"`
	NameEvidence       []Evidence   `json:"name_evidence"`
	Components         []string     `json:"components"`
	Category           string       `json:"category"` // cnn, transformer_encoder, decoder_llm, vit, diffusion_unet, diffusion_vae, detector, unknown
	CategoryConfidence string       `json:"category_confidence"`
	CategoryEvidence   []Evidence   `json:"category_evidence"`
	HiddenSize         *int64       `json:"hidden_size"`
	NumLayers          *int64       `json:"num_layers"`
	NumHeads           *int64       `json:"num_heads"`
	SequenceLength     *int64       `json:"sequence_length"`
	InputShapes        []InputShape `json:"input_shapes"`
	DynamicDims        bool         `json:"dynamic_dims"`
}

// InputShape is a declared or inferred engine input with its dimensions.
type InputShape struct {
	Name       string  `json:"name"`
	Dimensions []int64 `json:"dimensions"`
	DataType   string  `json:"data_type"`
}

// RunRow is one run of a file holding several trtexec runs (a batch or
// shape sweep appended to one file).
type RunRow struct {
	Run                int      `json:"run"` // 1-based, file order
	Batch              *string  `json:"batch"`
	Shapes             *string  `json:"shapes"`
	LatencyMedianMs    *float64 `json:"latency_median_ms"`
	GPUComputeMedianMs *float64 `json:"gpu_compute_median_ms"`
	ThroughputQPS      *float64 `json:"throughput_qps"`
	// ItemsPerSecond is the throughput in batch items per second:
	// throughput_qps × batch, or throughput_qps itself when qps × latency
	// shows trtexec already counted items.
	ItemsPerSecond *float64 `json:"items_per_second"`
	LayerSumMs     *float64 `json:"layer_sum_ms"` // Σ averageMs of the run's profile document
	ProfileRecords *int     `json:"profile_records"`
	Analysed       bool     `json:"analysed"` // the run the records, timing and findings come from
}

// Memory is the engine's weights and its largest activations, from the
// layer info.
type Memory struct {
	// WeightsBytes sums every weights blob of every layer (weights, bias,
	// scale, constants, a Myelin region's Constants) at its stored type.
	WeightsBytes float64 `json:"weights_bytes"`
	WeightLayers int     `json:"weight_layers"` // layers holding weights
	// WeightsUnknown counts blobs whose type or shape has no known size
	// (not in weights_bytes).
	WeightsUnknown int `json:"weights_unknown"`
	// LargestActivations are the largest distinct tensors between layers
	// (graph inputs included), largest first, at most five.
	LargestActivations []Activation `json:"largest_activations"`
	// ActivationTensors counts the distinct tensors sized; DynamicTensors
	// those with a dynamic (-1) dimension or unknown format, not sized.
	ActivationTensors int      `json:"activation_tensors"`
	DynamicTensors    int      `json:"dynamic_tensors"`
	Notes             []string `json:"notes"`
}

// WeightsListed reports whether some layer lists a weights blob, so that
// weights_bytes is a sum and not an absence: layers that list none (a
// verbose build log's layer lines, names-only layer info) leave the
// weights unknown, not 0 B.
func (m *Memory) WeightsListed() bool { return m.WeightLayers > 0 || m.WeightsUnknown > 0 }

// Activation is one tensor between layers with its size in its format
// (vectorized formats pad the channel dimension).
type Activation struct {
	Name       string  `json:"name"`
	Bytes      float64 `json:"bytes"`
	Dimensions []int64 `json:"dimensions"`
	Format     string  `json:"format"`
	Producer   int     `json:"producer"` // layer index; -1 for a graph input
}

// Engines are the partition hints of a backend.
type Engines struct {
	EngineFiles   []string    `json:"engine_files"`
	MyelinGraphs  []int       `json:"myelin_graphs"`
	Streams       []int       `json:"streams"`
	Subgraphs     []string    `json:"subgraphs"`
	OptProfiles   []int       `json:"optimization_profiles"`
	Partitions    []Partition `json:"partitions"`
	InferredCount int         `json:"inferred_count"`
	Source        string      `json:"source"` // subgraph, engine_files, single
}

// Record is one profiled layer, referencing its layer by index.
type Record struct {
	Name         string   `json:"name"`
	Layer        int      `json:"layer"` // index into layers, -1 when unmatched
	LayerType    string   `json:"layer_type" contract:"intern"`
	RawLayerType string   `json:"raw_layer_type" contract:"intern"`
	Precision    string   `json:"precision" contract:"intern"`
	InputTypes   []string `json:"input_types" contract:"intern"`
	OutputTypes  []string `json:"output_types" contract:"intern"`
	Tactic       string   `json:"tactic" contract:"intern"`
	TacticFamily string   `json:"tactic_family" contract:"intern"`
	TensorCore   *bool    `json:"tensor_core"` // null: the tactic table has no verdict (unknown, not "no")
	MyelinGraph  *int     `json:"myelin_graph"`
	FusedOps     int      `json:"fused_ops"`
	TimeMs       float64  `json:"time_ms"`
	AvgMs        float64  `json:"avg_ms"`
	MedianMs     *float64 `json:"median_ms"`
	Percentage   float64  `json:"percentage"`
	Tags         []string `json:"tags" contract:"intern"`
	// FLOPs and Bytes are the layer's arithmetic (multiply-add = 2) and the
	// bytes it moves (weights + input and output activations) per
	// inference, computed from its dimensions, weights and tensor shapes
	// for convolutions, deconvolutions, fully connected/GEMM and matrix
	// multiplies; null for other layers or when a number is missing.
	FLOPs *float64 `json:"flops"`
	Bytes *float64 `json:"bytes"`
	// Roofline places the layer on the device's roofline; null without
	// flops or a time (absent in older files).
	Roofline *RecordRoofline `json:"roofline"`
}

// Roofline time bases: the profiled layer average as is, or scaled by the
// profile scale (measured GPU compute median ÷ layer sum) so per-layer
// profiling overhead does not lower the achieved rates.
const (
	RooflineAvgMs        = "avg_ms"
	RooflineAvgMsScaled  = "avg_ms_x_profile_scale"
	RooflineBoundCompute = "compute"
	RooflineBoundMemory  = "memory"
)

// Roofline is a backend's roofline basis and totals.
type Roofline struct {
	// TimeBasis is avg_ms or avg_ms_x_profile_scale; TimeScale the factor
	// applied to every record's avg_ms (1 for avg_ms).
	TimeBasis string  `json:"time_basis"`
	TimeScale float64 `json:"time_scale"`
	// ReferenceSource is the measured time the scale comes from
	// (gpu_compute_median) or layer_sum when unscaled.
	ReferenceSource string `json:"reference_source"`
	// Layers counts records with a roofline; ComputeBound and MemoryBound
	// those with a known bound.
	Layers       int `json:"layers"`
	ComputeBound int `json:"compute_bound"`
	MemoryBound  int `json:"memory_bound"`
	// TimeMs, FLOPs and Bytes sum those records (time on the basis).
	TimeMs float64 `json:"time_ms"`
	FLOPs  float64 `json:"flops"`
	Bytes  float64 `json:"bytes"`
	// AchievedTFLOPS is FLOPs ÷ TimeMs over those records.
	AchievedTFLOPS float64  `json:"achieved_tflops"`
	Notes          []string `json:"notes"`
}

// RecordRoofline is one layer's position on the roofline: rates on the
// backend's roofline time basis and, when the device's memory bandwidth
// and the peak of the layer's precision are known, the attainable
// throughput min(peak, intensity × bandwidth) at its intensity.
type RecordRoofline struct {
	TimeMs         float64  `json:"time_ms"`         // avg_ms × roofline.time_scale
	AchievedTFLOPS float64  `json:"achieved_tflops"` // flops ÷ time (TOP/s for int8)
	AchievedGBs    *float64 `json:"achieved_gbs"`    // bytes ÷ time; null when bytes is 0
	Intensity      *float64 `json:"intensity"`       // flops ÷ bytes (FLOP/byte); null when bytes is 0
	// PeakPrecision names the device peak the layer is held to: fp32,
	// tf32 (FP32 layers on tensor cores), fp16 (also BF16) or int8; "" when
	// the precision has no peak in device.peak_tflops.
	PeakPrecision    string   `json:"peak_precision" contract:"intern"`
	AttainableTFLOPS *float64 `json:"attainable_tflops"`
	Bound            *string  `json:"bound" contract:"intern"` // compute or memory; null when unknown
	PctOfAttainable  *float64 `json:"pct_of_attainable"`
}

// Breakdown is one row of a type, tag or precision breakdown.
type Breakdown struct {
	Name       string  `json:"name"`
	Count      int     `json:"count"`
	TimeMs     float64 `json:"time_ms"` // sum of avg_ms
	Percentage float64 `json:"percentage"`
}

// Concentration says how many layers make a given share of the time.
type Concentration struct {
	Layers50 int `json:"layers_50"`
	Layers80 int `json:"layers_80"`
	Layers90 int `json:"layers_90"`
}

// Finding is one cause with a price: the layers it owns (no layer is owned
// by two findings of a backend), the time a fix would give back, what to
// change and how to check.
type Finding struct {
	ID         string  `json:"id"`
	Title      string  `json:"title"`
	Score      float64 `json:"score"` // recoverable_share / 100 × weight (certainty; less for an accuracy trade-off)
	Confidence string  `json:"confidence"`
	// Share is the owned layers' share of the profiled layer sum, percent.
	Share float64 `json:"share"`
	// RecoverableMs is the estimated time a fix gives back per inference,
	// on the diagnosis reference (measured when available), with its range.
	RecoverableMs     float64 `json:"recoverable_ms"`
	RecoverableLowMs  float64 `json:"recoverable_low_ms"`
	RecoverableHighMs float64 `json:"recoverable_high_ms"`
	RecoverableShare  float64 `json:"recoverable_share"` // percent of diagnosis.reference_ms
	// PriceBasis is "estimate" (owned time × the rule's factor),
	// "sibling_measured" (a measured difference to a sibling build),
	// "model" (the cost model's time of the owned layers as built minus
	// under the change the finding proposes) or "estimate_guessed_kinds"
	// (a profile_only backend: the owned records' measured time × the
	// rule's factor, the records' kinds guessed from their names).
	PriceBasis  string             `json:"price_basis"`
	PriceFactor string             `json:"price_factor"` // how the price was computed, in words
	Action      string             `json:"action"`       // what to change, one sentence
	Evidence    []string           `json:"evidence"`
	Metrics     map[string]float64 `json:"metrics"`
	NextCheck   string             `json:"next_check"`
	Layers      []int              `json:"layers"` // the layers the finding owns, most expensive first
	// Records are the records the finding owns (indexes into records),
	// most expensive first, for a profile_only backend: its records have
	// no layer info, so they, not layers, are what findings own (no
	// record in two findings); Layers then holds the owned records'
	// matched layers (names-only layer info), or nothing. Absent for
	// other backends, whose findings own layers.
	Records []int `json:"records,omitempty"`
	// Parts split the owned layers (the owned records, when Records is
	// set) by the causes the evidence tells apart (standalone Q/DQ, float
	// neighbours, ...): each owned layer or record is in exactly one part
	// and the parts' time_ms sum to metrics.time_ms.
	// Empty when the finding is one part; absent in older files.
	Parts []FindingPart `json:"parts,omitempty"`
	// Places are every place the action names to change (model ops or
	// layers), in full; the action's text names the first few and says
	// how many. Empty when the action names none; absent in older files.
	Places []string `json:"places,omitempty"`
}

// PriceGuessedKinds is the issues[].price_basis of a profile_only
// backend's findings: the owned records' measured time × the rule's
// factor, the records' kinds guessed from their names.
const PriceGuessedKinds = "estimate_guessed_kinds"

// FindingPart is one cause's share of a finding's owned layers.
type FindingPart struct {
	Name   string  `json:"name"`    // what the part is, as the evidence says it
	Layers []int   `json:"layers"`  // owned layers in this part, most expensive first
	TimeMs float64 `json:"time_ms"` // their profiled time (sum of avg_ms)
	// Records are the owned records in this part (indexes into records),
	// most expensive first, when the finding owns records (Finding.Records).
	Records []int `json:"records,omitempty"`
}

// MetricAccuracyTradeoff is the issues[].metrics key (value 1) of a finding
// whose gain needs a narrower precision than the build's (calibration or
// QAT, then an accuracy check); its score is weighted down and renderers
// say which part of diagnosis.recoverable_ms is such a trade-off.
const MetricAccuracyTradeoff = "accuracy_tradeoff"

// Positive is something that is already good, with numbers.
type Positive struct {
	ID       string             `json:"id"`
	Title    string             `json:"title"`
	Evidence []string           `json:"evidence"`
	Metrics  map[string]float64 `json:"metrics"`
}

// Partition is one engine of a multi-engine dump (a `_subgraph` id) or one
// Myelin graph, with its share of the time.
type Partition struct {
	ID         string  `json:"id"`
	Kind       string  `json:"kind"` // subgraph or myelin_graph
	LayerCount int     `json:"layer_count"`
	TimeMs     float64 `json:"time_ms"`
	Percentage float64 `json:"percentage"`
}

// Comparison sets the usable backends of one model side by side, each
// against one baseline (the fastest, or the one chosen with --baseline).
// Null when fewer than two backends have usable timing.
type Comparison struct {
	Baseline       string           `json:"baseline"`        // label every pair is measured against (pair.a)
	BaselineReason string           `json:"baseline_reason"` // "fastest" or "chosen"
	Pairs          []ComparisonPair `json:"pairs"`           // one per other usable backend, in label order
}

// Comparison verdicts: same_engine (identical builds, difference within
// noise), within_noise, b_faster, b_slower.
const (
	VerdictSameEngine  = "same_engine"
	VerdictWithinNoise = "within_noise"
	VerdictBFaster     = "b_faster"
	VerdictBSlower     = "b_slower"
)

// Comparison measures: what a_ms and b_ms are.
const (
	MeasureGPUCompute = "gpu_compute" // measured median GPU compute time per inference (both sides)
	MeasureEndToEnd   = "end_to_end"  // measured median host latency per inference (both sides; HostLatencyWords)
	MeasureLayerSum   = "layer_sum"   // sums of profiled layer averages (both sides)
	MeasurePredicted  = "predicted"   // the cost model's predicted layer sums (both sides; a layer_only side)
)

// ComparisonPair is backend B against backend A. Every millisecond is on
// one measure: per-layer times are the profiled averages scaled by
// a_scale / b_scale (measure ÷ layer sum), so the rows of every breakdown
// and the aligned groups each sum to delta_ms.
type ComparisonPair struct {
	A           string  `json:"a"`
	B           string  `json:"b"`
	Measure     string  `json:"measure"`
	MeasureNote string  `json:"measure_note"` // why this measure when one side had a better one; "" otherwise
	AMs         float64 `json:"a_ms"`
	BMs         float64 `json:"b_ms"`
	DeltaMs     float64 `json:"delta_ms"`     // b_ms − a_ms
	DeltaPct    float64 `json:"delta_pct"`    // delta_ms ÷ a_ms × 100
	BTimeRatio  float64 `json:"b_time_ratio"` // b_ms ÷ a_ms: B takes this many times A's time (1.59: 1.59× slower)
	AScale      float64 `json:"a_scale"`      // a_ms ÷ A's sum of layer averages
	BScale      float64 `json:"b_scale"`
	Noise       Noise   `json:"noise"`
	Verdict     string  `json:"verdict"`
	SameEngine  bool    `json:"same_engine"` // same layers, names, tactics, precisions and formats
	Summary     string  `json:"summary"`     // one sentence: which is faster, by how much, and why
	// Reasons name the largest differences, each with its milliseconds.
	Reasons            []string       `json:"reasons"`
	Alignment          Alignment      `json:"alignment"`
	ByType             []GroupDelta   `json:"by_type"`
	ByPrec             []GroupDelta   `json:"by_precision"`
	ByRegion           []GroupDelta   `json:"by_region"` // Myelin graph or name block; the smallest lumped into "(other regions)"
	Changes            LayerChanges   `json:"changes"`
	OneSided           []OneSidedKind `json:"one_sided"`             // reformats and Q/DQ present on one side only
	Rows               []AlignedRow   `json:"rows"`                  // aligned groups, largest |delta_ms| first, capped
	RowsOmitted        int            `json:"rows_omitted"`          // aligned groups not listed
	RowsOmittedDeltaMs float64        `json:"rows_omitted_delta_ms"` // their delta_ms sum: rows + this = delta_ms
}

// Noise is how large a difference must be to be called real.
type Noise struct {
	Pct   float64  `json:"pct"`   // combined run-to-run noise, percent of a_ms
	Ms    float64  `json:"ms"`    // the same in ms
	APct  float64  `json:"a_pct"` // each side's own estimate
	BPct  float64  `json:"b_pct"`
	Basis []string `json:"basis"` // what the estimates rest on (iterations, percentiles, medians)
}

// Alignment says how the layers of A and B were paired. Counts are of
// profiled layers (records); compute layers exclude reformats, copies,
// Q/DQ, no-ops and shape bookkeeping.
type Alignment struct {
	ALayers           int     `json:"a_layers"`
	BLayers           int     `json:"b_layers"`
	Matched           int     `json:"matched"`   // one-to-one groups
	Split             int     `json:"split"`     // groups of one A layer and several B layers
	Merged            int     `json:"merged"`    // groups of several A layers and one B layer
	Regrouped         int     `json:"regrouped"` // groups of several on both sides
	OnlyA             int     `json:"only_a"`    // A layers without counterpart
	OnlyB             int     `json:"only_b"`
	ByName            int     `json:"by_name"`      // A layers aligned by name
	BySourceOp        int     `json:"by_source_op"` // by source ops (metadata, fused-name parts, weights)
	ByStructure       int     `json:"by_structure"` // by type, shapes and position
	AComputeLayers    int     `json:"a_compute_layers"`
	BComputeLayers    int     `json:"b_compute_layers"`
	ComputeAligned    int     `json:"compute_aligned"`     // compute layers of A and B in any group with the other side
	ComputeAlignedPct float64 `json:"compute_aligned_pct"` // compute_aligned ÷ (a+b compute layers) × 100
}

// GroupDelta is one row of a per-type, per-precision or per-region delta.
type GroupDelta struct {
	Name    string  `json:"name"`
	ACount  int     `json:"a_count"`
	BCount  int     `json:"b_count"`
	AMs     float64 `json:"a_ms"`
	BMs     float64 `json:"b_ms"`
	DeltaMs float64 `json:"delta_ms"`
}

// LayerChanges counts matched layer pairs whose build choices differ.
type LayerChanges struct {
	Tactic     int `json:"tactic"`      // tactic family differs
	TensorCore int `json:"tensor_core"` // moved on or off tensor cores
	Precision  int `json:"precision"`
	Format     int `json:"format"` // output layout/data type differs
}

// OneSidedKind is the reformats or Q/DQ layers one side runs and the other
// does not (not aligned with anything).
type OneSidedKind struct {
	Side  string  `json:"side"` // "a" or "b"
	Kind  string  `json:"kind"` // "qdq" or "reformat"
	Count int     `json:"count"`
	Ms    float64 `json:"ms"`
}

// AlignedRow is one aligned group: layers of A and B that do the same work.
type AlignedRow struct {
	Kind       string   `json:"kind"`       // matched, split, merged, regrouped, only_a, only_b
	Stage      string   `json:"stage"`      // name, source_op, structure, none
	Confidence float64  `json:"confidence"` // 0..1
	Reason     string   `json:"reason"`
	ALayers    []int    `json:"a_layers"` // layer indexes into A's layers
	BLayers    []int    `json:"b_layers"`
	AName      string   `json:"a_name"` // first A layer's name ("" when none)
	BName      string   `json:"b_name"`
	Type       string   `json:"type"` // derived layer type of the first layer (A's, else B's)
	Region     string   `json:"region"`
	AMs        float64  `json:"a_ms"`
	BMs        float64  `json:"b_ms"`
	DeltaMs    float64  `json:"delta_ms"`
	Changes    []string `json:"changes"` // tactic, precision and format changes of a matched pair
}

// RowComparison compares the rows two per-layer tables share when at least
// one of them is partial (WhyNotComparable: its rows hold too little of
// its time to stand for the engine): only rows present in both, one by
// one. It says nothing of the engines' speed: a_ms and b_ms are sums of
// these rows alone.
type RowComparison struct {
	A string `json:"a"` // the side whose shared rows take less time
	B string `json:"b"`
	// Why is why the engines themselves are not compared.
	Why  string      `json:"why"`
	Rows []SharedRow `json:"rows"` // a's record order
	// AMs and BMs are the sums of the rows' a_ms and b_ms.
	AMs        float64 `json:"a_ms"`
	BMs        float64 `json:"b_ms"`
	DeltaMs    float64 `json:"delta_ms"`     // b_ms − a_ms
	BTimeRatio float64 `json:"b_time_ratio"` // b_ms ÷ a_ms
	// OnlyA and OnlyB are the timed records of each table with no
	// counterpart in the other (indexes into records), largest first: in
	// the other paste's rows, which may hold only part of its engine.
	OnlyA   []int   `json:"only_a"`
	OnlyB   []int   `json:"only_b"`
	OnlyAMs float64 `json:"only_a_ms"`
	OnlyBMs float64 `json:"only_b_ms"`
	Summary string  `json:"summary"` // one sentence, saying it compares these rows only
}

// How a shared row was found in both tables.
const (
	RowMatchName = "name" // the same layer name (Myelin kernel numbering aside)
	RowMatchOp   = "op"   // the only timed rows of each table naming one operation
)

// SharedRow is one record of each table doing the same work.
type SharedRow struct {
	ARecord    int     `json:"a_record"` // index into a's records
	BRecord    int     `json:"b_record"`
	AName      string  `json:"a_name"`
	BName      string  `json:"b_name"`
	Match      string  `json:"match"` // name or op
	Op         string  `json:"op"`    // the operation both name (match op); "" otherwise
	AMs        float64 `json:"a_ms"`  // a's record avg_ms
	BMs        float64 `json:"b_ms"`
	DeltaMs    float64 `json:"delta_ms"`
	BTimeRatio float64 `json:"b_time_ratio"`
}
