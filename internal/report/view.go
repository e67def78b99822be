package report

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// The page does not parse the whole analysis before it can show anything: a
// 10^5-layer analysis is ~140 MB of JSON, which takes Chromium several
// seconds to evaluate. The report therefore splits what the app reads:
//
//	data.js             the analysis without per-layer arrays (layers,
//	                    records, graph edges and order, overview items'
//	                    layer lists; see summary) plus a small view index:
//	                    first screen (header, cards, findings, charts)
//	layers-<b>.js       per backend, compact columns for the table and the
//	                    graph (names, type/precision ids, times, order,
//	                    edges; see columns.go), loaded while the first
//	                    screen is built
//	tactics-<b>.js      per backend, each layer's tactic (kernel) name, the
//	                    table's tactic column, loaded once the table and
//	                    graph are interactive (a fifth of the columns'
//	                    bytes on LLM engines, whose Myelin kernel names are
//	                    unique)
//	sources-<b>.js      per backend, each layer's Metadata and Origin (the
//	                    bulk of the text on LLM engines), loaded when the
//	                    source-op filter is first used
//	details/<b>-<c>.js  full layer and record objects, DetailChunk layers a
//	                    file, loaded when a layer is opened
//
// Sources and details hold their JSON packed (gzip, base64; see
// writePacked); the columns, needed at once, are plain but compact.
// analyze-data.json beside them is the complete contract.

// DetailChunk is how many layers one details file holds.
const DetailChunk = 1000

// DirDetails holds the per-layer detail chunks.
const DirDetails = "details"

// backendView is the per-backend index in data.js (window.TRTPERF_VIEW).
type backendView struct {
	Columns string `json:"columns"` // file name of the columns script
	Tactics string `json:"tactics"` // file name of the tactics script
	Sources string `json:"sources"` // file name of the sources script
	// Rows says what the table's rows are: "layers" (one per layer of the
	// layer info), or "records" for a profile_only backend, whose layer
	// info is missing or names-only: one row per profile record, in
	// profile order, with no graph.
	Rows    string       `json:"rows"`
	Chunks  int          `json:"chunks"`
	Chunk   int          `json:"chunk"`
	Slowest *slowestView `json:"slowest"`
	// Top are the slowest layers, slowest first, for the first screen's
	// Pareto chart (null when untimed).
	Top []topLayer `json:"top"`
	// TacticMix counts the layers per tactic (kernel) family, most first:
	// the records' tactic_family, or for layers without a record the
	// family layerfacts derives from the layer's tactic name.
	TacticMix   []countRow  `json:"tactic_mix"`
	Conversions conversions `json:"conversions"`
}

// countRow is one row of a count breakdown.
type countRow struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

type slowestView struct {
	Layer      int     `json:"layer"`
	Name       string  `json:"name"`
	AvgMs      float64 `json:"avg_ms"`
	Percentage float64 `json:"percentage"`
	LayerType  string  `json:"layer_type"`
}

// columns is one backend's table and graph data, one entry per layer
// (written by appendColumns; the tags name its keys).
type columns struct {
	N        int       `json:"n"`
	Timed    bool      `json:"timed"`
	Strings  []string  `json:"strings"` // table for the *ID columns but TacticID
	Names    []string  `json:"names"`
	TypeID   []int32   `json:"type"`
	PrecID   []int32   `json:"precision"`
	TacticID []int32   `json:"-"` // ids in Tactics (written to tactics-<b>.js)
	Tactics  []string  `json:"-"`
	SubID    []int32   `json:"subgraph"` // -1 without _subgraph
	Avg      []float64 `json:"avg"`      // null when untimed
	Pct      []float64 `json:"pct"`
	Myelin   []int32   `json:"myelin"` // -1 outside Myelin graphs
	// Conv is, per layer, the id in Strings of its storage conversion kind
	// (layerfacts.ConversionKind: reformat, quantize, dequantize, cast), -1
	// for a layer that is none; convKind holds the kinds themselves.
	Conv     []int32 `json:"conv"`
	convKind []string
	families map[string]int // layers per tactic family
	// EdgeLabel is, per edge, the id in Strings of the tensor it carries
	// ("dims|format"), -1 when the tensor is not known.
	EdgeLabel []int32 `json:"edge_label"`
	Topo      []int   `json:"topo"`  // topological order (identity without one)
	EdgesFlat []int32 `json:"edges"` // producer, consumer pairs
	// Layer is, for rows that are records, each record's layer index (-1
	// unmatched), so findings (which name layers) find their rows; null
	// when the rows are the layers.
	Layer []int32 `json:"layer"`
	// Predicted is true when avg and pct are the cost model's predicted
	// times (prediction.layer_ms of a layer_only backend), not measured.
	Predicted bool `json:"predicted"`
	// Roofline holds the layers whose record has a roofline position with
	// an intensity, for the roofline scatter; null when none has.
	Roofline *rooflineColumns `json:"roofline"`
}

// rooflineColumns are parallel arrays, one entry per placed layer, from
// records[].roofline (the analysis' time basis).
type rooflineColumns struct {
	Layer     []int32   `json:"layer"`
	Intensity []float64 `json:"intensity"` // FLOP per byte
	TFLOPS    []float64 `json:"tflops"`    // achieved
	TimeMs    []float64 `json:"time_ms"`
	Pct       []float64 `json:"pct"`   // % of attainable, -1 when unknown
	Peak      []int32   `json:"peak"`  // id in Strings of peak_precision ("" when none)
	Bound     []int32   `json:"bound"` // id in Strings of the bound ("" when unknown)
}

type stringTable struct {
	ids  map[string]int32
	list []string
}

func (s *stringTable) id(v string) int32 {
	if id, ok := s.ids[v]; ok {
		return id
	}
	id := int32(len(s.list))
	s.ids[v] = id
	s.list = append(s.list, v)
	return id
}

// idBytes is id(string(v)), without allocating when v is already listed.
func (s *stringTable) idBytes(v []byte) int32 {
	if id, ok := s.ids[string(v)]; ok {
		return id
	}
	return s.id(string(v))
}

// precisionOf guesses a layer's precision from its first output's format,
// for layers without a profile record (layer_only backends).
func precisionOf(l *contract.Layer) string {
	if len(l.Outputs) == 0 {
		return "unknown"
	}
	return formatPrecision(l.Outputs[0].Format)
}

// formatPrecision names the data type in a tensor's Format/Datatype text
// ("Thirty-two wide channel vectorized row major Int8 format" is INT8).
func formatPrecision(format string) string {
	f := strings.ToLower(format)
	for _, c := range []struct{ key, name string }{
		{"bf16", "BF16"}, {"fp16", "FP16"}, {"half", "FP16"}, {"fp8", "FP8"}, {"e4m3", "FP8"}, {"fp4", "FP4"},
		{"int8", "INT8"}, {"int32", "INT32"}, {"int64", "INT64"}, {"bool", "BOOL"}, {"fp32", "FP32"}, {"float", "FP32"},
	} {
		if strings.Contains(f, c.key) {
			return c.name
		}
	}
	if f == "" {
		return "unknown"
	}
	return "other"
}

// buildColumns derives the per-layer columns in one pass over layers and
// records.
func buildColumns(b *contract.Backend) (*columns, *slowestView) {
	n := len(b.Layers)
	c := &columns{
		N: n, Timed: b.Validation.AnalysisMode == contract.ModeLayerProfile && len(b.Records) > 0,
		Names: make([]string, n), TypeID: make([]int32, n), PrecID: make([]int32, n), TacticID: make([]int32, n),
		SubID: make([]int32, n), Myelin: make([]int32, n), Topo: b.Graph.TopoOrder,
		Conv: make([]int32, n), convKind: make([]string, n), families: map[string]int{},
	}
	var deriver *layerfacts.Deriver // facts of layers without a record
	st := &stringTable{ids: map[string]int32{}}
	tt := &stringTable{ids: map[string]int32{}} // tactics
	rec := make([]int32, n)
	for i := range rec {
		rec[i] = -1
	}
	for i := range b.Records {
		if l := b.Records[i].Layer; l >= 0 && l < n {
			rec[l] = int32(i)
		}
	}
	if c.Timed {
		c.Avg = make([]float64, n)
		c.Pct = make([]float64, n)
	}
	var slowest *slowestView
	for i := range n {
		l := &b.Layers[i]
		c.Names[i] = l.Name
		typ, prec, tactic := l.LayerType, "", l.TacticName
		c.Myelin[i] = -1
		if r := rec[i]; r >= 0 {
			rr := &b.Records[r]
			typ = rr.LayerType
			prec = rr.Precision
			if rr.Tactic != "" {
				tactic = rr.Tactic
			}
			if rr.MyelinGraph != nil {
				c.Myelin[i] = int32(*rr.MyelinGraph)
			}
			if q := rr.Roofline; q != nil && q.Intensity != nil && *q.Intensity > 0 && q.AchievedTFLOPS > 0 {
				if c.Roofline == nil {
					c.Roofline = &rooflineColumns{}
				}
				rc := c.Roofline
				pct, bound := -1.0, ""
				if q.PctOfAttainable != nil {
					pct = *q.PctOfAttainable
				}
				if q.Bound != nil {
					bound = *q.Bound
				}
				rc.Layer = append(rc.Layer, int32(i))
				rc.Intensity = append(rc.Intensity, *q.Intensity)
				rc.TFLOPS = append(rc.TFLOPS, q.AchievedTFLOPS)
				rc.TimeMs = append(rc.TimeMs, q.TimeMs)
				rc.Pct = append(rc.Pct, pct)
				rc.Peak = append(rc.Peak, st.id(q.PeakPrecision))
				rc.Bound = append(rc.Bound, st.id(bound))
			}
			if c.Timed {
				c.Avg[i], c.Pct[i] = rr.AvgMs, rr.Percentage
				if slowest == nil || rr.AvgMs > slowest.AvgMs {
					slowest = &slowestView{Layer: i, Name: rr.Name, AvgMs: rr.AvgMs, Percentage: rr.Percentage, LayerType: rr.LayerType}
				}
			}
		}
		if prec == "" {
			prec = precisionOf(l) // no record, or one without a precision
		}
		if typ == "" {
			typ = "unknown" // names-only layer info has no LayerType
		}
		// A conversion is what the analysis' tags say: the record's, or
		// the facts layerfacts derives from the layer when it has none.
		var kind string
		if r := rec[i]; r >= 0 {
			rr := &b.Records[r]
			kind = layerfacts.ConversionKind(rr.Tags, rr.FusedOps, rr.InputTypes, rr.OutputTypes, rr.Name)
			c.families[rr.TacticFamily]++
		} else if l.LayerType != "" {
			if deriver == nil {
				deriver = layerfacts.NewDeriver()
			}
			f := deriver.Derive(layerfacts.EngineLayer(l))
			kind = layerfacts.ConversionKind(f.Tags, f.FusedOps, f.InputTypes, f.OutputTypes, l.Name)
			c.families[f.TacticFamily]++
		}
		c.convKind[i], c.Conv[i] = kind, -1
		if kind != "" {
			c.Conv[i] = st.id(kind)
		}
		c.TypeID[i], c.PrecID[i], c.TacticID[i] = st.id(typ), st.id(prec), tt.id(tactic)
		c.SubID[i] = -1
		if l.Subgraph != "" {
			c.SubID[i] = st.id(l.Subgraph)
		}
	}
	if p := predicted(b); p != nil && !c.Timed {
		// layer_only with the cost model's times: the time columns hold
		// them, marked predicted (the app says so wherever it shows them).
		c.Timed, c.Predicted = true, true
		c.Avg, c.Pct = make([]float64, n), make([]float64, n)
		for i, ms := range p.LayerMs {
			c.Avg[i] = ms
			if p.TotalMs > 0 {
				c.Pct[i] = 100 * ms / p.TotalMs
			}
			if slowest == nil || ms > slowest.AvgMs {
				slowest = &slowestView{Layer: i, Name: b.Layers[i].Name, AvgMs: ms, Percentage: c.Pct[i], LayerType: b.Layers[i].LayerType}
			}
		}
	}
	if len(c.Topo) != n {
		c.Topo = make([]int, n)
		for i := range c.Topo {
			c.Topo[i] = i
		}
	}
	c.EdgesFlat = make([]int32, 0, 2*len(b.Graph.Edges))
	for _, e := range b.Graph.Edges {
		c.EdgesFlat = append(c.EdgesFlat, int32(e[0]), int32(e[1]))
	}
	c.EdgeLabel = edgeLabels(b, st)
	c.Strings, c.Tactics = st.list, tt.list
	return c, slowest
}

// predicted returns b's per-layer prediction when b is layer_only and it
// has one time per layer, else nil.
func predicted(b *contract.Backend) *contract.Prediction {
	p := b.Prediction
	if b.Validation.AnalysisMode != contract.ModeLayerOnly || p == nil || len(p.LayerMs) != len(b.Layers) || len(b.Layers) == 0 {
		return nil
	}
	return p
}

// countRows lists counts by name, most first, ties by name.
func countRows(m map[string]int) []countRow {
	out := make([]countRow, 0, len(m))
	for k, v := range m {
		if k == "" {
			k = "unknown"
		}
		out = append(out, countRow{k, v})
	}
	slices.SortFunc(out, func(a, b countRow) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name)) })
	return out
}

// recordRows reports whether the report's rows of b are its profile
// records: a profile_only backend, whose layer info is missing or
// names-only, shows its timing per record.
func recordRows(b *contract.Backend) bool {
	return b.Validation.AnalysisMode == contract.ModeProfileOnly && len(b.Records) > 0
}

// buildRecordColumns derives the columns of a profile_only backend: one
// row per record, in profile order (no graph: no edges, the identity
// order), with the record's name, kind (guessed from the name when the
// layer info has none: tag type_guessed_from_name), precision, tactic,
// time and conversion kind.
func buildRecordColumns(b *contract.Backend) (*columns, *slowestView) {
	n := len(b.Records)
	c := &columns{
		N: n, Timed: true,
		Names: make([]string, n), TypeID: make([]int32, n), PrecID: make([]int32, n), TacticID: make([]int32, n),
		SubID: make([]int32, n), Myelin: make([]int32, n), Topo: make([]int, n), Layer: make([]int32, n),
		Conv: make([]int32, n), convKind: make([]string, n), Avg: make([]float64, n), Pct: make([]float64, n),
		EdgesFlat: []int32{}, EdgeLabel: []int32{},
	}
	st := &stringTable{ids: map[string]int32{}}
	tt := &stringTable{ids: map[string]int32{}}
	var slowest *slowestView
	for i := range b.Records {
		r := &b.Records[i]
		c.Names[i], c.Topo[i], c.Layer[i] = r.Name, i, int32(r.Layer)
		typ, prec := r.LayerType, r.Precision
		if typ == "" {
			typ = "unknown"
		}
		if prec == "" {
			prec = "unknown"
		}
		c.TypeID[i], c.PrecID[i], c.TacticID[i] = st.id(typ), st.id(prec), tt.id(r.Tactic)
		c.SubID[i], c.Myelin[i], c.Conv[i] = -1, -1, -1
		if r.Layer >= 0 && r.Layer < len(b.Layers) && b.Layers[r.Layer].Subgraph != "" {
			c.SubID[i] = st.id(b.Layers[r.Layer].Subgraph)
		}
		if r.MyelinGraph != nil {
			c.Myelin[i] = int32(*r.MyelinGraph)
		}
		if k := layerfacts.ConversionKind(r.Tags, r.FusedOps, r.InputTypes, r.OutputTypes, r.Name); k != "" {
			c.convKind[i], c.Conv[i] = k, st.id(k)
		}
		c.Avg[i], c.Pct[i] = r.AvgMs, r.Percentage
		if slowest == nil || r.AvgMs > slowest.AvgMs {
			slowest = &slowestView{Layer: i, Name: r.Name, AvgMs: r.AvgMs, Percentage: r.Percentage, LayerType: r.LayerType}
		}
	}
	c.Strings, c.Tactics = st.list, tt.list
	return c, slowest
}

// summary is d without the per-layer arrays (shared slices elsewhere are
// not modified; Results and Overview are copies): layers, records, graph
// edges and order, and the overview items' layer lists, which the app does
// not show (0.88 of data.js's 1.1 MB at 10^5 layers, on the way to the
// first screen). The findings (issues) keep theirs: the first screen counts
// them and a click highlights them.
func summary(d *contract.AnalyzeData) *contract.AnalyzeData {
	s := *d
	s.Results = make([]contract.Backend, len(d.Results))
	for i, b := range d.Results {
		b.Layers = nil
		b.Records = nil
		b.Graph.Edges = nil
		b.Graph.TopoOrder = nil
		if b.Prediction != nil {
			// The per-layer times are in the columns (predicted).
			p := *b.Prediction
			p.LayerMs, p.LayerBound = nil, nil
			b.Prediction = &p
		}
		b.Overview = append([]contract.OverviewItem(nil), b.Overview...)
		for k := range b.Overview {
			b.Overview[k].Layers = nil
		}
		s.Results[i] = b
	}
	return &s
}

// planView creates the details folder and returns the writes of data.js,
// the columns and sources scripts and the detail chunks, which are
// independent of each other. The detail chunks are cut out of encoded (the
// analysis' bytes) at the spans of idx rather than encoded again.
func planView(dir string, d *contract.AnalyzeData, encoded []byte, idx *contract.Index) ([]func() error, error) {
	if err := checkIndex(d, encoded, idx); err != nil {
		return nil, err
	}
	if len(d.Results) > 0 {
		if err := os.Mkdir(filepath.Join(dir, DirDetails), 0o755); err != nil {
			return nil, fmt.Errorf("create details folder: %w", err)
		}
	}
	var jobs []func() error
	views := make([]backendView, len(d.Results))
	for bi := range d.Results {
		b := &d.Results[bi]
		rows := recordRows(b)
		var cols *columns
		var slowest *slowestView
		if rows {
			cols, slowest = buildRecordColumns(b)
		} else {
			cols, slowest = buildColumns(b)
		}
		name, tactics, sources := fmt.Sprintf("layers-%d.js", bi), fmt.Sprintf("tactics-%d.js", bi), fmt.Sprintf("sources-%d.js", bi)
		views[bi] = backendView{Columns: name, Tactics: tactics, Sources: sources, Rows: "layers", Chunk: DetailChunk, Chunks: (cols.N + DetailChunk - 1) / DetailChunk, Slowest: slowest,
			Top: topLayers(b, TopLayers), Conversions: findConversions(b, cols), TacticMix: countRows(cols.families)}
		if rows {
			views[bi].Rows = "records"
		}
		jobs = append(jobs, func() error {
			// Plain, not packed: the columns are on the way to the first
			// interactive screen, and inflating 13.5 MB (10^5 layers) with
			// DecompressionStream took 2–3 s in a loaded Chromium. They are
			// written compactly instead (see appendColumns).
			err := writeScriptFunc(filepath.Join(dir, name), func(w *bufio.Writer) error { return writeColumns(w, bi, cols) })
			if err != nil {
				return fmt.Errorf("layer columns of %s: %w", b.Label, err)
			}
			return nil
		}, func() error {
			err := writeScriptFunc(filepath.Join(dir, tactics), func(w *bufio.Writer) error { return writeTactics(w, bi, cols) })
			if err != nil {
				return fmt.Errorf("layer tactics of %s: %w", b.Label, err)
			}
			return nil
		}, func() error {
			return writeSources(filepath.Join(dir, sources), bi, b, rows)
		})
		jobs = append(jobs, detailJobs(dir, bi, b, encoded, &idx.Results[bi], rows)...)
	}
	jobs = append(jobs, func() error {
		// Deterministic: map members (findings' metrics, ...) in key
		// order, so the same analysis gives the same data.js.
		sum, err := json.Marshal(summary(d), json.Deterministic(true))
		if err != nil {
			return fmt.Errorf("encode analysis summary: %w", err)
		}
		view, err := json.Marshal(views, json.Deterministic(true))
		if err != nil {
			return fmt.Errorf("encode view index: %w", err)
		}
		var buf bytes.Buffer
		if err := writeJSAssignment(&buf, "TRTPERF_DATA", sum); err != nil {
			return err
		}
		if err := writeJSAssignment(&buf, "TRTPERF_VIEW", view); err != nil {
			return err
		}
		return writeFile(dir, FileDataJS, buf.Bytes())
	})
	return jobs, nil
}

// writeSources writes each layer's Metadata and Origin, as one string, as
// a packed JSON array of strings.
func writeSources(file string, bi int, b *contract.Backend, records bool) error {
	layers := b.Layers
	if records {
		// One row per record: its layer's sources when it has one.
		layers = make([]contract.Layer, len(b.Records))
		for i := range b.Records {
			if l := b.Records[i].Layer; l >= 0 && l < len(b.Layers) {
				layers[i] = contract.Layer{Metadata: b.Layers[l].Metadata, Origin: b.Layers[l].Origin}
			}
		}
	}
	return writeScriptFunc(file, func(w *bufio.Writer) error {
		if _, err := fmt.Fprintf(w, "window.TRTPERF_SOURCES = window.TRTPERF_SOURCES || {};\nwindow.TRTPERF_SOURCES[%d] = ", bi); err != nil {
			return err
		}
		err := writePacked(w, func(z io.Writer) error {
			buf := make([]byte, 0, 64<<10)
			buf = append(buf, '[')
			for i := range layers {
				l := &layers[i]
				if i > 0 {
					buf = append(buf, ',')
				}
				buf = contract.AppendString(buf, l.Metadata)
				if l.Origin != "" {
					// "Metadata" + " " + "Origin" as one string: JSON escapes
					// characters one by one, so the two encodings join.
					buf[len(buf)-1] = ' '
					mark := len(buf)
					buf = contract.AppendString(buf, l.Origin)
					buf = append(buf[:mark], buf[mark+1:]...) // Origin's opening quote
				}
				if len(buf) >= 60<<10 {
					if _, err := z.Write(buf); err != nil {
						return err
					}
					buf = buf[:0]
				}
			}
			buf = append(buf, ']')
			_, err := z.Write(buf)
			return err
		})
		if err != nil {
			return err
		}
		_, err = w.WriteString(";\n")
		return err
	})
}
