package compare

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// lay is a test layer: name, metadata, derived type, precision, ms, and
// one input shape.
type lay struct {
	name, md, typ, prec string
	ms                  float64
	dims                []int64
	tags                []string
}

func backend(label string, ls ...lay) *contract.Backend {
	b := &contract.Backend{
		Label:      label,
		Validation: contract.BackendValidation{Status: contract.StatusPassed, AnalysisMode: contract.ModeLayerProfile},
		Timing:     &contract.Timing{},
	}
	for i, l := range ls {
		dims := l.dims
		if dims == nil {
			dims = []int64{1, 8}
		}
		b.Layers = append(b.Layers, contract.Layer{Name: l.name, LayerType: l.typ, Metadata: l.md,
			Inputs: []contract.Tensor{{Name: "x", Dimensions: dims, Format: "Row major linear FP16"}}})
		b.Records = append(b.Records, contract.Record{Name: l.name, Layer: i, LayerType: l.typ, Precision: l.prec, AvgMs: l.ms, Tags: l.tags})
		b.Timing.AverageInferenceMs += l.ms
	}
	one := int64(100)
	b.Count = &one
	return b
}

func pair(t *testing.T, a, b *contract.Backend) *contract.ComparisonPair {
	t.Helper()
	p, err := Pair(Side{Name: a.Label, Backend: a}, Side{Name: b.Label, Backend: b}, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkSums(t, p)
	return p
}

// checkSums: every breakdown and the aligned groups add up to delta_ms.
func checkSums(t *testing.T, p *contract.ComparisonPair) {
	t.Helper()
	near := func(what string, got float64) {
		if math.Abs(got-p.DeltaMs) > 1e-9*math.Max(1, math.Abs(p.DeltaMs)) {
			t.Errorf("%s sum to %.12f, delta_ms is %.12f", what, got, p.DeltaMs)
		}
	}
	for name, rows := range map[string][]contract.GroupDelta{"by_type": p.ByType, "by_precision": p.ByPrec, "by_region": p.ByRegion} {
		s := 0.0
		for _, r := range rows {
			s += r.DeltaMs
		}
		near(name, s)
	}
	s := p.RowsOmittedDeltaMs
	for _, r := range p.Rows {
		s += r.DeltaMs
	}
	near("rows + rows_omitted_delta_ms", s)
}

func TestPairAlignsAcrossExports(t *testing.T) {
	// A: an ONNX export through trtexec; B: the same network renumbered by
	// another export, with the pooling fused into the conv and a Q layer gone.
	a := backend("a",
		lay{name: "QuantizeLinear_2", typ: "Reformat", prec: "FP32", ms: 0.1, tags: []string{"quantize", "reformat"}},
		lay{name: "conv1.weight + QuantizeLinear_7 + Conv_9", typ: "CaskConvolution", prec: "INT8", ms: 0.3, dims: []int64{32, 3, 224, 224}},
		lay{name: "MaxPool_12", typ: "TiledPooling", prec: "FP32", ms: 0.1, dims: []int64{32, 64, 112, 112}},
		lay{name: "QuantizeLinear_15", typ: "Reformat", prec: "FP16", ms: 0.05, tags: []string{"quantize", "reformat"}},
		lay{name: "layer1.0.conv1.weight + QuantizeLinear_20 + Conv_22", typ: "CaskConvolution", prec: "INT8", ms: 0.2},
		lay{name: "/head/Gemm", md: "[ONNX Layer: /head/Gemm]", typ: "CaskGemmConvolution", prec: "FP16", ms: 0.1},
		lay{name: "GlobalAveragePool_40", typ: "CudaPooling", prec: "FP32", ms: 0.02, dims: []int64{32, 512, 7, 7}},
	)
	b := backend("b",
		lay{name: "QuantizeLinear_2", typ: "Reformat", prec: "FP32", ms: 0.1, tags: []string{"quantize", "reformat"}},
		lay{name: "conv1.weight + QuantizeLinear_7 + Conv_9 + MaxPool_12", typ: "ConvActPool", prec: "INT8", ms: 0.2, dims: []int64{32, 3, 224, 224}},
		lay{name: "layer1.0.conv1.weight + QuantizeLinear_31 + Conv_33", typ: "CaskConvolution", prec: "INT8", ms: 0.18},
		lay{name: "__myl_MulSumAdd_myl3_1", md: "[ONNX Layer: /head/Gemm]", typ: "kgen", prec: "FP16", ms: 0.08},
		lay{name: "GlobalAveragePool_52", typ: "CaskPooling", prec: "FP32", ms: 0.02, dims: []int64{32, 512, 7, 7}},
	)
	p := pair(t, a, b)
	al := p.Alignment
	if al.Matched != 4 || al.Merged != 1 || al.OnlyA != 1 || al.OnlyB != 0 {
		t.Errorf("alignment %+v: want 4 matched (Q by name, conv by weight, Gemm by metadata, pool by op kind), conv1+MaxPool merged, QuantizeLinear_15 only in A", al)
	}
	if al.ComputeAlignedPct != 100 {
		t.Errorf("compute aligned %.1f %%, want 100", al.ComputeAlignedPct)
	}
	if len(p.OneSided) != 1 || p.OneSided[0] != (contract.OneSidedKind{Side: "a", Kind: "qdq", Count: 1, Ms: 0.05}) {
		t.Errorf("one-sided %+v: want the standalone Q of A", p.OneSided)
	}
	if p.Verdict != contract.VerdictBFaster || p.Measure != contract.MeasureLayerSum {
		t.Errorf("verdict %s on %s, want b_faster on layer_sum", p.Verdict, p.Measure)
	}
	if !strings.Contains(strings.Join(p.Reasons, "\n"), "fused differently") {
		t.Errorf("reasons do not name the fusion:\n%s", strings.Join(p.Reasons, "\n"))
	}
	var merged *contract.AlignedRow
	for i := range p.Rows {
		if p.Rows[i].Kind == "merged" {
			merged = &p.Rows[i]
		}
	}
	if merged == nil || !slices.Equal(merged.ALayers, []int{1, 2}) || !slices.Equal(merged.BLayers, []int{1}) || merged.Stage != stageSourceOp {
		t.Errorf("merged row %+v: want A layers 1,2 ↔ B layer 1 by source op", merged)
	}
}

func TestPairSameEngineAndNoise(t *testing.T) {
	mk := func(label string, f float64) *contract.Backend {
		return backend(label,
			lay{name: "conv", typ: "CaskConvolution", prec: "FP16", ms: 1 * f},
			lay{name: "gemm", typ: "CaskGemmConvolution", prec: "FP16", ms: 2 * f},
		)
	}
	for _, c := range []struct {
		name string
		f    float64
		want string
		same bool
	}{
		{"identical", 1, contract.VerdictSameEngine, true},
		{"within noise", 1.01, contract.VerdictSameEngine, true},
		{"beyond noise", 1.2, contract.VerdictBSlower, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := pair(t, mk("a", 1), mk("b", c.f))
			if p.Verdict != c.want || p.SameEngine != c.same {
				t.Errorf("verdict %s same %v, want %s %v (%s)", p.Verdict, p.SameEngine, c.want, c.same, p.Summary)
			}
			if FailAbove(p, 5) != (c.f > 1.1) {
				t.Errorf("FailAbove(5 %%) = %v at +%.0f %% with noise ±%.1f %%", FailAbove(p, 5), (c.f-1)*100, p.Noise.Pct)
			}
		})
	}
	// Another tactic on one layer: not the same engine.
	b := mk("b", 1)
	b.Records[0].Tactic = "other"
	if p := pair(t, mk("a", 1), b); p.SameEngine || p.Verdict != contract.VerdictWithinNoise {
		t.Errorf("a changed tactic: same %v verdict %s, want a different engine within noise", p.SameEngine, p.Verdict)
	}
}

func TestPairMeasure(t *testing.T) {
	a := backend("a", lay{name: "x", typ: "t", prec: "FP16", ms: 2})
	b := backend("b", lay{name: "x", typ: "t", prec: "FP16", ms: 1})
	gpuA, gpuB := 1.0, 0.6
	a.Timing.EndToEnd = &contract.EndToEnd{Iterations: 100, MedianMs: 1.5, P90Ms: 1.51, ComputeMeanMs: &gpuA}
	p := pair(t, a, b)
	if p.Measure != contract.MeasureLayerSum || p.MeasureNote == "" {
		t.Errorf("only A measured: measure %s note %q, want layer_sum with a note", p.Measure, p.MeasureNote)
	}
	b.Timing.EndToEnd = &contract.EndToEnd{Iterations: 100, MedianMs: 0.9, P90Ms: 0.91, ComputeMeanMs: &gpuB}
	p = pair(t, a, b)
	if p.Measure != contract.MeasureGPUCompute || p.AMs != 1 || p.BMs != 0.6 || p.AScale != 0.5 || math.Abs(p.BScale-0.6) > 1e-12 {
		t.Errorf("both measured: %s a %g b %g scales %g %g, want gpu_compute 1 / 0.6 with scales 0.5 / 0.6", p.Measure, p.AMs, p.BMs, p.AScale, p.BScale)
	}
}

func TestPairMeasuredTiming(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	n := 500
	measured := func(median, p90 float64) *contract.Measured {
		return &contract.Measured{Source: contract.MeasuredSource{Kind: contract.SourceTrexProfileMeta}, Samples: &n,
			GPUComputeMs: contract.Stats{Median: f(median), P90: f(p90)}, LatencyMs: contract.Stats{Median: f(median + 0.1)}}
	}
	a := backend("a", lay{name: "x", typ: "t", prec: "FP16", ms: 2}, lay{name: "y", typ: "t", prec: "FP16", ms: 2})
	b := backend("b", lay{name: "x", typ: "t", prec: "FP16", ms: 1}, lay{name: "y", typ: "t", prec: "INT8", ms: 3})
	a.Timing.Measured, b.Timing.Measured = measured(2.0, 2.1), measured(2.02, 2.03)
	p := pair(t, a, b)
	if p.Measure != contract.MeasureGPUCompute || p.AMs != 2 || p.BMs != 2.02 {
		t.Errorf("measure %s a %g b %g, want gpu_compute medians 2 and 2.02", p.Measure, p.AMs, p.BMs)
	}
	// A's p90 is 5 % over its median: +1 % is noise, not a regression.
	if p.Noise.APct != 5 || p.Verdict != contract.VerdictWithinNoise {
		t.Errorf("noise %+v verdict %s, want A at ±5 %% and within noise", p.Noise, p.Verdict)
	}
}

func TestPairRefusesUninterpretableBackends(t *testing.T) {
	ok := backend("ok", lay{name: "x", typ: "t", prec: "FP16", ms: 1})
	failed := backend("bad")
	failed.Validation.Status = contract.StatusFailed
	failed.Validation.AnalysisMode = contract.ModeUnusable
	failed.Validation.Messages = []contract.Message{{Level: contract.LevelError, Code: "name_mismatch"}}
	layerOnly := backend("lo")
	layerOnly.Validation.AnalysisMode = contract.ModeLayerOnly
	for _, b := range []*contract.Backend{failed, layerOnly} {
		if _, err := Pair(Side{Name: "a", Backend: ok}, Side{Name: "b", Backend: b}, 5); err == nil {
			t.Errorf("%s: comparing a backend without usable timing must fail", b.Label)
		}
	}
}

func TestSectionBaseline(t *testing.T) {
	d := &contract.AnalyzeData{Results: []contract.Backend{
		*backend("fp32", lay{name: "x", typ: "t", prec: "FP32", ms: 3}),
		*backend("fp16", lay{name: "x", typ: "t", prec: "FP16", ms: 1}),
		*backend("int8", lay{name: "x", typ: "t", prec: "INT8", ms: 2}),
	}}
	c, err := Section(d, "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Baseline != "fp16" || c.BaselineReason != "fastest" || len(c.Pairs) != 2 || c.Pairs[0].B != "fp32" || c.Pairs[1].B != "int8" {
		t.Errorf("section %+v: want fp16 (fastest) against fp32 and int8", c)
	}
	if c, err = Section(d, "fp32"); err != nil || c.Baseline != "fp32" || c.BaselineReason != "chosen" {
		t.Errorf("--baseline fp32: %+v, %v", c, err)
	}
	if _, err := Section(d, "nope"); err == nil || !strings.Contains(err.Error(), "fp32, fp16, int8") || !errors.Is(err, ErrUnknownBaseline) {
		t.Errorf("unknown baseline: %v, want an error listing the backends", err)
	}
	d.Results = d.Results[:1]
	if c, err := Section(d, ""); c != nil || err != nil {
		t.Errorf("one backend: %+v, %v; want no section", c, err)
	}
}

func TestModulePath(t *testing.T) {
	for in, want := range map[string]string{
		"/layer1/layer1.0/conv1/Conv":                    "layer1.0.conv1",
		"/layer1/0/conv1/convolution_1":                  "layer1.0.conv1",
		"/features/features.6/conv/conv.0/conv.0.0/Conv": "features.6.conv.0.0",
		"/features/6/conv_0/0/convolution_3":             "features.6.conv.0.0",
		"/features_0/0/convolution":                      "features.0.0",
		"/classifier/classifier_1/Gemm":                  "classifier.1",
		"/model/layers.0/self_attn/q_proj/MatMul":        "model.layers.0.self_attn.q_proj",
		"features.5.conv.2.weight":                       "features.5.conv.2",
		"fc.bias":                                        "fc",
		"Conv_12":                                        "",
		"/Conv":                                          "",
		"(Unnamed Layer* 58) [ElementWise]":              "",
	} {
		if got := modulePath(in); got != want {
			t.Errorf("modulePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLayerKeys(t *testing.T) {
	has := func(ks []key, s string) bool {
		return slices.ContainsFunc(ks, func(k key) bool { return k.String() == s })
	}
	for _, c := range []struct {
		name, md string
		want     []string
		not      []string
	}{
		{name: "features.0.0.weight + QuantizeLinear_8 + Conv_12 + PWN(Clip_16)",
			want: []string{"features.0.0.weight", "module features.0.0", "QuantizeLinear_8", "Clip_16"}},
		{name: "[CONVOLUTION]-[aten_ops.convolution.default]-[/layer1/0/conv1/convolution_1] + [SCALE]-[aten_ops.x]-[/layer1/0/bn1/bn_1]",
			want: []string{"/layer1/0/conv1/convolution_1", "module layer1.0.conv1", "module layer1.0.bn1"}},
		{name: "__myl_MulSumAdd_myl24_1", md: "[ONNX Layer: /fc/Gemm]␞[ONNX Layer: /fc/Add]",
			want: []string{"/fc/Gemm", "module fc"}},
		{name: "Reformatting CopyNode for Input Tensor 0 to /conv1/Conv + /relu/Relu",
			want: []string{"copy Input Tensor 0:/conv1/Conv", "copy Input Tensor 0:module conv1"}, not: []string{"/conv1/Conv"}},
		{name: "{ForeignNode[fc.weight...(Unnamed Layer* 58) [ElementWise]]}", want: []string{"fc.weight", "module fc"}},
		{name: "reshape_after_/fc/Gemm", md: "[ONNX Layer: /fc/Gemm]", want: []string{"reshape:/fc/Gemm"}, not: []string{"/fc/Gemm"}},
	} {
		ks := layerKeys(nil, c.name, c.md)
		for _, w := range c.want {
			if !has(ks, w) {
				t.Errorf("%q: no key %q in %v", c.name, w, ks)
			}
		}
		for _, w := range c.not {
			if has(ks, w) {
				t.Errorf("%q: key %q must not be there (a wrapper never pairs with the op it serves)", c.name, w)
			}
		}
	}
}

func TestStripMyelinSuffix(t *testing.T) {
	for in, want := range map[string]string{
		"/a/Gemm_myl9_2": "/a/Gemm", "__myl_Add_myl0_128": "__myl_Add", "conv_myl": "conv_myl",
		"x_myl3_": "x_myl3_", "plain": "plain", "a_mylX_1": "a_mylX_1",
	} {
		if got := stripMyelinSuffix(in); got != want {
			t.Errorf("stripMyelinSuffix(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzLayerKeys: any name and metadata give keys without panicking, and
// module paths are dotted paths without empty segments.
func FuzzLayerKeys(f *testing.F) {
	for _, s := range []string{
		"features.0.0.weight + QuantizeLinear_8 + Conv_12 + PWN(PWN(Clip_16), Add_3)",
		"[CONVOLUTION]-[aten_ops.convolution.default]-[/layer1/0/conv1/convolution_1]",
		"Reformatting CopyNode for Input Tensor 0 to {ForeignNode[a...b]}",
		"/features/features.6/conv/conv.0/conv.0.0/Conv", "reshape_after_/fc/Gemm_myl3_4", "PWN(", "((", "a/b//c/",
	} {
		f.Add(s, "[ONNX Layer: /a/b/Conv]\x1e[ONNX Layer: x]␟y")
	}
	f.Fuzz(func(t *testing.T, name, md string) {
		for _, k := range layerKeys(nil, name, md) {
			if k.kind == keyModule && (k.s == "" || strings.Contains(k.s, "..") || strings.HasPrefix(k.s, ".") || strings.HasSuffix(k.s, ".")) {
				t.Errorf("module path %q from %q", k.s, name)
			}
		}
		_ = firstModule(name, md)
		_ = block(name)
	})
}
