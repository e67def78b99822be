package findings

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// Categories Category returns.
const (
	CatCNN                = "cnn"
	CatTransformerEncoder = "transformer_encoder"
	CatDecoderLLM         = "decoder_llm"
	CatViT                = "vit"
	CatDiffusionUNet      = "diffusion_unet"
	CatDiffusionVAE       = "diffusion_vae"
	CatDetector           = "detector"
	CatUnknown            = "unknown"
)

// signal words, matched as substrings of lower-case layer and input names.
var categorySignals = []struct {
	name  string
	words []string
}{
	{"unet_blocks", []string{"input_blocks", "output_blocks", "middle_block", "down_blocks", "up_blocks", "mid_block"}},
	{"time_embedding", []string{"time_embed", "timestep", "time_proj", "temb"}},
	{"spatial_transformer", []string{"transformer_blocks", "attn1", "attn2", "proj_in"}},
	{"vae", []string{"post_quant_conv", "quant_conv", "decoder.conv_in", "encoder.conv_in", "/decoder/", "/encoder/"}},
	{"detector", []string{"nms", "anchor", "bbox", "box_head", "rpn", "roi_align", "roialign", "yolo", "detect", "class_embed", "query_embed"}},
	{"vit", []string{"patch_embed", "patch_embeddings", "cls_token", "pos_embed"}},
	{"llm", []string{"lm_head", "past_key", "kv_cache", "rotary", "rope", "causal", "present.", "gpt", "llama", "decoder_layer", "self_attn"}},
	{"encoder_text", []string{"input_ids", "token_type_ids", "attention_mask", "word_embeddings", "bert", "encoder/layer"}},
	{"attention", []string{"attention", "attn", "mha"}}, // not softmax: classifiers end in one
	{"layernorm", []string{"layernorm", "layer_norm", "ln_"}},
}

// Category infers a model category from op patterns: names of layers and
// inputs, and the time (or count) of convolution vs attention layers. It
// answers "unknown" rather than guessing.
func Category(b *contract.Backend) (category, confidence string, evidence []contract.Evidence) {
	hits := map[string]int{}
	example := map[string]string{}
	see := func(s string) {
		low := strings.ToLower(s)
		for _, sig := range categorySignals {
			for _, w := range sig.words {
				if strings.Contains(low, w) {
					hits[sig.name]++
					if example[sig.name] == "" {
						example[sig.name] = w
					}
					break
				}
			}
		}
	}
	for i := range b.Layers {
		see(b.Layers[i].Name)
	}
	inputHits := map[string]bool{}
	for _, in := range append(append([]string{}, b.Graph.DeclaredInputs...), b.Graph.ExternalInputs...) {
		see(in)
		low := strings.ToLower(in)
		for _, sig := range categorySignals {
			for _, w := range sig.words {
				if strings.Contains(low, w) {
					inputHits[sig.name] = true
				}
			}
		}
	}
	conv, attn, all := convShare(b)
	ev := func(source, detail, value, conf string) {
		evidence = append(evidence, contract.Evidence{Source: source, Detail: detail, Value: value, Confidence: conf})
	}
	sig := func(name, conf string) {
		src := "layers"
		if inputHits[name] {
			src = "inputs"
		}
		ev(src, fmt.Sprintf("%d names match %s patterns", hits[name], strings.ReplaceAll(name, "_", " ")), example[name], conf)
	}
	H, M, L := contract.ConfidenceHigh, contract.ConfidenceMedium, contract.ConfidenceLow
	attnSeen := hits["attention"] > 0 || attn > 0.05
	switch {
	case hits["unet_blocks"] > 0 && (hits["time_embedding"] > 0 || inputHits["time_embedding"]):
		sig("unet_blocks", H)
		sig("time_embedding", H)
		if hits["spatial_transformer"] > 0 {
			sig("spatial_transformer", M)
		}
		return CatDiffusionUNet, H, evidence
	case hits["unet_blocks"] > 0 && hits["spatial_transformer"] > 0:
		sig("unet_blocks", M)
		sig("spatial_transformer", M)
		return CatDiffusionUNet, M, evidence
	case hits["vae"] > 0 && hits["unet_blocks"] > 0 && conv >= 0.5:
		sig("vae", M)
		sig("unet_blocks", M)
		return CatDiffusionVAE, M, evidence
	case hits["detector"] >= 2:
		sig("detector", M)
		return CatDetector, M, evidence
	case hits["vit"] > 0 && attnSeen:
		sig("vit", M)
		sig("attention", M)
		return CatViT, M, evidence
	case hits["llm"] > 0 && attnSeen:
		sig("llm", M)
		sig("attention", M)
		return CatDecoderLLM, M, evidence
	case hits["encoder_text"] > 0 && attnSeen:
		sig("encoder_text", M)
		sig("attention", M)
		return CatTransformerEncoder, M, evidence
	case all > 0 && conv >= 0.5 && !attnSeen && convLayers(b) >= 2:
		conf := M
		if conv >= 0.7 {
			conf = H
		}
		ev("layers", "convolution/GEMM share of compute", fmt.Sprintf("%.0f%%", conv*100), conf)
		return CatCNN, conf, evidence
	}
	if attnSeen {
		sig("attention", L)
	}
	return CatUnknown, L, evidence
}

// convShare returns the share of compute time (or, without timing, of
// compute layers) in convolutions and in attention layers.
func convShare(b *contract.Backend) (conv, attn, all float64) {
	if len(b.Records) > 0 {
		var cv, at, tot float64
		for i := range b.Records {
			r := &b.Records[i]
			if r.AvgMs <= 0 || !isComputeLayer(r) {
				continue
			}
			tot += r.AvgMs
			if hasAnyTag(r, "conv", "gemm") {
				cv += r.AvgMs
			}
			if r.LayerType == "kgen_mha" || hasTag(r, "softmax") {
				at += r.AvgMs
			}
		}
		if tot > 0 {
			return cv / tot, at / tot, tot
		}
	}
	var cv, tot float64
	for i := range b.Layers {
		t := b.Layers[i].LayerType
		if t == "NoOp" || strings.Contains(t, "Reformat") || t == "Shuffle" || t == "Constant" {
			continue
		}
		tot++
		if strings.Contains(t, "Convolution") || t == "ConvActPool" {
			cv++
		}
	}
	if tot == 0 {
		return 0, 0, 0
	}
	return cv / tot, 0, tot
}

func convLayers(b *contract.Backend) int {
	n := 0
	for i := range b.Layers {
		if t := b.Layers[i].LayerType; strings.Contains(t, "Convolution") || t == "ConvActPool" {
			n++
		}
	}
	return n
}
