package dump

import (
	"strings"
	"testing"
)

// TestDescribe names each kind of file met beside dumps from its head.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		head, says string
		foreign    bool
	}{
		{`[{"startEnqMs": 1, "endEnqMs": 2, "latencyMs": 1}]`, "trtexec --exportTimes records", false},
		{`{"performance_summary": {"Throughput": 1}, "inference_options": {}}`, "trtexec profile metadata", false},
		{`{"build_options": {"Precision": "FP16"}}`, "trtexec build metadata", false},
		{`{"device_information": {"Selected Device": "A100"}}`, "device information metadata", false},
		{`[{"Name": "NVIDIA A100", "ComputeCapability": [8, 0]}]`, "CUDA device properties", false},
		{`{"layers": [{"name": "conv1", "type": "Convolution"}]}`, "lists layers in a shape trtperf does not read", false},
		{`{"batch": 1, "workspace": 4096}`, "settings or end-to-end numbers (keys: batch, workspace)", true},
		{`{"traceEvents": []}`, "Chrome/Perfetto trace", true},
		{`{"foo": 1}`, "(keys: foo)", false},
		{"\x08\x08\x12\x07pytorch", "an ONNX model", true},
		{"ftrt\x00\x01", "a serialized TensorRT engine", true},
		{"\x89PNG\r\n\x1a\nxx", "a PNG image", true},
		{"\xff\xd8\xff\xe0", "a JPEG image", true},
		{"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">", "an SVG image", true},
		{"PK\x03\x04", "a ZIP archive", true},
		{"SQLite format 3\x00", "an SQLite database", true},
		{"INFO: starting\nERROR: failed\n", "text that is no trtexec log", true},
		{"Format,Caffe\n ,Throughput,Latency(Mean)\nBatch: 1,1 qps,2 ms\n", `"Throughput"`, true},
		{"\x00\x01\x02\xfe\xff", "binary data", true},
		{"", "an empty file", false},
	} {
		k := Sniff([]byte(tc.head))
		if d := Describe([]byte(tc.head), k); !strings.Contains(d, tc.says) {
			t.Errorf("Describe(%.30q) = %q, want it to say %q", tc.head, d, tc.says)
		}
		if _, f := describe([]byte(tc.head), k); f != tc.foreign {
			t.Errorf("describe(%.30q) says foreign %v", tc.head, f)
		}
	}
}
