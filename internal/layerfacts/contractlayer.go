package layerfacts

import (
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
)

// EngineLayer is what Derive reads of a layer as analyze-data.json holds
// it, so readers of the file (the report, compare on layer info alone)
// derive the same facts the analysis did.
func EngineLayer(l *contract.Layer) *engine.Layer {
	tensors := func(ts []contract.Tensor) []engine.Tensor {
		out := make([]engine.Tensor, len(ts))
		for i := range ts {
			out[i] = engine.Tensor{Name: ts[i].Name, Dims: ts[i].Dimensions, Format: ts[i].Format}
		}
		return out
	}
	return &engine.Layer{Name: l.Name, Type: l.LayerType, Inputs: tensors(l.Inputs), Outputs: tensors(l.Outputs),
		ParameterType: l.ParameterType, TacticName: l.TacticName, TacticValue: l.TacticValue, Origin: l.Origin, Metadata: l.Metadata, Subgraph: l.Subgraph}
}
