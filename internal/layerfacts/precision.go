package layerfacts

import (
	"bytes"
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
)

// Precision rule, in order (the first step that decides wins):
//
//  1. The tactic name's math words (tacticPrecision): kernels spell their
//     input/compute types ("i8i8_i8i32", "i8f16", "f16f16", "f32f32_tf32f32",
//     "h16816", "i8816", "imma", "int8x4", "scudnn", "ffma", "e4m3", "bf16").
//     Myelin kernel hashes and 0x... words are skipped. An INT8 kernel that
//     writes FP16/FP32 is INT8: the math is INT8.
//  2. The weights' type (Weights / ConvWeights / weights {Type}): a layer
//     with Int8 weights computes in INT8, with Half weights in FP16.
//  3. The data tensors: the first input whose type is a floating-point or
//     8-bit type, else the first such output, else the first known type of
//     any tensor (INT32/BOOL shape tensors), else UNKNOWN.
//
// Step 3 alone decides reformats, pooling, pointwise and Myelin layers.

// tacticPrecisionWords: substrings of one '_'-separated word of a tactic
// name, checked in this order (INT8 before FP16/FP32 because INT8 kernels
// also name their float output; BF16 before FP16; TF32 before FP32).
var tacticPrecisionWords = [...]struct {
	sub []byte
	typ string
}{
	{[]byte("e4m3"), FP8}, {[]byte("e5m2"), FP8}, {[]byte("fp8"), FP8},
	{[]byte("e2m1"), FP4}, {[]byte("fp4"), FP4},
	{[]byte("i8i8"), INT8}, {[]byte("i8f16"), INT8}, {[]byte("i8f32"), INT8}, {[]byte("i8i32"), INT8},
	{[]byte("int8"), INT8}, {[]byte("i8816"), INT8}, {[]byte("i16832"), INT8}, {[]byte("imma"), INT8},
	{[]byte("bf16"), BF16},
	{[]byte("tf32"), TF32}, {[]byte("s16816"), TF32}, {[]byte("s1688"), TF32},
	{[]byte("f16"), FP16}, {[]byte("fp16"), FP16}, {[]byte("h16816"), FP16}, {[]byte("h1688"), FP16}, {[]byte("hmma"), FP16}, {[]byte("hgemm"), FP16},
	{[]byte("f32"), FP32}, {[]byte("fp32"), FP32}, {[]byte("scudnn"), FP32}, {[]byte("sgemm"), FP32}, {[]byte("ffma"), FP32},
}

// tacticPrecision returns the compute precision a tactic name spells, or "".
func tacticPrecision(tactic string) string {
	if tactic == "" || strings.HasPrefix(tactic, "__myl") {
		return ""
	}
	var buf [256]byte
	low := lowerInto(buf[:0], tactic)
	best, bestRank := "", len(tacticPrecisionWords)
	for len(low) > 0 {
		j := bytes.IndexByte(low, '_')
		w := low
		if j >= 0 {
			w, low = low[:j], low[j+1:]
		} else {
			low = nil
		}
		if len(w) > 2 && w[0] == '0' && w[1] == 'x' {
			continue
		}
		for k := 0; k < bestRank; k++ {
			if bytes.Contains(w, tacticPrecisionWords[k].sub) {
				best, bestRank = tacticPrecisionWords[k].typ, k
				break
			}
		}
	}
	return best
}

// weightsPrecision reads {"Type": "..."} of a layer's weights parameter.
func weightsPrecision(params []engine.Param) string {
	for _, p := range params {
		switch p.Key {
		case "Weights", "ConvWeights", "weights":
		default:
			continue
		}
		t := jsonStringField(p.Value, `"Type"`)
		for _, d := range dataTypeWords {
			if len(t) == len(d.word) && bytes.EqualFold(t, []byte(d.word)) {
				return d.typ
			}
		}
		return ""
	}
	return ""
}

// jsonStringField finds `key: "value"` in a small compact JSON object and
// returns value (without unescaping: type names have no escapes).
func jsonStringField(obj []byte, key string) []byte {
	i := bytes.Index(obj, []byte(key))
	if i < 0 {
		return nil
	}
	rest := obj[i+len(key):]
	q := bytes.IndexByte(rest, '"')
	if q < 0 || bytes.IndexByte(rest[:q], ',') >= 0 || bytes.IndexByte(rest[:q], '}') >= 0 {
		return nil
	}
	rest = rest[q+1:]
	e := bytes.IndexByte(rest, '"')
	if e < 0 {
		return nil
	}
	return rest[:e]
}

// isDataType reports a floating-point or narrow integer activation type, as
// opposed to INT32/INT64/BOOL shape and index tensors.
func isDataType(t string) bool {
	switch t {
	case FP32, TF32, FP16, BF16, INT8, UINT8, INT4, FP8, FP4:
		return true
	}
	return false
}

// precisionOf applies the rule above; tacticPrec is
// tacticPrecision(l.TacticName).
func precisionOf(l *engine.Layer, tacticPrec string, in, out []string) string {
	if p := tacticPrec; p != "" {
		return p
	}
	if p := weightsPrecision(l.Params); p != "" {
		return p
	}
	for _, t := range in {
		if isDataType(t) {
			return t
		}
	}
	for _, t := range out {
		if isDataType(t) {
			return t
		}
	}
	for _, t := range in {
		if t != Unknown {
			return t
		}
	}
	for _, t := range out {
		if t != Unknown {
			return t
		}
	}
	return Unknown
}
