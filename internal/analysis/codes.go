package analysis

// Stable validation message codes. Scripts and agents key on these; change
// the wording of a message freely, never its code.
const (
	CodeNamesOnly            = "names_only_layer_info"
	CodeMissingLayerInfo     = "missing_layer_info"
	CodeNoProfile            = "no_profile"
	CodeNoLayers             = "no_layers"
	CodeEmptyProfile         = "empty_profile"
	CodeBadTimes             = "profile_bad_times"
	CodeNameMismatch         = "name_mismatch"
	CodeNotDAG               = "graph_not_dag"
	CodeInputProduced        = "graph_input_produced"
	CodeAmbiguousTensor      = "ambiguous_tensor"
	CodePercentageSum        = "percentage_sum"
	CodeTimeAvgCount         = "time_average_count_mismatch"
	CodeAllZeroTimes         = "all_zero_times"
	CodeZeroTimeLayers       = "zero_time_layers"
	CodeOptProfilesSetAside  = "optimization_profiles_set_aside"
	CodeSubgraphs            = "multiple_engines"
	CodeCountInferred        = "count_inferred"
	CodeCountUnknown         = "count_unknown"
	CodeProfileSourceLatency = "profile_from_latency_samples"
	// CodeProfileSourceTable: the profile is a user's own table (name → ms,
	// records in any naming, CSV); the message says its shape and unit.
	CodeProfileSourceTable = "profile_from_user_table"
	CodeDuplicateNames     = "repeated_layer_names"
	CodeIgnoredFile        = "ignored_file"
	CodeFewSamples         = "measured_few_samples"
	CodeMeasuredSources    = "measured_sources_disagree"
	CodeSeveralRuns        = "companion_several_runs"
	CodeParamsNormalised   = "layer_parameters_normalised"
	CodeProfileFromLog     = "profile_from_log_table"
	CodeLayerInfoFromLog   = "layer_info_from_log"
	CodeLogWithoutLayers   = "log_without_per_layer_data"
	// CodeDeviceContradicted: the device facts a file gives (a trtexec log,
	// device metadata) disagree with the backend's kernels or measured
	// layer rates; the message names the evidence.
	CodeDeviceContradicted = "device_contradicted"
	// CodeVersionRange: the file formats disagree on the TensorRT release.
	CodeVersionRange = "tensorrt_range_conflict"
	// Read errors are "<side>_<dump code>", e.g. "profile_json_concatenated",
	// "layer_info_json_malformed", "layer_info_unreadable".
	sideLayerInfo = "layer_info"
	sideProfile   = "profile"
	sideMeta      = "metadata"
	sideLog       = "log"
)
