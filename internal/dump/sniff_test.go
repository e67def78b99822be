package dump

import "testing"

func TestSniff(t *testing.T) {
	tests := []struct {
		src  string
		want Kind
	}{
		{`{"Layers": [{"Name": "a"`, KindLayerInfo},
		{`{"Bindings": ["a"], "Layers": []}`, KindLayerInfo},
		{`[{"Name": "conv", "LayerType": "CaskConvolution", "Inputs": [`, KindLayerInfo},
		{`["conv1", "relu1"]`, KindLayerInfo},
		{"[\n  { \"count\" : 100 }\n, { \"name\" : \"a\"", KindProfile},
		{`[{"name": "a", "timeMs": 1`, KindProfile},
		{`{"Reformatting CopyNode": [0.1, 0.2`, KindLatencyDict},
		{`{"a": [[0.17, "12:00"]`, KindLatencyDict},
		{`[{"startEnqMs": 1, "endEnqMs": 2`, KindTimes},
		{`[{"Name": "NVIDIA A100", "ComputeCapability": [8, 0]`, KindMetadata},
		{`{"model_options": {"Format": "ONNX"}}`, KindMetadata},
		{`{"performance_summary": {"Throughput": 1`, KindMetadata},
		{`{"_name_or_path": "gpt2", "architectures": ["GPT2LMHeadModel"]}`, KindConfig},
		{`{"_class_name": "UNet2DConditionModel"`, KindConfig},
		{`{"foo": {"bar": 1}, "baz": "q"}`, KindUnknown},
		{`{"foo": {"bar": 1`, KindUnknown},
		{`[1, 2, 3]`, KindUnknown},
		{`hello`, KindUnknown},
		{``, KindUnknown},
		{"\ufeff{\"Layers\": [", KindLayerInfo},
	}
	for _, tc := range tests {
		if got := Sniff([]byte(tc.src)); got != tc.want {
			t.Errorf("Sniff(%.40q) = %v, want %v", tc.src, got, tc.want)
		}
	}
	if KindLatencyDict.String() != "latency dictionary" || Kind(99).String() != "unknown" || !KindProfile.IsProfile() || KindTimes.IsProfile() {
		t.Error("Kind methods")
	}
}
