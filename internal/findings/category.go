package findings

import (
	"fmt"
	"math/bits"
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
var categorySignals = [...]struct {
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
	// One scan per name finds every signal word (10^5 layer names).
	var hitN [len(categorySignals)]int
	var exampleW [len(categorySignals)]string
	var inputHit [len(categorySignals)]bool
	see := func(s string, input bool) {
		m := categoryScan.matches(s)
		if m == 0 {
			return
		}
		for g := range categorySignals {
			if gm := m & categoryScan.group[g]; gm != 0 {
				hitN[g]++
				if exampleW[g] == "" {
					exampleW[g] = categoryScan.words[bits.TrailingZeros64(gm)]
				}
				if input {
					inputHit[g] = true
				}
			}
		}
	}
	for i := range b.Layers {
		see(b.Layers[i].Name, false)
	}
	for _, in := range b.Graph.DeclaredInputs {
		see(in, true)
	}
	for _, in := range b.Graph.ExternalInputs {
		see(in, true)
	}
	hits := map[string]int{}
	example := map[string]string{}
	inputHits := map[string]bool{}
	for g, sig := range categorySignals {
		hits[sig.name], example[sig.name], inputHits[sig.name] = hitN[g], exampleW[g], inputHit[g]
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
			if r.AvgMs <= 0 {
				continue
			}
			k := classify(r)
			if !k.is(fCompute) {
				continue
			}
			tot += r.AvgMs
			if k.has(tgMatmul) {
				cv += r.AvgMs
			}
			if r.LayerType == "kgen_mha" || k.has(tgSoftmax) {
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

// categoryScan finds every signal word in a name in one pass. Words are
// numbered in table order, so the lowest bit of a group is the group's first
// word, as a scan word by word would report it.
var categoryScan = func() (sc struct {
	*acMatcher
	group [len(categorySignals)]uint64 // bits of each signal's words
}) {
	var words []string
	for g, sig := range categorySignals {
		for _, w := range sig.words {
			sc.group[g] |= 1 << len(words)
			words = append(words, w)
		}
	}
	sc.acMatcher = newACMatcher(words)
	return sc
}()

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixLower reports whether s starts with the lower-case w, ignoring
// the ASCII case of s.
func hasPrefixLower(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		if lowerASCII(s[j]) != w[j] {
			return false
		}
	}
	return true
}
