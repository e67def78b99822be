package contract

import (
	"bufio"
	"fmt"
	"io"
	"slices"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/contract/internal/fastjson"
)

// enc writes the contract's types field by field with the byte-level
// writer of package fastjson: this file is the encoder's table of which
// member is written how, and TestEncodeMatchesJSONv2 pins it to the
// reflection encoder on every field.
type enc struct{ *fastjson.Writer }

// AppendString appends s as a JSON string, exactly as Encode writes string
// values (invalid UTF-8 becomes U+FFFD), so other writers of the same data
// (the report's scripts) need no second, slower encoder.
func AppendString(dst []byte, s string) []byte { return fastjson.AppendString(dst, s) }

// Encode writes d as compact, deterministic JSON (the same d gives the same
// bytes: fields in declaration order, map keys sorted, floats in their
// shortest round-trip form). Nil slices are written as [] except
// graph.cycle and graph.topo_order, which are null when nil. It fails on
// NaN or ±Inf, which JSON cannot carry. The big layers and records arrays
// are encoded in parallel chunks and written in order.
func Encode(w io.Writer, d *AnalyzeData) error {
	return encodeTo(w, d, nil)
}

// encodeTo writes d to w; a non-nil idx gets the spans of every backend's
// layers and records (see EncodeIndexed).
func encodeTo(w io.Writer, d *AnalyzeData, idx *Index) error {
	bw := &fastjson.CountingWriter{W: bufio.NewWriterSize(w, 1<<20)}
	e := enc{&fastjson.Writer{Buf: make([]byte, 0, 64<<10)}}
	flush := func() error {
		if e.Err != nil {
			return e.Err
		}
		_, err := bw.Write(e.Buf)
		e.Buf = e.Buf[:0]
		return err
	}
	if idx != nil {
		idx.Results = make([]BackendIndex, len(d.Results))
	}

	e.Buf = append(e.Buf, '{')
	e.Key(true, "schema_version")
	e.Str(d.SchemaVersion)
	e.Key(false, "tool")
	e.Buf = append(e.Buf, '{')
	e.Key(true, "name")
	e.Str(d.Tool.Name)
	e.Key(false, "version")
	e.Str(d.Tool.Version)
	e.Buf = append(e.Buf, '}')
	e.Key(false, "folder")
	e.OptStr(d.Folder)
	e.Key(false, "model_name")
	e.Str(d.ModelName)
	e.Key(false, "model_name_confidence")
	e.Str(d.ModelNameConfidence)
	e.Key(false, "model_name_evidence")
	e.evidences(d.ModelNameEvidence)
	e.Key(false, "model_components")
	e.Strs(d.ModelComponents)
	e.Key(false, "validation")
	e.validation(&d.Validation)
	e.Key(false, "results")
	e.Buf = append(e.Buf, '[')
	for i := range d.Results {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		var bi *BackendIndex
		if idx != nil {
			bi = &idx.Results[i]
		}
		if err := e.backend(&d.Results[i], flush, bw, bi); err != nil {
			return fmt.Errorf("encode results[%d] (%s): %w", i, d.Results[i].Label, err)
		}
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "comparison")
	if d.Comparison == nil {
		e.Null()
	} else {
		// A few kilobytes whatever the engine size (rows are capped), so
		// the reflective encoder is fast enough and keeps one definition.
		b, err := jsonv2.Marshal(d.Comparison, jsonv2.Deterministic(true))
		if err != nil {
			return fmt.Errorf("encode comparison: %w", err)
		}
		e.Buf = append(e.Buf, b...)
	}
	e.Buf = append(e.Buf, '}', '\n')
	if err := flush(); err != nil {
		return fmt.Errorf("encode analyze-data: %w", err)
	}
	if err := bw.W.Flush(); err != nil {
		return fmt.Errorf("write analyze-data: %w", err)
	}
	return nil
}

func (e enc) backend(b *Backend, flush func() error, w *fastjson.CountingWriter, bi *BackendIndex) error {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "label")
	e.Str(b.Label)
	e.Key(false, "validation")
	e.backendValidation(&b.Validation)
	e.Key(false, "layer_count")
	e.Int(int64(b.LayerCount))
	e.Key(false, "profile_count")
	e.Int(int64(b.ProfileCount))
	e.Key(false, "profile_kind")
	e.Str(b.ProfileKind)
	e.Key(false, "layers")
	if err := flush(); err != nil {
		return err
	}
	var layerSpans, recordSpans []Span
	if bi != nil {
		layerSpans, recordSpans = make([]Span, len(b.Layers)), make([]Span, len(b.Records))
		bi.Layers, bi.Records = layerSpans, recordSpans
	}
	if err := fastjson.EncodeChunked(w, b.Layers, layerSpans, func(w *fastjson.Writer, l *Layer) { enc{w}.layer(l) }); err != nil {
		return fmt.Errorf("layers: %w", err)
	}
	e.Key(false, "graph")
	e.graph(&b.Graph)
	e.Key(false, "count")
	e.OptInt64(b.Count)
	e.Key(false, "count_source")
	e.Str(b.CountSource)
	e.Key(false, "timing")
	if b.Timing == nil {
		e.Null()
	} else {
		e.timing(b.Timing)
	}
	e.Key(false, "device")
	e.device(b.Device)
	e.Key(false, "build")
	e.build(b.Build)
	e.Key(false, "model")
	e.model(&b.Model)
	e.Key(false, "engines")
	e.engines(&b.Engines)
	e.Key(false, "runs")
	e.runRows(b.Runs)
	e.Key(false, "memory")
	e.memory(b.Memory)
	e.Key(false, "records")
	if err := flush(); err != nil {
		return err
	}
	if err := fastjson.EncodeChunked(w, b.Records, recordSpans, func(w *fastjson.Writer, r *Record) { enc{w}.record(r) }); err != nil {
		return fmt.Errorf("records: %w", err)
	}
	e.Key(false, "type_breakdown")
	e.breakdowns(b.TypeBreakdown)
	e.Key(false, "tag_breakdown")
	e.breakdowns(b.TagBreakdown)
	e.Key(false, "precision_breakdown")
	e.breakdowns(b.PrecisionBreakdown)
	e.Key(false, "concentration")
	if c := b.Concentration; c == nil {
		e.Null()
	} else {
		e.Buf = append(e.Buf, '{')
		e.Key(true, "layers_50")
		e.Int(int64(c.Layers50))
		e.Key(false, "layers_80")
		e.Int(int64(c.Layers80))
		e.Key(false, "layers_90")
		e.Int(int64(c.Layers90))
		e.Buf = append(e.Buf, '}')
	}
	e.Key(false, "roofline")
	e.roofline(b.Roofline)
	e.Key(false, "prediction")
	e.prediction(b.Prediction)
	e.Key(false, "diagnosis")
	e.diagnosis(b.Diagnosis)
	e.Key(false, "issues")
	e.Buf = append(e.Buf, '[')
	for i := range b.Issues {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.finding(&b.Issues[i])
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "positives")
	e.Buf = append(e.Buf, '[')
	for i := range b.Positives {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		p := &b.Positives[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "id")
		e.Str(p.ID)
		e.Key(false, "title")
		e.Str(p.Title)
		e.Key(false, "evidence")
		e.Strs(p.Evidence)
		e.Key(false, "metrics")
		e.metrics(p.Metrics)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "overview")
	e.Buf = append(e.Buf, '[')
	for i := range b.Overview {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		o := &b.Overview[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "id")
		e.Str(o.ID)
		e.Key(false, "title")
		e.Str(o.Title)
		e.Key(false, "evidence")
		e.Strs(o.Evidence)
		e.Key(false, "metrics")
		e.metrics(o.Metrics)
		e.Key(false, "layers")
		e.Ints(o.Layers)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']', '}')
	return nil
}

func (e enc) prediction(p *Prediction) {
	if p == nil {
		e.Null()
		return
	}
	e.Buf = append(e.Buf, '{')
	e.Key(true, "basis")
	e.Str(p.Basis)
	e.Key(false, "device")
	e.Str(p.Device)
	e.Key(false, "device_source")
	e.Str(p.DeviceSource)
	e.Key(false, "total_ms")
	e.Float("prediction.total_ms", p.TotalMs)
	e.Key(false, "layer_ms")
	e.Buf = append(e.Buf, '[')
	for i, v := range p.LayerMs {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Float("prediction.layer_ms", v)
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "layer_bound")
	e.Strs(p.LayerBound)
	e.Key(false, "error_pct")
	e.Float("prediction.error_pct", p.ErrorPct)
	e.Key(false, "notes")
	e.Strs(p.Notes)
	e.Buf = append(e.Buf, '}')
}

func (e enc) diagnosis(d *Diagnosis) {
	if d == nil {
		e.Null()
		return
	}
	e.Buf = append(e.Buf, '{')
	e.Key(true, "reference_ms")
	e.Float("diagnosis.reference_ms", d.ReferenceMs)
	e.Key(false, "reference_source")
	e.Str(d.ReferenceSource)
	e.Key(false, "layer_sum_ms")
	e.Float("diagnosis.layer_sum_ms", d.LayerSumMs)
	e.Key(false, "profile_scale")
	e.Float("diagnosis.profile_scale", d.ProfileScale)
	e.Key(false, "recoverable_ms")
	e.Float("diagnosis.recoverable_ms", d.RecoverableMs)
	e.Key(false, "recoverable_share")
	e.Float("diagnosis.recoverable_share", d.RecoverableShare)
	e.Buf = append(e.Buf, '}')
}

func (e enc) evidences(v []Evidence) {
	e.Buf = append(e.Buf, '[')
	for i := range v {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		x := &v[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "source")
		e.Str(x.Source)
		e.Key(false, "detail")
		e.Str(x.Detail)
		e.Key(false, "value")
		e.Str(x.Value)
		e.Key(false, "confidence")
		e.Str(x.Confidence)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
}

func (e enc) validation(v *Validation) {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "status")
	e.Str(v.Status)
	e.Key(false, "backend_count")
	e.Int(int64(v.BackendCount))
	e.Key(false, "passed_count")
	e.Int(int64(v.PassedCount))
	e.Key(false, "failed_count")
	e.Int(int64(v.FailedCount))
	e.Key(false, "warnings")
	e.Strs(v.Warnings)
	e.Buf = append(e.Buf, '}')
}

func (e enc) backendValidation(v *BackendValidation) {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "status")
	e.Str(v.Status)
	e.Key(false, "analysis_mode")
	e.Str(v.AnalysisMode)
	e.Key(false, "messages")
	e.Buf = append(e.Buf, '[')
	for i := range v.Messages {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		m := &v.Messages[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "level")
		e.Str(m.Level)
		e.Key(false, "code")
		e.Str(m.Code)
		e.Key(false, "message")
		e.Str(m.Message)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "source_paths")
	e.Buf = append(e.Buf, '{')
	e.Key(true, "layer")
	e.OptStr(v.SourcePaths.Layer)
	e.Key(false, "profile")
	e.OptStr(v.SourcePaths.Profile)
	e.Buf = append(e.Buf, '}')
	e.Key(false, "report_available")
	e.Bool(v.ReportAvailable)
	e.Buf = append(e.Buf, '}')
}

func (e enc) tensors(v []Tensor) {
	e.Buf = append(e.Buf, '[')
	for i := range v {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		t := &v[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "Name")
		e.Str(t.Name)
		if t.Location != "" {
			e.Key(false, "Location")
			e.Str(t.Location)
		}
		e.Key(false, "Dimensions")
		e.Int64s(t.Dimensions)
		e.Key(false, "Format/Datatype")
		e.Str(t.Format)
		if t.Extra != nil {
			e.Key(false, "Extra")
			e.Raw(t.Extra)
		}
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
}

func (e enc) layer(l *Layer) {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "Name")
	e.Str(l.Name)
	e.Key(false, "LayerType")
	e.Str(l.LayerType)
	e.Key(false, "Inputs")
	e.tensors(l.Inputs)
	e.Key(false, "Outputs")
	e.tensors(l.Outputs)
	if l.Constants != nil {
		e.Key(false, "Constants")
		e.tensors(l.Constants)
	}
	if l.ParameterType != "" {
		e.Key(false, "ParameterType")
		e.Str(l.ParameterType)
	}
	if l.TacticName != "" {
		e.Key(false, "TacticName")
		e.Str(l.TacticName)
	}
	if l.TacticValue != "" {
		e.Key(false, "TacticValue")
		e.Str(l.TacticValue)
	}
	if l.Origin != "" {
		e.Key(false, "Origin")
		e.Str(l.Origin)
	}
	if l.StreamID != nil {
		e.Key(false, "StreamId")
		e.Int(int64(*l.StreamID))
	}
	if l.Metadata != "" {
		e.Key(false, "Metadata")
		e.Str(l.Metadata)
	}
	if l.Subgraph != "" {
		e.Key(false, "_subgraph")
		e.Str(l.Subgraph)
	}
	if l.OptProfile != 0 {
		e.Key(false, "OptimizationProfile")
		e.Int(int64(l.OptProfile))
	}
	if l.Parameters != nil {
		e.Key(false, "Parameters")
		e.Raw(l.Parameters)
	}
	e.Buf = append(e.Buf, '}')
}

func (e enc) graph(g *Graph) {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "is_dag")
	e.Bool(g.IsDAG)
	e.Key(false, "ambiguous")
	e.Bool(g.Ambiguous)
	e.Key(false, "duplicate_producers")
	e.Buf = append(e.Buf, '[')
	for i := range g.DuplicateProducers {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		p := &g.DuplicateProducers[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "tensor")
		e.Str(p.Tensor)
		e.Key(false, "producers")
		e.Ints(p.Producers)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "edge_count")
	e.Int(int64(g.EdgeCount))
	e.Key(false, "external_inputs")
	e.Strs(g.ExternalInputs)
	e.Key(false, "graph_outputs")
	e.Strs(g.GraphOutputs)
	e.Key(false, "declared_inputs")
	e.Strs(g.DeclaredInputs)
	e.Key(false, "declared_outputs")
	e.Strs(g.DeclaredOutputs)
	e.Key(false, "cycle")
	if g.Cycle == nil {
		e.Null()
	} else {
		e.Strs(g.Cycle)
	}
	e.Key(false, "topo_order")
	if g.TopoOrder == nil {
		e.Null()
	} else {
		e.Ints(g.TopoOrder)
	}
	e.Key(false, "edges")
	e.Buf = append(e.Buf, '[')
	for i, p := range g.Edges {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Buf = append(e.Buf, '[')
		e.Int(int64(p[0]))
		e.Buf = append(e.Buf, ',')
		e.Int(int64(p[1]))
		e.Buf = append(e.Buf, ']')
	}
	e.Buf = append(e.Buf, ']', '}')
}

func (e enc) timing(t *Timing) {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "total_ms")
	e.Float("timing.total_ms", t.TotalMs)
	e.Key(false, "average_inference_ms")
	e.Float("timing.average_inference_ms", t.AverageInferenceMs)
	e.Key(false, "median_inference_ms")
	e.OptFloat("timing.median_inference_ms", t.MedianInferenceMs)
	e.Key(false, "percentage_sum")
	e.Float("timing.percentage_sum", t.PercentageSum)
	e.Key(false, "zero_time_records")
	e.Int(int64(t.ZeroTimeRecords))
	e.Key(false, "notes")
	e.Strs(t.Notes)
	e.Key(false, "end_to_end")
	if x := t.EndToEnd; x == nil {
		e.Buf = append(e.Buf, "null"...)
	} else {
		e.Buf = append(e.Buf, '{')
		e.Key(true, "source")
		e.Str(x.Source)
		e.Key(false, "iterations")
		e.Int(int64(x.Iterations))
		for _, f := range []struct {
			name string
			v    float64
		}{{"mean_ms", x.MeanMs}, {"median_ms", x.MedianMs}, {"p90_ms", x.P90Ms}, {"p99_ms", x.P99Ms}, {"min_ms", x.MinMs}, {"max_ms", x.MaxMs}} {
			e.Key(false, f.name)
			e.Float("timing.end_to_end."+f.name, f.v)
		}
		e.Key(false, "compute_mean_ms")
		e.OptFloat("timing.end_to_end.compute_mean_ms", x.ComputeMeanMs)
		e.Key(false, "profile_overhead")
		e.Float("timing.end_to_end.profile_overhead", x.ProfileOverhead)
		e.Buf = append(e.Buf, '}')
	}
	e.Key(false, "measured")
	e.measured(t.Measured)
	e.Buf = append(e.Buf, '}')
}

func (e enc) model(m *Model) {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "name")
	e.Str(m.Name)
	e.Key(false, "name_confidence")
	e.Str(m.NameConfidence)
	e.Key(false, "name_evidence")
	e.evidences(m.NameEvidence)
	e.Key(false, "components")
	e.Strs(m.Components)
	e.Key(false, "category")
	e.Str(m.Category)
	e.Key(false, "category_confidence")
	e.Str(m.CategoryConfidence)
	e.Key(false, "category_evidence")
	e.evidences(m.CategoryEvidence)
	e.Key(false, "hidden_size")
	e.OptInt64(m.HiddenSize)
	e.Key(false, "num_layers")
	e.OptInt64(m.NumLayers)
	e.Key(false, "num_heads")
	e.OptInt64(m.NumHeads)
	e.Key(false, "sequence_length")
	e.OptInt64(m.SequenceLength)
	e.Key(false, "input_shapes")
	e.Buf = append(e.Buf, '[')
	for i := range m.InputShapes {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		s := &m.InputShapes[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "name")
		e.Str(s.Name)
		e.Key(false, "dimensions")
		e.Int64s(s.Dimensions)
		e.Key(false, "data_type")
		e.Str(s.DataType)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "dynamic_dims")
	e.Bool(m.DynamicDims)
	e.Buf = append(e.Buf, '}')
}

func (e enc) runRows(rs []RunRow) {
	e.Buf = append(e.Buf, '[')
	for i := range rs {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		r := &rs[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "run")
		e.Int(int64(r.Run))
		e.Key(false, "batch")
		e.OptStr(r.Batch)
		e.Key(false, "shapes")
		e.OptStr(r.Shapes)
		e.Key(false, "latency_median_ms")
		e.OptFloat("runs.latency_median_ms", r.LatencyMedianMs)
		e.Key(false, "gpu_compute_median_ms")
		e.OptFloat("runs.gpu_compute_median_ms", r.GPUComputeMedianMs)
		e.Key(false, "throughput_qps")
		e.OptFloat("runs.throughput_qps", r.ThroughputQPS)
		e.Key(false, "items_per_second")
		e.OptFloat("runs.items_per_second", r.ItemsPerSecond)
		e.Key(false, "layer_sum_ms")
		e.OptFloat("runs.layer_sum_ms", r.LayerSumMs)
		e.Key(false, "profile_records")
		e.OptInt(r.ProfileRecords)
		e.Key(false, "analysed")
		e.Bool(r.Analysed)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
}

func (e enc) memory(m *Memory) {
	if m == nil {
		e.Null()
		return
	}
	e.Buf = append(e.Buf, '{')
	e.Key(true, "weights_bytes")
	e.Float("memory.weights_bytes", m.WeightsBytes)
	e.Key(false, "weight_layers")
	e.Int(int64(m.WeightLayers))
	e.Key(false, "weights_unknown")
	e.Int(int64(m.WeightsUnknown))
	e.Key(false, "largest_activations")
	e.Buf = append(e.Buf, '[')
	for i := range m.LargestActivations {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		a := &m.LargestActivations[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "name")
		e.Str(a.Name)
		e.Key(false, "bytes")
		e.Float("memory.largest_activations.bytes", a.Bytes)
		e.Key(false, "dimensions")
		e.Int64s(a.Dimensions)
		e.Key(false, "format")
		e.Str(a.Format)
		e.Key(false, "producer")
		e.Int(int64(a.Producer))
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "activation_tensors")
	e.Int(int64(m.ActivationTensors))
	e.Key(false, "dynamic_tensors")
	e.Int(int64(m.DynamicTensors))
	e.Key(false, "notes")
	e.Strs(m.Notes)
	e.Buf = append(e.Buf, '}')
}

func (e enc) engines(g *Engines) {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "engine_files")
	e.Strs(g.EngineFiles)
	e.Key(false, "myelin_graphs")
	e.Ints(g.MyelinGraphs)
	e.Key(false, "streams")
	e.Ints(g.Streams)
	e.Key(false, "subgraphs")
	e.Strs(g.Subgraphs)
	e.Key(false, "optimization_profiles")
	e.Ints(g.OptProfiles)
	e.Key(false, "partitions")
	e.Buf = append(e.Buf, '[')
	for i := range g.Partitions {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		p := &g.Partitions[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "id")
		e.Str(p.ID)
		e.Key(false, "kind")
		e.Str(p.Kind)
		e.Key(false, "layer_count")
		e.Int(int64(p.LayerCount))
		e.Key(false, "time_ms")
		e.Float("partition.time_ms", p.TimeMs)
		e.Key(false, "percentage")
		e.Float("partition.percentage", p.Percentage)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
	e.Key(false, "inferred_count")
	e.Int(int64(g.InferredCount))
	e.Key(false, "source")
	e.Str(g.Source)
	e.Buf = append(e.Buf, '}')
}

func (e enc) record(r *Record) {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "name")
	e.Str(r.Name)
	e.Key(false, "layer")
	e.Int(int64(r.Layer))
	e.Key(false, "layer_type")
	e.Str(r.LayerType)
	e.Key(false, "raw_layer_type")
	e.Str(r.RawLayerType)
	e.Key(false, "precision")
	e.Str(r.Precision)
	e.Key(false, "input_types")
	e.Strs(r.InputTypes)
	e.Key(false, "output_types")
	e.Strs(r.OutputTypes)
	e.Key(false, "tactic")
	e.Str(r.Tactic)
	e.Key(false, "tactic_family")
	e.Str(r.TacticFamily)
	e.Key(false, "tensor_core")
	e.OptBool(r.TensorCore)
	e.Key(false, "myelin_graph")
	e.OptInt(r.MyelinGraph)
	e.Key(false, "fused_ops")
	e.Int(int64(r.FusedOps))
	e.Key(false, "time_ms")
	e.Float("record.time_ms", r.TimeMs)
	e.Key(false, "avg_ms")
	e.Float("record.avg_ms", r.AvgMs)
	e.Key(false, "median_ms")
	e.OptFloat("record.median_ms", r.MedianMs)
	e.Key(false, "percentage")
	e.Float("record.percentage", r.Percentage)
	e.Key(false, "tags")
	e.Strs(r.Tags)
	e.Key(false, "flops")
	e.OptFloat("record.flops", r.FLOPs)
	e.Key(false, "bytes")
	e.OptFloat("record.bytes", r.Bytes)
	e.Key(false, "roofline")
	e.recordRoofline(r.Roofline)
	e.Buf = append(e.Buf, '}')
}

func (e enc) recordRoofline(r *RecordRoofline) {
	if r == nil {
		e.Null()
		return
	}
	e.Buf = append(e.Buf, '{')
	e.Key(true, "time_ms")
	e.Float("record.roofline.time_ms", r.TimeMs)
	e.Key(false, "achieved_tflops")
	e.Float("record.roofline.achieved_tflops", r.AchievedTFLOPS)
	e.Key(false, "achieved_gbs")
	e.OptFloat("record.roofline.achieved_gbs", r.AchievedGBs)
	e.Key(false, "intensity")
	e.OptFloat("record.roofline.intensity", r.Intensity)
	e.Key(false, "peak_precision")
	e.Str(r.PeakPrecision)
	e.Key(false, "attainable_tflops")
	e.OptFloat("record.roofline.attainable_tflops", r.AttainableTFLOPS)
	e.Key(false, "bound")
	e.OptStr(r.Bound)
	e.Key(false, "pct_of_attainable")
	e.OptFloat("record.roofline.pct_of_attainable", r.PctOfAttainable)
	e.Buf = append(e.Buf, '}')
}

func (e enc) roofline(r *Roofline) {
	if r == nil {
		e.Null()
		return
	}
	e.Buf = append(e.Buf, '{')
	e.Key(true, "time_basis")
	e.Str(r.TimeBasis)
	e.Key(false, "time_scale")
	e.Float("roofline.time_scale", r.TimeScale)
	e.Key(false, "reference_source")
	e.Str(r.ReferenceSource)
	e.Key(false, "layers")
	e.Int(int64(r.Layers))
	e.Key(false, "compute_bound")
	e.Int(int64(r.ComputeBound))
	e.Key(false, "memory_bound")
	e.Int(int64(r.MemoryBound))
	e.Key(false, "time_ms")
	e.Float("roofline.time_ms", r.TimeMs)
	e.Key(false, "flops")
	e.Float("roofline.flops", r.FLOPs)
	e.Key(false, "bytes")
	e.Float("roofline.bytes", r.Bytes)
	e.Key(false, "achieved_tflops")
	e.Float("roofline.achieved_tflops", r.AchievedTFLOPS)
	e.Key(false, "notes")
	e.Strs(r.Notes)
	e.Buf = append(e.Buf, '}')
}

func (e enc) breakdowns(v []Breakdown) {
	e.Buf = append(e.Buf, '[')
	for i := range v {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		b := &v[i]
		e.Buf = append(e.Buf, '{')
		e.Key(true, "name")
		e.Str(b.Name)
		e.Key(false, "count")
		e.Int(int64(b.Count))
		e.Key(false, "time_ms")
		e.Float("breakdown.time_ms", b.TimeMs)
		e.Key(false, "percentage")
		e.Float("breakdown.percentage", b.Percentage)
		e.Buf = append(e.Buf, '}')
	}
	e.Buf = append(e.Buf, ']')
}

func (e enc) finding(f *Finding) {
	e.Buf = append(e.Buf, '{')
	e.Key(true, "id")
	e.Str(f.ID)
	e.Key(false, "title")
	e.Str(f.Title)
	e.Key(false, "score")
	e.Float("issue.score", f.Score)
	e.Key(false, "confidence")
	e.Str(f.Confidence)
	e.Key(false, "share")
	e.Float("issue.share", f.Share)
	e.Key(false, "recoverable_ms")
	e.Float("issue.recoverable_ms", f.RecoverableMs)
	e.Key(false, "recoverable_low_ms")
	e.Float("issue.recoverable_low_ms", f.RecoverableLowMs)
	e.Key(false, "recoverable_high_ms")
	e.Float("issue.recoverable_high_ms", f.RecoverableHighMs)
	e.Key(false, "recoverable_share")
	e.Float("issue.recoverable_share", f.RecoverableShare)
	e.Key(false, "price_basis")
	e.Str(f.PriceBasis)
	e.Key(false, "price_factor")
	e.Str(f.PriceFactor)
	e.Key(false, "action")
	e.Str(f.Action)
	e.Key(false, "evidence")
	e.Strs(f.Evidence)
	e.Key(false, "metrics")
	e.metrics(f.Metrics)
	e.Key(false, "next_check")
	e.Str(f.NextCheck)
	e.Key(false, "layers")
	e.Ints(f.Layers)
	e.Buf = append(e.Buf, '}')
}

// metrics writes a map with its keys sorted, so the bytes are stable.
func (e enc) metrics(m map[string]float64) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.Buf = append(e.Buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Str(k)
		e.Buf = append(e.Buf, ':')
		e.Float("metrics."+k, m[k])
	}
	e.Buf = append(e.Buf, '}')
}
