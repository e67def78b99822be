package dump

import (
	"fmt"
	"strings"
	"testing"
)

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
		{`{"conv1": 0.12, "fc": 0.5}`, KindTimeTable},
		{`{"batch": 1, "workspace": 4096}`, KindUnknown},
		{`{"conv1": 1, "fc": 2}`, KindUnknown},
		{`[{"name": "a", "time_us": 12.5}, {"name": "b", "time_us": 3}]`, KindTimeTable},
		{`{"unit": "us", "layers": {"a": 1, "b": 2}}`, KindTimeTable},
		{`{"conv1": {"avg_ms": 0.12}, "fc": {"avg_ms": 0.5}}`, KindTimeTable},
		{`{"avg_ms": {"conv1": 0.12, "fc": 0.05}, "median_ms": {"conv1": 0.11, "fc": 0.05}}`, KindTimeTable},
		{`{"case-a": {"fp16": {"count": 10}}, "case-b": {"int8": {"count": 5}}}`, KindUnknown},
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

// TestSniffLongTables: a table longer than SniffSize is recognised from
// its head, wherever the head cuts it (inside a record, a sample list or
// a name).
func TestSniffLongTables(t *testing.T) {
	for _, tc := range []struct {
		name        string
		open, close string
		row         func(i int) string
		want        Kind
	}{
		{"name to ms", "{", "}", func(i int) string { return fmt.Sprintf(`"layer_%d": %d.25`, i, i) }, KindTimeTable},
		{"records", "[", "]", func(i int) string {
			return fmt.Sprintf(`{"layer": "conv_%d + relu", "avg_us": %d.5, "median_us": %d}`, i, i, i)
		}, KindTimeTable},
		{"wrapped samples", `{"unit": "us", "layers": {`, "}}", func(i int) string { return fmt.Sprintf(`"l%d": [%d, %d.5, 3]`, i, i, i) }, KindTimeTable},
		{"settings", "{", "}", func(i int) string { return fmt.Sprintf(`"batch_%d": %d`, i, i) }, KindUnknown},
		{"pandas name column first", `{"layer": {`, `}, "avg_ms": {"0": 1.5}}`, func(i int) string { return fmt.Sprintf(`"%d": "layer %d of a long name"`, i, i) }, KindTimeTable},
	} {
		for _, extra := range []int{0, 7, 19} {
			var b strings.Builder
			b.WriteString(tc.open)
			for i := 0; b.Len() < SniffSize+extra; i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(tc.row(i))
			}
			b.WriteString(tc.close)
			head := []byte(b.String())[:SniffSize]
			if got := Sniff(head); got != tc.want {
				t.Errorf("%s cut %d: %v, want %v", tc.name, extra, got, tc.want)
			}
		}
	}
}
