package layerfacts

import (
	"math/bits"
	"strings"
	"sync"
)

// Tags, in sorted order: bit i of a tagSet is tagNames[i], so a set turns
// into a sorted slice by walking its bits.
var tagNames = [...]string{
	"activation", "attention", "cast", "concat", "conv", "copy", "elementwise",
	"gather", "gemm", "myelin", "noop", "norm", "plugin", "pointwise",
	"pooling", "quantize", "reformat", "shape", "slice", "softmax",
}

type tagSet uint32

const (
	tActivation tagSet = 1 << iota
	tAttention
	tCast
	tConcat
	tConv
	tCopy
	tElementwise
	tGather
	tGemm
	tMyelin
	tNoop
	tNorm
	tPlugin
	tPointwise
	tPooling
	tQuantize
	tReformat
	tShape
	tSlice
	tSoftmax

	// Signals that are not tags: evidence for fused attention kernels.
	sigMHA     // mha, fmha, flash, sdpa ...: an attention kernel by name
	sigSoftmax // softmax
	sigMatmul  // matmul, bmm, gemm, einsum

	tagMask = sigMHA - 1
	// shapeTags come from name words only on layers that are not compute
	// layers: "Conv_3 + Reshape_4" is a convolution, not a shape op.
	shapeTags = tShape | tSlice | tConcat | tGather
	// computeTags mark a layer whose name words must not add shapeTags.
	computeTags = tConv | tGemm | tPooling | tSoftmax | tNorm | tPlugin | tMyelin | tPointwise | tElementwise | tActivation
)

// wordTags maps a lower-case name word (trailing digits stripped: "conv1"
// → "conv") to tags. Only whole words match: "reformat" never matches
// "reformatted", "conv" never matches "deconvolutional".
var wordTags = map[string]tagSet{
	"conv": tConv, "convolution": tConv, "deconv": tConv, "conv2d": tConv, "conv3d": tConv,
	"conv1d": tConv, "convtranspose": tConv, "deconvolution": tConv, "depthwise": tConv,
	"gemm": tGemm | sigMatmul, "matmul": tGemm | sigMatmul, "bmm": tGemm | sigMatmul,
	"einsum": tGemm | sigMatmul, "addmm": tGemm | sigMatmul, "mm": tGemm | sigMatmul,
	"fc": tGemm, "dense": tGemm, // not "linear": QuantizeLinear is no GEMM
	"attention": tAttention, "attn": tAttention, "selfattention": tAttention,
	"crossattention": tAttention,
	"mha":            tAttention | sigMHA, "fmha": tAttention | sigMHA, "mhca": tAttention | sigMHA,
	"fmhca": tAttention | sigMHA, "flash": tAttention | sigMHA, "flashattention": tAttention | sigMHA,
	"sdpa": tAttention | sigMHA, "xqa": tAttention | sigMHA,
	"norm": tNorm, "layernorm": tNorm, "groupnorm": tNorm, "instancenorm": tNorm,
	"batchnorm": tNorm, "rmsnorm": tNorm, "normalization": tNorm, "bn": tNorm, "ln": tNorm,
	"layernormalization": tNorm, "instancenormalization": tNorm, "groupnormalization": tNorm,
	"relu": tActivation, "gelu": tActivation, "silu": tActivation, "sigmoid": tActivation,
	"tanh": tActivation, "swish": tActivation, "clip": tActivation, "leakyrelu": tActivation,
	"elu": tActivation, "selu": tActivation, "mish": tActivation, "hardswish": tActivation,
	"hardsigmoid": tActivation, "softplus": tActivation, "erf": tActivation, "relu6": tActivation,
	"quickgelu": tActivation, "activation": tActivation, "act": tActivation,
	"pwn": tPointwise, "pointwise": tPointwise,
	"add": tElementwise, "sub": tElementwise, "mul": tElementwise, "div": tElementwise,
	"pow": tElementwise, "elementwise": tElementwise, "sum": tElementwise,
	"reformat": tReformat, "reformatting": tReformat,
	"copy": tCopy, "copynode": tCopy, "copied": tCopy,
	"quantizelinear": tQuantize, "dequantizelinear": tQuantize, "quantize": tQuantize,
	"dequantize": tQuantize, "qdq": tQuantize, "quant": tQuantize, "dequant": tQuantize,
	"quantizeanddequantizev": tQuantize, "fakequant": tQuantize,
	"pool": tPooling, "pooling": tPooling, "maxpool": tPooling, "avgpool": tPooling,
	"averagepool": tPooling, "globalaveragepool": tPooling, "globalmaxpool": tPooling,
	"adaptiveavgpool": tPooling,
	"softmax":         tSoftmax | sigSoftmax, "logsoftmax": tSoftmax | sigSoftmax,
	"cast":   tCast,
	"concat": tConcat | tShape, "concatenation": tConcat | tShape, "cat": tConcat | tShape,
	"slice": tSlice | tShape, "split": tSlice | tShape, "narrow": tSlice | tShape,
	"gather": tGather | tShape, "gatherelements": tGather | tShape, "index": tGather | tShape,
	"reshape": tShape, "shape": tShape, "squeeze": tShape, "unsqueeze": tShape,
	"flatten": tShape, "transpose": tShape, "permute": tShape, "view": tShape,
	"expand": tShape, "shuffle": tShape, "tile": tShape,
	"noop": tNoop, "identity": tNoop,
	"plugin": tPlugin,
	"myelin": tMyelin, "foreignnode": tMyelin,
}

// typeTags derives tags from a raw LayerType by (lower-case) substring: layer
// types are a closed CamelCase vocabulary, so substrings are safe here.
var typeTagRules = [...]struct {
	sub string
	set tagSet
}{
	{"conv", tConv}, {"gemm", tGemm}, {"matrixmultiply", tGemm},
	{"pool", tPooling}, {"reformat", tReformat}, {"noop", tNoop},
	{"shuffle", tShape}, {"reshape", tShape}, {"shape", tShape},
	{"slice", tSlice | tShape}, {"concat", tConcat | tShape}, {"gather", tGather | tShape},
	{"pointwise", tPointwise}, {"elementwise", tElementwise}, {"scale", tPointwise},
	{"activation", tActivation}, {"softmax", tSoftmax}, {"norm", tNorm},
	{"myelin", tMyelin}, {"plugin", tPlugin}, {"cast", tCast}, {"quantize", tQuantize},
	{"copy", tCopy}, {"attention", tAttention}, {"mha", tAttention},
}

// myelinTypes are the TensorRT 10 Myelin kernel layer types.
func isMyelinType(t string) bool {
	switch t {
	case "kgen", "gemm", "shape_call", "reshape", "signal", "wait", "kgen_mha":
		return true
	}
	return false
}

func typeTags(layerType string) tagSet {
	var s tagSet
	var buf [64]byte
	low := string(lowerInto(buf[:0], layerType)) // small, once per layer
	for _, r := range typeTagRules {
		if strings.Contains(low, r.sub) {
			s |= r.set
		}
	}
	if isMyelinType(layerType) {
		s |= tMyelin
	}
	if layerType == "ConvActPool" {
		s |= tActivation
	}
	return s
}

// wordsTags returns the tags and signals of every whole word of s: words are
// runs of letters and digits, and also the CamelCase parts of a word
// ("QuantizeLinear" gives quantizelinear, quantize, linear); trailing digits
// are stripped ("conv1" → conv). "_" is a separator, so "Conv_0" → conv.
func wordsTags(s string) tagSet {
	var set tagSet
	eachWord(s, func(w string) bool {
		set |= lookupWord(w)
		// CamelCase parts: split where a lower-case letter is followed by an
		// upper-case one.
		start := 0
		for i := 1; i < len(w); i++ {
			if isLower(w[i-1]) && isUpper(w[i]) {
				set |= lookupWord(w[start:i])
				start = i
			}
		}
		if start > 0 {
			set |= lookupWord(w[start:])
		}
		return true
	})
	return set
}

func lookupWord(w string) tagSet {
	for len(w) > 1 && isDigit(w[len(w)-1]) {
		w = w[:len(w)-1]
	}
	if len(w) < 2 || len(w) > 40 {
		return 0
	}
	var buf [40]byte
	return wordTags[string(lowerInto(buf[:0], w))] // no allocation for map index
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// tagSlices caches the sorted slice of each tag set: engines reuse a few
// dozen sets, so 10^5 layers share them instead of allocating. The slices are
// shared: callers must not modify them.
var tagSlices sync.Map // tagSet → []string

func (s tagSet) strings() []string {
	s &= tagMask
	if v, ok := tagSlices.Load(s); ok {
		return v.([]string)
	}
	out := make([]string, 0, bits.OnesCount32(uint32(s)))
	for i := range tagNames {
		if s&(1<<i) != 0 {
			out = append(out, tagNames[i])
		}
	}
	v, _ := tagSlices.LoadOrStore(s, out)
	return v.([]string)
}
