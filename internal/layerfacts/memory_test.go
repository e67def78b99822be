package layerfacts

import (
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

func TestTensorBytes(t *testing.T) {
	for _, tc := range []struct {
		format string
		dims   []int64
		want   float64
		ok     bool
	}{
		{"Row major linear FP32", []int64{32, 3, 224, 224}, 32 * 3 * 224 * 224 * 4, true},
		{"Row major linear FP16 format", []int64{1, 64, 112, 112}, 64 * 112 * 112 * 2, true},
		// HWC8 pads 3 channels to 8.
		{"Channel major FP16 format where channel % 8 == 0", []int64{1, 3, 224, 224}, 8 * 224 * 224 * 2, true},
		{"Channel major FP32 format", []int64{1, 3, 224, 224}, 3 * 224 * 224 * 4, true},
		// CHW32 pads 48 channels to 64; CHW4 keeps 64.
		{"Thirty-two wide channel vectorized row major Int8 format", []int64{1, 48, 56, 56}, 64 * 56 * 56, true},
		{"Four wide channel vectorized row major Int8 format", []int64{1, 64, 56, 56}, 64 * 56 * 56, true},
		{"Two wide channel vectorized row major FP16 format", []int64{1, 3, 8, 8}, 4 * 8 * 8 * 2, true},
		// Two-dimensional tensors have no channel to pad.
		{"Channel major FP16 format where channel % 8 == 0", []int64{1, 3}, 6, true},
		{"Int32", []int64{4}, 16, true},
		{"Row major linear BFloat16", []int64{2, 8}, 32, true},
		{"Row major linear FP16 format", []int64{-1, 128, 768}, 0, false},
		{"Bool", []int64{4}, 0, false},
		{"Row major linear FP16 format", nil, 0, false},
	} {
		got, ok := TensorBytes(&engine.Tensor{Format: tc.format, Dims: tc.dims})
		if got != tc.want || ok != tc.ok {
			t.Errorf("TensorBytes(%q, %v) = %v, %v; want %v, %v", tc.format, tc.dims, got, ok, tc.want, tc.ok)
		}
	}
}

func TestWeightBytes(t *testing.T) {
	p := func(k, v string) engine.Param { return engine.Param{Key: k, Value: []byte(v)} }
	for _, tc := range []struct {
		name           string
		layer          engine.Layer
		bytes          float64
		blobs, unknown int
	}{
		{"conv with bias, FP16", engine.Layer{Params: []engine.Param{
			p("Weights", `{"Type":"Half","Count":9408}`), p("Bias", `{"Type":"Half","Count":64}`), p("Kernel", `[7,7]`)}}, 2 * (9408 + 64), 2, 0},
		{"fused ConvActPool, INT8 weights and float bias", engine.Layer{Params: []engine.Param{
			p("ConvWeights", `{"Type":"Int8","Count":9408}`), p("ConvBias", `{"Type":"Float","Count":64}`), p("PoolingWindowSize", `[3,3]`)}}, 9408 + 4*64, 2, 0},
		{"scale layer", engine.Layer{Params: []engine.Param{
			p("Scale", `{"Type":"Float","Count":3}`), p("Shift", `{"Type":"Float","Count":3}`), p("Power", `{"Type":"Float","Count":0}`)}}, 24, 2, 0},
		{"constant, lower-case key", engine.Layer{Params: []engine.Param{p("weights", `{"Type":"Float","Count":4096}`)}}, 16384, 1, 0},
		{"INT4 weights", engine.Layer{Params: []engine.Param{p("Weights", `{"Type":"Int4","Count":4096}`)}}, 2048, 1, 0},
		{"unknown type", engine.Layer{Params: []engine.Param{p("Weights", `{"Type":"Quantum","Count":4096}`)}}, 0, 0, 1},
		{"Myelin constants", engine.Layer{Constants: []engine.Tensor{
			{Name: "w", Dims: []int64{768, 768}, Format: "Row major linear FP16 format"}, {Name: "d", Dims: []int64{-1, 768}, Format: "Half"}}}, 768 * 768 * 2, 1, 1},
		{"no weights", engine.Layer{Params: []engine.Param{p("Activation", `"RELU"`), p("Counts", `{"Count":3}`)}}, 0, 0, 0},
	} {
		b, blobs, unknown := WeightBytes(&tc.layer)
		if b != tc.bytes || blobs != tc.blobs || unknown != tc.unknown {
			t.Errorf("%s: WeightBytes = %v, %d, %d; want %v, %d, %d", tc.name, b, blobs, unknown, tc.bytes, tc.blobs, tc.unknown)
		}
	}
}
