package layerfacts

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/engine"
)

func paramInts(t *testing.T, l *engine.Layer, key string) []int64 {
	t.Helper()
	for _, p := range l.Params {
		if p.Key == key {
			var v []int64
			if err := json.Unmarshal(p.Value, &v); err != nil {
				var one int64
				if err := json.Unmarshal(p.Value, &one); err != nil {
					t.Fatalf("%s %s: %s", l.Name, key, p.Value)
				}
				return []int64{one}
			}
			return v
		}
	}
	t.Fatalf("%s has no %s", l.Name, key)
	return nil
}

// TestConvolutionFLOPsClosedForm is issue 10's fourth acceptance check: the
// FLOPs of every convolution and GEMM of the ResNet18 and VGG16 cases equal
// 2 × N × K × H_out × W_out × (C_in / groups) × k_h × k_w from their shapes
// (a GEMM lowered to a 1×1 convolution included).
func TestConvolutionFLOPsClosedForm(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.LayerFacts)
	for _, f := range []string{"trex-resnet18-a100-fp32-fp16/layers_fp16.json", "trex-resnet18-a100-fp32-fp16/layers_fp32.json", "kalfazed-vgg16-fp32-rtx3080-trt85/layers_fp32.json"} {
		info, err := dump.ReadLayerInfo(filepath.Join(corpus, f))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i := range info.Layers {
			l := &info.Layers[i]
			if !strings.Contains(strings.ToLower(l.ParameterType), "convolution") {
				continue
			}
			n++
			k := paramInts(t, l, "Kernel")
			outMaps := paramInts(t, l, "OutMaps")[0]
			groups := paramInts(t, l, "Groups")[0]
			in, out := l.Inputs[0].Dims, l.Outputs[0].Dims
			want := 2.0 * float64(out[0]*outMaps*out[2]*out[3]*(in[1]/groups)*k[0]*k[1])
			w, ok := LayerWork(l)
			if !ok || w.FLOPs != want {
				t.Errorf("%s: %s FLOPs %v (ok %v), closed form %v", f, l.Name, w.FLOPs, ok, want)
			}
			if w.Bytes <= 0 {
				t.Errorf("%s: %s bytes %v", f, l.Name, w.Bytes)
			}
		}
		if n == 0 {
			t.Fatalf("%s: no convolution checked", f)
		}
	}
}

func TestLayerWorkMatMulAndOthers(t *testing.T) {
	mm := &engine.Layer{Type: "MatrixMultiply", Inputs: []engine.Tensor{{Dims: []int64{2, 12, 128, 64}, Format: "Row major linear FP16"}, {Dims: []int64{2, 12, 64, 128}, Format: "Row major linear FP16"}},
		Outputs: []engine.Tensor{{Dims: []int64{2, 12, 128, 128}, Format: "Row major linear FP16"}}}
	w, ok := LayerWork(mm)
	if want := 2.0 * 24 * 128 * 128 * 64; !ok || w.FLOPs != want {
		t.Errorf("matmul FLOPs %v, want %v", w.FLOPs, want)
	}
	if want := 2.0 * (24*128*64*2 + 24*128*128); w.Bytes != want {
		t.Errorf("matmul bytes %v, want %v", w.Bytes, want)
	}
	if _, ok := LayerWork(&engine.Layer{Type: "Reformat"}); ok {
		t.Error("a reformat got FLOPs")
	}
	dyn := &engine.Layer{ParameterType: "Convolution", Params: []engine.Param{{Key: "Weights", Value: []byte(`{"Type":"Half","Count":9}`)}}, Outputs: []engine.Tensor{{Dims: []int64{-1, 1, 4, 4}}}}
	if _, ok := LayerWork(dyn); ok {
		t.Error("dynamic dimensions gave FLOPs")
	}
}

// A fused convolution + activation + pooling layer counts its convolution:
// 2 × N × K × H_conv × W_conv × (C_in / groups) × k_h × k_w, where the
// convolution's output size, pooled with the layer's Pooling* window,
// stride and padding, must give the layer's own output size (a check of
// H_conv against the dump itself).
func TestConvActPoolFLOPs(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.LayerFacts)
	n := 0
	for _, f := range []string{"trex-resnet18-a100-qat/layers_int8-qat-residual.json", "trex-resnet18-a100-qat/layers_int8-qat-residual-qgap.json"} {
		info, err := dump.ReadLayerInfo(filepath.Join(corpus, f))
		if err != nil {
			t.Fatal(err)
		}
		for i := range info.Layers {
			l := &info.Layers[i]
			if l.ParameterType != "ConvActPool" {
				continue
			}
			n++
			in, out := l.Inputs[0].Dims, l.Outputs[0].Dims
			k, s := paramInts(t, l, "ConvKernel"), paramInts(t, l, "ConvStride")
			pre, post := paramInts(t, l, "ConvPrePadding"), paramInts(t, l, "ConvPostPadding")
			pk, ps := paramInts(t, l, "PoolingWindowSize"), paramInts(t, l, "PoolingStride")
			ppre, ppost := paramInts(t, l, "PoolingPrePadding"), paramInts(t, l, "PoolingPostPadding")
			conv := make([]int64, 2)
			for d := range 2 {
				conv[d] = (in[2+d]+pre[d]+post[d]-k[d])/s[d] + 1
				if pooled := (conv[d]+ppre[d]+ppost[d]-pk[d])/ps[d] + 1; pooled != out[2+d] {
					t.Fatalf("%s: conv output %d pools to %d, the dump says %d", l.Name, conv[d], pooled, out[2+d])
				}
			}
			outMaps, groups := paramInts(t, l, "ConvOutMaps")[0], paramInts(t, l, "ConvGroups")[0]
			want := 2.0 * float64(in[0]*outMaps*conv[0]*conv[1]*(in[1]/groups)*k[0]*k[1])
			w, ok := LayerWork(l)
			if !ok || w.FLOPs != want {
				t.Errorf("%s: %s FLOPs %v (ok %v), closed form %v", f, l.Name, w.FLOPs, ok, want)
			}
		}
	}
	if n == 0 {
		t.Fatal("no ConvActPool layer checked")
	}
}
