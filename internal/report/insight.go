package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
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
func topLayers(b *contract.Backend, k int) []topLayer {
	if b.Validation.AnalysisMode != contract.ModeLayerProfile {
		return nil
	}
	idx := make([]int, 0, len(b.Records))
	for i := range b.Records {
		if l := b.Records[i].Layer; l >= 0 && l < len(b.Layers) {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(x, y int) int {
		return cmp.Or(cmp.Compare(b.Records[y].AvgMs, b.Records[x].AvgMs), cmp.Compare(b.Records[x].Layer, b.Records[y].Layer))
	})
	out := make([]topLayer, 0, min(k, len(idx)))
	for _, i := range idx[:min(k, len(idx))] {
		r := &b.Records[i]
		out = append(out, topLayer{Layer: r.Layer, Name: r.Name, AvgMs: r.AvgMs, Percentage: r.Percentage, LayerType: r.LayerType, Precision: r.Precision})
	}
	return out
}

// conversion is one layer that only changes how a tensor is stored: a
// reformat (layout and/or data type) or a quantize / dequantize.
type conversion struct {
	Layer      int     `json:"layer"`
	Name       string  `json:"name"`
	Kind       string  `json:"kind"` // reformat, quantize, dequantize
	FromFormat string  `json:"from_format"`
	ToFormat   string  `json:"to_format"`
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

// IsConversionType reports whether a layer type only converts storage
// (reformat, quantize, dequantize); the report marks these in the graph.
func IsConversionType(layerType string) bool { return conversionKind(layerType) != "" }

// conversionKind says whether a layer type is a storage conversion.
func conversionKind(layerType string) string {
	t := strings.ToLower(layerType)
	switch {
	case strings.Contains(t, "dequantiz"):
		return "dequantize"
	case strings.Contains(t, "quantiz"):
		return "quantize"
	case strings.Contains(t, "reformat"):
		return "reformat"
	}
	return ""
}

// findConversions lists the conversion layers in topological order with
// their neighbours, formats and time.
func findConversions(b *contract.Backend, c *columns) conversions {
	var out conversions
	n := len(b.Layers)
	if n == 0 {
		return out
	}
	kinds := make([]string, n)
	for i := range n {
		kinds[i] = conversionKind(c.Strings[c.TypeID[i]])
	}
	prod := make([][]int, n)
	cons := make([][]int, n)
	for _, e := range b.Graph.Edges {
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
		l := &b.Layers[i]
		cv := conversion{Layer: i, Name: l.Name, Kind: kinds[i], Producers: prod[i], Consumers: cons[i], Timed: c.Timed}
		if c.Timed {
			cv.AvgMs = c.Avg[i]
			out.TimeMs += c.Avg[i]
		}
		if len(l.Inputs) > 0 {
			cv.FromFormat, cv.FromType, cv.Dims = l.Inputs[0].Format, formatPrecision(l.Inputs[0].Format), dims(l.Inputs[0].Dimensions)
		}
		if len(l.Outputs) > 0 {
			cv.ToFormat, cv.ToType = l.Outputs[0].Format, formatPrecision(l.Outputs[0].Format)
		}
		out.Count++
		if len(out.List) < MaxConversions {
			out.List = append(out.List, cv)
		}
	}
	return out
}

func dims(d []int64) string {
	var sb strings.Builder
	for i, v := range d {
		if i > 0 {
			sb.WriteString("×")
		}
		sb.WriteString(strconv.FormatInt(v, 10))
	}
	return sb.String()
}

// edgeLabels returns, per graph edge, the string id of "dims|format" of the
// tensor the edge carries (the consumer's first input its producer writes),
// or -1.
func edgeLabels(b *contract.Backend, st *stringTable) []int32 {
	if len(b.Graph.Edges) == 0 {
		return []int32{}
	}
	producer := make(map[string]int, len(b.Layers))
	for i := range b.Layers {
		for _, t := range b.Layers[i].Outputs {
			if _, dup := producer[t.Name]; !dup {
				producer[t.Name] = i
			}
		}
	}
	type pair struct{ u, v int }
	label := make(map[pair]int32, len(b.Graph.Edges))
	for v := range b.Layers {
		for _, t := range b.Layers[v].Inputs {
			u, ok := producer[t.Name]
			if !ok {
				continue
			}
			if _, seen := label[pair{u, v}]; !seen {
				label[pair{u, v}] = st.id(dims(t.Dimensions) + "|" + t.Format)
			}
		}
	}
	out := make([]int32, len(b.Graph.Edges))
	for k, e := range b.Graph.Edges {
		id, ok := label[pair{e[0], e[1]}]
		if !ok {
			id = -1
		}
		out[k] = id
	}
	return out
}
