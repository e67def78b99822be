package layerfacts

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

// The scanners of this package are tuned for 10^5 layers (word tables,
// one-pass multi-pattern scans, shared op prefixes). These tests hold them
// to plain reference implementations of the same rules.

// refWordsTags: every maximal run of ASCII letters and digits, and its
// CamelCase parts, trailing digits stripped, looked up in wordTags.
func refWordsTags(s string) tagSet {
	lookup := func(w string) tagSet {
		for len(w) > 1 && w[len(w)-1] >= '0' && w[len(w)-1] <= '9' {
			w = w[:len(w)-1]
		}
		if len(w) < 2 || len(w) > 40 {
			return 0
		}
		return wordTags[strings.ToLower(w)]
	}
	isAlnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	var set tagSet
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r > 127 || !isAlnum(byte(r)) }) {
		set |= lookup(w)
		start := 0
		for i := 1; i < len(w); i++ {
			if w[i-1] >= 'a' && w[i-1] <= 'z' && w[i] >= 'A' && w[i] <= 'Z' {
				set |= lookup(w[start:i])
				start = i
			}
		}
		if start > 0 {
			set |= lookup(w[start:])
		}
	}
	return set
}

// refDataType: the first whole word (up to 16 bytes) that names a type.
func refDataType(format string) string {
	for _, w := range strings.FieldsFunc(format, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if len(w) > 16 {
			continue
		}
		for _, d := range dataTypeWords {
			if strings.ToLower(w) == d.word {
				return d.typ
			}
		}
	}
	return Unknown
}

// refClassifyTactic: the rows of tacticRules as substrings, in order.
func refClassifyTactic(tactic string) TacticClass {
	if tactic == "" {
		return TacticClass{Family: FamilyNone}
	}
	low := []byte(strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, tactic))
	var c TacticClass
	verdict := tcUnset
	for _, r := range tacticRules {
		if !bytes.Contains(low, []byte(r.Pattern)) {
			continue
		}
		if c.Family == "" {
			c.Family = r.Family
		}
		if verdict == tcUnset {
			verdict = r.TensorCore
		}
		if c.Arch == "" {
			c.Arch = r.Arch
		}
	}
	if sm := smPrefix(tactic); sm != "" {
		c.Arch = sm
		var n int
		if _, err := fmt.Sscanf(sm, "sm%d", &n); err == nil && verdict == tcUnset && n < 70 {
			verdict = tcNo // no tensor cores before Volta
		}
	}
	if c.Family == "" {
		c.Family = FamilyUnknown
	}
	switch verdict {
	case tcYes:
		c.TensorCore = TensorCoreYes
	case tcNo:
		c.TensorCore = TensorCoreNo
	}
	return c
}

// refSourceOps: split on every separator, unwrap, drop empty ops.
func refSourceOps(metadata string) []string {
	if strings.TrimSpace(metadata) == "" {
		return nil
	}
	var parts []string
	for rest := metadata; ; {
		at, width := -1, 0
		for _, sep := range []string{"␞", "␟", "\x1e", "\x1f"} {
			if i := strings.Index(rest, sep); i >= 0 && (at < 0 || i < at) {
				at, width = i, len(sep)
			}
		}
		if at < 0 {
			parts = append(parts, rest)
			break
		}
		parts = append(parts, rest[:at])
		rest = rest[at+width:]
	}
	ops := []string{}
	for _, part := range parts {
		part = strings.TrimSpace(part)
		if strings.HasPrefix(part, "[") && strings.HasSuffix(part, "]") {
			if i := strings.Index(part, "Layer:"); i > 0 {
				part = strings.TrimSpace(part[i+len("Layer:") : len(part)-1])
			}
		}
		if part != "" {
			ops = append(ops, part)
		}
	}
	return ops
}

// soup builds strings from pieces that exercise word boundaries, CamelCase,
// digits, separators, op wrappers and shared op prefixes.
func soup(r *rand.Rand, n int) string {
	pieces := []string{
		"Conv", "conv1", "QuantizeLinear", "MatMul", "_", "/", ".", " + ", "Softmax", "mha", "FMHA", "flash",
		"attention", "layerNorm", "LayerNorm", "Gelu", "Erf", "Reshape", "12", "3", "0x", "[ONNX Layer: ",
		"[ONNX Layer:", "[Plugin Layer: ", "]", "␞", "␟", "\x1e", "\x1f", "\xe2", "\xe2\x90", " ", "é", "K",
		"/model/layers.3/self_attn/", "/model/layers.3/self_attn/q_proj/", "/model/layers.4/mlp/",
		"Half", "FP16", "Int8", "Float", "BFloat16", "sm80_", "SM90_", "xmma", "h16816", "_tensor", "ffma",
		"CUBLASLT", "trt_", "__myl_", "AddMulMeanSub", "depthwise", "conv2d", "Identity", "NoOp",
	}
	var b strings.Builder
	for range r.Intn(n) {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.String()
}

func TestScannersMatchReference(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 20000 {
		s := soup(r, 24)
		if got, want := wordsTags(s), refWordsTags(s); got != want {
			t.Fatalf("wordsTags(%q) = %v, reference %v", s, got.strings(), want.strings())
		}
		if got, want := DataType(s), refDataType(s); got != want {
			t.Fatalf("DataType(%q) = %s, reference %s", s, got, want)
		}
		if got, want := ClassifyTactic(s), refClassifyTactic(s); got != want {
			t.Fatalf("ClassifyTactic(%q) = %+v, reference %+v", s, got, want)
		}
		if got, want := SourceOps(s), refSourceOps(s); !slices.Equal(got, want) {
			t.Fatalf("SourceOps(%q) = %q, reference %q", s, got, want)
		}
	}
}

// More than 64 ops: SourceOps remembers 64 separator positions, then
// searches again.
func TestSourceOpsManyOps(t *testing.T) {
	var parts []string
	for i := range 150 {
		parts = append(parts, "[ONNX Layer: /m/op"+strings.Repeat("x", i%7)+"]")
	}
	meta := strings.Join(parts, "␞")
	if got, want := SourceOps(meta), refSourceOps(meta); !slices.Equal(got, want) || len(got) != 150 {
		t.Fatalf("SourceOps: %d ops, reference %d; equal %v", len(got), len(want), slices.Equal(got, want))
	}
}

func FuzzScannersMatchReference(f *testing.F) {
	for _, s := range []string{
		"[ONNX Layer: /a/Conv]␞[ONNX Layer: /a/Relu]", "QuantizeLinear_7", "sm80_xmma_gemm_f16f16_tensor16x8x16",
		"Channel major FP16 format where channel % 8 == 0", "/m/layers.1/attn/MatMul\x1e/m/layers.1/attn/Softmax", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := wordsTags(s), refWordsTags(s); got != want {
			t.Errorf("wordsTags(%q) = %v, reference %v", s, got.strings(), want.strings())
		}
		if got, want := DataType(s), refDataType(s); got != want {
			t.Errorf("DataType(%q) = %s, reference %s", s, got, want)
		}
		if got, want := ClassifyTactic(s), refClassifyTactic(s); got != want {
			t.Errorf("ClassifyTactic(%q) = %+v, reference %+v", s, got, want)
		}
		if got, want := SourceOps(s), refSourceOps(s); !slices.Equal(got, want) {
			t.Errorf("SourceOps(%q) = %q, reference %q", s, got, want)
		}
	})
}

// Derive shares lock-free caches between goroutines (the analysis derives
// in parallel chunks): concurrent results equal sequential ones (run with
// -race to check the caches' synchronisation too).
func TestDeriveConcurrent(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	layers := make([]engine.Layer, 3000)
	for i := range layers {
		layers[i] = engine.Layer{
			Name: soup(r, 8), Type: []string{"kgen", "gemm", "Reformat", "CaskConvolution", "NoOp"}[r.Intn(5)],
			TacticName: soup(r, 5), Metadata: soup(r, 10),
			Inputs:  []engine.Tensor{{Format: soup(r, 3)}, {Format: "Half"}},
			Outputs: []engine.Tensor{{Format: soup(r, 3)}},
		}
	}
	want := make([]Facts, len(layers))
	for i := range layers {
		want[i] = Derive(&layers[i])
	}
	var wg sync.WaitGroup
	got := make([][]Facts, 4)
	for g := range got {
		got[g] = make([]Facts, len(layers))
		wg.Go(func() {
			for i := range layers {
				got[g][i] = Derive(&layers[(i+g*700)%len(layers)])
			}
		})
	}
	wg.Wait()
	for g := range got {
		for i := range layers {
			if w := want[(i+g*700)%len(layers)]; !reflect.DeepEqual(got[g][i], w) {
				t.Fatalf("goroutine %d, layer %d: %+v, sequentially %+v", g, i, got[g][i], w)
			}
		}
	}
}

// Myelin tactics that differ only in their hash share a cache entry: the
// facts must be those of each name on its own.
func TestTacticInfoIgnoresKernelHash(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	hex := "0123456789abcdef"
	for range 5000 {
		op := soup(r, 6)
		var h strings.Builder
		for range 1 + r.Intn(32) {
			h.WriteByte(hex[r.Intn(len(hex))])
		}
		tactic := "__myl_" + op + "_0x" + h.String()
		got := tacticInfoOf(tactic)
		want := tacticInfo{class: refClassifyTactic(tactic), precision: tacticPrecision(tactic), words: refWordsTags(tactic), wordsDone: true}
		if _, ok := hashFreeKey(tactic); !ok {
			want.words, want.wordsDone = 0, false
		}
		if got != want {
			t.Fatalf("tacticInfoOf(%q) = %+v, want %+v", tactic, got, want)
		}
	}
}
