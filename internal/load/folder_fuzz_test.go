package load_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/load"
)

// Contents of every kind a folder can hold (generated here for the fuzz
// target; the last one is the fuzzer's own bytes).
var folderContents = []string{
	`{"Layers":[{"Name":"a","LayerType":"CaskConvolution","Inputs":[{"Name":"x","Dimensions":[1,3],"Format/Datatype":"Half"}],"Outputs":[{"Name":"y","Dimensions":[1,3],"Format/Datatype":"Half"}]},{"Name":"b","LayerType":"Reformat","Inputs":[{"Name":"y","Dimensions":[1,3],"Format/Datatype":"Half"}],"Outputs":[{"Name":"z","Dimensions":[1,3],"Format/Datatype":"Float"}]}],"Bindings":["x","z"]}`,
	`{"Layers":["a","b"],"Bindings":["x","z"]}`,
	`[{"count":10},{"name":"a","timeMs":1,"averageMs":0.1,"medianMs":0.1,"percentage":50},{"name":"b","timeMs":1,"averageMs":0.1,"medianMs":0.1,"percentage":50}]`,
	`{"a":[0.1,0.2],"b":[0.3]}`,
	`[{"startEnqMs":1,"endEnqMs":2,"startComputeMs":2,"endComputeMs":3,"latencyMs":2,"computeMs":1}]`,
	`{"model_options":{"Format":"ONNX"},"device_information":{"Selected Device":"x","Compute Capability":8.6,"SMs":30,"Memory Bus Width":"192 bits"}}`,
	`{"_name_or_path":"bert-base","model_type":"bert","hidden_size":768,"num_hidden_layers":12}`,
	"&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx --fp16\n[I] === Model Options ===\n[I] === Device Information ===\n[I] Compute Capability: 8.9\n[I] SMs: 58\n[I] === Performance summary ===\n[I] Throughput: 1373.9 qps\n",
	"Layer 0:\n{\"Name\": \"a\", \"LayerType\": \"Shuffle\", \"Inputs\": [], \"Outputs\": []}\n",
}

// nameShapes turn a fuzzed word into a file name the way users and tools
// name dumps.
var nameShapes = []func(w string) string{
	func(w string) string { return w },
	func(w string) string { return w + ".json" },
	func(w string) string { return "layers_" + w + ".json" },
	func(w string) string { return "profile_" + w + ".json" },
	func(w string) string { return "times_" + w + ".json" },
	func(w string) string { return "meta_" + w + ".json" },
	func(w string) string { return "log_" + w + ".txt" },
	func(w string) string { return w + ".engine.graph.json" },
	func(w string) string { return w + "_profile.json" },
	func(w string) string { return w + ".log" },
	func(w string) string { return "config.json" },
	func(w string) string { return "latency_" + w + ".json" },
}

// FuzzFolder builds a folder of files with fuzzed names and contents of
// every kind (layer info, profiles, latency samples, times, metadata,
// configs, logs, inspector text, junk, and truncations of each) and runs
// discovery, loading and the analysis over it: nothing may panic, and an
// analysis that succeeds must pass the contract (analyze exit 0 ⇒ valid).
func FuzzFolder(f *testing.F) {
	f.Add("x\nx\nrun", []byte{2, 3, 1}, []byte("junk"))
	f.Add("fp16\nfp16\nfp16\nfp16", []byte{2, 3, 17, 18}, []byte(""))
	f.Add("a\nb\nrun\nrun2", []byte{0, 1, 7, 0x17}, []byte("{"))
	f.Add("m\nm\nm\nm\nm", []byte{0x70, 0x82, 0x55, 0x27, 0x3a}, []byte("[{\"count\":1e999}]"))
	f.Add("x\nx\nx", []byte{0x20, 0x31, 0x47}, []byte("\xff\xfe{\x00}\x00"))
	f.Fuzz(func(t *testing.T, words string, kinds []byte, junk []byte) {
		dir := t.TempDir()
		ws := strings.Split(words, "\n")
		for i, k := range kinds {
			if i >= 12 {
				break
			}
			w := ws[i%len(ws)]
			w = strings.Map(func(r rune) rune {
				if r == '/' || r == 0 || r == '\\' {
					return '_'
				}
				return r
			}, w)
			if len(w) > 40 {
				w = w[:40]
			}
			name := nameShapes[int(k>>4)%len(nameShapes)](w)
			if name == "" || name == "." || name == ".." || strings.HasPrefix(name, ".") {
				continue
			}
			c := int(k & 15)
			var content []byte
			switch {
			case c < len(folderContents):
				content = []byte(folderContents[c])
			case c == len(folderContents):
				content = junk
			default: // a truncation or a splice of a known kind
				s := folderContents[(c+len(junk))%len(folderContents)]
				n := len(junk) % (len(s) + 1)
				content = append([]byte(s[:n]), junk...)
			}
			if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
				return // a name the file system refuses
			}
		}
		sc, err := discover.Folder(dir)
		if err != nil {
			return
		}
		d, err := analysis.AnalyzeParsed(sc, load.Source(sc), analysis.Options{})
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := contract.Encode(&buf, d); err != nil {
			t.Fatalf("encode: %v", err)
		}
		if r := contract.Validate(buf.Bytes()); !r.SchemaOK() || !r.SemanticOK() {
			t.Fatalf("output breaks the contract: schema %v semantic %v", r.Schema, r.Semantic)
		}
	})
}
