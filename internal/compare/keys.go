package compare

import (
	"hash/maphash"
	"strings"
)

// Source-op keys: what a layer computes, in words that survive a re-export
// or another front end. Each key carries a kind that sets its weight:
//
//   - keyOp: a whole source op as the exporter named it
//     ("/layer1/layer1.0/conv1/Conv", "features.5.conv.2.weight").
//   - keyModule: the module path behind an op or weight
//     ("layer1.0.conv1"), the same whether ONNX wrote
//     "/layer1/layer1.0/conv1/Conv", Torch-TensorRT wrote
//     "[CONVOLUTION]-[aten_ops.convolution.default]-[/layer1/0/conv1/convolution_1]"
//     or the fused name holds "layer1.0.conv1.weight".
//   - keyNumbered: an auto-numbered ONNX node ("Conv_12", "QuantizeLinear_98",
//     "(Unnamed Layer* 58) [Shuffle]"): exports renumber them, so they count
//     only near the same place in the graph.
//
// Keys of layers TensorRT inserted around another one (reformat copies,
// "reshape_after_X") are prefixed with what they are, so a reformat pairs
// with the reformat in front of the same op and never with the op itself.
type keyKind uint8

const (
	keyOp keyKind = iota
	keyModule
	keyNumbered
)

var kindWeight = [...]float64{keyOp: 1, keyModule: 0.8, keyNumbered: 0.6}

// key is one source-op key: what a layer computes (s), of a kind, seen
// through a wrapper relation (prefix, "" for the layer's own ops).
type key struct {
	prefix, s string
	kind      keyKind
}

// String is the key as people read it ("module layer1.0.conv1").
func (k key) String() string {
	if k.kind == keyModule {
		return k.prefix + "module " + k.s
	}
	return k.prefix + k.s
}

// hash identifies the key without building its string.
func (k key) hash() uint64 {
	h := maphash.String(keySeed, k.s) ^ uint64(k.kind+1)*0x9e3779b97f4a7c15
	if k.prefix != "" {
		h ^= maphash.String(keySeed, k.prefix) * 0xff51afd7ed558ccd
	}
	return h
}

var keySeed = maphash.MakeSeed()

// layerKeys appends the source-op keys of a layer (name and metadata) to
// dst. Duplicates are possible; callers deduplicate.
func layerKeys(dst []key, name, metadata string) []key {
	prefix, rest := wrapperPrefix(stripMyelinSuffix(name))
	dst = nameKeys(dst, prefix, rest)
	if metadata != "" && prefix == "" {
		eachMetadata(metadata, func(part string) {
			op, ok := strings.CutPrefix(part, "[ONNX Layer: ")
			if ok {
				op = strings.TrimSuffix(op, "]")
			}
			dst = opKeys(dst, "", strings.TrimSpace(op))
		})
	}
	return dst
}

// wrapperPrefix recognises layers TensorRT names after the layer they
// serve: "Reformatting CopyNode for Input Tensor 0 to X", "reshape_after_X",
// "copied_squeeze_after_X". It returns a prefix naming the relation and X.
func wrapperPrefix(name string) (string, string) {
	if rest, ok := strings.CutPrefix(name, "Reformatting CopyNode for "); ok {
		dir, tail, ok := strings.Cut(rest, " to ")
		if ok {
			return "copy " + dir + ":", tail
		}
	}
	if i := strings.Index(name, "_after_"); i > 0 && !strings.ContainsAny(name[:i], " /[(") {
		return name[:i] + ":", name[i+len("_after_"):]
	}
	return "", name
}

// nameKeys splits a fused layer name ("a + b + PWN(c, d)", "{ForeignNode[a...b]}")
// into its source ops.
func nameKeys(dst []key, prefix, name string) []key {
	name = strings.TrimSpace(name)
	if inner, ok := strings.CutPrefix(name, "{ForeignNode["); ok {
		inner = strings.TrimSuffix(inner, "]}")
		for _, p := range strings.Split(inner, "...") {
			dst = opKeys(dst, prefix, strings.TrimSpace(p))
		}
		return dst
	}
	for part := range strings.SplitSeq(name, " + ") {
		part = strings.TrimSpace(part)
		for {
			open := strings.IndexByte(part, '(')
			if open <= 0 || !strings.HasSuffix(part, ")") || !isWord(part[:open]) {
				break
			}
			// PWN(Clip_16), PWN(PWN(a), b): the wrapper is a fusion, not an op.
			inner := part[open+1 : len(part)-1]
			if strings.Contains(inner, ", ") {
				for sub := range strings.SplitSeq(inner, ", ") {
					dst = nameKeys(dst, prefix, sub)
				}
				part = ""
				break
			}
			part = inner
		}
		dst = opKeys(dst, prefix, part)
	}
	return dst
}

// opKeys adds the keys of one source op.
func opKeys(dst []key, prefix, op string) []key {
	if op == "" {
		return dst
	}
	// Torch-TensorRT: [TYPE]-[aten_ops.x.default]-[/scope/op_3] ("_"
	// instead of "-" inside Myelin kernel names).
	if strings.HasPrefix(op, "[") && strings.HasSuffix(op, "]") {
		i := max(strings.LastIndex(op, "]-["), strings.LastIndex(op, "]_["))
		if i >= 0 {
			op = op[i+3 : len(op)-1]
		}
	}
	if op == "" {
		return dst
	}
	if numberedNode(op) {
		return append(dst, key{prefix, op, keyNumbered})
	}
	dst = append(dst, key{prefix, op, keyOp})
	if m := modulePath(op); m != "" && m != op {
		dst = append(dst, key{prefix, m, keyModule})
	}
	return dst
}

// modulePath is the module an op or weight belongs to, dotted:
// "/layer1/layer1.0/conv1/Conv" → "layer1.0.conv1",
// "/layer1/0/conv1/convolution_1" → "layer1.0.conv1",
// "/features/1/conv_0/0/convolution_1" → "features.1.conv.0.0",
// "features.5.conv.2.weight" → "features.5.conv.2". "" when there is none.
func modulePath(op string) string {
	if strings.Contains(op, "/") {
		body := strings.Trim(op, "/")
		last := strings.LastIndexByte(body, '/')
		if last < 0 {
			return ""
		}
		body = body[:last] // without the op itself
		var out []byte
		var starts [64]int // start of each dotted segment in out
		nseg := 0
		for len(body) > 0 {
			seg := body
			if i := strings.IndexByte(body, '/'); i >= 0 {
				seg, body = body[:i], body[i+1:]
			} else {
				body = ""
			}
			if seg == "" {
				continue
			}
			var fixed [96]byte
			s := seg
			// Torch dynamo flattens container indexes: features_0, conv_1.
			if i := strings.LastIndexByte(s, '_'); i > 0 && allDigits(s[i+1:]) && len(s) <= len(fixed) {
				b := append(fixed[:0], s...)
				b[i] = '.'
				s = string(b)
			}
			// ONNX repeats the path relative to an ancestor in each scope:
			// /layer1/layer1.0/..., /features.6/conv/conv.0/conv.0.0/...
			for k := 0; k < nseg; k++ {
				tail := out[starts[k]:]
				if len(s) > len(tail) && s[len(tail)] == '.' && s[:len(tail)] == string(tail) {
					s = s[len(tail)+1:]
					break
				}
			}
			for len(s) > 0 {
				part := s
				if i := strings.IndexByte(s, '.'); i >= 0 {
					part, s = s[:i], s[i+1:]
				} else {
					s = ""
				}
				if part == "" {
					continue
				}
				if len(out) > 0 {
					out = append(out, '.')
				}
				if nseg < len(starts) {
					starts[nseg] = len(out)
					nseg++
				}
				out = append(out, part...)
			}
		}
		return string(out)
	}
	if strings.ContainsAny(op, " ()[]") || !strings.Contains(op, ".") {
		return ""
	}
	for _, suf := range paramSuffixes {
		if m, ok := strings.CutSuffix(op, suf); ok && m != "" && m[0] != '.' && m[len(m)-1] != '.' && !strings.Contains(m, "..") {
			return m
		}
	}
	return ""
}

var paramSuffixes = []string{".weight", ".bias", ".running_mean", ".running_var", ".scale", ".zero_point"}

// numberedNode reports ONNX auto names: Word_123, "(Unnamed Layer* 58) [Shuffle]".
func numberedNode(op string) bool {
	if strings.HasPrefix(op, "(Unnamed Layer") {
		return true
	}
	i := strings.LastIndexByte(op, '_')
	if i <= 0 || i == len(op)-1 || !isWord(op[:i]) {
		return false
	}
	for _, c := range op[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// eachMetadata calls f with each record of TensorRT metadata, split on
// its separators, raw (U+001E/U+001F) or made visible (␞/␟).
func eachMetadata(md string, f func(string)) {
	start := 0
	for i := 0; i < len(md); i++ {
		n := 0
		switch c := md[i]; {
		case c == 0x1e || c == 0x1f:
			n = 1
		case c == 0xe2 && i+2 < len(md) && md[i+1] == 0x90 && (md[i+2] == 0x9e || md[i+2] == 0x9f): // ␞ ␟
			n = 3
		default:
			continue
		}
		if i > start {
			f(md[start:i])
		}
		i += n - 1
		start = i + 1
	}
	if start < len(md) {
		f(md[start:])
	}
}

// firstModule is the module path of a layer's first named source op (for
// reformat copies, of the layer they serve), or "".
func firstModule(name, md string) string {
	var buf [16]key
	_, target := wrapperPrefix(stripMyelinSuffix(name))
	for _, k := range nameKeys(buf[:0], "", target) {
		if m := moduleOf(k); m != "" {
			return m
		}
	}
	found := ""
	eachMetadata(md, func(part string) {
		if found != "" {
			return
		}
		op, ok := strings.CutPrefix(part, "[ONNX Layer: ")
		if ok {
			op = strings.TrimSuffix(op, "]")
		}
		for _, k := range opKeys(buf[:0], "", strings.TrimSpace(op)) {
			if m := moduleOf(k); m != "" {
				found = m
				return
			}
		}
	})
	return found
}

func moduleOf(k key) string {
	switch k.kind {
	case keyModule:
		return k.s
	case keyOp:
		return modulePath(k.s)
	}
	return ""
}
