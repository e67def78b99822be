package layerfacts

import (
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

// FuzzStrings checks the string parsers never panic and keep their
// invariants on arbitrary names, formats, tactics and metadata.
func FuzzStrings(f *testing.F) {
	for _, s := range []string{
		"Row major linear FP32", "Half", "N/A due to dynamic shapes", "__myl_Res_myl9_1",
		"[ONNX Layer: /a]␞[ONNX Layer: /b]\x1f[ONNX Layer: c]", "sm80_xmma_gemm_f16f16_tensor16x8x16",
		"PWN(PWN(Add_3), Relu_4)", "PWN([PARAMETRIC_RELU]-[aten_ops._prelu_kernel.default])", "__myl_MulGtrSele_myl3_1", "{ForeignNode[a...b]}", "x_myl99999999999999999999_1", "\xe2\x90", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := DataType(s); d == "" {
			t.Errorf("DataType(%q) empty", s)
		}
		if g := MyelinGraph(s); g < -1 {
			t.Errorf("MyelinGraph(%q) = %d", s, g)
		}
		for _, op := range SourceOps(s) {
			if op == "" || strings.ContainsAny(op, "\x1e\x1f") {
				t.Errorf("SourceOps(%q) gave %q", s, op)
			}
		}
		// Operation words are vocabulary words, each once, found in s.
		ws := OpWords(s)
		for i, w := range ws {
			if _, ok := wordTags[w]; !ok || slices.Contains(ws[:i], w) || !strings.Contains(strings.ToLower(s), w) {
				t.Errorf("OpWords(%q) = %q", s, ws)
			}
		}
		if c := ClassifyTactic(s); c.Family == "" {
			t.Errorf("ClassifyTactic(%q) has no family", s)
		}
		l := engine.Layer{Name: s, Type: s, TacticName: s, Metadata: s, Inputs: []engine.Tensor{{Format: s}}}
		fa := Derive(&l)
		if fa.FusedOps < 1 || !slices.IsSorted(fa.Tags) || fa.Precision == "" || fa.DerivedType == "" && s != "" {
			t.Errorf("Derive(%q) = %+v", s, fa)
		}
	})
}
