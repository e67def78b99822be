package analysis

import (
	"slices"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/findings"
)

// Model categories.
const (
	CategoryCNN                = "cnn"
	CategoryTransformerEncoder = "transformer_encoder"
	CategoryDecoderLLM         = "decoder_llm"
	CategoryViT                = "vit"
	CategoryDiffusionUNet      = "diffusion_unet"
	CategoryDiffusionVAE       = "diffusion_vae"
	CategoryDetector           = "detector"
	CategoryUnknown            = "unknown"
)

var configCategories = map[string]string{
	"bert": CategoryTransformerEncoder, "roberta": CategoryTransformerEncoder, "deberta": CategoryTransformerEncoder,
	"deberta-v2": CategoryTransformerEncoder, "distilbert": CategoryTransformerEncoder, "electra": CategoryTransformerEncoder,
	"xlm-roberta": CategoryTransformerEncoder, "albert": CategoryTransformerEncoder, "clip_text_model": CategoryTransformerEncoder,
	"t5": CategoryTransformerEncoder, "llama": CategoryDecoderLLM, "gpt2": CategoryDecoderLLM, "gpt_neox": CategoryDecoderLLM,
	"gptj": CategoryDecoderLLM, "mistral": CategoryDecoderLLM, "mixtral": CategoryDecoderLLM, "qwen2": CategoryDecoderLLM,
	"qwen3": CategoryDecoderLLM, "gemma": CategoryDecoderLLM, "gemma2": CategoryDecoderLLM, "phi": CategoryDecoderLLM,
	"phi3": CategoryDecoderLLM, "falcon": CategoryDecoderLLM, "opt": CategoryDecoderLLM, "bloom": CategoryDecoderLLM,
	"vit": CategoryViT, "deit": CategoryViT, "swin": CategoryViT, "dinov2": CategoryViT,
	"detr": CategoryDetector, "yolos": CategoryDetector, "resnet": CategoryCNN, "convnext": CategoryCNN,
	"mobilenet_v2": CategoryCNN, "efficientnet": CategoryCNN,
}

func isTransformer(category string) bool {
	return category == CategoryTransformerEncoder || category == CategoryDecoderLLM || category == CategoryViT
}

// modelFor fills a backend's model section: the shared identity, the
// category (configs first, then the op patterns the findings package
// recognises), and shapes that can be read off the engine.
func modelFor(id identity, b *contract.Backend, info *engine.LayerInfo) contract.Model {
	m := contract.Model{
		Name: id.name, NameConfidence: id.confidence, NameEvidence: id.evidence,
		Components: id.components, InputShapes: []contract.InputShape{},
		Category: CategoryUnknown, CategoryConfidence: contract.ConfidenceLow, CategoryEvidence: []contract.Evidence{},
	}
	cfg := id.config
	switch {
	case cfg.modelType != "" && configCategories[cfg.modelType] != "":
		m.Category, m.CategoryConfidence = configCategories[cfg.modelType], contract.ConfidenceHigh
		m.CategoryEvidence = append(m.CategoryEvidence, contract.Evidence{Source: "config", Detail: "model_type", Value: cfg.modelType, Confidence: contract.ConfidenceHigh})
	case slices.Contains(id.components, "unet") || (cfg.className != "" && strings.Contains(cfg.className, "UNet")):
		m.Category, m.CategoryConfidence = CategoryDiffusionUNet, contract.ConfidenceHigh
		m.CategoryEvidence = append(m.CategoryEvidence, contract.Evidence{Source: "folder", Detail: "component", Value: "unet", Confidence: contract.ConfidenceHigh})
	case slices.ContainsFunc(id.components, func(c string) bool { return strings.HasPrefix(c, "vae") }):
		m.Category, m.CategoryConfidence = CategoryDiffusionVAE, contract.ConfidenceHigh
		m.CategoryEvidence = append(m.CategoryEvidence, contract.Evidence{Source: "folder", Detail: "component", Value: "vae", Confidence: contract.ConfidenceHigh})
	case b.Validation.AnalysisMode == contract.ModeLayerProfile || b.Validation.AnalysisMode == contract.ModeLayerOnly:
		m.Category, m.CategoryConfidence, m.CategoryEvidence = findings.Category(b)
		if m.CategoryEvidence == nil {
			m.CategoryEvidence = []contract.Evidence{}
		}
	}
	if info != nil {
		m.InputShapes, m.DynamicDims = inputShapes(info, b)
	}
	if isTransformer(m.Category) {
		m.HiddenSize, m.NumLayers, m.NumHeads = cfg.hiddenSize, cfg.numLayers, cfg.numHeads
		if m.NumLayers == nil {
			m.NumLayers = blockCount(b.Layers)
		}
		m.SequenceLength = sequenceLength(m.InputShapes)
	}
	return m
}

// hasDynamicDims reports whether any tensor has a -1 (dynamic) dimension.
func hasDynamicDims(ls []contract.Layer) bool {
	for i := range ls {
		for _, ts := range [][]contract.Tensor{ls[i].Inputs, ls[i].Outputs} {
			for _, t := range ts {
				if slices.Contains(t.Dimensions, -1) {
					return true
				}
			}
		}
	}
	return false
}

// inputShapes lists the declared inputs with their dimensions, from the I/O
// declaration when it has them, else from the first layer reading them.
func inputShapes(info *engine.LayerInfo, b *contract.Backend) ([]contract.InputShape, bool) {
	dynamic := false
	// Only the declared and external inputs are looked up: a map of every
	// tensor would cost more than the rest of this function on big engines.
	wanted := map[string]bool{}
	for _, io := range info.IO {
		if io.IOMode == "Input" {
			wanted[io.Name] = true
		}
	}
	for _, name := range b.Graph.ExternalInputs {
		wanted[name] = true
	}
	dims := map[string]contract.InputShape{}
	for _, l := range b.Layers {
		for _, ts := range [][]contract.Tensor{l.Inputs, l.Outputs} {
			for _, t := range ts {
				if slices.Contains(t.Dimensions, -1) {
					dynamic = true
				}
			}
		}
		if len(dims) == len(wanted) {
			continue // every input found: only the -1 scan goes on
		}
		for _, t := range l.Inputs {
			if _, ok := dims[t.Name]; !ok && wanted[t.Name] {
				dims[t.Name] = contract.InputShape{Name: t.Name, Dimensions: t.Dimensions, DataType: dataTypeWord(t.Format)}
			}
		}
	}
	out := []contract.InputShape{}
	for _, io := range info.IO {
		if io.IOMode == "Output" {
			continue
		}
		if len(io.Dims) > 0 {
			if slices.Contains(io.Dims, -1) {
				dynamic = true
			}
			out = append(out, contract.InputShape{Name: io.Name, Dimensions: io.Dims, DataType: io.DataType})
			continue
		}
		if s, ok := dims[io.Name]; ok {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		for _, name := range b.Graph.ExternalInputs {
			if s, ok := dims[name]; ok {
				out = append(out, s)
			}
		}
	}
	return out, dynamic
}

func dataTypeWord(format string) string {
	fs := strings.Fields(format)
	for _, f := range fs {
		switch strings.ToUpper(f) {
		case "FP32", "FLOAT":
			return "FP32"
		case "FP16", "HALF":
			return "FP16"
		case "INT8":
			return "INT8"
		case "INT32":
			return "INT32"
		case "INT64":
			return "INT64"
		case "BFLOAT16", "BF16":
			return "BF16"
		case "FP8":
			return "FP8"
		case "BOOL":
			return "BOOL"
		}
	}
	return ""
}

// blockKeys are the module names whose numeric child is a block index
// (layers.11, layer.3, h.7, blocks.5, block.2).
var blockKeys = []string{"layers", "layer", "h", "blocks", "block"}

// blockCount counts transformer blocks from layer-name indexes: the highest
// index + 1. One pass over each name: every '.' followed by digits is
// checked against the word before it.
func blockCount(ls []contract.Layer) *int64 {
	best := int64(-1)
	for i := range ls {
		n := ls[i].Name
		for off := 0; ; {
			d := strings.IndexByte(n[off:], '.')
			if d < 0 {
				break
			}
			dot := off + d
			off = dot + 1
			k := off
			for k < len(n) && k-off < 5 && n[k] >= '0' && n[k] <= '9' {
				k++
			}
			if k == off || (k < len(n) && n[k] >= '0' && n[k] <= '9') {
				continue
			}
			w := dot
			for w > 0 && n[w-1] != '/' && n[w-1] != '.' && n[w-1] != '_' {
				w--
			}
			if !slices.Contains(blockKeys, n[w:dot]) {
				continue
			}
			if v, err := strconv.ParseInt(n[off:k], 10, 64); err == nil && v > best {
				best = v
			}
		}
	}
	if best < 0 {
		return nil
	}
	v := best + 1
	return &v
}

// sequenceLength reads the sequence dimension of a [batch, seq] token input.
func sequenceLength(in []contract.InputShape) *int64 {
	for _, s := range in {
		if len(s.Dimensions) == 2 && s.Dimensions[1] > 1 && (s.DataType == "INT32" || s.DataType == "INT64" || s.DataType == "") {
			v := s.Dimensions[1]
			return &v
		}
	}
	return nil
}
