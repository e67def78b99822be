package analysis

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
)

// contractLayers converts the model's layers to the contract's normalised
// layer records. Parameters the model does not name are kept, in file
// order, as one raw object.
func contractLayers(ls []engine.Layer) []contract.Layer {
	out := make([]contract.Layer, len(ls))
	// One backing array for all tensors keeps 10^5-layer engines to a
	// handful of allocations.
	n := 0
	for i := range ls {
		n += len(ls[i].Inputs) + len(ls[i].Outputs) + len(ls[i].Constants)
	}
	tensors := make([]contract.Tensor, 0, n)
	take := func(ts []engine.Tensor) []contract.Tensor {
		start := len(tensors)
		for j := range ts {
			t := &ts[j]
			dims := t.Dims
			if dims == nil {
				dims = []int64{}
			}
			tensors = append(tensors, contract.Tensor{Name: t.Name, Location: t.Location, Dimensions: dims, Format: t.Format, Extra: rawObject(t.Extra)})
		}
		return tensors[start:len(tensors):len(tensors)]
	}
	for i := range ls {
		l := &ls[i]
		c := &out[i]
		c.Name = l.Name
		c.LayerType = l.Type
		c.Inputs = take(l.Inputs)
		c.Outputs = take(l.Outputs)
		if len(l.Constants) > 0 {
			c.Constants = take(l.Constants)
		}
		c.ParameterType = l.ParameterType
		c.TacticName = l.TacticName
		c.TacticValue = l.TacticValue
		c.Origin = l.Origin
		if l.HasStreamID {
			s := l.StreamID
			c.StreamID = &s
		}
		c.Metadata = l.Metadata
		c.Subgraph = l.Subgraph
		c.OptProfile = l.OptProfile
		c.Parameters = rawObject(l.Params)
	}
	return out
}

// rawObject joins raw key/value pairs into one compact JSON object; nil when
// there are none so the field is omitted.
func rawObject(ps []engine.Param) jsontext.Value {
	if len(ps) == 0 {
		return nil
	}
	size := 2
	for _, p := range ps {
		size += len(p.Key) + len(p.Value) + 4
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b, _ = jsontext.AppendQuote(b, p.Key)
		b = append(b, ':')
		b = append(b, p.Value...)
	}
	return append(b, '}')
}
