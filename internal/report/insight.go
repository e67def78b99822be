package report

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
	"github.com/trtperf/trtperf/internal/namehash"
)

// The first screen and the conversion view need a few derived lists that
// would otherwise require the per-layer columns (loaded after first paint):
// the slowest layers (for the Pareto chart) and the format conversions.

// TopLayers is how many of the slowest layers data.js carries.
const TopLayers = 30

// MaxConversions caps the conversion list in data.js (the count says how
// many there were).
const MaxConversions = 5000

type topLayer struct {
	Layer      int     `json:"layer"`
	Name       string  `json:"name"`
	AvgMs      float64 `json:"avg_ms"`
	Percentage float64 `json:"percentage"`
	LayerType  string  `json:"layer_type"`
	Precision  string  `json:"precision"`
}

// topLayers returns the k records with the largest average time, slowest
// first (ties by layer index).
//
// Layer is the row of the report's table: the layer index, or for a
// profile_only backend (rows are records, see recordRows) the record's.
func topLayers(b *contract.Backend, k int) []topLayer {
	rows := recordRows(b)
	if p := predicted(b); p != nil {
		return topPredicted(b, p, k)
	}
	if b.Validation.AnalysisMode != contract.ModeLayerProfile && !rows {
		return nil
	}
	// Slowest first, ties by layer, then by record. The k best are kept
	// sorted while the records stream past once: sorting all 10^5 of them
	// to take 30 read records in random order (0.15 s at 200k layers).
	before := func(x, y int) bool {
		rx, ry := &b.Records[x], &b.Records[y]
		return cmp.Or(cmp.Compare(ry.AvgMs, rx.AvgMs), cmp.Compare(rx.Layer, ry.Layer), cmp.Compare(x, y)) < 0
	}
	top := make([]int, 0, k+1)
	for i := range b.Records {
		if l := b.Records[i].Layer; (!rows && (l < 0 || l >= len(b.Layers))) || k <= 0 {
			continue
		}
		if len(top) == k && !before(i, top[k-1]) {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, i, func(t, i int) int {
			if before(t, i) {
				return -1
			}
			return 1
		})
		top = slices.Insert(top, at, i)
		if len(top) > k {
			top = top[:k]
		}
	}
	out := make([]topLayer, 0, len(top))
	for _, i := range top {
		r := &b.Records[i]
		row := r.Layer
		if rows {
			row = i
		}
		out = append(out, topLayer{Layer: row, Name: r.Name, AvgMs: r.AvgMs, Percentage: r.Percentage, LayerType: r.LayerType, Precision: r.Precision})
	}
	return out
}

// topPredicted is topLayers of a layer_only backend by the cost model's
// predicted times (precision unknown without a record: the layer's first
// output's data type).
func topPredicted(b *contract.Backend, p *contract.Prediction, k int) []topLayer {
	idx := make([]int, len(p.LayerMs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(p.LayerMs[y], p.LayerMs[x]) })
	out := make([]topLayer, 0, min(k, len(idx)))
	for _, i := range idx[:min(k, len(idx))] {
		pct := 0.0
		if p.TotalMs > 0 {
			pct = 100 * p.LayerMs[i] / p.TotalMs
		}
		l := &b.Layers[i]
		out = append(out, topLayer{Layer: i, Name: l.Name, AvgMs: p.LayerMs[i], Percentage: pct, LayerType: l.LayerType, Precision: precisionOf(l)})
	}
	return out
}

// conversion is one layer that only changes how a tensor is stored: a
// reformat (layout and/or data type) or a quantize / dequantize.
type conversion struct {
	Layer      int     `json:"layer"`
	Name       string  `json:"name"`
	Kind       string  `json:"kind"` // layerfacts.ConversionKind: reformat, quantize, dequantize, cast
	FromFormat string  `json:"from_format"`
	ToFormat   string  `json:"to_format"`
	FromLabel  string  `json:"from_label"` // layerfacts.FormatLabel of FromFormat
	ToLabel    string  `json:"to_label"`
	FromType   string  `json:"from_type"`
	ToType     string  `json:"to_type"`
	Dims       string  `json:"dims"`
	AvgMs      float64 `json:"avg_ms"` // NaN-free: 0 when untimed
	Timed      bool    `json:"timed"`
	Producers  []int   `json:"producers"`
	Consumers  []int   `json:"consumers"`
}

type conversions struct {
	Count  int          `json:"count"`
	TimeMs float64      `json:"time_ms"`
	List   []conversion `json:"list"`
}

// findConversions lists the conversion layers in topological order with
// their neighbours, formats and time.
func findConversions(b *contract.Backend, c *columns) conversions {
	var out conversions
	n := c.N
	if n == 0 {
		return out
	}
	kinds := c.convKind
	prod := make([][]int, n)
	cons := make([][]int, n)
	edges := b.Graph.Edges
	if c.Layer != nil {
		edges = nil // rows are records: no graph
	}
	for _, e := range edges {
		if kinds[e[1]] != "" {
			prod[e[1]] = append(prod[e[1]], e[0])
		}
		if kinds[e[0]] != "" {
			cons[e[0]] = append(cons[e[0]], e[1])
		}
	}
	for _, i := range c.Topo {
		if kinds[i] == "" {
			continue
		}
		l := &contract.Layer{}
		if li := i; c.Layer == nil {
			l = &b.Layers[li]
		} else if li = int(c.Layer[i]); li >= 0 && li < len(b.Layers) {
			l = &b.Layers[li]
		}
		cv := conversion{Layer: i, Name: c.Names[i], Kind: kinds[i], Producers: prod[i], Consumers: cons[i], Timed: c.Timed}
		if c.Timed {
			cv.AvgMs = c.Avg[i]
			out.TimeMs += c.Avg[i]
		}
		if len(l.Inputs) > 0 {
			f := l.Inputs[0].Format
			cv.FromFormat, cv.FromLabel, cv.FromType, cv.Dims = f, layerfacts.FormatLabel(f), formatPrecision(f), dims(l.Inputs[0].Dimensions)
		}
		if len(l.Outputs) > 0 {
			f := l.Outputs[0].Format
			cv.ToFormat, cv.ToLabel, cv.ToType = f, layerfacts.FormatLabel(f), formatPrecision(f)
		}
		out.Count++
		if len(out.List) < MaxConversions {
			out.List = append(out.List, cv)
		}
	}
	return out
}

func dims(d []int64) string { return string(appendDims(nil, d)) }

// appendDims appends d as dims writes it ("1×64×8×8").
func appendDims(b []byte, d []int64) []byte {
	for i, v := range d {
		if i > 0 {
			b = append(b, "×"...)
		}
		b = strconv.AppendInt(b, v, 10)
	}
	return b
}

// edgeLabels returns, per graph edge, the string id of "dims|format" of the
// tensor the edge carries (the consumer's first input its producer writes),
// or -1. A tensor's producer is the first layer that writes its name. Every
// producer→consumer pair met gets a label id, an edge or not, in the order
// of the consumers' inputs: the string table is shared with the other
// columns, so that order is part of the output.
//
// Finding producers by name hashed every tensor reference of a 10^5-layer
// engine (0.3–0.45 s at 200k layers). When no name is written twice, the
// producer of an input is whichever of the consumer's graph predecessors
// writes that name, found by comparing a few names; a name whose hash no
// output has is written by no layer (a graph input); the others (edges
// that do not match the layers) fall back to the name index, built only
// then.
func edgeLabels(b *contract.Backend, st *stringTable) []int32 {
	if len(b.Graph.Edges) == 0 {
		return []int32{}
	}
	out := make([]int32, len(b.Graph.Edges))
	for k := range out {
		out[k] = -1 // also: pair not labelled yet
	}
	into := edgesInto(b)
	written := hashOutputNames(b.Layers)
	unique := written.Distinct()
	var byName map[string]int
	type pair struct{ u, v int }
	var others map[pair]bool // labelled pairs that are no edge
	var label []byte
	flabel := map[string]string{} // format → its label
	for v := range b.Layers {
		ins := into.of(v)
		for _, t := range b.Layers[v].Inputs {
			u, k := -1, -1
			if unique && len(ins) <= maxPredecessorScan {
				if u, k = writerAmong(b, ins, t.Name); k < 0 && !written.MayContain(t.Name) {
					continue
				}
			}
			if k < 0 {
				if byName == nil {
					byName = firstProducers(b.Layers)
				}
				var ok bool
				if u, ok = byName[t.Name]; !ok {
					continue
				}
				k = edgeFrom(b, ins, u)
			}
			if k >= 0 && out[k] >= 0 {
				continue
			}
			if k < 0 {
				if others[pair{u, v}] {
					continue
				}
				if others == nil {
					others = map[pair]bool{}
				}
				others[pair{u, v}] = true
			}
			fl, ok := flabel[t.Format]
			if !ok {
				fl = layerfacts.FormatLabel(t.Format)
				flabel[t.Format] = fl
			}
			label = append(appendDims(label[:0], t.Dimensions), '|')
			id := st.idBytes(append(label, fl...))
			if k >= 0 {
				out[k] = id
			}
		}
	}
	return out
}

// maxPredecessorScan bounds the predecessors edgeLabels compares names
// with; a layer with more (a wide Concat) looks its inputs up by name.
const maxPredecessorScan = 16

// inEdges lists, per consumer layer, the indexes of the graph edges into it,
// ascending by producer (edges are sorted by producer, then consumer).
type inEdges struct {
	start []int32 // edges into v: edge[start[v]:start[v+1]]
	edge  []int32
}

func (e inEdges) of(v int) []int32 { return e.edge[e.start[v]:e.start[v+1]] }

// edgesInto groups b's edges by consumer; edges naming a layer out of
// range are left out.
func edgesInto(b *contract.Backend) inEdges {
	n := len(b.Layers)
	in := func(e [2]int) bool { return e[0] >= 0 && e[0] < n && e[1] >= 0 && e[1] < n }
	e := inEdges{start: make([]int32, n+1)}
	for _, ed := range b.Graph.Edges {
		if in(ed) {
			e.start[ed[1]+1]++
		}
	}
	for v := range n {
		e.start[v+1] += e.start[v]
	}
	e.edge = make([]int32, e.start[n])
	next := slices.Clone(e.start[:n])
	for k, ed := range b.Graph.Edges {
		if in(ed) {
			e.edge[next[ed[1]]] = int32(k)
			next[ed[1]]++
		}
	}
	return e
}

// writerAmong returns the producer and index of the first edge of ins whose
// producer writes a tensor named name; -1, -1 when none does.
func writerAmong(b *contract.Backend, ins []int32, name string) (int, int) {
	for _, k := range ins {
		u := b.Graph.Edges[k][0]
		for _, o := range b.Layers[u].Outputs {
			if o.Name == name {
				return u, int(k)
			}
		}
	}
	return -1, -1
}

// edgeFrom returns the index of the edge of ins from producer u; -1 when
// there is none. ins is sorted by producer.
func edgeFrom(b *contract.Backend, ins []int32, u int) int {
	i, ok := slices.BinarySearchFunc(ins, u, func(k int32, u int) int { return cmp.Compare(b.Graph.Edges[k][0], u) })
	if !ok {
		return -1
	}
	return int(ins[i])
}

// firstProducers maps every output name to the first layer writing it.
func firstProducers(ls []contract.Layer) map[string]int {
	producer := make(map[string]int, len(ls))
	for i := range ls {
		for _, t := range ls[i].Outputs {
			if _, dup := producer[t.Name]; !dup {
				producer[t.Name] = i
			}
		}
	}
	return producer
}

// hashOutputNames hashes every output name (see namehash): distinct
// hashes prove no name is written twice, and a missing hash that no layer
// writes a name.
func hashOutputNames(ls []contract.Layer) namehash.Set {
	n := 0
	for i := range ls {
		n += len(ls[i].Outputs)
	}
	return namehash.Of(func(yield func(string) bool) {
		for i := range ls {
			for _, t := range ls[i].Outputs {
				if !yield(t.Name) {
					return
				}
			}
		}
	}, n)
}
