package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/graph"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// maxActivations is how many of the largest activations are listed.
const maxActivations = 5

// engineMemory sums the weights every layer stores and finds the largest
// distinct tensors between layers, each sized in its format. When the dump
// declares the engine's I/O tensors, a tensor no layer writes and the
// declaration does not name is a constant (TensorRT 8.6 Myelin regions
// read their weights so) and counts as weights, not as an activation.
//
// Tensors are told apart by name, across the engines of a dump as well;
// g's name ids stand for the names, so no name is hashed again here.
func engineMemory(ls []engine.Layer, g *graph.Graph, io []engine.IOTensor, declared bool) *contract.Memory {
	m := &contract.Memory{LargestActivations: []contract.Activation{}, Notes: []string{}}
	type sized struct {
		t        *engine.Tensor
		bytes    float64
		producer int
	}
	produced := make([]bool, g.Names())
	for i := range ls {
		for _, id := range g.OutputIDs(i) {
			produced[g.NameID(id)] = true
		}
	}
	isIO := make(map[string]bool, len(io))
	for _, t := range io {
		isIO[t.Name] = true
	}
	// A declaration that names none of the tensors no layer writes does
	// not describe these layers (e.g. another optimization profile's
	// names): infer the inputs instead.
	if declared {
		declared = false
		for i := range ls {
			for j, id := range g.InputIDs(i) {
				if !produced[g.NameID(id)] && isIO[ls[i].Inputs[j].Name] {
					declared = true
				}
			}
		}
	}
	seen := make([]bool, g.Names())
	var all []sized
	add := func(t *engine.Tensor, id int32, producer int) {
		if seen[id] {
			return
		}
		seen[id] = true
		if b, ok := layerfacts.TensorBytes(t); ok {
			all = append(all, sized{t, b, producer})
		} else {
			m.DynamicTensors++
		}
	}
	myelinLayers, constants := 0, 0
	for i := range ls {
		l := &ls[i]
		b, blobs, unknown := layerfacts.WeightBytes(l)
		for j, id := range g.InputIDs(i) {
			t, name := &l.Inputs[j], g.NameID(id)
			if produced[name] || !declared || isIO[t.Name] {
				continue
			}
			blobs++
			if seen[name] {
				continue
			}
			seen[name] = true
			constants++
			if tb, ok := layerfacts.TensorBytes(t); ok {
				b += tb
			} else {
				unknown++
			}
		}
		m.WeightsBytes += b
		m.WeightsUnknown += unknown
		if blobs > 0 {
			m.WeightLayers++
		} else if strings.EqualFold(l.Type, "Myelin") || strings.HasPrefix(l.Name, "{ForeignNode[") {
			// An opaque Myelin region: its weights are inside it.
			myelinLayers++
		}
		for j, id := range g.OutputIDs(i) {
			add(&l.Outputs[j], g.NameID(id), i)
		}
	}
	// Tensors no layer writes (and not constants) are graph inputs.
	for i := range ls {
		for j, id := range g.InputIDs(i) {
			add(&ls[i].Inputs[j], g.NameID(id), -1)
		}
	}
	m.ActivationTensors = len(all)
	slices.SortFunc(all, func(a, b sized) int {
		return cmp.Or(cmp.Compare(b.bytes, a.bytes), cmp.Compare(a.t.Name, b.t.Name))
	})
	for _, s := range all[:min(len(all), maxActivations)] {
		m.LargestActivations = append(m.LargestActivations, contract.Activation{
			Name: s.t.Name, Bytes: s.bytes, Dimensions: slices.Clone(s.t.Dims), Format: s.t.Format, Producer: s.producer,
		})
	}
	if !m.WeightsListed() && len(ls) > 0 {
		m.Notes = append(m.Notes, "no layer lists its weights (the layer info holds no weights blobs), so the weights are unknown: weights_bytes 0 is not a measurement")
	}
	if constants > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("%d tensor(s) that no layer writes and the engine's I/O does not declare are read as constants and counted as weights", constants))
	}
	if !declared {
		m.Notes = append(m.Notes, "the layer info declares no engine I/O that these layers read: every tensor no layer writes is taken as a graph input, so constants fed to Myelin layers would count as activations")
	}
	if myelinLayers > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("%d Myelin region(s) (ForeignNode) list no weights or constants: weights_bytes leaves out what they hold", myelinLayers))
	}
	if m.WeightsUnknown > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("%d weights blob(s) of a type without a known size are left out of weights_bytes", m.WeightsUnknown))
	}
	if m.DynamicTensors > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("%d tensor(s) have a dynamic dimension (-1) or a format of unknown size and are not sized", m.DynamicTensors))
	}
	m.Notes = append(m.Notes, "TensorRT reuses activation memory between layers: the largest tensors bound the activation memory from below, their sum is no total")
	return m
}
