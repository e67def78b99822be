package analysis

import (
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/graph"
)

func TestEngineMemory(t *testing.T) {
	fp16 := "Row major linear FP16 format"
	p := func(k, v string) engine.Param { return engine.Param{Key: k, Value: []byte(v)} }
	layers := []engine.Layer{
		{Name: "conv", Params: []engine.Param{p("Weights", `{"Type":"Half","Count":1728}`), p("Bias", `{"Type":"Half","Count":64}`)},
			Inputs:  []engine.Tensor{{Name: "input", Dims: []int64{1, 3, 224, 224}, Format: "Row major linear FP32"}},
			Outputs: []engine.Tensor{{Name: "a", Dims: []int64{1, 64, 112, 112}, Format: "Channel major FP16 format where channel % 8 == 0"}}},
		// A Myelin GEMM reading its weights as an undeclared input.
		{Name: "gemm_myl0_1", Type: "gemm",
			Inputs:  []engine.Tensor{{Name: "a", Dims: []int64{1, 64, 112, 112}, Format: fp16}, {Name: "__mye1_dconst", Dims: []int64{4096, 4096}, Format: "Half"}},
			Outputs: []engine.Tensor{{Name: "b", Dims: []int64{-1, 4096}, Format: fp16}}},
		{Name: "{ForeignNode[x...y]}", Type: "Myelin",
			Inputs:  []engine.Tensor{{Name: "b", Dims: []int64{-1, 4096}, Format: fp16}},
			Outputs: []engine.Tensor{{Name: "output", Dims: []int64{1, 1000}, Format: fp16}}},
	}
	io := []engine.IOTensor{{Name: "input"}, {Name: "output"}}
	m := engineMemory(layers, graph.Build(layers, io), io, true)
	wantWeights := 2.0*(1728+64) + 4096*4096*2
	if m.WeightsBytes != wantWeights || m.WeightLayers != 2 || m.WeightsUnknown != 0 {
		t.Errorf("weights %v in %d layers (%d unknown), want %v in 2", m.WeightsBytes, m.WeightLayers, m.WeightsUnknown, wantWeights)
	}
	// a: 1×64×112×112 FP16 = 1.6 MB; input 1×3×224×224 FP32 = 602 kB; output 2 kB; b is dynamic.
	if len(m.LargestActivations) != 3 || m.ActivationTensors != 3 || m.DynamicTensors != 1 {
		t.Fatalf("activations %+v, %d sized, %d dynamic", m.LargestActivations, m.ActivationTensors, m.DynamicTensors)
	}
	if a := m.LargestActivations[0]; a.Name != "a" || a.Producer != 0 || a.Bytes != 64*112*112*2 {
		t.Errorf("largest %+v", a)
	}
	if a := m.LargestActivations[1]; a.Name != "input" || a.Producer != -1 || a.Bytes != 3*224*224*4 {
		t.Errorf("second %+v", a)
	}
	if len(m.Notes) != 4 { // constants, Myelin region, dynamic, reuse
		t.Errorf("notes %q", m.Notes)
	}

	// Without an I/O declaration the constant is taken as a graph input.
	m = engineMemory(layers, graph.Build(layers, nil), nil, false)
	if m.WeightsBytes != 2.0*(1728+64) || m.LargestActivations[0].Name != "__mye1_dconst" || m.LargestActivations[0].Producer != -1 {
		t.Errorf("undeclared I/O: weights %v, largest %+v", m.WeightsBytes, m.LargestActivations[0])
	}
}

// TestEngineMemoryEnginesShareNames: the engines of a `_subgraph` dump are
// separate graphs, but memory tells tensors apart by name, so a name two
// engines use is sized once.
func TestEngineMemoryEnginesShareNames(t *testing.T) {
	fp16 := "Row major linear FP16 format"
	ten := func(name string, n int64) []engine.Tensor {
		return []engine.Tensor{{Name: name, Dims: []int64{1, n}, Format: fp16}}
	}
	layers := []engine.Layer{
		{Name: "a0", Subgraph: "0", Inputs: ten("in", 8), Outputs: ten("x", 16)},
		{Name: "b0", Subgraph: "0", Inputs: ten("x", 16), Outputs: ten("out", 4)},
		{Name: "a1", Subgraph: "1", Inputs: ten("in", 8), Outputs: ten("x", 16)},
		{Name: "b1", Subgraph: "1", Inputs: ten("x", 16), Outputs: ten("y", 2)},
	}
	g := graph.Build(layers, nil)
	if g.Tensors() != 6 || g.Names() != 4 {
		t.Fatalf("%d tensors, %d names; want 6 (3 per engine) and 4", g.Tensors(), g.Names())
	}
	m := engineMemory(layers, g, nil, false)
	if m.ActivationTensors != 4 || m.LargestActivations[0].Name != "x" || m.LargestActivations[0].Producer != 0 {
		t.Errorf("%d activations, largest %+v; want in, x (from layer 0), out, y", m.ActivationTensors, m.LargestActivations[0])
	}
}
