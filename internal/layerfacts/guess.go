package layerfacts

import (
	"regexp"
	"strings"
)

// Kinds GuessKind gives records of TensorRT's DLA hand-over that are not a
// layer of the network.
const (
	// KindDLA is a DLA subgraph: the layers TensorRT compiled into one DLA
	// loadable, profiled as one record named after them ("{conv1,pool1}"
	// in TensorRT 7; "{ForeignNode[conv1...pool1]}" beside DLA transfer
	// records from TensorRT 8 on).
	KindDLA = "DLA"
	// KindDLATransfer is a record of the GPU's hand-over to or wait for a
	// DLA subgraph: "<tensor> to nvm" (copy into the DLA's memory), "<tensor>
	// from nvm", "<tensor> copy finish" / "finish" (the event the GPU waits
	// on) and, in TensorRT 7, the reformatters of a DLA subgraph record
	// ("{a,b} output reformatter 0"). The DLA runs asynchronously to the
	// GPU, so the per-layer profiler books most of the DLA's run time on the
	// record that waits for it: this is DLA time, not a copy's cost. The
	// names are checked against real TensorRT 7 and 8 DLA profiles (the
	// sources are cited in internal/analysis/dla_test.go).
	KindDLATransfer = "DLATransfer"
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
	// Q/DQ: ONNX QuantizeLinear/DequantizeLinear, tf2onnx's
	// QuantLinearNode/DequantLinearNode, TensorRT's *_quantize_scale_node.
	{"dequantizelinear", "Dequantize"}, {"quantizelinear", "Quantize"},
	{"dequantlinear", "Dequantize"}, {"quantlinear", "Quantize"},
	{"dequantize_scale", "Dequantize"}, {"quantize_scale", "Quantize"},
	{"quantizeanddequantize", "Quantize"},
	{"dequantize", "Dequantize"}, {"quantize", "Quantize"},
	{"deconv", "Deconvolution"}, {"convtranspose", "Deconvolution"},
	{"conv", "Convolution"},
	{"gemm", "MatrixMultiply"}, {"matmul", "MatrixMultiply"}, {"bmm", "MatrixMultiply"}, {"addmm", "MatrixMultiply"}, {"einsum", "MatrixMultiply"},
	{"innerproduct", "FullyConnected"}, {"fc", "FullyConnected"}, {"classifier", "FullyConnected"}, {"dense", "FullyConnected"}, {"linear", "FullyConnected"},
	{"pool", "Pooling"},
	{"softmax", "SoftMax"},
	{"norm", "Normalization"}, {"lrn", "Normalization"},
	{"concat", "Concatenation"}, {" copy", "Concatenation"},
	{"shuffle", "Shuffle"}, {"transpose", "Shuffle"}, {"reshape", "Shuffle"}, {"flatten", "Shuffle"}, {"squeeze", "Shuffle"}, {"permute", "Shuffle"},
	{"pwn(", "PointWise"}, {"pointwise", "PointWise"},
	{"relu", "Activation"}, {"sigmoid", "Activation"}, {"gelu", "Activation"}, {"silu", "Activation"}, {"swish", "Activation"},
	{"tanh", "Activation"}, {"clip", "Activation"}, {"clamp", "Activation"}, {"hardtanh", "Activation"},
	{"padding", "Padding"}, {"pad", "Padding"},
	{"slice", "Slice"}, {"split", "Slice"}, {"gather", "Gather"}, {"resize", "Resize"}, {"upsample", "Resize"}, {"interpolate", "Resize"},
	{"cast", "Cast"},
	{"reducemean", "Reduce"}, {"reducesum", "Reduce"}, {"reducemax", "Reduce"},
	{"add", "ElementWise"}, {"mul", "ElementWise"}, {"sub", "ElementWise"}, {"div", "ElementWise"}, {"pow", "ElementWise"},
}

// trtMade are the name fragments of layers TensorRT itself creates.
var trtMade = []struct{ frag, kind string }{
	{"reformat", "Reformat"}, {"_copy_input", "Reformat"}, {"_copy_output", "Reformat"},
	{"{foreignnode", "Myelin"}, {"myelin", "Myelin"}, {"__myl_", "Myelin"}, {"[dla]", "DLA"}, {"{dla", "DLA"}, {"pluginv2", "PluginV2"},
	{"forced cast", "Cast"},
}

// layerTypeWords are TensorRT's layer type names as they appear in
// "(Unnamed Layer* N) [Type]" and Torch-TensorRT's "[TYPE]-[aten_ops…]"
// names, lower case without spaces or underscores, and the kind each is.
var layerTypeWords = map[string]string{
	"convolution": "Convolution", "deconvolution": "Deconvolution", "fullyconnected": "FullyConnected",
	"matrixmultiply": "MatrixMultiply", "activation": "Activation", "parametricrelu": "Activation",
	"pooling": "Pooling", "lrn": "Normalization", "normalization": "Normalization", "scale": "Scale",
	"softmax": "SoftMax", "raggedsoftmax": "SoftMax", "concatenation": "Concatenation",
	"elementwise": "ElementWise", "unary": "Unary", "padding": "Padding", "shuffle": "Shuffle",
	"reduce": "Reduce", "topk": "TopK", "gather": "Gather", "constant": "Constant", "identity": "Identity",
	"slice": "Slice", "shape": "Shape", "resize": "Resize", "select": "Select", "fill": "Fill",
	"quantize": "Quantize", "dequantize": "Dequantize", "cast": "Cast", "plugin": "PluginV2",
	"pluginv2": "PluginV2", "pluginv3": "PluginV2", "einsum": "MatrixMultiply", "scatter": "Scatter",
	"onehot": "OneHot", "nonzero": "NonZero", "gridsample": "Resize", "nms": "NMS",
}

// kernelSize is a convolution's kernel in a framework name ("3x3_reduce",
// "conv1/7x7_s2").
var kernelSize = regexp.MustCompile(`(^|[^0-9a-z])[1-9][0-9]?x[1-9][0-9]?([^0-9]|$)`)

// tf2onnxHelper is the last path segment of a node tf2onnx inserted for a
// TensorFlow op, "<op>__<n>" (utils.make_name): the layout transposes it
// puts around NHWC ops ("resnet50/conv1_conv/Conv2D__6"). The op it was
// made for is not what it computes. Only with a scope: a bare "Conv__435"
// is tf2onnx's own name for the converted op itself.
var tf2onnxHelper = regexp.MustCompile(`^[a-z][a-z0-9]*__[0-9]+$`)

// GuessKind guesses a layer's kind from its name alone; "unknown" when no
// fragment fits. TensorRT's own records (reformatters, foreign nodes, DLA
// subgraphs and transfers, plugins, forced casts) are judged by the whole
// name; "(Unnamed Layer* N) [Type]" and Torch-TensorRT's "[TYPE]-[…]" by
// the type they print; a fused name ("w + QuantizeLinear_7 + Conv_9 ||
// c") by its first part that names a computation (weights and Q/DQ parts
// are fused into it), else by its first part. The answer is a guess: names
// are free text.
func GuessKind(name string) string {
	lower := strings.ToLower(strings.TrimSpace(name))
	if k := dlaKind(lower); k != "" {
		return k
	}
	if k := myelinKernelKind(name); k != "" {
		return k
	}
	for _, g := range trtMade { // layers TensorRT makes: the whole name counts
		if strings.Contains(lower, g.frag) {
			return g.kind
		}
	}
	parts := fusedParts(lower)
	first := ""
	for _, p := range parts {
		k := guessOne(p)
		switch k {
		case "unknown", "Quantize", "Dequantize", "Constant", "weights":
			if first == "" && k != "weights" {
				first = k
			}
			continue
		}
		return k
	}
	if first == "" {
		return "unknown"
	}
	return first
}

// fusedParts splits a fused layer name at TensorRT's joins: " + " (vertical
// fusion) and "||" (horizontal fusion).
func fusedParts(lower string) []string {
	var out []string
	for _, h := range strings.Split(lower, "||") {
		for _, p := range strings.Split(h, " + ") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	if len(out) == 0 {
		return []string{lower}
	}
	return out
}

// guessOne guesses one part of a (possibly fused) name; "weights" for a
// part that names a weight tensor fused into the layer.
func guessOne(part string) string {
	if strings.HasPrefix(part, "pwn(") {
		return "PointWise" // TensorRT's pointwise fusion, whatever it holds
	}
	if k, ok := bracketType(part); ok {
		return k
	}
	if strings.HasSuffix(part, ".weight") || strings.HasSuffix(part, ".bias") || strings.Contains(part, "readvariableop") || strings.HasPrefix(part, "onnx::") {
		return "weights"
	}
	// The last path segment names the operation ("pool1/norm1" is a
	// normalization in pool1's scope), the rest its scope.
	slash := strings.LastIndexByte(part, '/')
	last := strings.TrimSpace(part[slash+1:])
	if slash > 0 && tf2onnxHelper.MatchString(last) && !strings.HasPrefix(last, "quant") && !strings.HasPrefix(last, "dequant") {
		return "Shuffle"
	}
	if convWord[lastToken(last)] {
		return "Convolution" // "pool_proj": the projection after a pool
	}
	if k := guessPart(last); k != "unknown" {
		return k
	}
	if k := guessPart(part); k != "unknown" {
		return k
	}
	if kernelSize.MatchString(part) {
		return "Convolution"
	}
	return "unknown"
}

// bracketType reads the layer type TensorRT prints for an unnamed layer,
// "(unnamed layer* 12) [shuffle]" (also with "_output" or more after it),
// and the one Torch-TensorRT puts first, "[convolution]-[aten_ops…]" or
// "[matrix_multiply]_[aten_ops…]".
func bracketType(part string) (string, bool) {
	var word string
	switch {
	case strings.HasPrefix(part, "(unnamed layer*"):
		i := strings.IndexByte(part, '[')
		if i < 0 {
			return "", false
		}
		j := strings.IndexByte(part[i:], ']')
		if j < 0 {
			return "", false
		}
		word = part[i+1 : i+j]
	case strings.HasPrefix(part, "["):
		j := strings.IndexByte(part, ']')
		if j < 0 {
			return "", false
		}
		word = part[1:j]
	default:
		return "", false
	}
	word = strings.NewReplacer(" ", "", "_", "").Replace(word)
	k, ok := layerTypeWords[word]
	return k, ok
}

// dlaKind is KindDLA for a DLA subgraph record, KindDLATransfer for a
// record of the GPU's hand-over to or wait for one, "" otherwise.
func dlaKind(lower string) string {
	if members, rest, ok := dlaSubgraph(lower); ok && len(members) > 0 {
		if strings.TrimSpace(rest) == "" {
			return KindDLA
		}
		return KindDLATransfer // "{a,b} output reformatter 0": the wait for it
	}
	for _, suf := range []string{" to nvm", " from nvm", " copy finish"} {
		if strings.HasSuffix(lower, suf) {
			return KindDLATransfer
		}
	}
	if lower == "finish" || lower == "copy finish" {
		return KindDLATransfer
	}
	return ""
}

// dlaSubgraph splits a TensorRT 7 DLA subgraph record "{a,b,c}[ rest]" into
// its member layer names and what follows the braces. A Myelin foreign
// node ("{ForeignNode[…]}") is not one: its members are a range.
func dlaSubgraph(name string) (members []string, rest string, ok bool) {
	if !strings.HasPrefix(name, "{") || strings.HasPrefix(strings.ToLower(name), "{foreignnode[") {
		return nil, "", false
	}
	end := strings.IndexByte(name, '}')
	if end < 0 {
		return nil, "", false
	}
	for _, m := range strings.Split(name[1:end], ",") {
		if m = strings.TrimSpace(m); m != "" {
			members = append(members, m)
		}
	}
	return members, name[end+1:], true
}

// DLAMembers returns the layer names a DLA subgraph record lists: every
// layer of "{a,b,c}" (TensorRT 7), the first and last layer of
// "{ForeignNode[a...c]}" (TensorRT 8 and later print the range only), and
// whether the list is complete.
func DLAMembers(name string) (members []string, complete bool) {
	n := strings.TrimSpace(name)
	if ms, _, ok := dlaSubgraph(n); ok {
		return ms, true
	}
	const open = "{ForeignNode["
	if strings.HasPrefix(n, open) {
		body := strings.TrimSuffix(strings.TrimSuffix(n[len(open):], "}"), "]")
		a, b, found := strings.Cut(body, "...")
		if !found {
			return []string{body}, false
		}
		return []string{a, b}, false
	}
	return nil, false
}

// myelinKernelKind reads a TensorRT 10 Myelin kernel name,
// "__myl_<Op><Op>…_myl<G>_<K>", whose ops are abbreviated in CamelCase
// ("__myl_MaxMinCas_myl2_0": max, min, cast — a clamp): "PointWise" when
// every op is elementwise, "Normalization" for a mean/variance kernel,
// "Myelin" otherwise; "" for other names.
func myelinKernelKind(name string) string {
	const p = "__myl_"
	if !strings.HasPrefix(name, p) {
		return ""
	}
	body := name[len(p):]
	if i := strings.Index(body, "_myl"); i >= 0 {
		body = body[:i]
	}
	var ops []string
	start := 0
	for i := 1; i <= len(body); i++ {
		if i == len(body) || body[i] >= 'A' && body[i] <= 'Z' || body[i] == '_' {
			if op := strings.Trim(body[start:i], "_"); op != "" {
				ops = append(ops, op)
			}
			start = i
		}
	}
	has := func(op string) bool {
		for _, o := range ops {
			if o == op {
				return true
			}
		}
		return false
	}
	if has("Mean") && (has("Sqrt") || has("Rsqrt") || has("Div")) {
		return "Normalization"
	}
	if len(ops) == 0 {
		return "Myelin"
	}
	for _, o := range ops {
		if !myelinElementwise[o] {
			return "Myelin"
		}
	}
	return "PointWise"
}

// myelinElementwise are the CamelCase op abbreviations of Myelin kernel
// names that are elementwise (one output element from the same element of
// each input).
var myelinElementwise = map[string]bool{
	"Add": true, "Sub": true, "Mul": true, "Div": true, "Max": true, "Min": true, "Cas": true, "Cast": true,
	"Relu": true, "Sigm": true, "Sig": true, "Tanh": true, "Exp": true, "Erf": true, "Pow": true, "Sqrt": true,
	"Abs": true, "Neg": true, "Clip": true, "Gelu": true, "Silu": true, "Recip": true, "Log": true,
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
		switch g.frag {
		case "fc", "add", "mul", "sub", "div", "pow", "pad", "dense", "linear", "cast", "split", "bmm", "lrn":
			// Short words: only as a word of their own ("fc1", "/Add_3",
			// "Mul"), never inside another word ("padding" is fine,
			// "address" is not an Add).
			if wordIn(lower, g.frag) {
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

// wordIn reports whether w occurs in s as a word, or a word followed by
// digits ("fc1", "/fc", "fc_2", "add_5"), not inside another word.
func wordIn(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i:i+len(w)] != w || i > 0 && isLetter(s[i-1]) {
			continue
		}
		if j := i + len(w); j == len(s) || !isLetter(s[j]) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }
