package discover

import (
	"path/filepath"
	"reflect"
	"testing"
)

const logText = "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx\n[I] === Model Options ===\n"

func TestLogsAttach(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		logs    map[string][]string // label → log base names
		ignored string              // a file expected among the ignored
	}{
		{"by label", map[string]string{"layers_fp16.json": layerJSON, "profile_fp16.json": profileJSON, "layers_int8.json": layerJSON, "log_fp16.txt": logText, "int8.log": logText},
			map[string][]string{"fp16": {"log_fp16.txt"}, "int8": {"int8.log"}}, ""},
		{"by stem", map[string]string{"build_layer_info.json": layerJSON, "build_profile.json": profileJSON, "other.layers.json": layerJSON, "build.log": logText},
			map[string][]string{"build": {"build.log"}}, ""},
		{"the only backend", map[string]string{"layers_a.json": layerJSON, "profile_a.json": profileJSON, "run-trtexec.txt": logText},
			map[string][]string{"a": {"run-trtexec.txt"}}, ""},
		{"no match among several: a backend of its own", map[string]string{"layers_a.json": layerJSON, "layers_b.json": layerJSON, "x.txt": logText},
			map[string][]string{"x": {"x.txt"}}, ""},
		{"a folder of logs alone", map[string]string{"log_trt82.txt": logText, "log_trt84.txt": "[10/11/2022-16:37:47] [I] GPU Compute Time: min = 3.47852 ms, max = 3.57684 ms, mean = 3.51626 ms, median = 3.52051 ms\n", "rows.txt": "  conv1 + relu1       64.10             5.83      0.2\n"},
			map[string][]string{"trt82": {"log_trt82.txt"}, "trt84": {"log_trt84.txt"}, "rows": {"rows.txt"}}, ""},
		{"a log named like the label a dump took", map[string]string{"layers_a.json": layerJSON, "layers_b.json": layerJSON, "log_a.txt": logText, "a.log": logText},
			map[string][]string{"a": {"a.log", "log_a.txt"}}, ""},
		{"plain text is not a log", map[string]string{"layers_a.json": layerJSON, "notes.txt": "hello"},
			map[string][]string{}, "notes.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := Folder(folder(t, tt.files))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]string{}
			for _, b := range sc.Backends {
				for _, l := range b.LogPaths {
					got[b.Label] = append(got[b.Label], filepath.Base(l))
				}
			}
			if !reflect.DeepEqual(got, tt.logs) {
				t.Errorf("logs %v, want %v", got, tt.logs)
			}
			for _, b := range sc.Backends {
				if b.FromLog != (b.LayerPath == "" && b.ProfilePath == "") {
					t.Errorf("backend %s: FromLog %v with layer %q profile %q", b.Label, b.FromLog, b.LayerPath, b.ProfilePath)
				}
			}
			if tt.ignored != "" && !hasIgnored(sc, tt.ignored, "") {
				t.Errorf("%s not among the ignored %v", tt.ignored, sc.Ignored)
			}
		})
	}
}

func TestInspectorTextIsLayerInfo(t *testing.T) {
	text := "Layer 0:\n{\"Name\": \"a\", \"LayerType\": \"Shuffle\", \"Inputs\": [], \"Outputs\": []}\n"
	sc, err := Folder(folder(t, map[string]string{"engine_layers.txt": text, "engine_profile.json": profileJSON}))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Backends) != 1 || filepath.Base(sc.Backends[0].LayerPath) != "engine_layers.txt" || sc.Backends[0].Label != "engine" {
		t.Errorf("backends %v", briefs(sc))
	}
}
