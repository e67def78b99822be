package layerfacts

import (
	"regexp"
	"strings"
)

// nameGuesses map name fragments (lower case) to layer kinds, first match
// wins: the words TensorRT puts in the names of the layers it creates
// (reformatters, Myelin foreign nodes, DLA partitions, plugins, Q/DQ) come
// before the words of framework layer names (conv, gemm, pool, ...).
var nameGuesses = []struct {
	frag, kind string
}{
	{"reformat", "Reformat"},
	{"{foreignnode", "Myelin"}, {"myelin", "Myelin"},
	{"dla", "DLA"},
	{"pluginv2", "PluginV2"}, {"plugin", "PluginV2"},
	{"dequantizelinear", "Dequantize"}, {"quantizelinear", "Quantize"},
	{"dequantize", "Dequantize"}, {"quantize", "Quantize"},
	{"deconv", "Deconvolution"}, {"convtranspose", "Deconvolution"},
	{"conv", "Convolution"},
	{"gemm", "MatrixMultiply"}, {"matmul", "MatrixMultiply"}, {"innerproduct", "FullyConnected"}, {"fc", "FullyConnected"}, {"classifier", "FullyConnected"},
	{"pool", "Pooling"},
	{"softmax", "SoftMax"},
	{"norm", "Normalization"},
	{"concat", "Concatenation"}, {" copy", "Concatenation"},
	{"shuffle", "Shuffle"}, {"transpose", "Shuffle"}, {"reshape", "Shuffle"},
	{"pwn(", "PointWise"}, {"pointwise", "PointWise"},
	{"relu", "Activation"}, {"sigmoid", "Activation"}, {"gelu", "Activation"},
	{"slice", "Slice"}, {"gather", "Gather"}, {"resize", "Resize"},
}

// trtMade are the name fragments of layers TensorRT itself creates.
var trtMade = []struct{ frag, kind string }{
	{"reformat", "Reformat"}, {"{foreignnode", "Myelin"}, {"myelin", "Myelin"}, {"[dla]", "DLA"}, {"{dla", "DLA"}, {"pluginv2", "PluginV2"},
}

// kernelSize is a convolution's kernel in a framework name ("3x3_reduce",
// "conv1/7x7_s2").
var kernelSize = regexp.MustCompile(`(^|[^0-9a-z])[1-9][0-9]?x[1-9][0-9]?([^0-9]|$)`)

// GuessKind guesses a layer's kind from its name alone; "unknown" when no
// fragment fits. A fused name ("a + b || c") is judged by its first part,
// the layer the others were fused into; TensorRT's own reformatters,
// foreign nodes, DLA partitions and plugins by the whole name. The answer is
// a guess: names are free text.
func GuessKind(name string) string {
	lower := strings.ToLower(name)
	for _, g := range trtMade { // layers TensorRT makes: the whole name counts
		if strings.Contains(lower, g.frag) {
			return g.kind
		}
	}
	first := lower
	for _, sep := range []string{" + ", "||"} {
		if i := strings.Index(first, sep); i > 0 {
			first = first[:i]
		}
	}
	// The last path segment names the operation ("pool1/norm1" is a
	// normalization in pool1's scope), the rest its scope.
	last := strings.TrimSpace(first[strings.LastIndexByte(first, '/')+1:])
	if convWord[lastToken(last)] {
		return "Convolution" // "pool_proj": the projection after a pool
	}
	if k := guessPart(last); k != "unknown" {
		return k
	}
	if k := guessPart(first); k != "unknown" {
		return k
	}
	if kernelSize.MatchString(first) {
		return "Convolution"
	}
	return "unknown"
}

// convWord are final name tokens that name a 1×1 convolution whatever the
// words before them: a projection ("pool_proj", "shortcut_proj") or a
// channel reduction ("3x3_reduce").
var convWord = map[string]bool{"proj": true, "projection": true, "reduce": true}

// lastToken is the last word of a name segment split at '_', '-', '.' and
// spaces, digits trimmed ("pool_proj" → "proj", "conv_2" → "conv").
func lastToken(seg string) string {
	f := strings.FieldsFunc(seg, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
	for i := len(f) - 1; i >= 0; i-- {
		if t := strings.TrimRight(f[i], "0123456789"); t != "" {
			return t
		}
	}
	return ""
}

func guessPart(lower string) string {
	for _, g := range nameGuesses {
		if g.frag == "fc" {
			if fcWord(lower) {
				return g.kind
			}
			continue
		}
		if strings.Contains(lower, g.frag) {
			return g.kind
		}
	}
	return "unknown"
}

// fcWord reports whether "fc" occurs as a word or a word followed by
// digits ("fc1", "/fc", "fc_2"), not inside another word.
func fcWord(s string) bool {
	for i := 0; i+2 <= len(s); i++ {
		if s[i:i+2] != "fc" || i > 0 && isLetter(s[i-1]) {
			continue
		}
		if j := i + 2; j == len(s) || !isLetter(s[j]) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }
