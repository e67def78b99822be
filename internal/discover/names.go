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
)

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

// trimJSON returns name without a ".json" extension (any case) and whether
// it had one.
func trimJSON(name string) (string, bool) {
	if len(name) > 5 && strings.EqualFold(name[len(name)-5:], ".json") {
		return name[:len(name)-5], true
	}
	return name, false
}

// conventional splits a conventional dump name ("layers_fp16.json",
// "Profile-int8.json", "layers.json") into its role and label (as written;
// "" for none).
func conventional(name string) (role, string) {
	base, ok := trimJSON(name)
	if !ok {
		return roleNone, ""
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
