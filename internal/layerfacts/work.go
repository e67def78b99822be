package layerfacts

import (
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/engine"
)

// Work is the arithmetic a layer does and the bytes it moves per inference.
type Work struct {
	FLOPs float64 // multiply and add counted as two
	Bytes float64 // weights read once plus input and output activations
}

// LayerWork computes a layer's work from its dimensions, weights and tensor
// shapes, for the layers whose arithmetic the layer info determines:
// convolutions, deconvolutions and fully connected / GEMM layers lowered to
// them (2 × weights × output positions: each weight meets every output
// position once; a deconvolution's input positions instead), and matrix
// multiplies of two activations (2 × batch × M × N × K). A fused
// convolution + activation + pooling layer (ConvActPool) counts its
// convolution, whose output positions follow from the input and the Conv*
// kernel, stride, padding and dilation (its own output is after pooling).
// ok is false for other layers or when a needed number is missing.
func LayerWork(l *engine.Layer) (Work, bool) {
	var w Work
	var weights int64
	var wType string
	switch paramType(l) {
	case "convolution", "fullyconnected", "deconvolution", "convactpool":
		weights, wType = weightCount(l.Params)
	}
	switch paramType(l) {
	case "convolution", "fullyconnected":
		if weights <= 0 || len(l.Outputs) == 0 {
			return w, false
		}
		out := l.Outputs[0].Dims
		if len(out) < 2 || anyNegative(out) {
			return w, false
		}
		// Output positions: every dimension but the channel one (index 1).
		positions := float64(out[0])
		for _, d := range out[2:] {
			positions *= float64(d)
		}
		w.FLOPs = 2 * float64(weights) * positions
	case "convactpool":
		positions, ok := fusedConvPositions(l)
		if weights <= 0 || !ok {
			return w, false
		}
		w.FLOPs = 2 * float64(weights) * positions
	case "deconvolution":
		if weights <= 0 || len(l.Inputs) == 0 {
			return w, false
		}
		in := l.Inputs[0].Dims
		if len(in) < 2 || anyNegative(in) {
			return w, false
		}
		positions := float64(in[0])
		for _, d := range in[2:] {
			positions *= float64(d)
		}
		w.FLOPs = 2 * float64(weights) * positions
	case "matrixmultiply", "gemm":
		if len(l.Inputs) < 2 {
			return w, false
		}
		a, b := l.Inputs[0].Dims, l.Inputs[1].Dims
		if len(a) < 2 || len(b) < 2 || anyNegative(a) || anyNegative(b) {
			return w, false
		}
		m, k := a[len(a)-2], a[len(a)-1]
		n := b[len(b)-1]
		if b[len(b)-2] != k {
			if b[len(b)-1] != k { // neither B nor Bᵀ fits
				return w, false
			}
			n = b[len(b)-2]
		}
		batch := 1.0
		for _, d := range a[:len(a)-2] {
			batch *= float64(d)
		}
		w.FLOPs = 2 * batch * float64(m) * float64(n) * float64(k)
	default:
		return w, false
	}
	w.Bytes = float64(weights) * float64(formatOf(wType).size)
	for _, ts := range [][]engine.Tensor{l.Inputs, l.Outputs} {
		for _, t := range ts {
			if anyNegative(t.Dims) {
				continue
			}
			n := 1.0
			for _, d := range t.Dims {
				n *= float64(d)
			}
			w.Bytes += n * float64(formatOf(t.Format).size)
		}
	}
	return w, true
}

// fusedConvPositions is the number of output positions (batch × spatial)
// of a fused layer's convolution, from its input dimensions and its
// ConvKernel, ConvStride, ConvPrePadding, ConvPostPadding and ConvDilation
// (stride and dilation 1 and no padding when absent).
func fusedConvPositions(l *engine.Layer) (float64, bool) {
	if len(l.Inputs) == 0 {
		return 0, false
	}
	in := l.Inputs[0].Dims
	if len(in) < 3 || anyNegative(in) {
		return 0, false
	}
	spatial := in[2:]
	kernel, ok := intsParam(l.Params, "ConvKernel")
	if !ok || len(kernel) != len(spatial) {
		return 0, false
	}
	at := func(key string, i int, def int64) (int64, bool) {
		v, ok := intsParam(l.Params, key)
		if !ok {
			return def, true
		}
		if len(v) != len(spatial) {
			return 0, false
		}
		return v[i], true
	}
	positions := float64(in[0])
	for i, size := range spatial {
		stride, ok1 := at("ConvStride", i, 1)
		pre, ok2 := at("ConvPrePadding", i, 0)
		post, ok3 := at("ConvPostPadding", i, 0)
		dil, ok4 := at("ConvDilation", i, 1)
		if !ok1 || !ok2 || !ok3 || !ok4 || stride <= 0 || dil <= 0 {
			return 0, false
		}
		out := (size+pre+post-dil*(kernel[i]-1)-1)/stride + 1
		if out <= 0 {
			return 0, false
		}
		positions *= float64(out)
	}
	return positions, true
}

// intsParam reads an integer list parameter ([3, 3]); false when the layer
// has no such key or it is not a list of integers.
func intsParam(params []engine.Param, key string) ([]int64, bool) {
	for _, p := range params {
		if p.Key == key {
			var v []int64
			if json.Unmarshal(p.Value, &v) != nil {
				return nil, false
			}
			return v, true
		}
	}
	return nil, false
}

// paramType is the layer's parameter kind, lower case: ParameterType, else
// the LayerType.
func paramType(l *engine.Layer) string {
	t := l.ParameterType
	if t == "" {
		t = l.Type
	}
	t = strings.ToLower(t)
	switch {
	case strings.Contains(t, "deconvolution"):
		return "deconvolution"
	case strings.Contains(t, "convolution"):
		return "convolution"
	case strings.Contains(t, "fullyconnected"):
		return "fullyconnected"
	case strings.Contains(t, "matrixmultiply"):
		return "matrixmultiply"
	case t == "convactpool":
		return t
	}
	return t
}

// weightCount reads {"Weights": {"Type": "Half", "Count": N}}.
func weightCount(params []engine.Param) (int64, string) {
	for _, p := range params {
		if p.Key != "Weights" && p.Key != "ConvWeights" && p.Key != "Kernel Weights" {
			continue
		}
		var v struct {
			Type  string `json:"Type"`
			Count int64  `json:"Count"`
		}
		if json.Unmarshal(p.Value, &v) != nil || v.Count < 0 {
			return 0, ""
		}
		return v.Count, v.Type
	}
	return 0, ""
}

// elemSize is the bytes per element a format or type string names; 0 when
// it names none.
func elemSize(s string) int {
	u := strings.ToUpper(s)
	switch {
	case strings.Contains(u, "FP16"), strings.Contains(u, "HALF"), strings.Contains(u, "BF16"):
		return 2
	case strings.Contains(u, "FP32"), strings.Contains(u, "FLOAT"), strings.Contains(u, "INT32"):
		return 4
	case strings.Contains(u, "INT8"), strings.Contains(u, "FP8"), strings.Contains(u, "UINT8"):
		return 1
	case strings.Contains(u, "INT64"):
		return 8
	}
	return 0
}

func anyNegative(d []int64) bool {
	for _, x := range d {
		if x < 0 {
			return true
		}
	}
	return false
}
