package dump

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

func mustLayers(t *testing.T, src string) *engine.LayerInfo {
	t.Helper()
	li, err := ParseLayerInfo([]byte(src))
	if err != nil {
		t.Fatalf("ParseLayerInfo: %v", err)
	}
	return li
}

func paramMap(ps []engine.Param) map[string]string {
	m := map[string]string{}
	for _, p := range ps {
		m[p.Key] = string(p.Value)
	}
	return m
}

func paramKeys(ps []engine.Param) []string {
	var ks []string
	for _, p := range ps {
		ks = append(ks, p.Key)
	}
	return ks
}

func TestLayerInfoTrtexecObject(t *testing.T) {
	li := mustLayers(t, `{"Layers": [{
  "Name": "Conv_0 + Relu_1",
  "LayerType": "CaskConvolution",
  "Inputs": [
  {
    "Name": "input",
    "Location": "Device",
    "Dimensions": [1,3,224,224],
    "Format/Datatype": "Row major linear FP32"
  }],
  "Outputs": [
  {
    "Name": "relu_out",
    "Location": "Device",
    "Dimensions": [1,64,112,112],
    "Format/Datatype": "Channel major FP16 format where channel % 8 == 0"
  }],
  "ParameterType": "Convolution",
  "Kernel": [7,7],
  "PaddingMode": "kEXPLICIT_ROUND_DOWN",
  "Weights": {"Type": "Half", "Count": 9408},
  "HasReLU": 1,
  "TacticName": "sm80_xmma_fprop_implicit_gemm_f16f16",
  "TacticValue": "0x5f0b0c1ab0f1fb0b",
  "Origin": "QDQ",
  "StreamId": 0,
  "Metadata": "[ONNX Layer: Conv_0]\u001e[ONNX Layer: Relu_1]"
}],
"Bindings": ["input"
,"relu_out"
]}
`)
	if li.RootKind != "object" || li.NamesOnly || !li.HasIODeclaration {
		t.Errorf("root %q namesOnly %v io %v", li.RootKind, li.NamesOnly, li.HasIODeclaration)
	}
	if len(li.IO) != 2 || li.IO[0].Name != "input" || li.IO[1].Name != "relu_out" || li.IO[0].IOMode != "" {
		t.Errorf("IO = %+v", li.IO)
	}
	l := li.Layers[0]
	want := engine.Layer{
		Index: 0, Name: "Conv_0 + Relu_1", Type: "CaskConvolution",
		Inputs:        []engine.Tensor{{Name: "input", Location: "Device", Dims: []int64{1, 3, 224, 224}, Format: "Row major linear FP32"}},
		Outputs:       []engine.Tensor{{Name: "relu_out", Location: "Device", Dims: []int64{1, 64, 112, 112}, Format: "Channel major FP16 format where channel % 8 == 0"}},
		ParameterType: "Convolution", TacticName: "sm80_xmma_fprop_implicit_gemm_f16f16", TacticValue: "0x5f0b0c1ab0f1fb0b",
		Origin: "QDQ", StreamID: 0, HasStreamID: true, Metadata: "[ONNX Layer: Conv_0]␞[ONNX Layer: Relu_1]",
		Params: []engine.Param{
			{Key: "Kernel", Value: []byte("[7,7]")},
			{Key: "PaddingMode", Value: []byte(`"kEXPLICIT_ROUND_DOWN"`)},
			{Key: "Weights", Value: []byte(`{"Type":"Half","Count":9408}`)},
			{Key: "HasReLU", Value: []byte("1")},
		},
	}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("layer =\n%+v\nwant\n%+v", l, want)
	}
}

func TestLayerInfoTRT11IOTensorsSplitFormat(t *testing.T) {
	li := mustLayers(t, `{
  "Layers": [
    {"Name": "gemm_0", "LayerType": "gemm",
     "Inputs": [{"Name": "x", "Location": "Device", "Dimensions": [-1, 128], "Format": "Row major linear", "Datatype": "FP16", "Strides": [128, 1], "StrideOrder": [1, 0]}],
     "Outputs": [{"Name": "y", "Dimensions": [-1, 64], "Datatype": "BFloat16"}]}
  ],
  "I/O Tensors": [
    {"Name": "x", "IOMode": "Input", "DataType": "FP16", "Dimensions": [-1, 128], "Location": "Device", "IsShapeInferenceIO": false,
     "ProfileInfo": [{"MinShape": [1, 128], "OptShape": [8, 128], "MaxShape": [64, 128], "Format": "Row major linear"}]},
    {"Name": "y", "IOMode": "Output", "DataType": "FP16", "Dimensions": [-1, 64]}
  ]
}`)
	in := li.Layers[0].Inputs[0]
	if in.Format != "Row major linear FP16" || !reflect.DeepEqual(in.Dims, []int64{-1, 128}) {
		t.Errorf("input = %+v", in)
	}
	if got := paramMap(in.Extra); got["Strides"] != "[128,1]" || got["StrideOrder"] != "[1,0]" || len(got) != 2 {
		t.Errorf("input extra = %v", got)
	}
	if out := li.Layers[0].Outputs[0]; out.Format != "BFloat16" || out.Location != "" {
		t.Errorf("output = %+v", out)
	}
	if !li.HasIODeclaration || len(li.IO) != 2 {
		t.Fatalf("IO = %+v", li.IO)
	}
	x := li.IO[0]
	if x.Name != "x" || x.IOMode != "Input" || x.DataType != "FP16" || !reflect.DeepEqual(x.Dims, []int64{-1, 128}) {
		t.Errorf("IO[0] = %+v", x)
	}
	if ks := paramKeys(x.Extra); !reflect.DeepEqual(ks, []string{"Location", "IsShapeInferenceIO", "ProfileInfo"}) {
		t.Errorf("IO[0] extra keys = %v", ks)
	}
	if li.IO[1].IOMode != "Output" {
		t.Errorf("IO[1] = %+v", li.IO[1])
	}
	if !li.IOTensorObjects || !li.SplitFormat {
		t.Errorf("format facts: I/O Tensors %v, split Format/Datatype %v; want both", li.IOTensorObjects, li.SplitFormat)
	}
}

func TestLayerInfoVariants(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, li *engine.LayerInfo)
	}{
		{"bare list", `[{"Name": "a", "LayerType": "Shuffle", "Outputs": [{"Name": "t"}]}, {"Name": "b", "LayerType": "NoOp", "Inputs": [{"Name": "t"}]}]`,
			func(t *testing.T, li *engine.LayerInfo) {
				if li.RootKind != "list" || li.HasIODeclaration || len(li.Layers) != 2 || li.Layers[1].Index != 1 || li.Layers[1].Inputs[0].Name != "t" {
					t.Errorf("%+v", li)
				}
			}},
		{"names only object", `{"Layers": ["conv1", "relu1 [profile 1]"], "Bindings": ["in", "out"]}`,
			func(t *testing.T, li *engine.LayerInfo) {
				if !li.NamesOnly || len(li.Layers) != 2 || li.Layers[0].Name != "conv1" || li.Layers[1].Name != "relu1" || li.Layers[1].OptProfile != 1 || len(li.IO) != 2 {
					t.Errorf("%+v", li)
				}
			}},
		{"names only list", `["a", "b", "c"]`,
			func(t *testing.T, li *engine.LayerInfo) {
				if !li.NamesOnly || li.RootKind != "list" || len(li.Layers) != 3 || li.Layers[2].Index != 2 {
					t.Errorf("%+v", li)
				}
			}},
		{"no Location, dynamic dims, N/A format", `{"Layers": [{"Name": "s", "LayerType": "Shuffle", "Inputs": [{"Name": "i", "Dimensions": [-1,3,-1,-1], "Format/Datatype": "N/A due to dynamic shapes"}], "Outputs": []}], "Bindings": []}`,
			func(t *testing.T, li *engine.LayerInfo) {
				in := li.Layers[0].Inputs[0]
				if in.Location != "" || !reflect.DeepEqual(in.Dims, []int64{-1, 3, -1, -1}) || in.Format != "N/A due to dynamic shapes" || li.Layers[0].Outputs != nil {
					t.Errorf("%+v", in)
				}
				if !li.HasIODeclaration || len(li.IO) != 0 {
					t.Errorf("IO %+v", li.IO)
				}
			}},
		{"constants", `{"Layers": [{"Name": "c", "LayerType": "Constant", "Inputs": [], "Outputs": [{"Name": "w"}], "Constants": [{"Name": "weights", "Dimensions": [64], "Format/Datatype": "Float"}]}]}`,
			func(t *testing.T, li *engine.LayerInfo) {
				c := li.Layers[0].Constants
				if len(c) != 1 || c[0].Name != "weights" || c[0].Format != "Float" {
					t.Errorf("%+v", c)
				}
			}},
		{"subgraph scalars", `[{"Name": "a", "_subgraph": 0}, {"Name": "b", "_subgraph": "engine_1"}, {"Name": "c", "_subgraph": 2.5}, {"Name": "d", "_subgraph": true}, {"Name": "e", "_subgraph": null}]`,
			func(t *testing.T, li *engine.LayerInfo) {
				var got []string
				for _, l := range li.Layers {
					got = append(got, l.Subgraph)
				}
				if !reflect.DeepEqual(got, []string{"0", "engine_1", "2.5", "true", ""}) {
					t.Errorf("subgraphs %q", got)
				}
			}},
		{"profile suffix", `{"Layers": [{"Name": "conv [profile 2]", "Outputs": [{"Name": "t [profile 2]"}]}, {"Name": "odd [profile x]"}, {"Name": "[profile 3]"}]}`,
			func(t *testing.T, li *engine.LayerInfo) {
				l := li.Layers
				if l[0].Name != "conv" || l[0].OptProfile != 2 || l[0].Outputs[0].Name != "t [profile 2]" {
					t.Errorf("%+v", l[0])
				}
				if l[1].Name != "odd [profile x]" || l[1].OptProfile != 0 || l[2].Name != "[profile 3]" {
					t.Errorf("%+v %+v", l[1], l[2])
				}
			}},
		{"control characters", `{"Layers": [
			{"Name": "a\u001eb", "Outputs": [{"Name": "t\u001f1"}], "Metadata": "x\u001ey\u001fz\u0001\n\t"},
			{"Name": "c", "Inputs": [{"Name": "t\u001f1"}], "TacticName": "k\u0007"}]}`,
			func(t *testing.T, li *engine.LayerInfo) {
				l := li.Layers
				if l[0].Name != "a␞b" || l[0].Metadata != `x␞y␟z\u0001\u000a\u0009` || l[1].TacticName != `k\u0007` {
					t.Errorf("%q %q %q", l[0].Name, l[0].Metadata, l[1].TacticName)
				}
				if l[0].Outputs[0].Name != "t␟1" || l[1].Inputs[0].Name != l[0].Outputs[0].Name {
					t.Errorf("tensor names %q %q", l[0].Outputs[0].Name, l[1].Inputs[0].Name)
				}
			}},
		{"escapes and unicode", `[{"Name": "q\"uote\\back\/slash \u00e9 \ud83d\ude00 \ud800 ü"}]`,
			func(t *testing.T, li *engine.LayerInfo) {
				if got := li.Layers[0].Name; got != "q\"uote\\back/slash é 😀 \uFFFD ü" {
					t.Errorf("%q", got)
				}
			}},
		{"stream id and odd types kept", `[{"Name": "a", "StreamId": 1, "TacticValue": 12, "LayerType": null, "Metadata": ["x"]}, {"Name": "b", "StreamId": "main"}]`,
			func(t *testing.T, li *engine.LayerInfo) {
				a, b := li.Layers[0], li.Layers[1]
				if a.StreamID != 1 || !a.HasStreamID || a.TacticValue != "" || a.Type != "" {
					t.Errorf("%+v", a)
				}
				if got := paramMap(a.Params); got["TacticValue"] != "12" || got["Metadata"] != `["x"]` || len(got) != 2 {
					t.Errorf("params %v", got)
				}
				if b.HasStreamID || paramMap(b.Params)["StreamId"] != `"main"` {
					t.Errorf("%+v", b)
				}
			}},
		{"python indent=4 with BOM and CRLF", "\ufeff{\r\n    \"Layers\": [\r\n        {\r\n            \"Name\": \"a\",\r\n            \"Kernel\": [\r\n                3,\r\n                3\r\n            ],\r\n            \"Weights\": {\r\n                \"Type\": \"Float\",\r\n                \"Count\": 9\r\n            },\r\n            \"Note\": \"a b  c\"\r\n        }\r\n    ],\r\n    \"Bindings\": []\r\n}\r\n",
			func(t *testing.T, li *engine.LayerInfo) {
				got := paramMap(li.Layers[0].Params)
				if got["Kernel"] != "[3,3]" || got["Weights"] != `{"Type":"Float","Count":9}` || got["Note"] != `"a b  c"` {
					t.Errorf("%v", got)
				}
			}},
		{"non-integer dimensions kept raw", `[{"Name": "a", "Inputs": [{"Name": "x", "Dimensions": [1, 2.5, "N"]}, {"Name": "y", "Dimensions": "dynamic"}, {"Name": "z", "Dimensions": []}]}]`,
			func(t *testing.T, li *engine.LayerInfo) {
				in := li.Layers[0].Inputs
				if in[0].Dims != nil || paramMap(in[0].Extra)["Dimensions"] != `[1,2.5,"N"]` || paramMap(in[1].Extra)["Dimensions"] != `"dynamic"` {
					t.Errorf("%+v", in)
				}
				if in[2].Dims == nil || len(in[2].Dims) != 0 {
					t.Errorf("scalar tensor dims %#v", in[2].Dims)
				}
			}},
		{"tensor given as name", `[{"Name": "a", "Inputs": ["x", "y"]}]`,
			func(t *testing.T, li *engine.LayerInfo) {
				if in := li.Layers[0].Inputs; len(in) != 2 || in[1].Name != "y" {
					t.Errorf("%+v", in)
				}
			}},
		{"root keys other than Layers ignored", `{"Version": "10.4", "Layers": [{"Name": "a"}], "Extra": {"k": [1, 2]}}`,
			func(t *testing.T, li *engine.LayerInfo) {
				if len(li.Layers) != 1 || li.HasIODeclaration {
					t.Errorf("%+v", li)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.check(t, mustLayers(t, tc.src)) })
	}
}

func TestLayerInfoErrors(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		code   string
		detail string // substring of the message
	}{
		{"empty file", "", CodeEmpty, "empty"},
		{"whitespace only", " \n\t", CodeEmpty, "empty"},
		{"no layers", `{"Layers": [], "Bindings": []}`, CodeEmpty, "no layers"},
		{"truncated", "{\"Layers\": [{\"Name\": \"a\",\n \"LayerType\": \"Sh", CodeMalformed, "line 2"},
		{"bad token", "[{\"Name\": \"a\"},\n  {\"Name\": x}]", CodeMalformed, "line 2, column 12"},
		{"trailing comma", `[{"Name": "a"},]`, CodeNotLayerInfo, "layer 1"},
		{"raw control char", "[{\"Name\": \"a\tb\"}]", CodeMalformed, "control character U+0009"},
		{"invalid utf8", "[{\"Name\": \"a\xffb\"}]", CodeMalformed, "UTF-8"},
		{"bad escape", `[{"Name": "a\qb"}]`, CodeMalformed, "escape"},
		{"garbage after", `[{"Name": "a"}] }`, CodeMalformed, "after the end"},
		{"concatenated", "{\"Layers\": [{\"Name\": \"a\"}]}\n{\"Layers\": [{\"Name\": \"b\"}]}\n[]", CodeConcatenated, "3 concatenated"},
		{"root string", `"layers"`, CodeNotLayerInfo, "a string"},
		{"object without Layers", `{"Bindings": ["a"], "Foo": 1}`, CodeNotLayerInfo, `"Foo"`},
		{"Layers not a list", `{"Layers": {"Name": "a"}}`, CodeNotLayerInfo, "not a list"},
		{"latency dict", `{"conv": [0.1, 0.2]}`, CodeNotLayerInfo, "latency"},
		{"list of numbers", `[1, 2]`, CodeNotLayerInfo, "numbers"},
		{"mixed names and objects", `["a", {"Name": "b"}]`, CodeNotLayerInfo, "layer 1"},
		{"mixed objects and names", `[{"Name": "b"}, "a"]`, CodeNotLayerInfo, "layer 1"},
		{"missing Name", `[{"Name": "a"}, {"LayerType": "Shuffle"}]`, CodeMissingField, `layer 1 has no "Name"`},
		{"empty layer", `[{}]`, CodeMissingField, "layer 0"},
		{"Name not string", `[{"Name": ["a"]}]`, CodeMissingField, `"Name" of layer 0`},
		{"tensor without Name", `[{"Name": "a", "Outputs": [{"Location": "Device"}]}]`, CodeMissingField, `tensor 0 of "Outputs" of layer 0`},
		{"Inputs not a list", `[{"Name": "a", "Inputs": 3}]`, CodeMissingField, `"Inputs" of layer 0`},
		{"NaN", `[{"Name": "a", "Scale": NaN}]`, CodeNonFinite, "NaN"},
		{"Infinity", `[{"Name": "a", "Scale": [1, -Infinity]}]`, CodeNonFinite, "-Infinity"},
		{"deep nesting", `[{"Name": "a", "P": ` + strings.Repeat("[", maxDepth+5) + strings.Repeat("]", maxDepth+5) + `}]`, CodeMalformed, "nesting"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			li, err := ParseLayerInfo([]byte(tc.src))
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v (%+v), want *FormatError", err, li)
			}
			if fe.Code != tc.code || !strings.Contains(fe.Detail, tc.detail) {
				t.Errorf("got %s: %s\nwant %s containing %q", fe.Code, fe.Detail, tc.code, tc.detail)
			}
		})
	}
}
