package layerfacts

import (
	"math/bits"
	"slices"
	"strings"
)

// The tag vocabulary: every tag a record can carry (contract Record.tags)
// and the only names rules may ask about. Consumers use these constants,
// Tags and TagIndex instead of spelling tags again.
const (
	TagActivation  = "activation"
	TagAttention   = "attention"
	TagCast        = "cast"
	TagConcat      = "concat"
	TagConv        = "conv"
	TagCopy        = "copy"
	TagElementwise = "elementwise"
	TagGather      = "gather"
	TagGemm        = "gemm"
	TagMyelin      = "myelin"
	TagNoop        = "noop"
	TagNorm        = "norm"
	TagPlugin      = "plugin"
	TagPointwise   = "pointwise"
	TagPooling     = "pooling"
	TagQuantize    = "quantize"
	TagReformat    = "reformat"
	TagShape       = "shape"
	TagSlice       = "slice"
	TagSoftmax     = "softmax"
	// TagGuessed marks a profile_only record whose layer kind was guessed
	// from its name (GuessKind) because the layer info is missing or
	// names-only; no rule derives it from a layer.
	TagGuessed = "type_guessed_from_name"
)

// Tags, in sorted order: bit i of a tagSet is tagNames[i], so a set turns
// into a sorted slice by walking its bits.
var tagNames = [...]string{
	TagActivation, TagAttention, TagCast, TagConcat, TagConv, TagCopy, TagElementwise,
	TagGather, TagGemm, TagMyelin, TagNoop, TagNorm, TagPlugin, TagPointwise,
	TagPooling, TagQuantize, TagReformat, TagShape, TagSlice, TagSoftmax, TagGuessed,
}

// Tags returns every tag, sorted.
func Tags() []string { return append([]string(nil), tagNames[:]...) }

// TagIndex returns the position of tag in Tags (a dense index a caller can
// use as a bit number), and false for a name that is not a tag, so a rule
// naming a misspelt or renamed tag can fail a test instead of never firing.
func TagIndex(tag string) (int, bool) {
	for i, n := range tagNames {
		if n == tag {
			return i, true
		}
	}
	return -1, false
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
	tGuessed

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

// The raw LayerType beats words in names: a Shuffle named
// "quant_conv1_conv/BiasAdd" moves data, a Padding named "pool1_pad" pads.
// movesDataOnly are raw types whose name words add only shape/copy tags;
// pointwiseRaw are raw types whose name words may not make them a
// convolution, GEMM or pooling.
var (
	movesDataOnly = map[string]bool{
		"Shuffle": true, "Slice": true, "Padding": true, "Reformat": true, "NoOp": true,
		"Concatenation": true, "Gather": true, "Identity": true, "Resize": true,
	}
	pointwiseRaw = map[string]bool{
		"PointWise": true, "PointWiseV2": true, "Scale": true, "Activation": true,
		"ElementWise": true, "Unary": true, "Cast": true,
	}
)

// wordTagsFor returns the name-word tags a layer of raw type rawType with
// type tags set may take.
func wordTagsFor(rawType string, set, words tagSet) tagSet {
	switch {
	case movesDataOnly[rawType]:
		return words & (shapeTags | tCopy)
	case pointwiseRaw[rawType]:
		words &^= tConv | tGemm | tPooling | tAttention
	}
	if set&computeTags != 0 {
		words &^= shapeTags
	}
	return words
}

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
	"prelu": tActivation,
	"pwn":   tPointwise, "pointwise": tPointwise,
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

// wordTagTable is wordTags as a wordTable.
var wordTagTable = func() *wordTable {
	m := make(map[string]uint32, len(wordTags))
	for w, t := range wordTags {
		m[w] = uint32(t)
	}
	return newWordTable(m)
}()

// onnxWrapper opens every source op in Metadata; its words ("onnx", "layer")
// carry no tags, so the scanner steps over it.
const onnxWrapper = "[ONNX Layer: "

// wordsTags returns the tags and signals of every whole word of s: words are
// runs of letters and digits, and also the CamelCase parts of a word
// ("QuantizeLinear" gives quantizelinear, quantize, linear); trailing digits
// are stripped ("conv1" → conv). "_" is a separator, so "Conv_0" → conv.
//
// One pass over s: it runs over every layer's name and metadata.
//
// Metadata repeats long module paths in every source op
// ("[ONNX Layer: /model/layers.0/input_layernorm/Cast]␞[ONNX Layer:
// /model/layers.0/input_layernorm/Pow]..."): after a separator byte, the
// words of the part shared with the previous op are known already, so the
// scan resumes at the last word boundary of that shared part.
func wordsTags(s string) tagSet {
	var set tagSet
	n := len(s)
	seg := 0 // start of the current op (after the last separator byte)
	for i := 0; i < n; {
		c := s[i]
		if charClass[c]&cAlnum == 0 {
			switch {
			case c == 0xe2 || c == 0x1e || c == 0x1f: // first byte of ␞/␟, raw RS/US
				prev := s[seg:i]
				seg = i + 1
				i = seg + knownPrefix(prev, s[seg:])
			case c == '[' && n-i >= len(onnxWrapper) && s[i:i+len(onnxWrapper)] == onnxWrapper:
				i += len(onnxWrapper)
			default:
				i++
			}
			continue
		}
		start, part := i, i
		prev := charClass[c]
		for i++; i < n; i++ {
			cl := charClass[s[i]]
			if cl&cAlnum == 0 {
				break
			}
			// CamelCase parts: split where a lower-case letter is followed
			// by an upper-case one. A part before a split ends in a letter,
			// so only the last part can have trailing digits.
			if cl&cUpper != 0 && prev&cLower != 0 {
				set |= lookupWord(s[part:i])
				part = i
			}
			prev = cl
		}
		set |= lookupWord(s[start:i])
		if part > start {
			set |= lookupWord(s[part:i])
		}
	}
	return set
}

// knownPrefix returns how much of the start of cur need not be scanned for
// words because prev (which holds no separator byte) was: up to the last
// non-word byte of their common prefix. A word ending before that byte is
// bounded by the same bytes in prev, so it is the same word.
func knownPrefix(prev, cur string) int {
	m := min(len(prev), len(cur))
	p := 0
	for p+8 <= m && prev[p:p+8] == cur[p:p+8] { // ops share long paths
		p += 8
	}
	for p < m && prev[p] == cur[p] {
		p++
	}
	for q := p - 1; q > 0; q-- {
		if charClass[cur[q]]&cAlnum == 0 {
			return q
		}
	}
	return 0
}

func lookupWord(w string) tagSet {
	for len(w) > 1 && isDigit(w[len(w)-1]) {
		w = w[:len(w)-1]
	}
	if len(w) < 2 || len(w) > 40 || !wordTagTable.mayHave(w) {
		return 0
	}
	v, _ := wordTagTable.get(w)
	return tagSet(v)
}

// tagSlices caches the sorted slice of each tag set: engines reuse a few
// dozen sets, so 10^5 layers share them instead of allocating. The slices are
// shared: callers must not modify them.
var tagSlices sliceCache

func (s tagSet) strings() []string {
	s &= tagMask
	if v, ok := tagSlices.load(uint64(s)); ok {
		return v
	}
	out := make([]string, 0, bits.OnesCount32(uint32(s)))
	for i := range tagNames {
		if s&(1<<i) != 0 {
			out = append(out, tagNames[i])
		}
	}
	tagSlices.store(uint64(s), out)
	return out
}

// Storage conversions: a layer that only changes how a tensor is stored
// (ConversionKind).
const (
	ConvReformat   = "reformat"
	ConvQuantize   = "quantize"
	ConvDequantize = "dequantize"
	ConvCast       = "cast"
)

// ConversionKind says whether a layer with tags (Facts.Tags, a record's
// tags) only converts storage, and how: a reformat (layout and/or type), a
// quantize or dequantize (tag quantize, whatever the LayerType: TensorRT
// reports some Q/DQ layers as Scale), or a cast; "" for any other layer.
// A layer that also computes is no conversion: a convolution, GEMM,
// pooling, softmax, normalization, attention, Myelin region or plugin with
// a Q/DQ fused in (tag quantize beside its own), or a pointwise fusion of
// several source ops (fusedOps > 1) that ends in a quantize. Quantize and
// dequantize are told apart by the data types: a quantized output from an
// unquantized input is a quantize, the other way a dequantize; by the name
// when the types do not say.
func ConversionKind(tags []string, fusedOps int, inTypes, outTypes []string, name string) string {
	var set tagSet
	for _, t := range tags {
		if i, ok := TagIndex(t); ok {
			set |= 1 << i
		}
	}
	const computes = tConv | tGemm | tPooling | tSoftmax | tNorm | tAttention | tMyelin | tPlugin | tActivation
	if set&(tQuantize|tReformat|tCast) == 0 || set&computes != 0 {
		return ""
	}
	if set&(tPointwise|tElementwise) != 0 && fusedOps > 1 {
		return ""
	}
	switch {
	case set&tReformat != 0:
		return ConvReformat // also one that changes the type to or from INT8
	case set&tQuantize != 0:
		in, out := anyQuantized(inTypes), anyQuantized(outTypes)
		switch {
		case out && !in:
			return ConvQuantize
		case in && !out:
			return ConvDequantize
		case strings.Contains(strings.ToLower(name), "dequant"):
			return ConvDequantize
		}
		return ConvQuantize
	}
	return ConvCast
}

// anyQuantized reports whether a data type of ts is a quantized one.
func anyQuantized(ts []string) bool {
	for _, t := range ts {
		switch t {
		case INT8, UINT8, INT4, FP8, FP4:
			return true
		}
	}
	return false
}

// opWordTags are the tags of name words that say what a layer computes;
// the words of kernel wrappers (pwn, pointwise, myelin, foreignnode,
// plugin, noop) say how TensorRT ran work, not which operation.
const opWordTags = tagMask &^ (tPointwise | tMyelin | tPlugin | tNoop | tGuessed)

// OpWords returns the words of a layer name that name an operation — the
// words of the tag vocabulary, lower case, trailing digits stripped, whole
// words and CamelCase parts ("__myl_MulGtrSele" → mul) — in order of
// first appearance, without kernel-wrapper words. Two tables' rows naming
// the same operation word do the same kind of work, whatever the tool
// that named them ("node_prelu", "[PARAMETRIC_RELU]-[aten_ops._prelu_kernel]").
func OpWords(name string) []string {
	var out []string
	add := func(w string) {
		w = strings.ToLower(w)
		for len(w) > 1 && isDigit(w[len(w)-1]) {
			w = w[:len(w)-1]
		}
		if t := wordTags[w]; t&opWordTags != 0 && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	n := len(name)
	for i := 0; i < n; {
		if charClass[name[i]]&cAlnum == 0 {
			i++
			continue
		}
		start, part := i, i
		prev := charClass[name[i]]
		for i++; i < n; i++ {
			cl := charClass[name[i]]
			if cl&cAlnum == 0 {
				break
			}
			if cl&cUpper != 0 && prev&cLower != 0 {
				add(name[part:i])
				part = i
			}
			prev = cl
		}
		add(name[start:i])
		if part > start {
			add(name[part:i])
		}
	}
	return out
}

// WordIsQuantize reports whether an OpWords word names a quantize or
// dequantize operation.
func WordIsQuantize(w string) bool { return wordTags[w]&tQuantize != 0 }

// GuessedTags are the tags of a profile_only record whose kind GuessKind
// guessed from its name: the tags that kind gives as a layer type
// ("Reformat" → reformat, "Quantize" and "Dequantize" → quantize, "Cast" →
// cast, "Convolution" → conv, ...) and TagGuessed. So what reads tags
// counts such a record as it counts a layer with layer info: a reformat,
// Q/DQ or cast guessed from a name is a conversion (ConversionKind).
func GuessedTags(kind string) []string {
	return (typeTags(kind) | tGuessed).strings()
}
