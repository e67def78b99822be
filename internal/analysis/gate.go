package analysis

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/graph"
)

// gateGraph adds the graph's integrity messages: a cycle and a declared
// input written by a layer are broken input; several producers of one
// tensor make the graph ambiguous, which is worth a warning only.
func gateGraph(g *graph.Graph, ls []engine.Layer, msgs *messages) {
	if !g.IsDAG() {
		names := make([]string, len(g.Cycle))
		for i, idx := range g.Cycle {
			names[i] = fmt.Sprintf("%q", shorten(ls[idx].Name, 80))
		}
		msgs.error(CodeNotDAG, fmt.Sprintf("the layer graph has a cycle, so it cannot be an engine's execution order: %s; the dump is corrupted or hand-merged — export it again from one engine", strings.Join(names, " → ")))
	}
	for _, d := range g.InputsProducedByLayer {
		msgs.error(CodeInputProduced, fmt.Sprintf("declared graph input %q is also written by layer %q; the bindings and layers come from different engines — export them again together", shorten(d.Tensor, 120), shorten(ls[d.Producers[0]].Name, 120)))
	}
	if n := len(g.DuplicateProducers); n > 0 {
		d := g.DuplicateProducers[0]
		msgs.warning(CodeAmbiguousTensor, fmt.Sprintf("%d tensor names are written by more than one layer (e.g. %q by %d layers); each is treated as one logical tensor, so those edges are ambiguous", n, shorten(d.Tensor, 120), len(d.Producers)))
	}
}

// contractGraph converts the graph for output.
func contractGraph(g *graph.Graph, ls []engine.Layer, io []engine.IOTensor) contract.Graph {
	c := contract.Graph{
		IsDAG: g.IsDAG(), Ambiguous: g.Ambiguous(), EdgeCount: len(g.Edges),
		DuplicateProducers: make([]contract.DuplicateProducer, len(g.DuplicateProducers)),
		ExternalInputs:     nonNil(g.ExternalInputs), GraphOutputs: nonNil(g.Outputs),
		DeclaredInputs: []string{}, DeclaredOutputs: []string{},
		TopoOrder: g.Topo, Edges: g.Edges,
	}
	if c.Edges == nil {
		c.Edges = [][2]int{}
	}
	for i, d := range g.DuplicateProducers {
		c.DuplicateProducers[i] = contract.DuplicateProducer{Tensor: d.Tensor, Producers: d.Producers}
	}
	if g.Cycle != nil {
		c.Cycle = make([]string, len(g.Cycle))
		for i, idx := range g.Cycle {
			c.Cycle[i] = ls[idx].Name
		}
	}
	for _, t := range io {
		switch {
		case t.IOMode == "Output":
			c.DeclaredOutputs = append(c.DeclaredOutputs, t.Name)
		case t.IOMode == "Input":
			c.DeclaredInputs = append(c.DeclaredInputs, t.Name)
		case contains(g.Outputs, t.Name):
			// Bindings do not say which way they go: a written one is an output.
			c.DeclaredOutputs = append(c.DeclaredOutputs, t.Name)
		default:
			c.DeclaredInputs = append(c.DeclaredInputs, t.Name)
		}
	}
	return c
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
