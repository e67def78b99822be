package discover

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/dump"
)

// kindSamples holds one file of every kind Sniff returns (TestKindSamples
// checks that each sniffs as its kind).
var kindSamples = map[dump.Kind]string{
	dump.KindUnknown:     "hello",
	dump.KindLayerInfo:   layerJSON,
	dump.KindProfile:     profileJSON,
	dump.KindLatencyDict: latencyJSON,
	dump.KindTimes:       timesJSON,
	dump.KindConfig:      configJSON,
	dump.KindMetadata:    metaJSON,
	dump.KindTrtexecLog:  logText,
	dump.KindTimeTable:   `{"unit": "us", "layers": {"conv": 120.5, "fc": 40}}`,
}

func TestKindSamples(t *testing.T) {
	for k := dump.Kind(0); k < dump.NumKinds; k++ {
		s, ok := kindSamples[k]
		if !ok {
			t.Errorf("no sample of kind %v", k)
			continue
		}
		if got := dump.Sniff([]byte(s)); got != k {
			t.Errorf("the sample of %v sniffs as %v", k, got)
		}
	}
}

// TestEveryKindHasAPlace: the one switch over kinds (placeOf) has a case
// for every kind Sniff can return.
func TestEveryKindHasAPlace(t *testing.T) {
	for k := dump.Kind(0); k < dump.NumKinds; k++ {
		if p := placeOf(k); p < 0 || p >= numPlaces {
			t.Errorf("kind %v has no place", k)
		}
	}
}

// TestEveryKindUnderAnyName: a file of every kind under an odd name (a
// .json that is no conventional name, a conventional dump name, a text
// name) beside a conventional pair is discovered without a panic, and a
// trtexec log is a log whatever its name.
func TestEveryKindUnderAnyName(t *testing.T) {
	for k := dump.Kind(0); k < dump.NumKinds; k++ {
		for _, name := range []string{"run.json", "x_profile.json", "layers_x.json", "run.txt", "run"} {
			t.Run(k.String()+"/"+name, func(t *testing.T) {
				files := map[string]string{"layers_a.json": layerJSON, "profile_a.json": profileJSON, name: kindSamples[k]}
				if name == "layers_x.json" {
					files["profile_x.json"] = profileJSON
				}
				sc, err := Folder(folder(t, files))
				if err != nil {
					t.Fatal(err)
				}
				if k != dump.KindTrtexecLog {
					return
				}
				for _, b := range sc.Backends {
					if filepath.Base(b.LayerPath) == name || filepath.Base(b.ProfilePath) == name || filepath.Base(b.TimesPath) == name {
						t.Errorf("the log %s is a dump of %q", name, b.Label)
					}
					for _, l := range b.LogPaths {
						if filepath.Base(l) == name {
							return
						}
					}
				}
				if !hasIgnored(sc, name, "trtexec log") {
					t.Errorf("the log %s is neither a backend's log nor ignored as one: %v %v", name, briefs(sc), sc.Ignored)
				}
			})
		}
	}
}

// TestPairsLog: a trtexec log given as a --data file is the backend's log.
func TestPairsLog(t *testing.T) {
	dir := folder(t, map[string]string{"run.json": logText, "l.json": layerJSON, "p.json": profileJSON})
	p := func(n string) string { return filepath.Join(dir, n) }
	sc, err := Pairs([][]string{{p("l.json"), p("run.json")}, {p("run.json"), p("p.json")}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Backend{}
	for _, b := range sc.Backends {
		got[filepath.Base(b.LayerPath)+"|"+filepath.Base(b.ProfilePath)] = b
		if len(b.LogPaths) != 1 || filepath.Base(b.LogPaths[0]) != "run.json" {
			t.Errorf("logs %v", b.LogPaths)
		}
	}
	if _, ok := got["l.json|."]; !ok {
		t.Errorf("backends %v", briefs(sc))
	}
	if _, ok := got[".|p.json"]; !ok {
		t.Errorf("backends %v", briefs(sc))
	}
	if _, err := Pairs([][]string{{p("run.json")}}); err == nil {
		t.Error("a log alone is a backend")
	}
}

// TestTimeTablesPair: a user's per-layer time table (JSON of its own
// shape or CSV) is a backend's profile by its conventional name or by the
// stem it shares with layer info, and a trtexec profile of the same
// label wins over it.
func TestTimeTablesPair(t *testing.T) {
	csvTable := "Layer,Avg (us)\nconv,120\nfc,40\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // brief of each backend
	}{
		{"conventional csv", map[string]string{"layers_a.json": layerJSON, "profile_a.csv": csvTable}, []string{"a layers_a.json|profile_a.csv|-"}},
		{"stem csv", map[string]string{"model.json": layerJSON, "model_timing.csv": csvTable}, []string{"model model.json|model_timing.csv|-"}},
		{"stem json", map[string]string{"net.engine.graph.json": layerJSON, "net.engine.times.json": kindSamples[dump.KindTimeTable]}, []string{"net net.engine.graph.json|net.engine.times.json|-"}},
		{"trtexec wins", map[string]string{"layers_a.json": layerJSON, "profile_a.json": profileJSON, "latency_a.csv": csvTable}, []string{"a layers_a.json|profile_a.json|-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Folder(folder(t, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			if got := briefs(sc); !slices.Equal(got, tc.want) {
				t.Errorf("backends %q, want %q (ignored %q)", got, tc.want, sc.Ignored)
			}
		})
	}
}

// nonDumps are files met beside dumps that are none, each with what
// discovery must call it.
var nonDumps = []struct {
	kind, content, says string
}{
	{"exportTimes", timesJSON, "trtexec --exportTimes records"},
	{"profile metadata", `{"performance_summary": {"Throughput": 1155.36, "Latency": [0.85, 0.87]}, "inference_options": {"Batch": "Explicit"}}`, "trtexec profile metadata (an end-to-end performance summary"},
	{"build metadata", `{"model_options": {"Format": "ONNX"}, "build_options": {"Precision": "FP32+FP16"}}`, "trtexec build metadata"},
	{"device properties", `[{"Name": "NVIDIA A100", "ComputeCapability": [8, 0], "TotalMemory": 1}]`, "CUDA device properties"},
	{"layers of another shape", `{"engine": "resnet", "layers": [{"name": "conv1", "type": "Convolution"}]}`, "lists layers in a shape trtperf does not read"},
	{"settings", `{"batch": 1, "workspace": 4096}`, "settings or end-to-end numbers (keys: batch, workspace)"},
	{"unknown json", `{"foo": {"bar": 1}}`, "JSON that is no dump, metadata or per-layer table (keys: foo)"},
	{"chrome trace", `{"traceEvents": [{"name": "conv1", "ph": "X", "ts": 1, "dur": 5}]}`, "Chrome/Perfetto trace"},
	{"onnx model", "\x08\x07\x12\x07pytorch\x1a\x052.0.1:\x8a\x01\n", "an ONNX model"},
	{"engine binary", "ftrt\x00\x00\x00\x00\xa3\x01\x00\x00binary", "a serialized TensorRT engine"},
	{"png image", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image"},
	{"other log", "Traceback (most recent call last):\n  File \"infer.py\", line 3\nValueError: bad\n", "text that is no trtexec log"},
	{"per-run csv", "Format,Caffe\r\n ,Throughput,Latency(Mean)\r\nBatch: 1,479.452 qps,2.06069 ms\r\n", `a CSV/TSV table, but its header has the column "Throughput"`},
}

// TestNonDumpsNamed: a file that is no dump is named for what it is, under
// a neutral name (in the files not used) and under a conventional dump
// name (never read as that dump: metadata and times go where they belong,
// the rest is ignored or fails as the dump its name promises, with what it
// is in the message).
func TestNonDumpsNamed(t *testing.T) {
	for _, nd := range nonDumps {
		t.Run(nd.kind, func(t *testing.T) {
			for _, name := range []string{"thing.json", "thing.bin", "profile_b.json"} {
				files := map[string]string{"layers_a.json": layerJSON, "profile_a.json": profileJSON, "layers_b.json": layerJSON, name: nd.content}
				sc, err := Folder(folder(t, files))
				if err != nil {
					t.Fatal(err)
				}
				var b *Backend
				for i := range sc.Backends {
					if sc.Backends[i].Label == "b" {
						b = &sc.Backends[i]
					}
				}
				if b == nil {
					t.Fatalf("%s: no backend b: %v", name, briefs(sc))
				}
				if filepath.Base(b.ProfilePath) == name {
					// Named like a dump and no other kind of file by its
					// content: read as the profile its name promises,
					// refused, and the refusal says what it is.
					_, err := dump.ReadProfile(b.ProfilePath)
					if name != "profile_b.json" || err == nil || !strings.Contains(err.Error(), nd.says) && !strings.Contains(nd.kind, "json") && nd.kind != "layers of another shape" {
						t.Errorf("%s (%s) is read as a profile: %v", name, nd.kind, err)
					}
					continue
				}
				said := false
				for _, m := range append(append([]string{}, sc.Ignored...), sc.Recast...) {
					if strings.HasPrefix(m, name+":") && strings.Contains(m, nd.says) {
						said = true
					}
				}
				used := filepath.Base(b.TimesPath) == name || slices.ContainsFunc(b.MetaPaths, func(p string) bool { return filepath.Base(p) == name })
				if !said && !(used && name == "thing.json") {
					t.Errorf("%s (%s) is not called %q: ignored %q, recast %q", name, nd.kind, nd.says, sc.Ignored, sc.Recast)
				}
			}
		})
	}
}

// TestOnlyBackendAdoptsCompanions: metadata and times whose names name no
// label and share no backend's stem belong to the only backend of the
// folder; beside two backends nothing says whose they are.
func TestOnlyBackendAdoptsCompanions(t *testing.T) {
	one := map[string]string{"model.json": layerJSON, "model_timing.csv": "Layer,Avg (us)\nconv,120\nfc,40\n", "run_summary.json": metaJSON, "times.json": timesJSON}
	sc, err := Folder(folder(t, one))
	if err != nil {
		t.Fatal(err)
	}
	if got := briefs(sc); !slices.Equal(got, []string{"model model.json|model_timing.csv|times.json|run_summary.json"}) || len(sc.Ignored) != 0 {
		t.Errorf("backends %q, ignored %q", got, sc.Ignored)
	}
	two := map[string]string{"layers_a.json": layerJSON, "layers_b.json": layerJSON, "run_summary.json": metaJSON, "times.json": timesJSON}
	sc, err = Folder(folder(t, two))
	if err != nil {
		t.Fatal(err)
	}
	if !hasIgnored(sc, "run_summary.json", "no dump of the same stem") || !hasIgnored(sc, "times.json", "--exportTimes records") {
		t.Errorf("backends %q, ignored %q", briefs(sc), sc.Ignored)
	}
}

// TestPairByLayerNames: layer info and per-layer times under unrelated
// names are one backend when their names are the same, and stay apart
// when they are not (or when both names are conventional labels).
func TestPairByLayerNames(t *testing.T) {
	twoLayers := `{"Layers": [{"Name": "conv", "LayerType": "Convolution"}, {"Name": "fc, last", "LayerType": "FullyConnected"}], "Bindings": []}`
	table := "Layer,Avg (us)\nconv,120\n\"fc, last\",40\n"
	other := "Layer,Avg (us)\nconv,120\nsoftmax,40\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"same names", map[string]string{"model.json": twoLayers, "results.csv": table}, []string{"model model.json|results.csv|-"}},
		{"conventional layers, any times", map[string]string{"layers_x.json": twoLayers, "run1.csv": table}, []string{"x layers_x.json|run1.csv|-"}},
		{"other names", map[string]string{"model.json": twoLayers, "results.csv": other}, []string{"model model.json|-|-", "results -|results.csv|-"}},
		{"two conventional labels", map[string]string{"layers_x.json": twoLayers, "profile_y.csv": table}, []string{"x layers_x.json|-|-", "y -|profile_y.csv|-"}},
		{"two layer files with the names", map[string]string{"a.json": twoLayers, "b.json": twoLayers, "results.csv": table}, []string{"a a.json|-|-", "b b.json|-|-", "results -|results.csv|-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Folder(folder(t, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			if got := briefs(sc); !slices.Equal(got, tc.want) {
				t.Errorf("backends %q, want %q", got, tc.want)
			}
		})
	}
}
