package mdcheck

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

func ptr[T any](v T) *T { return &v }

// fixture is a small two-backend analysis with the numbers the cases quote.
func fixture() *contract.AnalyzeData {
	rec := func(name, typ, prec string, avg, pct float64) contract.Record {
		return contract.Record{Name: name, LayerType: typ, Precision: prec, AvgMs: avg, TimeMs: avg, MedianMs: ptr(avg), Percentage: pct}
	}
	layer := func(name, in, out string) contract.Layer {
		return contract.Layer{Name: name, Inputs: []contract.Tensor{{Name: in}}, Outputs: []contract.Tensor{{Name: out}}}
	}
	stem := rec("conv1.weight + QuantizeLinear_7 + Conv_9", "CaskConvolution", "INT8", 0.201728, 18.4112)
	stem.Roofline = &contract.RecordRoofline{TimeMs: 0.201728, AchievedTFLOPS: 141.8, AttainableTFLOPS: ptr(623.7), PctOfAttainable: ptr(22.735)}
	return &contract.AnalyzeData{Results: []contract.Backend{
		{
			Label: "int8-qat",
			Layers: []contract.Layer{
				layer("QuantizeLinear_2", "input", "q2"),
				layer("conv1.weight + QuantizeLinear_7 + Conv_9", "q2", "c9"),
				layer("MaxPool_12", "c9", "/maxpool/out"),
			},
			Records: []contract.Record{
				rec("QuantizeLinear_2", "Reformat", "FP32", 0.06144, 5.60748),
				stem,
				rec("MaxPool_12", "TiledPooling", "FP32", 0.095232, 8.69159),
			},
			Timing:             &contract.Timing{TotalMs: 1.09568, AverageInferenceMs: 1.09568, MedianInferenceMs: ptr(1.09568)},
			TypeBreakdown:      []contract.Breakdown{{Name: "CaskConvolution", TimeMs: 0.710656, Percentage: 64.8598}, {Name: "Reformat", TimeMs: 0.278528, Percentage: 25.4206}},
			PrecisionBreakdown: []contract.Breakdown{{Name: "INT8", TimeMs: 0.710656, Percentage: 64.8598}, {Name: "FP32", TimeMs: 0.193536, Percentage: 17.6636}},
			TagBreakdown:       []contract.Breakdown{{Name: "reformat", TimeMs: 0.278528, Percentage: 25.4206}},
			Device:             &contract.Device{Name: "NVIDIA A100 80GB PCIe"},
			Issues:             []contract.Finding{{ID: "reformat_overhead", Layers: []int{0}, RecoverableMs: 0.0417, NextCheck: "Check that the activations are fused into the convolution names (`Conv + Relu`)."}},
			Concentration:      &contract.Concentration{Layers50: 1, Layers80: 2, Layers90: 3},
		},
		{
			Label:   "int8-qat-residual",
			Layers:  []contract.Layer{layer("QuantizeLinear_2", "input", "q2")},
			Records: []contract.Record{rec("QuantizeLinear_2", "Reformat", "FP32", 0.095232, 13.0252)},
			Timing:  &contract.Timing{TotalMs: 0.731136, AverageInferenceMs: 0.731136},
		},
	}}
}

const okDoc = "# ResNet18 QAT\n\n## Summary\n\nThe `int8-qat` engine takes 1.096 ms per inference.\n\n## Details\n\n### Facts\n\n- `Reformat` layers take 25.4% (0.279 ms).\n"

func TestCheck(t *testing.T) {
	cases := []struct {
		name string
		md   string
		want []string // substrings of the problems, in order; none means PASS
	}{
		{"ok", okDoc, nil},
		{"ok crlf and bom", "\ufeff" + strings.ReplaceAll(okDoc, "\n", "\r\n"), nil},
		{"setext headings", "Summary\n-------\ntext\n\nDetails\n-------\nmore\n", nil},
		{"no title needed", "## Summary\nx\n## Details\ny\n", nil},
		{"missing details", "## Summary\nx\n", []string{"document: no ## Details"}},
		{"missing both", "just text\n", []string{"document: no ## Summary", "document: no ## Details"}},
		{"wrong order", "## Details\nx\n## Summary\ny\n", []string{"line 3: ## Summary must come before ## Details"}},
		{"extra section", "## Summary\nx\n## Findings\ny\n## Details\nz\n", []string{`line 3: section "## Findings" is not allowed`}},
		{"lowercase title", "## summary\nx\n## Details\ny\n", []string{"document: no ## Summary", "write the title exactly"}},
		{"duplicate", "## Summary\nx\n## Details\ny\n## Details\nz\n", []string{"line 5: second ## Details (the first is on line 3)"}},
		{"second title", "# A\n## Summary\nx\n# B\n## Details\ny\n", []string{`line 4: level-1 heading "B"`}},
		{"empty section", "## Summary\n\n## Details\ny\n", []string{"line 1: ## Summary is empty"}},
		{"headings in code ignored", "## Summary\nx\n```\n## Not a section\n```\n## Details\ny\n", nil},
		{"indented code ignored", "## Summary\nx\n\n    ## code\n\n## Details\ny\n", nil},
		{"tilde fence", "## Summary\nx\n~~~md\n## nope\n`Conv_99` 3%\n~~~\n## Details\ny\n", nil},

		{"known layer names", "## Summary\n`conv1.weight + QuantizeLinear_7 + Conv_9` and `MaxPool_12` and `Conv_9` (a fused op)\n## Details\ntensor `/maxpool/out`, finding `reformat_overhead`, `FP16/INT8`? no\n", []string{"`FP16/INT8` is not a layer name"}},
		{"unknown layer", "## Summary\nx\n## Details\n`Conv_99` is slow; `/layer1/Add` too\n", []string{"line 4: `Conv_99` is not a layer name", "line 4: `/layer1/Add` is not a layer name"}},
		{"shortened evidence name", "## Summary\nx\n## Details\n`fc.weight + …_output` is slow\n", []string{"copy the full name from records"}},
		{"not layer-like", "## Summary\nrun `trtperf analyze dumps/ --output x.json`, see `results[0].issues`, `validation.status`, `--layerPrecisions=MaxPool_12:int8`, `analyze-data.json`, `dumps/layers_fp16.json`, `int8`\n## Details\ny\n", nil},

		{"layer share ok", "## Summary\n`MaxPool_12` takes 8.69% (0.0952 ms)\n## Details\ny\n", nil},
		{"rounded", "## Summary\n`MaxPool_12` 8.7%, `QuantizeLinear_2` 5.6%, `conv1.weight + QuantizeLinear_7 + Conv_9` 18.41% 0.20 ms\n## Details\ny\n", nil},
		{"truncated is not rounded", "## Summary\n`MaxPool_12` 0.09 ms\n## Details\ny\n", []string{"0.09 ms after `MaxPool_12` matches none"}},
		{"layer then precision then share", "## Summary\n`MaxPool_12` runs in `FP32` at 8.7%; `FP32` is 17.7% overall\n## Details\ny\n", nil},
		{"two items, neither matches", "## Summary\n`MaxPool_12` runs in `FP32` at 40%\n## Details\ny\n", []string{"40% after `MaxPool_12` / `FP32` matches none of their values (closest: `FP32` (precision) percentage 17.664% in `int8-qat`) and is not a sum, difference, ratio or percent change of this sentence's numbers; quote the data's value rounded, or give a number about something else its own sentence — in: \"`MaxPool_12` runs in `FP32` at 40%\""}},
		{"layer share wrong", "## Summary\nx\n## Details\n- `MaxPool_12` takes 12.5% of the time\n", []string{"line 4: 12.5% after `MaxPool_12` matches none of their values (closest: `MaxPool_12` (layer) percentage 8.6916% in `int8-qat`"}},
		{"layer ms wrong", "## Summary\nx\n## Details\n`MaxPool_12`: 0.2 ms\n", []string{"line 4: 0.2 ms after `MaxPool_12` matches none of their values (closest: `MaxPool_12` (layer) avg_ms 0.095232 ms in `int8-qat`"}},
		{"microseconds", "## Summary\n`MaxPool_12`: 95 µs, `QuantizeLinear_2`: 61 us\n## Details\ny\n", nil},
		{"same name in two backends", "## Summary\n`QuantizeLinear_2` is 13.0% in `int8-qat-residual` and 5.6% in `int8-qat`\n## Details\ny\n", nil},
		{"type and precision", "## Summary\nx\n## Details\n`CaskConvolution` 64.9%, `INT8` 64.86%, `FP32` 30%, `reformat` 25.42%\n", []string{"30% after `FP32` matches none of their values (closest: `FP32` (precision) percentage 17.664% in `int8-qat`"}},
		{"only first number is the item's", "## Summary\n`Reformat` takes 25.4% of the time, of which 17.7% is `FP32`\n## Details\ny\n", nil},
		{"a number bound to nothing is still checked", "## Summary\n`Reformat` takes 25.4% of the time, of which 21.2% is Q/DQ\n## Details\ny\n", []string{"21.2% is not a number of any backend in the data"}},
		{"an invented difference between builds", "## Summary\n`int8-qat` spends 7.7777 ms more in `Reformat` layers than `int8-qat-residual`.\n## Details\ny\n", []string{"7.7777 ms is not a number of `int8-qat` / `int8-qat-residual`"}},
		{"an invented cost of a kind of layer", "## Summary\nStandalone quantize layers cost 7.7777 ms.\n## Details\ny\n", []string{"7.7777 ms is not a number of any backend in the data"}},
		{"an invented slowdown", "## Summary\nThe engine is 7.7777 ms slower.\n## Details\ny\n", []string{"7.7777 ms is not a number of any backend"}},
		{"a real slowdown between totals", "## Summary\nThe engine is 0.365 ms slower (1.5× the time, 50% more).\n## Details\ny\n", nil},
		{"an invented ratio", "## Summary\n`int8-qat` takes 2.5× the time of `int8-qat-residual`.\n## Details\ny\n", []string{"2.5× is not a number of `int8-qat` / `int8-qat-residual`"}},
		{"a layer's number may be its owner's", "## Summary\n`QuantizeLinear_2` is worth 0.0417 ms if removed.\n## Details\ny\n", nil},
		{"but not another finding's", "## Summary\n`MaxPool_12` is worth 0.0417 ms if removed.\n## Details\ny\n", []string{"0.0417 ms after `MaxPool_12` matches none"}},
		{"concentration cut-offs", "## Summary\nIn `int8-qat` 1 layer makes 50% of the time, 2 make 80% and 3 make 90%.\n## Details\ny\n", nil},
		{"a pattern the tool's own advice quotes", "## Summary\nx\n## Details\nRebuild and look for `Conv + Relu` in the layer names; `Conv + Gelu` is not there.\n", []string{"`Conv + Gelu` is not a layer name"}},
		{"a number in the GPU's name", "## Summary\nThe engines ran on an NVIDIA A100 80GB PCIe; 80GB of weights would not fit.\n## Details\ny\n", []string{"80GB is not a number of any backend"}},
		{"a layer's roofline position", "## Summary\n`conv1.weight + QuantizeLinear_7 + Conv_9` runs at 141.8 TFLOP/s, 22.7% of its roof (623.7 TFLOP/s); not 300 TFLOP/s.\n## Details\ny\n", []string{"300 TFLOP/s"}},
		{"a sum of record references", "## Summary\nIn `int8-qat`, `records[0]`, `records[1]` and `records[2]` take 32.71% together, with `Reformat` below 30%.\n## Details\ny\n", nil},
		{"shapes are not ratios", "## Summary\nThe input is 32×3×224×224 (32x3x224x224).\n## Details\ny\n", nil},
		{"a record reference stands for a long name", "## Summary\n`records[2]` in `int8-qat` takes 8.69% (0.0952 ms); `records[2]` 12%.\n## Details\ny\n", []string{"12% after `records[2]` matches none"}},
		{"the previous sentence's numbers", "## Summary\n`Reformat` takes 0.279 ms of `int8-qat`'s 1.096 ms. That is 25% of it.\n## Details\ny\n", nil},
		{"item ms may be the total it is part of", "## Summary\n`Reformat` takes 25.4% of 1.096 ms\n## Details\ny\n", nil},
		{"numbers in names are not quantities", "## Summary\n`MaxPool_12` feeds layer4.1 and Conv_9 x2 3%\n## Details\ny\n", []string{"3% after `MaxPool_12`"}},
		{"numbers inside code are not read", "## Summary\n`MaxPool_12` `99%`\n## Details\ny\n", nil},

		{"total ok", "## Summary\nTotal inference time is 1.096 ms; the residual build 0.731 ms per inference.\n## Details\ny\n", nil},
		{"total wrong", "## Summary\nx\n## Details\nThe average inference time is 1.5 ms.\n", []string{"line 4: 1.5 ms is quoted as a total/inference time but no backend has it (closest: `int8-qat` timing.average_inference_ms 1.0957 ms; int8-qat average_inference_ms 1.0957, int8-qat-residual average_inference_ms 0.73114)"}},
		{"total after", "## Summary\nx\n## Details\nIt costs 2 ms total.\n", []string{"line 4: 2 ms is quoted as a total"}},
		{"part sums are not totals", "## Summary\nx\n## Details\nThe three layers take 0.35 ms, 32% of the total.\n", nil},
		{"backend label total", "## Summary\n`int8-qat-residual`: 0.731 ms; `int8-qat`: 2.0 ms\n## Details\ny\n", []string{"2.0 ms after `int8-qat` matches none of their values (closest: `int8-qat` timing.average_inference_ms 1.0957 ms"}},
		{"numbers bind within a sentence", "## Summary\nThe slowest layer is `MaxPool_12`. The reformats cost 25% and 0.3 ms.\n## Details\ny\n", nil},
		{"abbreviations and decimals do not end a sentence", "## Summary\n`MaxPool_12`, e.g. the pool, takes 9.1%.\n## Details\ny\n", []string{"9.1% after `MaxPool_12`"}},
		{"a label is context, not a layer", "## Summary\nIn `int8-qat` the reformats take 0.279 ms.\n## Details\ny\n", nil},
		{"a label right before a number is its total", "## Summary\n`int8-qat` takes 1.1 ms; `int8-qat-residual` (0.731 ms) is faster.\n## Details\ny\n", nil},
		{"sum of named items", "## Summary\n`QuantizeLinear_2` and `MaxPool_12` together take 14.3% (0.157 ms).\n## Details\ny\n", nil},
		{"sum of quoted numbers", "## Summary\n`Reformat` 25.4% and `CaskConvolution` 64.9% make 90.3%.\n## Details\ny\n", nil},
		{"difference across backends", "## Summary\n`QuantizeLinear_2` takes 0.095 ms in `int8-qat-residual`, 0.034 ms more than in `int8-qat`.\n## Details\ny\n", nil},
		{"percent change", "## Summary\n`QuantizeLinear_2` takes 0.095 ms in `int8-qat-residual` and 0.061 ms in `int8-qat`, 55% more.\n## Details\ny\n", nil},
		{"share of a total", "## Summary\n`int8-qat` spends 0.279 ms of its 1.096 ms in `Reformat`, 25%.\n## Details\ny\n", nil},
		{"invented sum", "## Summary\n`QuantizeLinear_2` and `MaxPool_12` together take 21%.\n## Details\ny\n", []string{"21% after `QuantizeLinear_2` / `MaxPool_12` matches none"}},
		{"invented percent change", "## Summary\n`QuantizeLinear_2` takes 0.095 ms in `int8-qat-residual` and 0.061 ms in `int8-qat`, 80% more.\n## Details\ny\n", []string{"80% after `QuantizeLinear_2`"}},
		{"sum of three named layers, parts rounded", "## Summary\n`QuantizeLinear_2`, `conv1.weight + QuantizeLinear_7 + Conv_9` and `MaxPool_12` take 32.71% (0.358 ms) together.\n## Details\ny\n", nil},
		{"sum of rounded parts", "## Summary\n`QuantizeLinear_2` (5.61%) and `MaxPool_12` (8.69%) take 14.30% together.\n## Details\ny\n", nil},
		{"invented sum of three", "## Summary\n`QuantizeLinear_2`, `conv1.weight + QuantizeLinear_7 + Conv_9` and `MaxPool_12` take 35.1% together.\n## Details\ny\n", []string{"35.1% after `QuantizeLinear_2` / `conv1.weight + QuantizeLinear_7 + Conv_9` / `MaxPool_12` matches none of their values (closest: `conv1.weight + QuantizeLinear_7 + Conv_9` (layer) roofline.pct_of_attainable 22.735% in `int8-qat`; their percentage in `int8-qat` add up to 32.71%)"}},
		{"a part's total is not the inference's", "## Summary\nIn `int8-qat`, 12 reformats take a total of 0.279 ms.\n## Details\ny\n", nil},
		{"the engine's total still is", "## Summary\nIn `int8-qat` the total inference time is 1.3 ms.\n## Details\ny\n", []string{"1.3 ms is quoted as a total"}},
		{"threshold after a precision", "## Summary\n`FP32` layers below 5 % and `FP16` layers under 1% are left alone; `int8-qat` layers > 2 % are listed.\n## Details\ny\n", nil},
		{"a precision's share is still checked", "## Summary\n`FP32` layers take 5 %.\n## Details\ny\n", []string{"5 % after `FP32` matches none"}},
		{"backend references are not layer names", "## Summary\n`compare runs/a.json#int8-qat runs/b.json#int8-qat-residual` and `runs/a.json#int8-qat`\n## Details\ny\n", nil},
		{"an unknown backend reference is still checked", "## Summary\n`runs/a.json#nope` x\n## Details\ny\n", []string{"`runs/a.json#nope` is not a layer name"}},
		{"a name after its number", "## Summary\n`reformat_overhead` is the finding, with 17.7% of the time in `FP32` and 0.279 ms in `Reformat`.\n## Details\ny\n", nil},
		{"a wrong number before a name is still wrong", "## Summary\n`reformat_overhead` is the finding, with 19.7% of the time in `FP32`.\n## Details\ny\n", []string{"19.7% after `reformat_overhead`"}},
		{"a layer's cost per inference is not a total", "## Summary\nThe input reformat `QuantizeLinear_2` takes 0.061 ms per inference.\n## Details\ny\n", nil},
		{"an engine's time per inference is a total", "## Summary\nThe engine takes 0.5 ms per inference.\n## Details\ny\n", []string{"0.5 ms is quoted as a total"}},
		{"a sentence ends after emphasis", "## Summary\n**`MaxPool_12` is slow.** The reformats cost 25%.\n## Details\ny\n", nil},
		{"heading spans checked", "## Summary\nx\n## Details\n### `Conv_98` is hot\n", []string{"line 4: `Conv_98` is not a layer name"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ps := Check([]byte(tc.md), fixture())
			got := make([]string, len(ps))
			for i, p := range ps {
				got[i] = p.String()
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d problems %q, want %d like %q", len(got), got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestCheckNilDataChecksSectionsOnly(t *testing.T) {
	ps := Check([]byte("## Summary\n`Conv_99` 50%\n## Details\ny\n"), nil)
	if len(ps) != 0 {
		t.Fatalf("problems %v, want none without data", ps)
	}
}

func TestCodeSpans(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"a `b` c", []string{"b"}},
		{"``a ` b``", []string{"a ` b"}},
		{"` x `", []string{"x"}},
		{"`unclosed", nil},
		{"\\`not code` `yes`", []string{" "}}, // the escaped tick opens nothing; "` `" is a span
		{"`a``b`", []string{"a``b"}},
	}
	for _, tc := range cases {
		var got []string
		for _, s := range codeSpans(tc.in) {
			got = append(got, s.text)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("codeSpans(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestQuotes(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"takes 25.4% and 1.096 ms", []string{"25.4%", "1.096 ms"}},
		{"95µs or 12 us", []string{"95µs", "12 us"}},
		{"layer4.1 5ms Conv_9 3 msg x2.5%", []string{"5ms"}},
		{"100%", []string{"100%"}},
		{"1.5 mss", nil},
	}
	for _, tc := range cases {
		var got []string
		for _, q := range quotes(tc.in, 0) {
			got = append(got, q.text)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("quotes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A total quoted from the measured end-to-end latency is a real total, not
// a contradiction of the profiled sum.
func TestEndToEndTotalsAreAccepted(t *testing.T) {
	d := &contract.AnalyzeData{Results: []contract.Backend{{
		Label: "fp16",
		Timing: &contract.Timing{TotalMs: 1.0168, AverageInferenceMs: 1.0168,
			EndToEnd: &contract.EndToEnd{MeanMs: 0.8624, MedianMs: 0.8622, P99Ms: 0.8706}},
	}}}
	ok := "## Summary\nThe engine takes 0.862 ms per inference end to end (total 1.017 ms profiled).\n\n## Details\nNothing else.\n"
	if ps := Check([]byte(ok), d); len(ps) != 0 {
		t.Errorf("end-to-end total flagged: %v", ps)
	}
	bad := "## Summary\nThe engine takes 0.5 ms per inference.\n\n## Details\nNothing else.\n"
	if ps := Check([]byte(bad), d); len(ps) == 0 {
		t.Error("a total matching nothing must be flagged")
	}
}

// Backend numbers are read by name pattern, not by Go field: every *_ms
// value and the statistics under a *_ms object (measured latency) are the
// backend's times, findings' *_ms and share values are theirs.
func TestBackendNumbersByFieldName(t *testing.T) {
	d := fixture()
	d.Results[0].Issues = []contract.Finding{{ID: "qdq_unfused", Share: 21.215, Metrics: map[string]float64{"time_ms": 0.232448, "share_pct": 21.215, "layer_count": 10}}}
	ok := "## Summary\nFinding `qdq_unfused` prices 0.232 ms, 21.2%.\n## Details\ny\n"
	if ps := Check([]byte(ok), d); len(ps) != 0 {
		t.Errorf("finding numbers flagged: %v", ps)
	}
	bad := "## Summary\nFinding `qdq_unfused` prices 0.3 ms.\n## Details\ny\n"
	if ps := Check([]byte(bad), d); len(ps) != 1 || !strings.Contains(ps[0].String(), "closest: `qdq_unfused` (finding) metrics.time_ms 0.23245 ms in `int8-qat`") {
		t.Errorf("wrong finding time: %v", ps)
	}
}

// The numbers a finding's evidence prints are the finding's: an analysis
// may quote them; others still fail.
func TestEvidenceNumbers(t *testing.T) {
	d := fixture()
	d.Results[0].Issues = []contract.Finding{{ID: "decomposed_norm", Share: 17.882, Evidence: []string{"Plugins 8.31%, Scale 3.72%, reformats/casts/reshapes 5.85%.", "27 plugin layers take 2.7350 ms (17.88% of the profile)."}}}
	ok := "## Summary\n`decomposed_norm` owns the plugins (8.31%), the Scale layers (3.72%) and 2.735 ms.\n## Details\ny\n"
	if ps := Check([]byte(ok), d); len(ps) != 0 {
		t.Errorf("evidence numbers flagged: %v", ps)
	}
	bad := "## Summary\n`decomposed_norm` owns the plugins (9.31%).\n## Details\ny\n"
	if ps := Check([]byte(bad), d); len(ps) != 1 || !strings.Contains(ps[0].String(), "closest: `decomposed_norm` (finding) evidence 8.31%") {
		t.Errorf("an invented share passed or was explained wrongly: %v", ps)
	}
}

func TestWalkReadsStatisticsUnderMsObjects(t *testing.T) {
	x := newIndex(&contract.AnalyzeData{})
	into := &values{}
	x.walk(map[string]any{"measured": map[string]any{"latency_ms": map[string]any{"median": 0.478, "p99": 0.5}, "cv": 0.01, "samples": 100.0}}, "timing", "fp16", into)
	if len(into.of(unitMs)) != 2 || into.of(unitMs)[0].v != 0.478 || x.strs[into.of(unitMs)[0].field] != "timing.measured.latency_ms.median" {
		t.Errorf("facts %+v, want the two latency statistics", into.of(unitMs))
	}
}

// The comparison section's numbers are citable: each pair's times on its
// measure, the percent change, and the per-type and per-layer times scaled
// to that measure (which differ from records[].avg_ms).
func TestComparisonNumbers(t *testing.T) {
	d := fixture()
	d.Comparison = &contract.Comparison{Baseline: "int8-qat-residual", Pairs: []contract.ComparisonPair{{
		A: "int8-qat-residual", B: "int8-qat", Measure: contract.MeasureGPUCompute, AMs: 0.5458, BMs: 0.8826, DeltaMs: 0.3368, DeltaPct: 61.7,
		Noise: contract.Noise{Pct: 1.53}, Alignment: contract.Alignment{ComputeAlignedPct: 100},
		ByType:  []contract.GroupDelta{{Name: "Reformat", AMs: 0.0862, BMs: 0.2243, DeltaMs: 0.1381}},
		Reasons: []string{"9 standalone Q/DQ layers run in int8-qat only, not in int8-qat-residual (+0.1377 ms)"},
		Rows:    []contract.AlignedRow{{AName: "QuantizeLinear_2", BName: "QuantizeLinear_2", AMs: 0.0711, BMs: 0.0495, DeltaMs: -0.0216}},
	}}}
	ok := "## Summary\nMeasured, `int8-qat` takes 0.883 ms and `int8-qat-residual` 0.546 ms. `int8-qat` is 61.7% slower. `Reformat` accounts for 0.224 ms of it in `int8-qat`, and `QuantizeLinear_2` for 0.0495 ms (0.0216 ms less).\n## Details\ny\n"
	if ps := Check([]byte(ok), d); len(ps) != 0 {
		t.Errorf("comparison numbers flagged: %v", ps)
	}
	reason := "## Summary\nStandalone `Reformat` Q/DQ layers run in `int8-qat` only, not in `int8-qat-residual` (+0.1377 ms).\n## Details\ny\n"
	if ps := Check([]byte(reason), d); len(ps) != 0 {
		t.Errorf("a reason's number in a sentence naming both builds flagged: %v", ps)
	}
	for _, one := range []string{
		"## Summary\nStandalone `Reformat` Q/DQ layers in `int8-qat` take 0.1377 ms.\n## Details\ny\n",
		"## Summary\nThe standalone Q/DQ layers take 0.1377 ms, beyond the ±1.53% noise; 100% of compute layers align.\n## Details\ny\n",
	} {
		if ps := Check([]byte(one), d); len(ps) != 0 {
			t.Errorf("a reason's number in a sentence about one build, or none, flagged: %v", ps)
		}
	}
	invented := "## Summary\nStandalone `Reformat` Q/DQ layers in `int8-qat` take 0.1477 ms.\n## Details\ny\n"
	if ps := Check([]byte(invented), d); len(ps) != 1 {
		t.Errorf("an invented reason number passed: %v", ps)
	}
	bad := "## Summary\n`Reformat` accounts for 0.31 ms in `int8-qat`.\n## Details\ny\n"
	if ps := Check([]byte(bad), d); len(ps) != 1 {
		t.Errorf("an invented type time passed: %v", ps)
	}
}

// A profile_only finding owns records, not layers (its backend has no
// layer info): its numbers are quotable beside the names of the records
// it owns, and only there.
func TestProfileOnlyOwnerNumbers(t *testing.T) {
	d := &contract.AnalyzeData{Results: []contract.Backend{{
		Label:      "int8",
		Validation: contract.BackendValidation{Status: contract.StatusFailed, AnalysisMode: contract.ModeProfileOnly},
		Records: []contract.Record{
			{Name: "QuantizeLinear_5_quantize_scale_node", Layer: -1, LayerType: "Quantize", AvgMs: 0.037, TimeMs: 0.037, Percentage: 3.7},
			{Name: "Conv_6 + Relu_7", Layer: -1, LayerType: "Convolution", AvgMs: 0.963, TimeMs: 0.963, Percentage: 96.3},
		},
		Timing: &contract.Timing{TotalMs: 1, AverageInferenceMs: 1},
		Issues: []contract.Finding{{ID: "qdq_placement", Layers: []int{}, Records: []int{0}, RecoverableMs: 0.0333, PriceBasis: contract.PriceGuessedKinds}},
	}}}
	if ps := Check([]byte("## Summary\n`QuantizeLinear_5_quantize_scale_node` is worth 0.0333 ms if fused.\n## Details\ny\n"), d); len(ps) != 0 {
		t.Errorf("an owned record's finding number flagged: %v", ps)
	}
	if ps := Check([]byte("## Summary\n`Conv_6 + Relu_7` is worth 0.0333 ms if fused.\n## Details\ny\n"), d); len(ps) != 1 {
		t.Errorf("a finding's number beside a record it does not own passed: %v", ps)
	}
}
