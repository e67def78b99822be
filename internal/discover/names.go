package discover

import "strings"

// role is what a conventionally named file holds.
type role int

const (
	roleNone role = iota
	roleLayers
	roleProfile
	roleLatency
	roleTimes
	roleMeta
	roleConfig // only from content: a model config under a dump's name
)

var roleNames = [...]string{"nothing", "layer info", "profile", "latency samples", "times", "metadata", "model config"}

func (r role) String() string { return roleNames[r] }

// prefixWords are the conventional file-name prefixes (any case), each
// followed by '_' or '-' and the label, or alone for the label "default".
var prefixWords = []struct {
	word string
	role role
}{
	{"layers", roleLayers}, {"layer", roleLayers},
	{"profiles", roleProfile}, {"profile", roleProfile},
	{"latencies", roleLatency}, {"latency", roleLatency},
	{"times", roleTimes}, {"time", roleTimes},
	{"meta", roleMeta},
}

// defaultLabel names the backend of files without a label (layers.json).
const defaultLabel = "default"

// textExts are the extensions dumps and logs are saved under; trimExt
// drops them, so "layers_fp16.log" names the same role and label as
// "layers_fp16.json" once its content says it is a dump.
var textExts = []string{"json", "log", "txt", "profile", "out"}

// trimExt returns name without a known text extension (any case).
func trimExt(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		ext := strings.ToLower(name[i+1:])
		for _, e := range textExts {
			if ext == e {
				return name[:i]
			}
		}
	}
	return name
}

// cutTableExt returns name without a ".csv" or ".tsv" extension (any
// case).
func cutTableExt(name string) (string, bool) {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		switch strings.ToLower(name[i+1:]) {
		case "csv", "tsv":
			return name[:i], true
		}
	}
	return name, false
}

// isJSONName reports whether name ends in ".json" (any case).
func isJSONName(name string) bool {
	return len(name) > 5 && strings.EqualFold(name[len(name)-5:], ".json")
}

// unknownReason says why a file that is neither a dump nor a log by its
// content is not used: what it is (desc, from dump.Describe), or what its
// name says when the content tells less (documentation, a model file).
func unknownReason(name, desc string) string {
	lower := strings.ToLower(name)
	generic := strings.HasPrefix(desc, "text that is no trtexec log") || strings.HasPrefix(desc, "binary data")
	switch {
	case strings.HasSuffix(lower, ".md"), strings.HasSuffix(lower, ".rst"):
		return "documentation, not a TensorRT dump"
	case generic && (strings.HasSuffix(lower, ".onnx") || strings.HasSuffix(lower, ".pb") || strings.HasSuffix(lower, ".pt") || strings.HasSuffix(lower, ".prototxt") || strings.HasSuffix(lower, ".caffemodel")):
		return "a model file, not a TensorRT dump"
	}
	if strings.Contains(desc, "dump") {
		return desc
	}
	return desc + ", not a TensorRT dump"
}

// conventional splits a conventional dump name ("layers_fp16.json",
// "Profile-int8.json", "layers.json") into its role and label (as written;
// "" for none).
func conventional(name string) (role, string) {
	base := trimExt(name)
	table := false
	if base == name {
		// A table's extension names a profile or latency file
		// (profile_fp16.csv) and nothing else: a table holds times.
		if b, ok := cutTableExt(name); ok {
			if r, label := conventional(b + ".json"); r == roleProfile || r == roleLatency {
				return r, label
			}
			table = true
		}
	}
	if table || base == name && strings.Contains(name, ".") {
		return roleNone, "" // an extension that is not a text one: judged by content and stem
	}
	lower := strings.ToLower(base)
	for _, p := range prefixWords {
		if lower == p.word {
			return p.role, ""
		}
		if len(lower) > len(p.word) && strings.HasPrefix(lower, p.word) {
			if c := lower[len(p.word)]; c == '_' || c == '-' {
				return p.role, base[len(p.word)+1:]
			}
		}
	}
	return roleNone, ""
}

// roleSuffixes are the words front ends and scripts put at the end of a
// dump's name; stripping one gives the stem files of one engine share.
// Longest first so "engine_layer_information" wins over "layer_information".
var roleSuffixes = []string{
	"engine_layer_information", "layer_information", "layer_info", "layerinfo",
	"latencies", "latency", "profiles", "profile", "timings", "timing", "times",
	"layers", "layer", "graph", "inspector", "inspect",
}

// engineExts are the extensions of serialized engines; a stem ending in one
// ("x.engine") is labelled without it ("x").
var engineExts = []string{".engine", ".plan", ".trt"}

// stemOf strips one trailing role word separated by '.', '_' or '-' from a
// base name: "x.engine.graph" → "x.engine", "resnet_engine_layer_information"
// → "resnet", "bert-profile" → "bert".
func stemOf(base string) string {
	lower := strings.ToLower(base)
	for _, w := range roleSuffixes {
		n := len(lower) - len(w)
		if n > 1 && strings.HasSuffix(lower, w) {
			if c := lower[n-1]; c == '.' || c == '_' || c == '-' {
				return base[:n-1]
			}
		}
	}
	return base
}

// labelOfStem drops a serialized-engine extension from a stem.
func labelOfStem(stem string) string {
	lower := strings.ToLower(stem)
	for _, e := range engineExts {
		if len(lower) > len(e) && strings.HasSuffix(lower, e) {
			return stem[:len(stem)-len(e)]
		}
	}
	return stem
}

// isEngineFile reports whether name is a serialized engine.
func isEngineFile(name string) bool {
	lower := strings.ToLower(name)
	for _, e := range engineExts {
		if strings.HasSuffix(lower, e) && len(lower) > len(e) {
			return true
		}
	}
	return false
}

// configNames are model configuration files that name the model.
var configNames = map[string]bool{
	"config.json": true, "model_index.json": true, "tokenizer_config.json": true,
	"generation_config.json": true, "preprocessor_config.json": true, "scheduler_config.json": true,
}
