package dump

import (
	"testing"
)

const inspectorText = `Engine layers: 2
Layer 0:
{"Name": "conv", "LayerType": "CaskConvolution", "Inputs": [{"Name": "x", "Dimensions": [1,3,8,8], "Format/Datatype": "Row major linear FP32"}], "Outputs": [{"Name": "y", "Dimensions": [1,4,8,8], "Format/Datatype": "Row major linear FP32"}]}
Layer 1:
{
  "Name": "relu {odd}",
  "LayerType": "PointWiseV2",
  "Inputs": [{"Name": "y", "Dimensions": [1,4,8,8], "Format/Datatype": "Row major linear FP32"}],
  "Outputs": [{"Name": "z", "Dimensions": [1,4,8,8], "Format/Datatype": "Row major linear FP32"}]
}
done
`

func TestInspectorText(t *testing.T) {
	if k := Sniff([]byte(inspectorText)); k != KindLayerInfo {
		t.Fatalf("sniffed as %v", k)
	}
	list, ok := InspectorText([]byte(inspectorText))
	if !ok {
		t.Fatal("not recognised")
	}
	li, err := ParseLayerInfo(list)
	if err != nil {
		t.Fatal(err)
	}
	if len(li.Layers) != 2 || li.Layers[1].Name != "relu {odd}" || li.Layers[0].Outputs[0].Dims[1] != 4 {
		t.Errorf("layers %+v", li.Layers)
	}
	for _, in := range []string{`{"Layers": []}`, "no objects here\n", "Layer 0:\n{\"LayerType\": \"x\"}\n", "Layer 0:\n{\"Name\": \"trunc"} {
		if _, ok := InspectorText([]byte(in)); ok {
			t.Errorf("%q recognised as inspector text", in)
		}
	}
	// A truncated last object keeps the layers before it.
	if list, ok := InspectorText([]byte(inspectorText[:len(inspectorText)-40])); !ok {
		t.Error("truncated text lost every layer")
	} else if li, err := ParseLayerInfo(list); err != nil || len(li.Layers) != 1 {
		t.Errorf("truncated: %v layers, %v", li, err)
	}
}

func FuzzInspectorText(f *testing.F) {
	f.Add([]byte(inspectorText))
	f.Add([]byte("Layer 0:\n{\"Name\": \"a\\\"}\"}\n{\"Name\": [}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		list, ok := InspectorText(data)
		if !ok {
			return
		}
		if len(list) < 2 || list[0] != '[' || list[len(list)-1] != ']' {
			t.Fatalf("not a list: %q", list)
		}
		_, _ = ParseLayerInfo(list) // must not panic; errors are fine
	})
}
