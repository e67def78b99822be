package report

import (
	"reflect"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

func TestConversionKind(t *testing.T) {
	for _, c := range []struct{ typ, want string }{
		{"Reformat", "reformat"},
		{"Reformatting CopyNode", "reformat"},
		{"Quantize", "quantize"},
		{"QuantizeLinear", "quantize"},
		{"Dequantize", "dequantize"},
		{"DequantizeLinear", "dequantize"},
		{"CaskConvolution", ""},
		{"", ""},
	} {
		if got := conversionKind(c.typ); got != c.want {
			t.Errorf("conversionKind(%q) = %q, want %q", c.typ, got, c.want)
		}
	}
}

// convBackend: conv (INT8) → reformat (INT8 → FP16) → two consumers, one
// of them also fed by the conv directly (a skip edge).
func convBackend() *contract.Backend {
	i8 := "Thirty-two wide channel vectorized row major Int8 format"
	f16 := "Row major linear FP16 format"
	t := func(name, f string) contract.Tensor {
		return contract.Tensor{Name: name, Dimensions: []int64{1, 64, 8, 8}, Format: f}
	}
	b := &contract.Backend{
		Label:      "x",
		Validation: contract.BackendValidation{Status: contract.StatusPassed, AnalysisMode: contract.ModeLayerProfile},
		Layers: []contract.Layer{
			{Name: "conv", LayerType: "Convolution", Inputs: []contract.Tensor{t("in", i8)}, Outputs: []contract.Tensor{t("a", i8)}},
			{Name: "reformat", LayerType: "Reformat", Inputs: []contract.Tensor{t("a", i8)}, Outputs: []contract.Tensor{t("b", f16)}},
			{Name: "add", LayerType: "ElementWise", Inputs: []contract.Tensor{t("b", f16), t("a", i8)}, Outputs: []contract.Tensor{t("c", f16)}},
			{Name: "out", LayerType: "Activation", Inputs: []contract.Tensor{t("b", f16)}, Outputs: []contract.Tensor{t("d", f16)}},
		},
		Graph: contract.Graph{IsDAG: true, TopoOrder: []int{0, 1, 2, 3}, Edges: [][2]int{{0, 1}, {0, 2}, {1, 2}, {1, 3}}},
		Records: []contract.Record{
			{Name: "conv", Layer: 0, LayerType: "Convolution", Precision: "INT8", AvgMs: 0.5, Percentage: 50},
			{Name: "reformat", Layer: 1, LayerType: "Reformat", Precision: "FP16", AvgMs: 0.2, Percentage: 20},
			{Name: "add", Layer: 2, LayerType: "ElementWise", Precision: "FP16", AvgMs: 0.2, Percentage: 20},
			{Name: "out", Layer: 3, LayerType: "Activation", Precision: "FP16", AvgMs: 0.1, Percentage: 10},
		},
	}
	return b
}

func TestFindConversions(t *testing.T) {
	b := convBackend()
	c, _ := buildColumns(b)
	got := findConversions(b, c)
	want := conversions{Count: 1, TimeMs: 0.2, List: []conversion{{
		Layer: 1, Name: "reformat", Kind: "reformat",
		FromFormat: b.Layers[1].Inputs[0].Format, ToFormat: b.Layers[1].Outputs[0].Format,
		FromType: "INT8", ToType: "FP16", Dims: "1×64×8×8", AvgMs: 0.2, Timed: true,
		Producers: []int{0}, Consumers: []int{2, 3},
	}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findConversions:\n got %+v\nwant %+v", got, want)
	}
}

func TestEdgeLabelsAndTop(t *testing.T) {
	b := convBackend()
	c, _ := buildColumns(b)
	if len(c.EdgeLabel) != len(b.Graph.Edges) {
		t.Fatalf("%d edge labels for %d edges", len(c.EdgeLabel), len(b.Graph.Edges))
	}
	want := []string{
		"1×64×8×8|" + b.Layers[0].Outputs[0].Format, // conv → reformat carries a
		"1×64×8×8|" + b.Layers[0].Outputs[0].Format, // conv → add (the skip edge) carries a
		"1×64×8×8|" + b.Layers[1].Outputs[0].Format, // reformat → add carries b
		"1×64×8×8|" + b.Layers[1].Outputs[0].Format,
	}
	for k, id := range c.EdgeLabel {
		if id < 0 || c.Strings[id] != want[k] {
			t.Errorf("edge %v label %d, want %q", b.Graph.Edges[k], id, want[k])
		}
	}
	top := topLayers(b, 3)
	var layers []int
	for _, x := range top {
		layers = append(layers, x.Layer)
	}
	if !reflect.DeepEqual(layers, []int{0, 1, 2}) {
		t.Errorf("top layers %v, want slowest first with ties by index [0 1 2]", layers)
	}
	b.Validation.AnalysisMode = contract.ModeLayerOnly
	if top := topLayers(b, 3); top != nil {
		t.Errorf("layer_only backend has top layers %v", top)
	}
}
