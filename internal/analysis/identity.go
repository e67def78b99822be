package analysis

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/inputs"
)

// identity is what the inputs say about the model, shared by every backend.
type identity struct {
	name       string
	confidence string
	evidence   []contract.Evidence
	components []string
	config     modelConfig
}

// modelConfig is what Hugging Face / diffusers configs beside the dumps say.
type modelConfig struct {
	modelType     string
	architectures []string
	className     string // diffusers model_index.json _class_name
	hiddenSize    *int64
	numLayers     *int64
	numHeads      *int64
	maxPositions  *int64
	evidence      []contract.Evidence
}

// genericFolderNames never name a model: they say where files were put.
var genericFolderNames = map[string]bool{
	"tmp": true, "temp": true, "raw": true, "data": true, "out": true, "output": true, "outputs": true,
	"results": true, "result": true, "arr": true, "dump": true, "dumps": true, "profile": true,
	"profiles": true, "layers": true, "trt": true, "tensorrt": true, "engine": true, "engines": true,
	"build": true, "logs": true, "log": true, "test": true, "tests": true, "work": true, "files": true,
	"default": true, "run": true, "runs": true, "export": true, "exports": true, "models": true,
	"model": true, "src": true, "home": true, "downloads": true, "desktop": true, "perf": true,
	"analysis": true, "report": true, "reports": true, "corpus": true, "examples": true, "example": true,
}

// componentNames are the parts of model suites (a pipeline split into engines).
var componentNames = map[string]string{
	"text_encoder": "text-encoder", "text-encoder": "text-encoder", "text_encoder_2": "text-encoder-2",
	"text-encoder-2": "text-encoder-2", "encoder": "encoder", "decoder": "decoder", "unet": "unet",
	"vae": "vae", "vae_decoder": "vae-decoder", "vae-decoder": "vae-decoder", "vae_encoder": "vae-encoder",
	"vae-encoder": "vae-encoder", "transformer": "transformer", "controlnet": "controlnet",
	"image_encoder": "image-encoder", "prior": "prior", "backbone": "backbone", "head": "head",
}

// noiseTokens are folder-name words that describe the build, not the model.
var noiseTokens = map[string]bool{
	"fp32": true, "fp16": true, "bf16": true, "int8": true, "fp8": true, "fp4": true, "int4": true,
	"tf32": true, "qat": true, "ptq": true, "best": true, "trtexec": true, "trt": true, "tensorrt": true,
	"onnx": true, "torch": true, "pytorch": true, "tf": true, "layer": true, "layers": true, "names": true,
	"only": true, "batch": true, "sweep": true, "concat": true, "paths": true, "three": true,
	"myelin": true, "profile": true, "profiles": true, "dump": true, "dumps": true, "engine": true,
	"a100": true, "h100": true, "h200": true, "b200": true, "v100": true, "t4": true, "l4": true,
	"l40": true, "l40s": true, "a10": true, "a10g": true, "titanrtx": true, "jetson": true, "orin": true,
	"nano": true, "agx": true, "xavier": true, "trex": true, "fuzzy": true, "kalfazed": true,
}

// knownFamilies are model families whose presence in a name lifts it to
// medium confidence.
var knownFamilies = []string{
	"resnet", "mobilenet", "efficientnet", "vgg", "alexnet", "googlenet", "inception", "densenet",
	"yolo", "detr", "ssd", "retinanet", "rcnn", "unet", "controlnet", "stable", "sd15", "sdxl", "sd",
	"flux", "vae", "clip", "t5", "bert", "roberta", "deberta", "distilbert", "gpt", "llama", "mistral",
	"mixtral", "qwen", "gemma", "phi", "falcon", "opt", "bloom", "whisper", "vit", "deit", "swin",
	"convnext", "regnet", "squeezenet", "shufflenet", "segformer", "dino", "sam", "electra", "bart",
}

func identify(scope *discover.Scope, configs []inputs.ModelConfig, flagName, flagFrom string) identity {
	id := identity{components: []string{}, evidence: []contract.Evidence{}}
	id.config = parseConfigs(configs)
	if scope.Folder != "" {
		base := strings.ToLower(filepath.Base(scope.Folder))
		if c, ok := componentNames[base]; ok {
			id.components = append(id.components, c)
		}
	}
	type candidate struct {
		value string
		ev    contract.Evidence
	}
	var cands []candidate
	add := func(value, source, detail, conf string) {
		if value == "" {
			return
		}
		cands = append(cands, candidate{value, contract.Evidence{Source: source, Detail: detail, Value: value, Confidence: conf}})
	}
	if flagName != "" {
		if flagFrom == "" {
			flagFrom = "model name option"
		}
		add(flagName, "flag", flagFrom, contract.ConfidenceHigh)
	}
	for _, e := range id.config.evidence {
		cands = append(cands, candidate{e.Value, e})
	}
	if scope.Folder != "" {
		folder := scope.Folder
		if len(id.components) > 0 {
			// A component folder (unet/, vae/) is named by its parent.
			folder = filepath.Dir(folder)
		}
		if v, conf := nameFromFolder(filepath.Base(folder)); v != "" {
			add(v, "folder", "folder name "+filepath.Base(folder), conf)
		} else if folder != scope.Folder {
			// The parent names nothing (tasks/8/controlnet): the component
			// folder's own name is the best name there is.
			if v, conf := nameFromFolder(filepath.Base(scope.Folder)); v != "" {
				add(v, "folder", "folder name "+filepath.Base(scope.Folder), conf)
			}
		}
	}
	for _, f := range scope.EngineFiles {
		if v, conf := nameFromFileStem(f); v != "" {
			add(v, "file_name", "engine file "+f, conf)
		}
	}
	for _, b := range scope.Backends {
		for _, p := range []string{b.LayerPath, b.ProfilePath} {
			if p == "" {
				continue
			}
			if v, conf := nameFromFileStem(filepath.Base(p)); v != "" {
				add(v, "file_name", "dump file "+filepath.Base(p), conf)
			}
		}
	}
	rank := map[string]int{contract.ConfidenceHigh: 3, contract.ConfidenceMedium: 2, contract.ConfidenceLow: 1}
	best := -1
	for i, c := range cands {
		id.evidence = append(id.evidence, c.ev)
		if best < 0 || rank[c.ev.Confidence] > rank[cands[best].ev.Confidence] {
			best = i
		}
	}
	id.confidence = contract.ConfidenceLow
	if best >= 0 && rank[cands[best].ev.Confidence] >= 2 {
		id.name = cands[best].value
		id.confidence = cands[best].ev.Confidence
	}
	return id
}

// nameFromFolder strips build words (precision, GPU, TensorRT version) from
// a folder name and keeps what is left when it still names something.
func nameFromFolder(base string) (string, string) {
	if genericFolderNames[strings.ToLower(base)] {
		return "", ""
	}
	return cleanName(base)
}

// nameFromFileStem reads a model name from a file stem such as
// resnet50.engine or bert_base.plan; layers_/profile_ prefixes name the
// backend, not the model, and are skipped.
func nameFromFileStem(file string) (string, string) {
	stem := strings.ToLower(file)
	for _, ext := range []string{".json", ".engine", ".plan", ".trt", ".graph", ".profile", ".layers"} {
		stem = strings.TrimSuffix(stem, ext)
	}
	for _, p := range []string{"layers_", "layer_", "layers-", "layer-", "profile_", "profiles_", "profile-", "latency_", "times_"} {
		if strings.HasPrefix(stem, p) {
			return "", ""
		}
	}
	v, conf := cleanName(stem)
	if conf == contract.ConfidenceMedium {
		conf = contract.ConfidenceLow // a file name alone is weak evidence
	}
	return v, conf
}

func cleanName(s string) (string, string) {
	lower := strings.ToLower(s)
	tokens := strings.FieldsFunc(lower, func(r rune) bool { return r == '-' || r == '_' || r == ' ' || r == '.' })
	var keep []string
	for _, t := range tokens {
		if noiseTokens[t] || isVersionToken(t) || isGPUToken(t) {
			continue
		}
		keep = append(keep, t)
	}
	if len(keep) == 0 {
		return "", ""
	}
	name := strings.Join(keep, "-")
	if genericFolderNames[name] {
		return "", ""
	}
	for _, t := range keep {
		for _, f := range knownFamilies {
			if strings.HasPrefix(t, f) {
				return name, contract.ConfidenceMedium
			}
		}
	}
	return name, contract.ConfidenceLow
}

// isVersionToken matches trt86, trt7, v2, 10.4 and similar build versions.
func isVersionToken(t string) bool {
	for _, p := range []string{"trt", "cuda", "cu", "v", "sm"} {
		if rest, ok := strings.CutPrefix(t, p); ok && rest != "" && allDigits(rest) {
			return true
		}
	}
	return allDigits(t)
}

func isGPUToken(t string) bool {
	for _, p := range []string{"rtx", "gtx", "tesla"} {
		if rest, ok := strings.CutPrefix(t, p); ok && (rest == "" || allDigits(rest)) {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// parseConfigs reads the Hugging Face / diffusers configs beside the dumps,
// in path order. Configs that do not parse are skipped: they are hints,
// never required.
func parseConfigs(configs []inputs.ModelConfig) modelConfig {
	var mc modelConfig
	configs = slices.Clone(configs)
	slices.SortFunc(configs, func(a, b inputs.ModelConfig) int { return strings.Compare(a.Path, b.Path) })
	for _, c := range configs {
		var raw map[string]any
		if json.Unmarshal(c.Data, &raw) != nil {
			continue
		}
		file := filepath.Base(c.Path)
		str := func(k string) string { s, _ := raw[k].(string); return s }
		num := func(keys ...string) *int64 {
			for _, k := range keys {
				// A count is a whole number in a sane range: 0.5 is
				// ignored, not truncated to 0; beyond 2^40, int64(f)
				// is no count any model has.
				if f, ok := raw[k].(float64); ok && f >= 1 && f <= 1<<40 && f == math.Trunc(f) {
					n := int64(f)
					return &n
				}
			}
			return nil
		}
		if v := str("_name_or_path"); v != "" {
			mc.evidence = append(mc.evidence, contract.Evidence{Source: "config", Detail: file + " _name_or_path", Value: v, Confidence: contract.ConfidenceHigh})
		}
		if v := str("model_type"); v != "" {
			mc.modelType = v
		}
		if arr, ok := raw["architectures"].([]any); ok {
			for _, a := range arr {
				if s, ok := a.(string); ok {
					mc.architectures = append(mc.architectures, s)
				}
			}
			if len(mc.architectures) > 0 {
				mc.evidence = append(mc.evidence, contract.Evidence{Source: "config", Detail: file + " architectures", Value: mc.architectures[0], Confidence: contract.ConfidenceMedium})
			}
		}
		if v := str("_class_name"); v != "" {
			mc.className = v
			mc.evidence = append(mc.evidence, contract.Evidence{Source: "config", Detail: file + " _class_name", Value: v, Confidence: contract.ConfidenceMedium})
		}
		if mc.hiddenSize == nil {
			mc.hiddenSize = num("hidden_size", "d_model", "n_embd")
		}
		if mc.numLayers == nil {
			mc.numLayers = num("num_hidden_layers", "num_layers", "n_layer")
		}
		if mc.numHeads == nil {
			mc.numHeads = num("num_attention_heads", "num_heads", "n_head")
		}
		if mc.maxPositions == nil {
			mc.maxPositions = num("max_position_embeddings", "n_positions")
		}
	}
	return mc
}
