// Package reporttest builds analyze-data documents for report tests without
// reading dumps: LLM-shaped engines of any size that satisfy the contract's
// schema and semantic checks, and a hostile document whose every string
// tries to run script. Real dumps go through discover and analysis; this
// package exists so report and browser tests can control every string.
package reporttest

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/trtperf/trtperf/internal/contract"
)

// Options shapes a synthetic document.
type Options struct {
	Layers int    // layers of the passed backend (>= 2)
	Model  string // model name; "" means "synthetic-llm"
	// Name, when set, names layer i (default: LLM-like block names).
	Name func(i int) string
	// Strings, when set, overrides tactic, metadata and extra strings.
	Strings func(i int) (tactic, metadata string)
	// WithFailed adds a second backend that failed validation.
	WithFailed bool
	// WithLayerOnly adds a backend with layer info but no profile.
	WithLayerOnly bool
	// FailedOnly makes a document whose only backend failed validation.
	FailedOnly bool
}

var ops = []struct{ name, typ, prec string }{
	{"input_layernorm/ReduceMean", "kgen", "FP32"},
	{"self_attn/q_proj/MatMul", "gemm", "FP16"},
	{"self_attn/k_proj/MatMul", "gemm", "FP16"},
	{"self_attn/v_proj/MatMul", "gemm", "FP16"},
	{"self_attn/rotary/Mul", "kgen", "FP16"},
	{"self_attn/attention", "kgen_mha", "FP16"},
	{"self_attn/o_proj/MatMul", "gemm", "FP16"},
	{"post_attention_layernorm/Add", "kgen", "FP32"},
	{"mlp/gate_up/MatMul", "gemm", "FP16"},
	{"mlp/act/Silu", "kgen", "FP16"},
	{"mlp/down/MatMul", "gemm", "FP16"},
	{"Reformatting CopyNode", "Reformat", "FP16"},
}

func defaultName(i int) string {
	op := ops[i%len(ops)]
	if op.typ == "Reformat" {
		return fmt.Sprintf("Reformatting CopyNode for Input Tensor 0 to /model/layers.%d/mlp", i/len(ops))
	}
	return fmt.Sprintf("/model/layers.%d/%s_myl%d_%d", i/len(ops), op.name, i/len(ops)/4, i%len(ops))
}

// Synthetic returns a valid document; its passed backend is results[0].
func Synthetic(opt Options) *contract.AnalyzeData {
	if opt.Layers < 2 {
		opt.Layers = 2
	}
	model := opt.Model
	if model == "" {
		model = "synthetic-llm"
	}
	name := opt.Name
	if name == nil {
		name = defaultName
	}
	d := &contract.AnalyzeData{
		SchemaVersion:       contract.SchemaVersion,
		Tool:                contract.Tool{Name: "trtperf", Version: "test"},
		ModelName:           model,
		ModelNameConfidence: contract.ConfidenceHigh,
		ModelNameEvidence:   []contract.Evidence{{Source: "flag", Detail: "model name option", Value: model, Confidence: contract.ConfidenceHigh}},
		ModelComponents:     []string{"decoder"},
		Validation:          contract.Validation{Warnings: []string{}},
	}
	if opt.FailedOnly {
		d.Results = []contract.Backend{failedBackend()}
		Rollup(d)
		return d
	}
	d.Results = append(d.Results, passedBackend(opt, name))
	if opt.WithLayerOnly {
		d.Results = append(d.Results, layerOnlyBackend(name))
	}
	if opt.WithFailed {
		d.Results = append(d.Results, failedBackend())
	}
	Rollup(d)
	return d
}

// Rollup recomputes the top-level validation from the backends.
func Rollup(d *contract.AnalyzeData) {
	v := &d.Validation
	v.BackendCount, v.PassedCount, v.FailedCount = len(d.Results), 0, 0
	for _, b := range d.Results {
		if b.Validation.Status == contract.StatusPassed {
			v.PassedCount++
		} else {
			v.FailedCount++
		}
	}
	switch {
	case v.PassedCount == v.BackendCount && v.BackendCount > 0:
		v.Status = contract.StatusPassed
	case v.PassedCount > 0:
		v.Status = contract.StatusPartial
	default:
		v.Status = contract.StatusFailed
	}
	if v.Warnings == nil {
		v.Warnings = []string{}
	}
}

func emptyGraph() contract.Graph {
	return contract.Graph{DuplicateProducers: []contract.DuplicateProducer{}, ExternalInputs: []string{}, GraphOutputs: []string{}, DeclaredInputs: []string{}, DeclaredOutputs: []string{}, Edges: [][2]int{}}
}

func emptyModel(model string) contract.Model {
	return contract.Model{Name: model, NameConfidence: contract.ConfidenceHigh, NameEvidence: []contract.Evidence{}, Components: []string{"decoder"},
		Category: "decoder_llm", CategoryConfidence: contract.ConfidenceMedium, CategoryEvidence: []contract.Evidence{}, InputShapes: []contract.InputShape{}}
}

func emptyEngines() contract.Engines {
	return contract.Engines{EngineFiles: []string{}, MyelinGraphs: []int{}, Streams: []int{0}, Subgraphs: []string{}, OptProfiles: []int{0}, Partitions: []contract.Partition{}, InferredCount: 1, Source: "single"}
}

// layersAndGraph builds a chain with residual edges every 6 layers.
func layersAndGraph(n int, name func(int) string, strs func(int) (string, string)) ([]contract.Layer, contract.Graph) {
	layers := make([]contract.Layer, n)
	g := emptyGraph()
	g.IsDAG = true
	g.TopoOrder = make([]int, n)
	for i := range n {
		op := ops[i%len(ops)]
		prec := "Row major linear FP16 format"
		if op.prec == "FP32" {
			prec = "Row major linear FP32"
		}
		in := []contract.Tensor{}
		if i == 0 {
			in = append(in, contract.Tensor{Name: "input_ids", Location: "Device", Dimensions: []int64{1, 128}, Format: "Row major linear Int32"})
		} else {
			in = append(in, contract.Tensor{Name: fmt.Sprintf("t%d", i-1), Location: "Device", Dimensions: []int64{1, 128, 4096}, Format: prec})
			g.Edges = append(g.Edges, [2]int{i - 1, i})
		}
		if i >= 6 && i%6 == 0 {
			in = append(in, contract.Tensor{Name: fmt.Sprintf("t%d", i-6), Location: "Device", Dimensions: []int64{1, 128, 4096}, Format: prec})
			g.Edges = append(g.Edges, [2]int{i - 6, i})
		}
		tactic := fmt.Sprintf("sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32_stage%d", 3+i%3)
		meta := fmt.Sprintf("[ONNX Layer: /model/layers.%d/%s]", i/len(ops), op.name)
		if strs != nil {
			tactic, meta = strs(i)
		}
		layers[i] = contract.Layer{
			Name: name(i), LayerType: op.typ, Inputs: in,
			Outputs:     []contract.Tensor{{Name: fmt.Sprintf("t%d", i), Location: "Device", Dimensions: []int64{1, 128, 4096}, Format: prec}},
			TacticName:  tactic,
			TacticValue: fmt.Sprintf("0x%016x", uint64(i)*0x9e3779b97f4a7c15),
			Metadata:    meta,
			Parameters:  contract.RawObject(fmt.Sprintf(`{"Index":%d,"Note":%q}`, i, meta)),
		}
		g.TopoOrder[i] = i
	}
	g.ExternalInputs = []string{"input_ids"}
	g.GraphOutputs = []string{fmt.Sprintf("t%d", n-1)}
	g.EdgeCount = len(g.Edges)
	slices.SortFunc(g.Edges, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return layers, g
}

func passedBackend(opt Options, name func(int) string) contract.Backend {
	n := opt.Layers
	layers, g := layersAndGraph(n, name, opt.Strings)
	const count = 100
	records := make([]contract.Record, n)
	var sumAvg, sumTime, sumMed float64
	for i := range n {
		op := ops[i%len(ops)]
		avg := 0.001 + float64((i*7919)%97)/1000 // deterministic spread
		if op.typ == "gemm" {
			avg *= 4
		}
		med := avg * 0.98
		myelin := i / len(ops) / 4
		records[i] = contract.Record{
			Name: layers[i].Name, Layer: i, LayerType: op.typ, RawLayerType: op.typ, Precision: op.prec,
			InputTypes: []string{op.prec}, OutputTypes: []string{op.prec}, Tactic: layers[i].TacticName, TacticFamily: "sm80_xmma",
			TensorCore: boolPtr(op.typ == "gemm"), MyelinGraph: &myelin, FusedOps: 1,
			TimeMs: avg * count, AvgMs: avg, MedianMs: &med, Tags: []string{},
		}
		sumAvg += avg
		sumTime += avg * count
		sumMed += med
	}
	var pctSum float64
	for i := range records {
		records[i].Percentage = 100 * records[i].AvgMs / sumAvg
		pctSum += records[i].Percentage
	}
	c := int64(count)
	b := contract.Backend{
		Label: "fp16",
		Validation: contract.BackendValidation{Status: contract.StatusPassed, AnalysisMode: contract.ModeLayerProfile,
			Messages: []contract.Message{{Level: contract.LevelInfo, Code: "count_from_header", Message: "count 100 from the profile header"}}},
		LayerCount: n, ProfileCount: n, ProfileKind: "trtexec", Layers: layers, Graph: g,
		Count: &c, CountSource: "header",
		Timing:  &contract.Timing{TotalMs: sumTime, AverageInferenceMs: sumAvg, MedianInferenceMs: &sumMed, PercentageSum: pctSum, Notes: []string{}},
		Model:   emptyModel(opt.Model),
		Engines: emptyEngines(),
		Records: records,
	}
	graphs := map[int]bool{}
	for _, r := range records {
		graphs[*r.MyelinGraph] = true
	}
	for id := range len(graphs) {
		b.Engines.MyelinGraphs = append(b.Engines.MyelinGraphs, id)
	}
	b.TypeBreakdown = breakdown(records, func(r *contract.Record) string { return r.LayerType }, sumAvg)
	b.PrecisionBreakdown = breakdown(records, func(r *contract.Record) string { return r.Precision }, sumAvg)
	b.TagBreakdown = []contract.Breakdown{}
	b.Concentration = concentration(records, sumAvg)
	b.Issues = findings(records, sumAvg)
	b.Positives = []contract.Positive{{ID: "tensor_cores", Title: "GEMMs run on tensor cores", Evidence: []string{"every gemm layer uses an xmma tactic"}, Metrics: map[string]float64{"share": 100}}}
	return b
}

func breakdown(rs []contract.Record, key func(*contract.Record) string, total float64) []contract.Breakdown {
	idx := map[string]int{}
	var rows []contract.Breakdown
	for i := range rs {
		k := key(&rs[i])
		j, ok := idx[k]
		if !ok {
			j = len(rows)
			idx[k] = j
			rows = append(rows, contract.Breakdown{Name: k})
		}
		rows[j].Count++
		rows[j].TimeMs += rs[i].AvgMs
	}
	for i := range rows {
		rows[i].Percentage = 100 * rows[i].TimeMs / total
	}
	slices.SortStableFunc(rows, func(a, b contract.Breakdown) int { return cmp.Compare(b.TimeMs, a.TimeMs) })
	return rows
}

func concentration(rs []contract.Record, total float64) *contract.Concentration {
	avgs := make([]float64, len(rs))
	for i := range rs {
		avgs[i] = rs[i].AvgMs
	}
	slices.SortFunc(avgs, func(a, b float64) int { return cmp.Compare(b, a) })
	var c contract.Concentration
	acc := 0.0
	for i, a := range avgs {
		acc += a
		if c.Layers50 == 0 && acc >= 0.5*total {
			c.Layers50 = i + 1
		}
		if c.Layers80 == 0 && acc >= 0.8*total {
			c.Layers80 = i + 1
		}
		if c.Layers90 == 0 && acc >= 0.9*total {
			c.Layers90 = i + 1
		}
	}
	return &c
}

func findings(rs []contract.Record, total float64) []contract.Finding {
	var gemm []int
	var share float64
	for i := range rs {
		if rs[i].LayerType == "gemm" {
			gemm = append(gemm, i)
			share += rs[i].AvgMs
		}
	}
	slices.SortFunc(gemm, func(a, b int) int { return cmp.Compare(rs[b].AvgMs, rs[a].AvgMs) })
	if len(gemm) > 50 {
		gemm = gemm[:50]
	}
	pct := 100 * share / total
	var reformats []int
	for i := range rs {
		if rs[i].LayerType == "Reformat" {
			reformats = append(reformats, i)
		}
	}
	out := []contract.Finding{
		{ID: "gemm_bound", Title: "GEMMs dominate the time", Score: pct / 100 * 0.8, Confidence: contract.ConfidenceHigh, Share: pct,
			Evidence: []string{fmt.Sprintf("gemm layers take %.1f%% of the time", pct)}, Metrics: map[string]float64{"share": pct},
			NextCheck: "check the GEMM tactics and whether FP8 weight-only quantisation applies", Layers: gemm,
			PriceBasis: "estimate", PriceFactor: "synthetic", Action: "quantise the GEMM weights"},
		{ID: "reformat", Title: "Reformat layers copy tensors between formats", Score: 0.01, Confidence: contract.ConfidenceLow, Share: 1,
			Evidence: []string{"reformat layers appear between blocks"}, Metrics: map[string]float64{},
			NextCheck: "look for mixed-precision boundaries", Layers: reformats,
			PriceBasis: "estimate", PriceFactor: "synthetic", Action: "align formats"},
	}
	if len(reformats) == 0 {
		out = out[:1]
	}
	return out
}

func layerOnlyBackend(name func(int) string) contract.Backend {
	layers, g := layersAndGraph(24, name, nil)
	return contract.Backend{
		Label: "layers-only",
		Validation: contract.BackendValidation{Status: contract.StatusPassed, AnalysisMode: contract.ModeLayerOnly,
			Messages: []contract.Message{{Level: contract.LevelWarning, Code: "no_profile", Message: "no profile beside layers_layers-only.json: timing is not available; export one with trtexec --exportProfile"}}},
		LayerCount: len(layers), Layers: layers, Graph: g, CountSource: "none",
		Model: emptyModel("synthetic-llm"), Engines: emptyEngines(), Records: []contract.Record{},
		TypeBreakdown: []contract.Breakdown{}, TagBreakdown: []contract.Breakdown{}, PrecisionBreakdown: []contract.Breakdown{},
		Issues: []contract.Finding{}, Positives: []contract.Positive{},
	}
}

func failedBackend() contract.Backend {
	g := emptyGraph()
	g.IsDAG, g.TopoOrder = true, []int{} // no layers: trivially a DAG
	return contract.Backend{
		Label: "int8",
		Validation: contract.BackendValidation{Status: contract.StatusFailed, AnalysisMode: contract.ModeUnusable,
			Messages: []contract.Message{{Level: contract.LevelError, Code: "names_only_layer_info", Message: "layers_int8.json lists layer names only; rebuild the engine with --profilingVerbosity=detailed and export the layer info again"}}},
		Layers: []contract.Layer{}, Graph: g, CountSource: "none",
		Model: emptyModel("synthetic-llm"), Engines: emptyEngines(), Records: []contract.Record{},
		TypeBreakdown: []contract.Breakdown{}, TagBreakdown: []contract.Breakdown{}, PrecisionBreakdown: []contract.Breakdown{},
		Issues: []contract.Finding{}, Positives: []contract.Positive{},
	}
}
func boolPtr(b bool) *bool { return &b }
