package report

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// TestConversionsFromTags: conversions are what the analysis' tags say,
// not a list of layer types — a Q/DQ layer that TensorRT reports as Scale
// is one, a convolution with a Q/DQ fused in is not; a layer without a
// record (layer_only) gets the tags layerfacts derives from it.
func TestConversionsFromTags(t *testing.T) {
	b := convBackend()
	f32, i8 := "Row major linear FP32", "Four wide channel vectorized row major Int8 format"
	b.Layers[3] = contract.Layer{Name: "QuantizeLinear_7", LayerType: "Scale", Inputs: []contract.Tensor{{Name: "b", Format: f32}}, Outputs: []contract.Tensor{{Name: "d", Format: i8}}}
	b.Records[3] = contract.Record{Name: "QuantizeLinear_7", Layer: 3, LayerType: "Scale", Precision: "FP32", AvgMs: 0.1, Percentage: 10,
		Tags: []string{"pointwise", "quantize"}, FusedOps: 1, InputTypes: []string{"FP32"}, OutputTypes: []string{"INT8"}}
	b.Records[0].Tags = []string{"conv", "quantize"}
	b.Records[0].FusedOps = 3
	c, _ := buildColumns(b)
	got := findConversions(b, c)
	var kinds []string
	for _, cv := range got.List {
		kinds = append(kinds, fmt.Sprintf("%d:%s", cv.Layer, cv.Kind))
	}
	if want := []string{"1:reformat", "3:quantize"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("conversions %v, want %v", kinds, want)
	}
	if c.Strings[c.Conv[3]] != "quantize" || c.Conv[0] != -1 || c.Conv[2] != -1 {
		t.Errorf("conv column %v", c.Conv)
	}
	if got.List[1].ToLabel != "int8:chw4" || got.List[1].FromLabel != "fp32:chw" {
		t.Errorf("labels %q → %q", got.List[1].FromLabel, got.List[1].ToLabel)
	}
	// layer_only: no records, the same set from the layers' own facts.
	b.Records, b.Validation.AnalysisMode = nil, contract.ModeLayerOnly
	b.Layers[3].Origin = "QDQ"
	c, _ = buildColumns(b)
	kinds = kinds[:0]
	for _, cv := range findConversions(b, c).List {
		kinds = append(kinds, fmt.Sprintf("%d:%s", cv.Layer, cv.Kind))
	}
	if want := []string{"1:reformat", "3:quantize"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("layer_only conversions %v, want %v", kinds, want)
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
			{Name: "reformat", Layer: 1, LayerType: "Reformat", Precision: "FP16", AvgMs: 0.2, Percentage: 20, Tags: []string{"reformat"}, FusedOps: 1, InputTypes: []string{"INT8"}, OutputTypes: []string{"FP16"}},
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
		FromLabel: "int8:chw32", ToLabel: "fp16:chw", FromType: "INT8", ToType: "FP16", Dims: "1×64×8×8", AvgMs: 0.2, Timed: true,
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
		"1×64×8×8|int8:chw32", // conv → reformat carries a
		"1×64×8×8|int8:chw32", // conv → add (the skip edge) carries a
		"1×64×8×8|fp16:chw",   // reformat → add carries b
		"1×64×8×8|fp16:chw",
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
