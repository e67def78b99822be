package trtexecflags

// Provenance. Every row below was read from the option parser of trtexec,
// samples/common/sampleOptions.cpp (BuildOptions/SystemOptions/
// InferenceOptions/ReportingOptions/TuningOptions::parse and the helpers
// they call, stopping before SafeBuilderOptions::parse, which belongs to
// the safety tool, not trtexec), in github.com/NVIDIA/TensorRT at these
// refs: v7.0.0, 7.1.3, 7.2.1, 8.0.1, 8.2.0-EA, 8.2.1, 8.4.1, 8.4.3, 8.5.1,
// 8.5.2, 8.5.3, v8.6.0, v8.6.1, v9.1.0 (its sampleOptions.cpp is the one
// of commit f3cd7b6a "TensorRT OSS 9.0.1 Release", so 9.0 = 9.1), commit
// 2686201b "TensorRT 9.2 updates" (unchanged at v9.3.0, so 9.2 = 9.3),
// v10.0.0, v10.0.1, v10.1.0 … v10.13.0, v10.13.2, v10.13.3, v10.14,
// v10.15, v10.16, v11.0 and v11.1. The tag v9.2.0 was NOT used: it points
// at 8.6.1 code (its NvInferVersion.h says 8.6.1). trtexec.cpp of each
// tag confirms that options left over after parsing are fatal ("Unknown
// option: …") and that argsToArgumentsMap splits each argv entry at its
// first '=' (so a value is only ever given as --flag=value).
//
// Not listed on purpose: --strictTypes (only in 8.2.0 EA, replaced by
// --precisionConstraints in 8.2 GA), --safetyPlugins (compiled only with
// ENABLE_UNIFIED_BUILDER), --serialized and --std (safety builder only),
// --layerPrecision (appears only inside a warning message). There has
// never been a --tf32 option: TF32 is on by default and --noTF32 turns it
// off.

// ValueKind says what follows '=' in an option.
type ValueKind uint8

const (
	// Switch options take no value. trtexec ignores anything after '='
	// and turns the option on (so --fp16=false enables FP16).
	Switch ValueKind = iota
	// Text is any non-empty string: a file, a directory, a name list.
	Text
	// OptionalText may be given as --flag or --flag=text.
	OptionalText
	// Int is a decimal integer (trtexec uses std::stoi).
	Int
	// Number is a decimal number (std::stof/std::stod).
	Number
	// Numbers is a comma-separated list of Numbers.
	Numbers
	// Enum is one word of Words.
	Enum
	// Toggles is a comma-separated list of +word or -word.
	Toggles
	// IOFormats is a comma-separated list of type:format[+format]; from
	// TensorRT 11.0 it is format[+format] (no type).
	IOFormats
	// Shapes is a comma-separated list of name:dims, dims = NxNx… (or
	// "scalar" from 10.0).
	Shapes
	// LayerTypes is a comma-separated list of layerName:type.
	LayerTypes
	// LayerOutputTypes is a comma-separated list of layerName:type[+type].
	LayerOutputTypes
	// LayerDevices is a comma-separated list of layerName:GPU|DLA.
	LayerDevices
	// MemPools is a comma-separated list of pool:size, pool one of Words.
	MemPools
)

var kindNames = [...]string{"switch", "text", "optional text", "integer", "number", "numbers", "enum", "toggles", "I/O formats", "shapes", "layer types", "layer output types", "layer devices", "memory pools"}

func (k ValueKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// ValueSpec is how an option's value is read from release Since on (until
// the next ValueSpec of the same option).
type ValueSpec struct {
	Since Version
	Kind  ValueKind
	// Words are the accepted words of an Enum, Toggles or MemPools value.
	Words []string
	// Deprecated words are still accepted, with a warning from trtexec.
	Deprecated []string
	// Fold means trtexec compares words case-insensitively.
	Fold bool
	// Units means a size may end in B, K, M or G (MemPools from 10.0).
	Units bool
}

// Span is the releases From ≤ v < To.
type Span struct{ From, To Version }

// Flag is one trtexec option. Treat values returned by Lookup as
// read-only.
type Flag struct {
	Name string
	// Added is the first release whose trtexec has the option. 7.0 means
	// "7.0 or earlier": 7.0.0 is the oldest source read.
	Added Version
	// Removed is the first release without it; zero if still present in
	// the newest release read (Latest).
	Removed Version
	// Absent lists releases between Added and Removed that lack it.
	Absent []Span
	// Deprecated is the release from which trtexec warns that the option
	// is deprecated (it still works); Instead says what to use.
	Deprecated Version
	Instead    string
	// Repeatable options may be given more than once (trtexec reads them
	// in a loop); any other option given twice is an error.
	Repeatable bool
	// Values says how the value is read; empty means Switch.
	Values []ValueSpec
}

// In reports whether release v's trtexec has the option.
func (f *Flag) In(v Version) bool {
	if v.Less(f.Added) || (!f.Removed.IsZero() && !v.Less(f.Removed)) {
		return false
	}
	for _, s := range f.Absent {
		if !v.Less(s.From) && v.Less(s.To) {
			return false
		}
	}
	return true
}

// Span is the releases from the option's first to its last (zero Hi
// while it is still accepted), for advice that says when it exists.
func (f *Flag) Span() Range {
	r := Range{Lo: f.Added}
	if !f.Removed.IsZero() {
		for _, v := range Releases {
			if v.Less(f.Removed) {
				r.Hi = v
			}
		}
	}
	return r
}

// Value returns how release v reads the option's value.
func (f *Flag) Value(v Version) ValueSpec {
	spec := ValueSpec{Kind: Switch}
	for _, s := range f.Values {
		if !v.Less(s.Since) {
			spec = s
		}
	}
	return spec
}

// Oldest and Latest bound the releases whose trtexec source was read.
var (
	Oldest = V(7, 0)
	Latest = V(11, 1)
)

// Releases are the releases whose option set was read (a minor release
// without a tag of its own — 9.1, 9.3 — uses the sampleOptions.cpp it
// shipped, see Provenance above). CheckCommand with an unknown version
// tests every one of them from 8.0 on.
var Releases = []Version{
	V(7, 0), V(7, 1), V(7, 2), V(8, 0), V(8, 2), V(8, 4), V(8, 5), V(8, 6),
	V(9, 0), V(9, 1), V(9, 2), V(9, 3),
	V(10, 0), V(10, 1), V(10, 2), V(10, 3), V(10, 4), V(10, 5), V(10, 6), V(10, 7), V(10, 8),
	V(10, 9), V(10, 10), V(10, 11), V(10, 12), V(10, 13), V(10, 14), V(10, 15), V(10, 16),
	V(11, 0), V(11, 1),
}

// word is a vocabulary entry with the releases that accept it.
type word struct {
	name           string
	added, removed Version
}

func wordsAt(ws []word, v Version) []string {
	var out []string
	for _, w := range ws {
		if !v.Less(w.added) && (w.removed.IsZero() || v.Less(w.removed)) {
			out = append(out, w.name)
		}
	}
	return out
}

// dataTypes are the type words of stringToValue<nvinfer1::DataType>
// (used by --inputIOFormats/--outputIOFormats before 11.0 and by the
// --layer* options). Removed in 11.0 together with those uses.
var dataTypes = []word{
	{"fp32", V(7, 0), V(11, 0)}, {"fp16", V(7, 0), V(11, 0)}, {"int8", V(7, 0), V(11, 0)}, {"int32", V(7, 0), V(11, 0)},
	{"fp8", V(8, 6), V(11, 0)},
	{"bf16", V(9, 0), V(11, 0)}, {"bool", V(9, 0), V(11, 0)}, {"int64", V(9, 0), V(11, 0)}, {"uint8", V(9, 0), V(11, 0)},
	{"int4", V(10, 1), V(11, 0)},
}

// tensorFormats are the words of stringToValue<nvinfer1::TensorFormats>.
var tensorFormats = []word{
	{"chw", V(7, 0), Version{}}, {"chw2", V(7, 0), Version{}}, {"chw4", V(7, 0), Version{}},
	{"hwc8", V(7, 0), Version{}}, {"chw16", V(7, 0), Version{}}, {"chw32", V(7, 0), Version{}},
	{"dhwc8", V(7, 2), Version{}}, {"hwc", V(7, 2), Version{}},
	{"dla_linear", V(8, 0), Version{}}, {"dla_hwc4", V(8, 0), Version{}},
	{"cdhw32", V(8, 4), Version{}},
	{"dhwc", V(8, 6), Version{}},
	{"hwc16", V(10, 10), Version{}},
}

// deviceTypes are the words of stringToValue<nvinfer1::DeviceType>.
var deviceTypes = []string{"GPU", "DLA"}

func vals(k ValueKind) []ValueSpec { return []ValueSpec{{Kind: k}} }

func enum(words ...string) ValueSpec { return ValueSpec{Kind: Enum, Words: words} }

// verbosity is --profilingVerbosity (and --nvtxMode, which reads the same
// string from 8.2) as parsed from 8.2 on.
var verbosity = ValueSpec{Since: V(8, 2), Kind: Enum, Words: []string{"layer_names_only", "detailed", "none"}, Deprecated: []string{"default", "verbose"}}

var shapes = vals(Shapes)

// table is the one list of trtexec options, sorted by name.
var table = []Flag{
	{Name: "--accuracyAlgorithm", Added: V(11, 1), Values: vals(Text)},
	{Name: "--accuracyThreshold", Added: V(11, 1), Values: vals(Number)},
	{Name: "--adjustForDLA", Added: V(10, 16)},
	{Name: "--allocationStrategy", Added: V(10, 0), Values: []ValueSpec{enum("static", "profile", "runtime")}},
	{Name: "--allowGPUFallback", Added: V(7, 0)},
	{Name: "--allowWeightStreaming", Added: V(10, 0)},
	{Name: "--asyncFileReader", Added: V(10, 7)},
	{Name: "--atol", Added: V(11, 1), Values: vals(Number)},
	{Name: "--avgRuns", Added: V(7, 0), Values: vals(Int)},
	{Name: "--avgTiming", Added: V(7, 0), Values: vals(Int)},
	{Name: "--batch", Added: V(7, 0), Removed: V(9, 0), Values: vals(Int), Instead: "explicit-batch networks take the batch in --shapes"},
	{Name: "--best", Added: V(7, 1), Removed: V(11, 0), Instead: "TensorRT 11 builds strongly typed networks: put the precision in the model"},
	{Name: "--bf16", Added: V(9, 0), Removed: V(11, 0), Instead: "TensorRT 11 builds strongly typed networks: put the precision in the model"},
	{Name: "--buildDLAStandalone", Added: V(8, 6)}, // first in v8.6.1 (GA); absent in the v8.6.0 EA tag
	{Name: "--buildOnly", Added: V(7, 0), Removed: V(10, 0), Deprecated: V(8, 6), Instead: "--skipInference"},
	{Name: "--builderOptimizationLevel", Added: V(8, 6), Values: vals(Int)},
	{Name: "--calib", Added: V(7, 0), Removed: V(11, 0), Values: vals(Text)},
	{Name: "--calibProfile", Added: V(9, 0), Removed: V(11, 0), Values: vals(Int)},
	{Name: "--consistency", Added: V(8, 2), Absent: []Span{{V(10, 4), V(10, 13)}}},
	{Name: "--continue", Added: V(11, 1)},
	{Name: "--cpuOnly", Added: V(10, 15)},
	{Name: "--decomposableAttentions", Added: V(10, 14), Values: vals(Text)},
	{Name: "--deploy", Added: V(7, 0), Removed: V(9, 0), Values: vals(Text), Instead: "Caffe models are no longer supported; convert to ONNX and use --onnx"},
	{Name: "--device", Added: V(7, 0), Values: vals(Int)},
	{Name: "--directIO", Added: V(8, 2), Deprecated: V(10, 7), Instead: "--inputIOFormats/--outputIOFormats to pick the I/O formats (trtexec gives no replacement)"},
	{Name: "--distributiveIndependence", Added: V(10, 12)},
	{Name: "--dryRun", Added: V(11, 1)},
	{Name: "--dumpKernelText", Added: V(10, 13)},
	{Name: "--dumpLayerInfo", Added: V(8, 2)},
	{Name: "--dumpOptimizationProfile", Added: V(9, 0)},
	{Name: "--dumpOutput", Added: V(7, 0)},
	{Name: "--dumpProfile", Added: V(7, 0)},
	{Name: "--dumpRawBindingsToFile", Added: V(8, 6)},
	{Name: "--dumpRefit", Added: V(7, 2)},
	{Name: "--duration", Added: V(7, 0), Values: []ValueSpec{{Kind: Int}, {Since: V(8, 4), Kind: Number}}},
	{Name: "--dynamicPlugins", Added: V(8, 6), Repeatable: true, Values: vals(Text)},
	{Name: "--enablePluginOverride", Added: V(10, 15)},
	{Name: "--errorOnTimingCacheMiss", Added: V(9, 0)},
	{Name: "--excludeLeanRuntime", Added: V(8, 6)},
	{Name: "--explicitBatch", Added: V(7, 0), Removed: V(10, 0), Deprecated: V(8, 2), Instead: "nothing: networks are explicit-batch by default"},
	{Name: "--explicitPrecision", Added: V(8, 0), Removed: V(10, 0), Deprecated: V(8, 2), Instead: "nothing: the option had no effect from 8.2"},
	{Name: "--exportLayerInfo", Added: V(8, 2), Values: vals(Text)},
	{Name: "--exportOutput", Added: V(7, 0), Values: vals(Text)},
	{Name: "--exportProfile", Added: V(7, 0), Values: vals(Text)},
	{Name: "--exportTimes", Added: V(7, 0), Values: vals(Text)},
	{Name: "--exposeDMA", Added: V(7, 0)},
	{Name: "--fp16", Added: V(7, 0), Removed: V(11, 0), Instead: "TensorRT 11 builds strongly typed networks: put the precision in the model"},
	{Name: "--fp8", Added: V(8, 6), Removed: V(11, 0), Instead: "TensorRT 11 builds strongly typed networks: put the precision in the model"},
	{Name: "--getPlanVersionOnly", Added: V(9, 0)},
	{Name: "--hardwareCompatibilityLevel", Added: V(8, 6), Values: []ValueSpec{
		{Since: V(8, 6), Kind: Enum, Words: []string{"none", "ampere+"}, Fold: true},
		{Since: V(10, 9), Kind: Enum, Words: []string{"none", "ampere+", "sameComputeCapability"}, Fold: true},
	}},
	{Name: "--help", Added: V(7, 0)},
	{Name: "--helpBuildRoute", Added: V(11, 1), Values: vals(OptionalText)},
	{Name: "--heuristic", Added: V(8, 5), Removed: V(10, 0), Deprecated: V(8, 6), Instead: "--builderOptimizationLevel"},
	{Name: "--idleTime", Added: V(8, 2), Values: []ValueSpec{{Kind: Int}, {Since: V(8, 4), Kind: Number}}},
	{Name: "--ignoreParsedPluginLibs", Added: V(8, 6)},
	{Name: "--includeDataTransfers", Added: V(11, 0)},
	{Name: "--infStreams", Added: V(8, 6), Values: vals(Int)},
	{Name: "--inputIOFormats", Added: V(7, 0), Values: vals(IOFormats)},
	{Name: "--int4", Added: V(10, 1), Removed: V(11, 0), Instead: "TensorRT 11 builds strongly typed networks: put the precision in the model"},
	{Name: "--int8", Added: V(7, 0), Removed: V(11, 0), Instead: "TensorRT 11 builds strongly typed networks: put the precision in the model"},
	{Name: "--iterations", Added: V(7, 0), Values: vals(Int)},
	{Name: "--l2LimitForTiling", Added: V(10, 8), Values: vals(Int)},
	{Name: "--layerDeviceTypes", Added: V(8, 6), Values: vals(LayerDevices)},
	{Name: "--layerOutputTypes", Added: V(8, 4), Removed: V(11, 0), Values: vals(LayerOutputTypes), Instead: "TensorRT 11 builds strongly typed networks: put the types in the model"},
	{Name: "--layerPrecisions", Added: V(8, 4), Removed: V(11, 0), Values: vals(LayerTypes), Instead: "TensorRT 11 builds strongly typed networks: put the precision in the model"},
	{Name: "--leanDLLPath", Added: V(8, 6), Values: vals(Text)},
	{Name: "--loadEngine", Added: V(7, 0), Values: vals(Text)},
	{Name: "--loadInputs", Added: V(7, 0), Values: vals(Text)},
	{Name: "--loadRefOutputs", Added: V(11, 1), Values: vals(Text)},
	{Name: "--markDebug", Added: V(10, 0), Values: vals(Text)},
	{Name: "--markUnfusedTensorsAsDebugTensors", Added: V(10, 12)},
	{Name: "--maxAuxStreams", Added: V(8, 6), Values: vals(Int)},
	{Name: "--maxBatch", Added: V(7, 0), Removed: V(9, 0), Values: vals(Int), Instead: "explicit-batch networks take the batch in --minShapes/--optShapes/--maxShapes"},
	{Name: "--maxShapes", Added: V(7, 0), Values: shapes},
	{Name: "--maxShapesCalib", Added: V(7, 1), Removed: V(11, 0), Values: shapes},
	{Name: "--maxTactics", Added: V(10, 4), Values: vals(Int)},
	{Name: "--memPoolSize", Added: V(8, 4), Values: []ValueSpec{
		{Since: V(8, 4), Kind: MemPools, Words: []string{"workspace", "dlaSRAM", "dlaLocalDRAM", "dlaGlobalDRAM"}},
		{Since: V(10, 0), Kind: MemPools, Words: []string{"workspace", "dlaSRAM", "dlaLocalDRAM", "dlaGlobalDRAM", "tacticSharedMem"}, Units: true},
	}},
	{Name: "--minShapes", Added: V(7, 0), Values: shapes},
	{Name: "--minShapesCalib", Added: V(7, 1), Removed: V(11, 0), Values: shapes},
	{Name: "--minTiming", Added: V(7, 0), Removed: V(10, 0), Values: vals(Int)},
	{Name: "--model", Added: V(7, 0), Removed: V(9, 0), Values: vals(Text), Instead: "Caffe models are no longer supported; convert to ONNX and use --onnx"},
	{Name: "--monitorMemory", Added: V(10, 6)},
	// --nativeInstanceNorm/--ni: not in the v8.6.0/v8.6.1 tags (May 2023)
	// of NVIDIA/TensorRT, added to the 8.6.1 samples by "Mass integration
	// for 23.08 release" (commit 0c672f03, NvInferVersion.h 8.6.1, whose
	// build options print "ONNX Native InstanceNorm"; 8.6 console logs
	// print that line), kept through 9.3, gone in v10.0.0.
	{Name: "--nativeInstanceNorm", Added: V(8, 6), Removed: V(10, 0), Instead: "native InstanceNorm is the default from 10.0 (--pluginInstanceNorm selects the plugin)"},
	{Name: "--ni", Added: V(8, 6), Removed: V(10, 0), Instead: "native InstanceNorm is the default from 10.0 (--pluginInstanceNorm selects the plugin)"},
	{Name: "--noBuilderCache", Added: V(7, 1)},
	{Name: "--noCompilationCache", Added: V(9, 0)},
	{Name: "--noCudaGraph", Added: V(11, 0)},
	{Name: "--noDataTransfers", Added: V(7, 2), Deprecated: V(11, 0), Instead: "nothing: 11.0 skips data transfers by default (--includeDataTransfers turns them on)"},
	{Name: "--noSpinWait", Added: V(11, 0)},
	{Name: "--noTF32", Added: V(7, 1)},
	{Name: "--nvtxMode", Added: V(7, 1), Removed: V(10, 0), Deprecated: V(8, 2), Instead: "--profilingVerbosity", Values: []ValueSpec{
		{Since: V(7, 1), Kind: Enum, Words: []string{"default", "verbose", "none"}},
		verbosity,
	}},
	{Name: "--onnx", Added: V(7, 0), Values: vals(Text)},
	{Name: "--optShapes", Added: V(7, 0), Values: shapes},
	{Name: "--optShapesCalib", Added: V(7, 1), Removed: V(11, 0), Values: shapes},
	{Name: "--output", Added: V(7, 0), Removed: V(9, 0), Repeatable: true, Values: vals(Text), Instead: "only UFF/Caffe models needed output names"},
	{Name: "--outputIOFormats", Added: V(7, 0), Values: vals(IOFormats)},
	{Name: "--percentile", Added: V(7, 0), Values: []ValueSpec{{Kind: Number}, {Since: V(8, 5), Kind: Numbers}}},
	{Name: "--persistentCacheRatio", Added: V(8, 5), Values: vals(Number)},
	{Name: "--pi", Added: V(10, 0)},
	{Name: "--pluginInstanceNorm", Added: V(10, 0)},
	{Name: "--plugins", Added: V(7, 0), Repeatable: true, Deprecated: V(8, 6), Instead: "--staticPlugins", Values: vals(Text)},
	{Name: "--precisionConstraints", Added: V(8, 2), Removed: V(11, 0), Values: []ValueSpec{enum("none", "prefer", "obey")}, Instead: "TensorRT 11 builds strongly typed networks: put the precision in the model"},
	{Name: "--preview", Added: V(8, 5), Values: []ValueSpec{
		{Since: V(8, 5), Kind: Toggles, Words: []string{"fasterDynamicShapes0805", "disableExternalTacticSourcesForCore0805"}},
		{Since: V(8, 6), Kind: Toggles, Words: []string{"fasterDynamicShapes0805", "disableExternalTacticSourcesForCore0805", "profileSharing0806"}},
		{Since: V(10, 0), Kind: Toggles, Deprecated: []string{"profileSharing0806"}},
		{Since: V(10, 3), Kind: Toggles, Words: []string{"aliasedPluginIO1003"}, Deprecated: []string{"profileSharing0806"}},
		{Since: V(10, 10), Kind: Toggles, Words: []string{"aliasedPluginIO1003", "runtimeActivationResize"}, Deprecated: []string{"profileSharing0806"}},
		{Since: V(10, 16), Kind: Toggles, Words: []string{"aliasedPluginIO1003", "runtimeActivationResize", "multiDeviceRuntime"}, Deprecated: []string{"profileSharing0806"}},
		{Since: V(11, 0), Kind: Toggles, Words: []string{"aliasedPluginIO1003", "runtimeActivationResize"}},
	}},
	{Name: "--profile", Added: V(9, 0), Repeatable: true, Values: vals(Int)},
	{Name: "--profilingVerbosity", Added: V(8, 2), Values: []ValueSpec{verbosity}},
	{Name: "--refPair", Added: V(11, 1), Values: vals(Int)},
	{Name: "--refit", Added: V(7, 2)},
	{Name: "--refitFromOnnx", Added: V(10, 14), Values: vals(Text)},
	{Name: "--remoteAutoTuningConfig", Added: V(10, 13), Values: vals(Text)},
	{Name: "--reportCapabilityDLA", Added: V(10, 16)},
	{Name: "--restricted", Added: V(8, 2), Removed: V(11, 0)},
	{Name: "--rtol", Added: V(11, 1), Values: vals(Number)},
	{Name: "--runtimePlatform", Added: V(10, 2), Values: []ValueSpec{enum("SameAsBuild", "WindowsAMD64")}},
	{Name: "--safe", Added: V(7, 0)},
	{Name: "--saveAllDebugTensors", Added: V(10, 12), Values: vals(Text)},
	{Name: "--saveAllEngines", Added: V(11, 1)},
	{Name: "--saveDebugTensors", Added: V(10, 0), Values: vals(Text)},
	{Name: "--saveEngine", Added: V(7, 0), Values: vals(Text)},
	{Name: "--separateProfileRun", Added: V(7, 2), Deprecated: V(11, 0), Instead: "nothing: 11.0 always profiles in a separate run"},
	{Name: "--setBuildRoute", Added: V(11, 1), Values: vals(Text)},
	{Name: "--setPluginsToSerialize", Added: V(8, 6), Repeatable: true, Values: vals(Text)},
	{Name: "--shapes", Added: V(7, 0), Values: shapes},
	{Name: "--skipInference", Added: V(8, 6)},
	{Name: "--sleepTime", Added: V(7, 0), Values: []ValueSpec{{Kind: Int}, {Since: V(8, 4), Kind: Number}}},
	{Name: "--sparsity", Added: V(8, 0), Values: []ValueSpec{
		enum("disable", "enable", "force"),
		{Since: V(9, 0), Kind: Enum, Words: []string{"disable", "enable"}, Deprecated: []string{"force"}},
	}},
	{Name: "--staticPlugins", Added: V(8, 6), Repeatable: true, Values: vals(Text)},
	{Name: "--streams", Added: V(7, 0), Deprecated: V(8, 6), Instead: "--infStreams", Values: vals(Int)},
	{Name: "--stripAllWeights", Added: V(10, 1)},
	{Name: "--stripWeights", Added: V(10, 0)},
	{Name: "--stronglyTyped", Added: V(9, 0), Deprecated: V(11, 0), Instead: "nothing: 11.0 builds strongly typed networks by default"},
	{Name: "--tacticSources", Added: V(7, 2), Values: []ValueSpec{
		{Since: V(7, 2), Kind: Toggles, Words: []string{"cublas", "cublasLt"}},
		{Since: V(8, 0), Kind: Toggles, Words: []string{"CUBLAS", "CUBLAS_LT", "CUBLASLT", "CUDNN"}, Fold: true},
		{Since: V(8, 4), Kind: Toggles, Words: []string{"CUBLAS", "CUBLAS_LT", "CUBLASLT", "CUDNN", "EDGE_MASK_CONVOLUTIONS"}, Fold: true},
		{Since: V(8, 5), Kind: Toggles, Words: []string{"CUBLAS", "CUBLAS_LT", "CUBLASLT", "CUDNN", "EDGE_MASK_CONVOLUTIONS", "JIT_CONVOLUTIONS"}, Fold: true},
		{Since: V(11, 0), Kind: Toggles, Words: []string{"EDGE_MASK_CONVOLUTIONS", "JIT_CONVOLUTIONS"}, Fold: true},
	}},
	{Name: "--tempdir", Added: V(8, 6), Values: vals(Text)},
	{Name: "--tempfileControls", Added: V(8, 6), Values: vals(Text)},
	{Name: "--threads", Added: V(7, 0)},
	{Name: "--tilingOptimizationLevel", Added: V(10, 8), Values: vals(Int)},
	{Name: "--timeDeserialize", Added: V(8, 0)},
	{Name: "--timeRefit", Added: V(8, 0)},
	{Name: "--timingCacheFile", Added: V(8, 0), Values: vals(Text)},
	{Name: "--tuneBuildRouteFile", Added: V(11, 1), Values: vals(Text)},
	{Name: "--tuneBuildRoutes", Added: V(11, 1), Values: vals(Text)},
	{Name: "--tuningCacheFile", Added: V(11, 1), Values: vals(Text)},
	{Name: "--tuningResultFile", Added: V(11, 1), Values: vals(Text)},
	{Name: "--tuningSearch", Added: V(11, 1), Values: vals(Text)},
	{Name: "--tuningTimeOut", Added: V(11, 1), Values: vals(Int)},
	{Name: "--uff", Added: V(7, 0), Removed: V(9, 0), Values: vals(Text), Instead: "UFF models are no longer supported; convert to ONNX and use --onnx"},
	{Name: "--uffInput", Added: V(7, 0), Removed: V(9, 0), Repeatable: true, Values: vals(Text), Instead: "UFF models are no longer supported"},
	{Name: "--uffNHWC", Added: V(7, 0), Removed: V(9, 0), Instead: "UFF models are no longer supported"},
	{Name: "--uint8AsymmetricQuantizationDLA", Added: V(10, 11)},
	{Name: "--useCudaGraph", Added: V(7, 0), Deprecated: V(11, 0), Instead: "nothing: 11.0 uses CUDA graphs by default (--noCudaGraph turns them off)"},
	{Name: "--useDLACore", Added: V(7, 0), Values: vals(Int)},
	{Name: "--useManagedMemory", Added: V(8, 2)},
	{Name: "--useProfile", Added: V(9, 0), Values: vals(Int)},
	{Name: "--useRuntime", Added: V(8, 6), Values: []ValueSpec{enum("full", "dispatch", "lean")}},
	{Name: "--useSpinWait", Added: V(7, 0), Deprecated: V(11, 0), Instead: "nothing: 11.0 spin-waits by default (--noSpinWait turns it off)"},
	{Name: "--vc", Added: V(8, 6)},
	{Name: "--verbose", Added: V(7, 0)},
	{Name: "--versionCompatible", Added: V(8, 6)},
	{Name: "--warmUp", Added: V(7, 0), Values: []ValueSpec{{Kind: Int}, {Since: V(8, 4), Kind: Number}}},
	{Name: "--weightStreamingBudget", Added: V(10, 0), Values: vals(Text)},
	{Name: "--weightless", Added: V(9, 2), Removed: V(11, 0), Deprecated: V(10, 0), Instead: "--stripWeights"},
	{Name: "--workspace", Added: V(7, 0), Removed: V(10, 0), Deprecated: V(8, 4), Instead: "--memPoolSize=workspace:<MiB>", Values: []ValueSpec{{Kind: Int}, {Since: V(8, 4), Kind: Number}}},
	{Name: "-h", Added: V(7, 1)},
}

var byName = func() map[string]*Flag {
	m := make(map[string]*Flag, len(table))
	for i := range table {
		m[table[i].Name] = &table[i]
	}
	return m
}()

// Lookup returns the option named name ("--fp16"; a "=value" suffix is
// ignored). The Flag shares its slices with the table: do not modify it.
func Lookup(name string) (Flag, bool) {
	if i := indexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	f, ok := byName[name]
	if !ok {
		return Flag{}, false
	}
	return *f, true
}

// Flags returns the names of the options release v's trtexec accepts, in
// table order. For the zero Version it returns every option present in
// every release from 8.0 on.
func Flags(v Version) []string {
	var out []string
	for i := range table {
		f := &table[i]
		if v.IsZero() {
			if presentEverywhere(f) {
				out = append(out, f.Name)
			}
			continue
		}
		if f.In(v) {
			out = append(out, f.Name)
		}
	}
	return out
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
