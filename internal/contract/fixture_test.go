package contract

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

func ptr[T any](v T) *T { return &v }

func tensor(name, format string, dims ...int64) Tensor {
	if dims == nil {
		dims = []int64{} // a scalar; nil would decode back as []
	}
	return Tensor{Name: name, Location: "Device", Dimensions: dims, Format: format}
}

// smallDoc is a valid document with two backends: fp16 passed
// (layer_profile, 4 layers) and int8 failed (unusable: a cycle).
func smallDoc() *AnalyzeData {
	const fp16 = "Row major linear FP16 format"
	layers := []Layer{
		{
			Name: "Conv_0 + Relu_1", LayerType: "CaskConvolution",
			Inputs:        []Tensor{tensor("input", "Row major linear FP32", 1, 3, 224, 224)},
			Outputs:       []Tensor{tensor("t0", fp16, 1, 64, 112, 112)},
			ParameterType: "Convolution",
			TacticName:    "sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x64x32",
			TacticValue:   "0x5e3a1f2b9c0d4e11",
			StreamID:      ptr(0),
			Metadata:      "[ONNX Layer: /conv1/Conv]\u241e[ONNX Layer: /relu/Relu]",
			Parameters:    RawObject(`{"Kernel":[7,7],"Stride":[2,2],"Weights":{"Type":"Half","Count":9408}}`),
		},
		{
			Name: "Reformatting CopyNode for Input Tensor 0 to MatMul_2", LayerType: "Reformat",
			Inputs:  []Tensor{tensor("t0", fp16, 1, 64, 112, 112)},
			Outputs: []Tensor{{Name: "t1", Dimensions: []int64{1, 64, 112, 112}, Format: "Channel major FP16 format where channel % 8 == 0", Extra: RawObject(`{"Strides":[802816,1,7168,64]}`)}},
			Origin:  "REFORMAT",
		},
		{
			Name: "MatMul_2", LayerType: "gemm",
			Inputs:     []Tensor{tensor("t1", fp16, -1, 64, 112, 112), tensor("t0", fp16, 1, 64, 112, 112)},
			Outputs:    []Tensor{tensor("t2", fp16, 1, 64, 112, 112)},
			Constants:  []Tensor{},
			TacticName: "sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32_stage4",
			OptProfile: 1,
		},
		{
			Name: "__myl_AddMul_myl0_1", LayerType: "kgen",
			Inputs:     []Tensor{tensor("t2", fp16, 1, 64, 112, 112)},
			Outputs:    []Tensor{tensor("output", "Row major linear FP32", 1, 64, 112, 112)},
			TacticName: "__myl_AddMul_0x9a7c",
			Subgraph:   "0",
		},
	}
	rec := func(name string, layer int, typ, prec string, avg, med, pct float64, tags ...string) Record {
		r := Record{
			Name: name, Layer: layer, LayerType: typ, RawLayerType: layers[layer].LayerType, Precision: prec,
			InputTypes: []string{prec}, OutputTypes: []string{prec}, Tactic: layers[layer].TacticName,
			TacticFamily: strings.SplitN(layers[layer].TacticName+"_", "_", 2)[0],
			FusedOps:     strings.Count(name, "+") + 1, TimeMs: avg * 100, AvgMs: avg, MedianMs: ptr(med), Percentage: pct, Tags: tags,
		}
		if r.Tags == nil {
			r.Tags = []string{}
		}
		return r
	}
	records := []Record{
		rec("Conv_0 + Relu_1", 0, "CaskConvolution", "FP16", 0.5, 0.5, 25, "conv", "activation"),
		rec("Reformatting CopyNode for Input Tensor 0 to MatMul_2", 1, "Reformat", "FP16", 0.125, 0.12, 6.25, "reformat"),
		rec("MatMul_2", 2, "gemm", "FP16", 1.25, 1.2, 62.5, "gemm"),
		rec("__myl_AddMul_myl0_1", 3, "kgen", "FP32", 0.125, 0.13, 6.25),
	}
	yes := true
	records[0].TensorCore, records[2].TensorCore = &yes, &yes
	records[3].MyelinGraph = ptr(0)
	// Conv_0 on the A100's FP16 roofline: 1e11 FLOP and 1e8 bytes in 0.5 ms
	// are 200 TFLOP/s and 200 GB/s at 1000 FLOP/byte, right of the ridge
	// (1000 × 1935.36 GB/s > 311.869 TFLOP/s), so held to the peak.
	records[0].FLOPs, records[0].Bytes = ptr(1e11), ptr(1e8)
	records[0].Roofline = &RecordRoofline{TimeMs: 0.5, AchievedTFLOPS: 200, AchievedGBs: ptr(200.0), Intensity: ptr(1000.0),
		PeakPrecision: "fp16", AttainableTFLOPS: ptr(311.869), Bound: ptr(RooflineBoundCompute), PctOfAttainable: ptr(200 / 311.869 * 100)}
	evid := []Evidence{{Source: "folder", Detail: "folder name", Value: "resnet50", Confidence: ConfidenceMedium}}
	passed := Backend{
		Label: "fp16",
		Validation: BackendValidation{
			Status: StatusPassed, AnalysisMode: ModeLayerProfile,
			Messages:        []Message{{Level: LevelInfo, Code: "count_from_header", Message: "count 100 from the profile header"}},
			SourcePaths:     SourcePaths{Layer: ptr("/data/resnet50/layers_fp16.json"), Profile: ptr("/data/resnet50/profile_fp16.json")},
			ReportAvailable: true,
		},
		LayerCount: 4, ProfileCount: 4, ProfileKind: "trtexec", Layers: layers,
		Graph: Graph{
			IsDAG: true, DuplicateProducers: []DuplicateProducer{}, EdgeCount: 4,
			ExternalInputs: []string{"input"}, GraphOutputs: []string{"output"},
			DeclaredInputs: []string{"input"}, DeclaredOutputs: []string{"output"},
			TopoOrder: []int{0, 1, 2, 3}, Edges: [][2]int{{0, 1}, {0, 2}, {1, 2}, {2, 3}},
		},
		Count: ptr(int64(100)), CountSource: "header",
		Timing: &Timing{TotalMs: 200, AverageInferenceMs: 2, MedianInferenceMs: ptr(1.95), PercentageSum: 100, Notes: []string{},
			Measured: &Measured{
				Source: MeasuredSource{File: "meta_fp16_profile.json", Kind: SourceTrexProfileMeta, Samples: ptr(1000), LatencyMedianMs: ptr(1.6), GPUComputeMedianMs: ptr(1.6)},
				Sources: []MeasuredSource{
					{File: "meta_fp16_profile.json", Kind: SourceTrexProfileMeta, Samples: ptr(1000), LatencyMedianMs: ptr(1.6), GPUComputeMedianMs: ptr(1.6)},
					{File: "times_fp16.json", Kind: SourceExportTimes, Run: ptr(1), Samples: ptr(1010), LatencyMedianMs: ptr(1.6)},
				},
				LatencyMs:    Stats{Min: ptr(1.5), Mean: ptr(1.61), Median: ptr(1.6), P99: ptr(1.9), Max: ptr(2.0)},
				GPUComputeMs: Stats{Min: ptr(1.5), Mean: ptr(1.61), Median: ptr(1.6), P90: ptr(1.7), P95: ptr(1.8), P99: ptr(1.9), Max: ptr(2.0)},
				EnqueueMs:    Stats{Median: ptr(0.01)},
				H2DMs:        &Stats{Median: ptr(0.0)},
				Throughput:   ptr(620.5), Samples: ptr(1000), CV: ptr(0.02), CVOf: "gpu_compute",
				CUDAGraph: ptr(true), SpinWait: ptr(false),
				ProfileOverhead: ptr(1.25), ProfileOverheadBasis: "gpu_compute_median", Notes: []string{"n"},
			}},
		Device: &Device{Name: "NVIDIA A100 80GB PCIe", ComputeCapability: ptr("8.0"), SMCount: ptr(108), ClockGHz: ptr(1.41),
			MemoryBandwidthGBs: ptr(1935.36), BandwidthBasis: "bus_width_x_memory_clock",
			PeakTFLOPS: Peaks{FP32: ptr(19.492), FP16: ptr(311.869)}, PeakBasis: "sm_count_x_clock", Source: "meta_device.json",
			TensorCores: []string{"TF32", "FP16", "BF16", "INT8"}, Class: "data_centre", Notes: []string{}},
		Build: &Build{TensorRTVersion: ptr("8.6.1"), Precision: ptr("FP32+FP16"), PrecisionFlags: []string{"--fp16"},
			Options: []Option{{Name: "Precision", Value: "FP32+FP16"}}, Warnings: []string{}, Sources: []string{"log.txt"}},
		Model: Model{
			Name: "resnet50", NameConfidence: ConfidenceMedium, NameEvidence: evid, Components: []string{},
			Category: "cnn", CategoryConfidence: ConfidenceHigh,
			CategoryEvidence: []Evidence{{Source: "layers", Detail: "convolution share", Value: "25%", Confidence: ConfidenceHigh}},
			InputShapes:      []InputShape{{Name: "input", Dimensions: []int64{1, 3, 224, 224}, DataType: "FP32"}},
		},
		Engines: Engines{
			EngineFiles: []string{}, MyelinGraphs: []int{0}, Streams: []int{0}, Subgraphs: []string{"0"}, OptProfiles: []int{0, 1},
			Partitions:    []Partition{{ID: "0", Kind: "myelin_graph", LayerCount: 1, TimeMs: 0.125, Percentage: 6.25}},
			InferredCount: 1, Source: "single",
		},
		Records: records,
		TypeBreakdown: []Breakdown{
			{Name: "gemm", Count: 1, TimeMs: 1.25, Percentage: 62.5},
			{Name: "CaskConvolution", Count: 1, TimeMs: 0.5, Percentage: 25},
			{Name: "Reformat", Count: 1, TimeMs: 0.125, Percentage: 6.25},
			{Name: "kgen", Count: 1, TimeMs: 0.125, Percentage: 6.25},
		},
		TagBreakdown: []Breakdown{
			{Name: "gemm", Count: 1, TimeMs: 1.25, Percentage: 62.5},
			{Name: "activation", Count: 1, TimeMs: 0.5, Percentage: 25},
			{Name: "conv", Count: 1, TimeMs: 0.5, Percentage: 25},
			{Name: "reformat", Count: 1, TimeMs: 0.125, Percentage: 6.25},
		},
		PrecisionBreakdown: []Breakdown{
			{Name: "FP16", Count: 3, TimeMs: 1.875, Percentage: 93.75},
			{Name: "FP32", Count: 1, TimeMs: 0.125, Percentage: 6.25},
		},
		Concentration: &Concentration{Layers50: 1, Layers80: 2, Layers90: 3},
		Memory: &Memory{WeightsBytes: 18432, WeightLayers: 2, LargestActivations: []Activation{
			{Name: "t2", Bytes: 1605632, Dimensions: []int64{1, 64, 112, 112}, Format: fp16, Producer: 2},
			{Name: "t0", Bytes: 1605632, Dimensions: []int64{1, 64, 112, 112}, Format: fp16, Producer: 0},
		}, ActivationTensors: 4, Notes: []string{}},
		Roofline: &Roofline{TimeBasis: RooflineAvgMs, TimeScale: 1, ReferenceSource: "layer_sum", Layers: 1, ComputeBound: 1,
			TimeMs: 0.5, FLOPs: 1e11, Bytes: 1e8, AchievedTFLOPS: 200, Notes: []string{}},
		Issues: []Finding{
			{ID: "gemm_dominates", Title: "One GEMM takes 62.5% of the time", Score: 0.5, Confidence: ConfidenceHigh, Share: 62.5,
				Evidence: []string{"MatMul_2: 1.25 ms"}, Metrics: map[string]float64{"share": 62.5, "avg_ms": 1.25, "count": 1},
				NextCheck: "check the GEMM's tile size", Layers: []int{2},
				RecoverableLowMs: 0.3, RecoverableMs: 0.5, RecoverableHighMs: 0.7, RecoverableShare: 25, PriceBasis: "estimate", PriceFactor: "owned time × 0.4", Action: "tune the GEMM"},
			{ID: "reformat_overhead", Title: "Reformats take 6.25%", Score: 0.05, Confidence: ConfidenceLow, Share: 6.25,
				Evidence: []string{}, Metrics: map[string]float64{}, NextCheck: "align formats", Layers: []int{1},
				RecoverableLowMs: 0.05, RecoverableMs: 0.1, RecoverableHighMs: 0.1, RecoverableShare: 5, PriceBasis: "estimate", PriceFactor: "owned time × 0.8", Action: "align formats"},
		},
		Diagnosis: &Diagnosis{ReferenceMs: 2, ReferenceSource: "layer_sum", LayerSumMs: 2, ProfileScale: 1, RecoverableMs: 0.6, RecoverableShare: 30},
		Positives: []Positive{{ID: "tensor_cores", Title: "Tensor cores carry 87.5% of the time", Evidence: []string{"2 of 4 layers"}, Metrics: map[string]float64{"tensor_core_share": 87.5}}},
		Overview:  []OverviewItem{},
	}
	failed := Backend{
		Label: "int8",
		Validation: BackendValidation{
			Status: StatusFailed, AnalysisMode: ModeUnusable,
			Messages:    []Message{{Level: LevelError, Code: "graph_cycle", Message: "the graph has a cycle: A -> B -> A; re-export the layer info"}},
			SourcePaths: SourcePaths{Layer: ptr("/data/resnet50/layers_int8.json")},
		},
		LayerCount: 2, ProfileCount: 0, ProfileKind: "",
		Layers: []Layer{
			{Name: "A", LayerType: "Shuffle", Inputs: []Tensor{tensor("y", "Int8")}, Outputs: []Tensor{tensor("x", "Int8")}},
			{Name: "B", LayerType: "Shuffle", Inputs: []Tensor{tensor("x", "Int8")}, Outputs: []Tensor{tensor("y", "Int8")}},
		},
		Graph: Graph{
			IsDAG: false, DuplicateProducers: []DuplicateProducer{}, EdgeCount: 2,
			ExternalInputs: []string{}, GraphOutputs: []string{}, DeclaredInputs: []string{}, DeclaredOutputs: []string{},
			Cycle: []string{"A", "B", "A"}, Edges: [][2]int{{0, 1}, {1, 0}},
		},
		CountSource: "none",
		Model: Model{Name: "resnet50", NameConfidence: ConfidenceMedium, NameEvidence: evid, Components: []string{},
			Category: "unknown", CategoryConfidence: ConfidenceLow, CategoryEvidence: []Evidence{}, InputShapes: []InputShape{}},
		Engines: Engines{EngineFiles: []string{}, MyelinGraphs: []int{}, Streams: []int{}, Subgraphs: []string{}, OptProfiles: []int{}, Partitions: []Partition{}, Source: "single", InferredCount: 1},
		Records: []Record{}, TypeBreakdown: []Breakdown{}, TagBreakdown: []Breakdown{}, PrecisionBreakdown: []Breakdown{},
		Issues: []Finding{}, Positives: []Positive{}, Overview: []OverviewItem{}, Runs: []RunRow{},
	}
	passed.Runs = []RunRow{
		{Run: 1, Batch: ptr("1"), LatencyMedianMs: ptr(1.6), GPUComputeMedianMs: ptr(1.6), ThroughputQPS: ptr(620.5), ItemsPerSecond: ptr(620.5), LayerSumMs: ptr(2.0), ProfileRecords: ptr(4), Analysed: true},
		{Run: 2, Batch: ptr("4"), Shapes: ptr("input=4x3x224x224")},
	}
	return &AnalyzeData{
		SchemaVersion: SchemaVersion, Tool: Tool{Name: "trtperf", Version: "test"},
		Folder: ptr("/data/resnet50"), ModelName: "resnet50", ModelNameConfidence: ConfidenceMedium,
		ModelNameEvidence: evid, ModelComponents: []string{},
		Validation: Validation{Status: StatusPartial, BackendCount: 2, PassedCount: 1, FailedCount: 1, Warnings: []string{}},
		Results:    []Backend{passed, failed},
	}
}

// bigDoc is a valid single-backend document of n layers shaped like an LLM
// engine dump: Myelin-style names and tactics of 80–150 characters, two
// inputs and one output per layer, a chain with residual edges,
// heavy-tailed times.
func bigDoc(n int) *AnalyzeData {
	layers := make([]Layer, n)
	records := make([]Record, n)
	edges := make([][2]int, 0, 2*n)
	topo := make([]int, n)
	const fmtBF16 = "Row major linear BF16 format"
	var sumAvg, sumTime, sumMed float64
	types := []string{"kgen", "gemm", "kgen", "reshape", "kgen", "gemm"}
	seed := uint64(42)
	next := func() float64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>11) / (1 << 53)
	}
	for i := range layers {
		topo[i] = i
		typ := types[i%len(types)]
		name := fmt.Sprintf("/model/layers.%d/self_attn/o_proj/MatMul_output_0_castIn + /model/layers.%d/mlp/act_fn/Mul_myl%d_%d", i/40, i/40, i/5000, i)
		in0 := fmt.Sprintf("/model/layers.%d/tensor_%d_output_0", i/40, i-1)
		in1 := fmt.Sprintf("/model/layers.%d/tensor_%d_output_0", i/40, max(i-7, 0))
		if i == 0 {
			in0, in1 = "input_ids", "attention_mask"
		}
		layers[i] = Layer{
			Name: name, LayerType: typ,
			Inputs: []Tensor{
				{Name: in0, Location: "Device", Dimensions: []int64{-1, -1, 4096}, Format: fmtBF16},
				{Name: in1, Location: "Device", Dimensions: []int64{-1, -1, 4096}, Format: fmtBF16},
			},
			Outputs:     []Tensor{{Name: fmt.Sprintf("/model/layers.%d/tensor_%d_output_0", i/40, i), Location: "Device", Dimensions: []int64{-1, -1, 4096}, Format: fmtBF16}},
			TacticName:  fmt.Sprintf("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas_%d", i%97),
			TacticValue: fmt.Sprintf("0x%016x", uint64(i)*0x9e3779b97f4a7c15),
			StreamID:    ptr(0),
			Metadata:    fmt.Sprintf("[ONNX Layer: /model/layers.%d/mlp/down_proj/MatMul]", i/40),
		}
		if i > 0 {
			edges = append(edges, [2]int{max(i-7, 0), i}, [2]int{i - 1, i})
			if i < 7 {
				edges = edges[:len(edges)-2]
				edges = append(edges, [2]int{i - 1, i})
			}
		}
		avg := 0.001 / math.Pow(next()+1e-3, 0.7) // heavy tail
		med := avg * 0.98
		records[i] = Record{
			Name: name, Layer: i, LayerType: typ, RawLayerType: typ, Precision: "BF16",
			InputTypes: []string{"BF16", "BF16"}, OutputTypes: []string{"BF16"},
			Tactic: layers[i].TacticName, TacticFamily: "sm90_xmma_gemm", TensorCore: ptr(typ == "gemm"),
			MyelinGraph: ptr(i / 5000), FusedOps: 2, TimeMs: avg * 50, AvgMs: avg, MedianMs: ptr(med),
			Tags: []string{typ},
		}
		if typ == "reshape" {
			records[i].LayerType = "misc"
			records[i].Tags = []string{"shape"}
		}
		sumAvg += avg
		sumTime += avg * 50
		sumMed += med
	}
	var sumPct float64
	type agg struct {
		count int
		ms    float64
	}
	byType, byTag := map[string]*agg{}, map[string]*agg{}
	for i := range records {
		r := &records[i]
		r.Percentage = 100 * r.AvgMs / sumAvg
		sumPct += r.Percentage
		for m, k := range map[*map[string]*agg]string{&byType: r.LayerType, &byTag: r.Tags[0]} {
			a := (*m)[k]
			if a == nil {
				a = &agg{}
				(*m)[k] = a
			}
			a.count++
			a.ms += r.AvgMs
		}
	}
	rows := func(m map[string]*agg) []Breakdown {
		var out []Breakdown
		for k, a := range m {
			out = append(out, Breakdown{Name: k, Count: a.count, TimeMs: a.ms, Percentage: 100 * a.ms / sumAvg})
		}
		sortBreakdowns(out)
		return out
	}
	d := smallDoc()
	slices.SortFunc(edges, func(a, b [2]int) int { return cmp.Or(a[0]-b[0], a[1]-b[1]) })
	edges = slices.Compact(edges)
	b := &d.Results[0]
	b.Label = "llm"
	b.Layers, b.Records = layers, records
	b.LayerCount, b.ProfileCount = n, n
	b.Graph = Graph{IsDAG: true, DuplicateProducers: []DuplicateProducer{}, EdgeCount: len(edges),
		ExternalInputs: []string{"input_ids", "attention_mask"}, GraphOutputs: []string{layers[n-1].Outputs[0].Name},
		DeclaredInputs: []string{"input_ids", "attention_mask"}, DeclaredOutputs: []string{layers[n-1].Outputs[0].Name},
		TopoOrder: topo, Edges: edges}
	b.Timing = &Timing{TotalMs: sumTime, AverageInferenceMs: sumAvg, MedianInferenceMs: &sumMed, PercentageSum: sumPct, Notes: []string{}}
	b.TypeBreakdown = rows(byType)
	b.TagBreakdown = rows(byTag)
	b.PrecisionBreakdown = []Breakdown{{Name: "BF16", Count: n, TimeMs: sumAvg, Percentage: 100}}
	b.Concentration = nil
	b.Roofline = nil
	b.Memory = nil
	b.Issues = []Finding{}
	b.Positives = []Positive{}
	b.Overview = []OverviewItem{}
	b.Diagnosis = nil
	d.Results = d.Results[:1]
	d.Validation = Validation{Status: StatusPassed, BackendCount: 1, PassedCount: 1, Warnings: []string{}}
	return d
}

func sortBreakdowns(rows []Breakdown) {
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && (rows[j].TimeMs > rows[j-1].TimeMs || rows[j].TimeMs == rows[j-1].TimeMs && rows[j].Name < rows[j-1].Name); j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
}
