package contract

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"slices"
)

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
	bw := &countingWriter{w: bufio.NewWriterSize(w, 1<<20)}
	e := &enc{buf: make([]byte, 0, 64<<10)}
	flush := func() error {
		if e.err != nil {
			return e.err
		}
		_, err := bw.Write(e.buf)
		e.buf = e.buf[:0]
		return err
	}
	if idx != nil {
		idx.Results = make([]BackendIndex, len(d.Results))
	}

	e.buf = append(e.buf, '{')
	e.key(true, "schema_version")
	e.str(d.SchemaVersion)
	e.key(false, "tool")
	e.buf = append(e.buf, '{')
	e.key(true, "name")
	e.str(d.Tool.Name)
	e.key(false, "version")
	e.str(d.Tool.Version)
	e.buf = append(e.buf, '}')
	e.key(false, "folder")
	e.optStr(d.Folder)
	e.key(false, "model_name")
	e.str(d.ModelName)
	e.key(false, "model_name_confidence")
	e.str(d.ModelNameConfidence)
	e.key(false, "model_name_evidence")
	e.evidences(d.ModelNameEvidence)
	e.key(false, "model_components")
	e.strs(d.ModelComponents)
	e.key(false, "validation")
	e.validation(&d.Validation)
	e.key(false, "results")
	e.buf = append(e.buf, '[')
	for i := range d.Results {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		var bi *BackendIndex
		if idx != nil {
			bi = &idx.Results[i]
		}
		if err := e.backend(&d.Results[i], flush, bw, bi); err != nil {
			return fmt.Errorf("encode results[%d] (%s): %w", i, d.Results[i].Label, err)
		}
	}
	e.buf = append(e.buf, ']', '}', '\n')
	if err := flush(); err != nil {
		return fmt.Errorf("encode analyze-data: %w", err)
	}
	if err := bw.w.Flush(); err != nil {
		return fmt.Errorf("write analyze-data: %w", err)
	}
	return nil
}

func (e *enc) backend(b *Backend, flush func() error, w *countingWriter, bi *BackendIndex) error {
	e.buf = append(e.buf, '{')
	e.key(true, "label")
	e.str(b.Label)
	e.key(false, "validation")
	e.backendValidation(&b.Validation)
	e.key(false, "layer_count")
	e.int(int64(b.LayerCount))
	e.key(false, "profile_count")
	e.int(int64(b.ProfileCount))
	e.key(false, "profile_kind")
	e.str(b.ProfileKind)
	e.key(false, "layers")
	if err := flush(); err != nil {
		return err
	}
	var layerSpans, recordSpans []Span
	if bi != nil {
		layerSpans, recordSpans = make([]Span, len(b.Layers)), make([]Span, len(b.Records))
		bi.Layers, bi.Records = layerSpans, recordSpans
	}
	if err := encodeChunked(w, b.Layers, layerSpans, (*enc).layer); err != nil {
		return fmt.Errorf("layers: %w", err)
	}
	e.key(false, "graph")
	e.graph(&b.Graph)
	e.key(false, "count")
	e.optInt64(b.Count)
	e.key(false, "count_source")
	e.str(b.CountSource)
	e.key(false, "timing")
	if b.Timing == nil {
		e.null()
	} else {
		e.timing(b.Timing)
	}
	e.key(false, "model")
	e.model(&b.Model)
	e.key(false, "engines")
	e.engines(&b.Engines)
	e.key(false, "records")
	if err := flush(); err != nil {
		return err
	}
	if err := encodeChunked(w, b.Records, recordSpans, (*enc).record); err != nil {
		return fmt.Errorf("records: %w", err)
	}
	e.key(false, "type_breakdown")
	e.breakdowns(b.TypeBreakdown)
	e.key(false, "tag_breakdown")
	e.breakdowns(b.TagBreakdown)
	e.key(false, "precision_breakdown")
	e.breakdowns(b.PrecisionBreakdown)
	e.key(false, "concentration")
	if c := b.Concentration; c == nil {
		e.null()
	} else {
		e.buf = append(e.buf, '{')
		e.key(true, "layers_50")
		e.int(int64(c.Layers50))
		e.key(false, "layers_80")
		e.int(int64(c.Layers80))
		e.key(false, "layers_90")
		e.int(int64(c.Layers90))
		e.buf = append(e.buf, '}')
	}
	e.key(false, "issues")
	e.buf = append(e.buf, '[')
	for i := range b.Issues {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.finding(&b.Issues[i])
	}
	e.buf = append(e.buf, ']')
	e.key(false, "positives")
	e.buf = append(e.buf, '[')
	for i := range b.Positives {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		p := &b.Positives[i]
		e.buf = append(e.buf, '{')
		e.key(true, "id")
		e.str(p.ID)
		e.key(false, "title")
		e.str(p.Title)
		e.key(false, "evidence")
		e.strs(p.Evidence)
		e.key(false, "metrics")
		e.metrics(p.Metrics)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']', '}')
	return nil
}

// chunkLen is the number of elements one worker encodes at a time: large
// enough to amortise the hand-off, small enough to bound memory.
const chunkLen = 4096

// encodeChunked writes v as a JSON array. Small slices are encoded inline;
// big ones in chunks, GOMAXPROCS at a time, each into its own buffer, the
// buffers written in order so the bytes do not depend on scheduling. A
// non-nil spans (len(v) long) gets each element's offsets in the output.
func encodeChunked[T any](w *countingWriter, v []T, spans []Span, one func(*enc, *T)) error {
	if len(v) <= chunkLen {
		e := &enc{buf: make([]byte, 0, 256*len(v)+2)}
		e.buf = append(e.buf, '[')
		appendElems(e, v, 0, len(v), spans, one)
		e.buf = append(e.buf, ']')
		if e.err != nil {
			return e.err
		}
		shift(spans, w.n)
		_, err := w.Write(e.buf)
		return err
	}
	if _, err := w.Write([]byte{'['}); err != nil {
		return err
	}
	// Chunks are encoded concurrently while earlier ones are written, in
	// order. A small pool of buffers bounds how far encoding runs ahead, so
	// memory stays a few chunks whatever the engine's size.
	chunks := (len(v) + chunkLen - 1) / chunkLen
	workers := max(1, runtime.GOMAXPROCS(0))
	pool := make(chan *enc, workers+2)
	for range cap(pool) {
		pool <- &enc{}
	}
	done := make([]chan *enc, chunks)
	for k := range done {
		done[k] = make(chan *enc, 1)
	}
	go func() {
		for k := range chunks {
			e := <-pool
			go func() {
				appendElems(e, v, k*chunkLen, min((k+1)*chunkLen, len(v)), spans, one)
				done[k] <- e
			}()
		}
	}()
	var firstErr error
	for k := range chunks {
		e := <-done[k]
		lo, hi := k*chunkLen, min((k+1)*chunkLen, len(v))
		switch {
		case firstErr != nil:
			// drain: every started chunk must hand its buffer back
		case e.err != nil:
			firstErr = fmt.Errorf("element %d..%d: %w", lo, hi-1, e.err)
		default:
			if spans != nil {
				shift(spans[lo:hi], w.n)
			}
			if _, err := w.Write(e.buf); err != nil {
				firstErr = err
			}
		}
		e.buf, e.err = e.buf[:0], nil
		pool <- e
	}
	if firstErr != nil {
		return firstErr
	}
	_, err := w.Write([]byte{']'})
	return err
}

// appendElems appends v[lo:hi] to e.buf, each after a comma unless it is
// the array's first, recording their offsets in e.buf into spans.
func appendElems[T any](e *enc, v []T, lo, hi int, spans []Span, one func(*enc, *T)) {
	for i := lo; i < hi; i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		start := len(e.buf)
		one(e, &v[i])
		if spans != nil {
			spans[i] = Span{Start: int64(start), End: int64(len(e.buf))}
		}
	}
}

func shift(spans []Span, by int64) {
	for i := range spans {
		spans[i].Start += by
		spans[i].End += by
	}
}

// countingWriter counts the bytes written so far, the base of the spans.
type countingWriter struct {
	w *bufio.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func (e *enc) evidences(v []Evidence) {
	e.buf = append(e.buf, '[')
	for i := range v {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		x := &v[i]
		e.buf = append(e.buf, '{')
		e.key(true, "source")
		e.str(x.Source)
		e.key(false, "detail")
		e.str(x.Detail)
		e.key(false, "value")
		e.str(x.Value)
		e.key(false, "confidence")
		e.str(x.Confidence)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
}

func (e *enc) validation(v *Validation) {
	e.buf = append(e.buf, '{')
	e.key(true, "status")
	e.str(v.Status)
	e.key(false, "backend_count")
	e.int(int64(v.BackendCount))
	e.key(false, "passed_count")
	e.int(int64(v.PassedCount))
	e.key(false, "failed_count")
	e.int(int64(v.FailedCount))
	e.key(false, "warnings")
	e.strs(v.Warnings)
	e.buf = append(e.buf, '}')
}

func (e *enc) backendValidation(v *BackendValidation) {
	e.buf = append(e.buf, '{')
	e.key(true, "status")
	e.str(v.Status)
	e.key(false, "analysis_mode")
	e.str(v.AnalysisMode)
	e.key(false, "messages")
	e.buf = append(e.buf, '[')
	for i := range v.Messages {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		m := &v.Messages[i]
		e.buf = append(e.buf, '{')
		e.key(true, "level")
		e.str(m.Level)
		e.key(false, "code")
		e.str(m.Code)
		e.key(false, "message")
		e.str(m.Message)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
	e.key(false, "source_paths")
	e.buf = append(e.buf, '{')
	e.key(true, "layer")
	e.optStr(v.SourcePaths.Layer)
	e.key(false, "profile")
	e.optStr(v.SourcePaths.Profile)
	e.buf = append(e.buf, '}')
	e.key(false, "report_available")
	e.bool(v.ReportAvailable)
	e.buf = append(e.buf, '}')
}

func (e *enc) tensors(v []Tensor) {
	e.buf = append(e.buf, '[')
	for i := range v {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		t := &v[i]
		e.buf = append(e.buf, '{')
		e.key(true, "Name")
		e.str(t.Name)
		if t.Location != "" {
			e.key(false, "Location")
			e.str(t.Location)
		}
		e.key(false, "Dimensions")
		e.int64s(t.Dimensions)
		e.key(false, "Format/Datatype")
		e.str(t.Format)
		if t.Extra != nil {
			e.key(false, "Extra")
			e.raw(t.Extra)
		}
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
}

func (e *enc) layer(l *Layer) {
	e.buf = append(e.buf, '{')
	e.key(true, "Name")
	e.str(l.Name)
	e.key(false, "LayerType")
	e.str(l.LayerType)
	e.key(false, "Inputs")
	e.tensors(l.Inputs)
	e.key(false, "Outputs")
	e.tensors(l.Outputs)
	if l.Constants != nil {
		e.key(false, "Constants")
		e.tensors(l.Constants)
	}
	if l.ParameterType != "" {
		e.key(false, "ParameterType")
		e.str(l.ParameterType)
	}
	if l.TacticName != "" {
		e.key(false, "TacticName")
		e.str(l.TacticName)
	}
	if l.TacticValue != "" {
		e.key(false, "TacticValue")
		e.str(l.TacticValue)
	}
	if l.Origin != "" {
		e.key(false, "Origin")
		e.str(l.Origin)
	}
	if l.StreamID != nil {
		e.key(false, "StreamId")
		e.int(int64(*l.StreamID))
	}
	if l.Metadata != "" {
		e.key(false, "Metadata")
		e.str(l.Metadata)
	}
	if l.Subgraph != "" {
		e.key(false, "_subgraph")
		e.str(l.Subgraph)
	}
	if l.OptProfile != 0 {
		e.key(false, "OptimizationProfile")
		e.int(int64(l.OptProfile))
	}
	if l.Parameters != nil {
		e.key(false, "Parameters")
		e.raw(l.Parameters)
	}
	e.buf = append(e.buf, '}')
}

func (e *enc) graph(g *Graph) {
	e.buf = append(e.buf, '{')
	e.key(true, "is_dag")
	e.bool(g.IsDAG)
	e.key(false, "ambiguous")
	e.bool(g.Ambiguous)
	e.key(false, "duplicate_producers")
	e.buf = append(e.buf, '[')
	for i := range g.DuplicateProducers {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		p := &g.DuplicateProducers[i]
		e.buf = append(e.buf, '{')
		e.key(true, "tensor")
		e.str(p.Tensor)
		e.key(false, "producers")
		e.ints(p.Producers)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
	e.key(false, "edge_count")
	e.int(int64(g.EdgeCount))
	e.key(false, "external_inputs")
	e.strs(g.ExternalInputs)
	e.key(false, "graph_outputs")
	e.strs(g.GraphOutputs)
	e.key(false, "declared_inputs")
	e.strs(g.DeclaredInputs)
	e.key(false, "declared_outputs")
	e.strs(g.DeclaredOutputs)
	e.key(false, "cycle")
	if g.Cycle == nil {
		e.null()
	} else {
		e.strs(g.Cycle)
	}
	e.key(false, "topo_order")
	if g.TopoOrder == nil {
		e.null()
	} else {
		e.ints(g.TopoOrder)
	}
	e.key(false, "edges")
	e.buf = append(e.buf, '[')
	for i, p := range g.Edges {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = append(e.buf, '[')
		e.int(int64(p[0]))
		e.buf = append(e.buf, ',')
		e.int(int64(p[1]))
		e.buf = append(e.buf, ']')
	}
	e.buf = append(e.buf, ']', '}')
}

func (e *enc) timing(t *Timing) {
	e.buf = append(e.buf, '{')
	e.key(true, "total_ms")
	e.float("timing.total_ms", t.TotalMs)
	e.key(false, "average_inference_ms")
	e.float("timing.average_inference_ms", t.AverageInferenceMs)
	e.key(false, "median_inference_ms")
	e.optFloat("timing.median_inference_ms", t.MedianInferenceMs)
	e.key(false, "percentage_sum")
	e.float("timing.percentage_sum", t.PercentageSum)
	e.key(false, "zero_time_records")
	e.int(int64(t.ZeroTimeRecords))
	e.key(false, "notes")
	e.strs(t.Notes)
	e.key(false, "end_to_end")
	if x := t.EndToEnd; x == nil {
		e.buf = append(e.buf, "null"...)
	} else {
		e.buf = append(e.buf, '{')
		e.key(true, "source")
		e.str(x.Source)
		e.key(false, "iterations")
		e.int(int64(x.Iterations))
		for _, f := range []struct {
			name string
			v    float64
		}{{"mean_ms", x.MeanMs}, {"median_ms", x.MedianMs}, {"p90_ms", x.P90Ms}, {"p99_ms", x.P99Ms}, {"min_ms", x.MinMs}, {"max_ms", x.MaxMs}} {
			e.key(false, f.name)
			e.float("timing.end_to_end."+f.name, f.v)
		}
		e.key(false, "compute_mean_ms")
		e.optFloat("timing.end_to_end.compute_mean_ms", x.ComputeMeanMs)
		e.key(false, "profile_overhead")
		e.float("timing.end_to_end.profile_overhead", x.ProfileOverhead)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, '}')
}

func (e *enc) model(m *Model) {
	e.buf = append(e.buf, '{')
	e.key(true, "name")
	e.str(m.Name)
	e.key(false, "name_confidence")
	e.str(m.NameConfidence)
	e.key(false, "name_evidence")
	e.evidences(m.NameEvidence)
	e.key(false, "components")
	e.strs(m.Components)
	e.key(false, "category")
	e.str(m.Category)
	e.key(false, "category_confidence")
	e.str(m.CategoryConfidence)
	e.key(false, "category_evidence")
	e.evidences(m.CategoryEvidence)
	e.key(false, "hidden_size")
	e.optInt64(m.HiddenSize)
	e.key(false, "num_layers")
	e.optInt64(m.NumLayers)
	e.key(false, "num_heads")
	e.optInt64(m.NumHeads)
	e.key(false, "sequence_length")
	e.optInt64(m.SequenceLength)
	e.key(false, "input_shapes")
	e.buf = append(e.buf, '[')
	for i := range m.InputShapes {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		s := &m.InputShapes[i]
		e.buf = append(e.buf, '{')
		e.key(true, "name")
		e.str(s.Name)
		e.key(false, "dimensions")
		e.int64s(s.Dimensions)
		e.key(false, "data_type")
		e.str(s.DataType)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
	e.key(false, "dynamic_dims")
	e.bool(m.DynamicDims)
	e.buf = append(e.buf, '}')
}

func (e *enc) engines(g *Engines) {
	e.buf = append(e.buf, '{')
	e.key(true, "engine_files")
	e.strs(g.EngineFiles)
	e.key(false, "myelin_graphs")
	e.ints(g.MyelinGraphs)
	e.key(false, "streams")
	e.ints(g.Streams)
	e.key(false, "subgraphs")
	e.strs(g.Subgraphs)
	e.key(false, "optimization_profiles")
	e.ints(g.OptProfiles)
	e.key(false, "partitions")
	e.buf = append(e.buf, '[')
	for i := range g.Partitions {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		p := &g.Partitions[i]
		e.buf = append(e.buf, '{')
		e.key(true, "id")
		e.str(p.ID)
		e.key(false, "kind")
		e.str(p.Kind)
		e.key(false, "layer_count")
		e.int(int64(p.LayerCount))
		e.key(false, "time_ms")
		e.float("partition.time_ms", p.TimeMs)
		e.key(false, "percentage")
		e.float("partition.percentage", p.Percentage)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
	e.key(false, "inferred_count")
	e.int(int64(g.InferredCount))
	e.key(false, "source")
	e.str(g.Source)
	e.buf = append(e.buf, '}')
}

func (e *enc) record(r *Record) {
	e.buf = append(e.buf, '{')
	e.key(true, "name")
	e.str(r.Name)
	e.key(false, "layer")
	e.int(int64(r.Layer))
	e.key(false, "layer_type")
	e.str(r.LayerType)
	e.key(false, "raw_layer_type")
	e.str(r.RawLayerType)
	e.key(false, "precision")
	e.str(r.Precision)
	e.key(false, "input_types")
	e.strs(r.InputTypes)
	e.key(false, "output_types")
	e.strs(r.OutputTypes)
	e.key(false, "tactic")
	e.str(r.Tactic)
	e.key(false, "tactic_family")
	e.str(r.TacticFamily)
	e.key(false, "tensor_core")
	e.bool(r.TensorCore)
	e.key(false, "myelin_graph")
	e.optInt(r.MyelinGraph)
	e.key(false, "fused_ops")
	e.int(int64(r.FusedOps))
	e.key(false, "time_ms")
	e.float("record.time_ms", r.TimeMs)
	e.key(false, "avg_ms")
	e.float("record.avg_ms", r.AvgMs)
	e.key(false, "median_ms")
	e.optFloat("record.median_ms", r.MedianMs)
	e.key(false, "percentage")
	e.float("record.percentage", r.Percentage)
	e.key(false, "tags")
	e.strs(r.Tags)
	e.buf = append(e.buf, '}')
}

func (e *enc) breakdowns(v []Breakdown) {
	e.buf = append(e.buf, '[')
	for i := range v {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		b := &v[i]
		e.buf = append(e.buf, '{')
		e.key(true, "name")
		e.str(b.Name)
		e.key(false, "count")
		e.int(int64(b.Count))
		e.key(false, "time_ms")
		e.float("breakdown.time_ms", b.TimeMs)
		e.key(false, "percentage")
		e.float("breakdown.percentage", b.Percentage)
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
}

func (e *enc) finding(f *Finding) {
	e.buf = append(e.buf, '{')
	e.key(true, "id")
	e.str(f.ID)
	e.key(false, "title")
	e.str(f.Title)
	e.key(false, "score")
	e.float("issue.score", f.Score)
	e.key(false, "confidence")
	e.str(f.Confidence)
	e.key(false, "share")
	e.float("issue.share", f.Share)
	e.key(false, "evidence")
	e.strs(f.Evidence)
	e.key(false, "metrics")
	e.metrics(f.Metrics)
	e.key(false, "next_check")
	e.str(f.NextCheck)
	e.key(false, "layers")
	e.ints(f.Layers)
	e.buf = append(e.buf, '}')
}

// metrics writes a map with its keys sorted, so the bytes are stable.
func (e *enc) metrics(m map[string]float64) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.str(k)
		e.buf = append(e.buf, ':')
		e.float("metrics."+k, m[k])
	}
	e.buf = append(e.buf, '}')
}
