package discover

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
)

const (
	layerJSON   = `{"Layers": [{"Name": "a", "LayerType": "Shuffle"}], "Bindings": []}`
	profileJSON = "[\n  { \"count\" : 1 }\n, { \"name\" : \"a\", \"timeMs\" : 1, \"averageMs\" : 1, \"medianMs\" : 1, \"percentage\" : 100 }\n]"
	latencyJSON = `{"a": [0.1, 0.2]}`
	timesJSON   = `[{"startEnqMs": 1, "endEnqMs": 2, "latencyMs": 1}]`
	metaJSON    = `{"model_options": {"Format": "ONNX"}}`
	configJSON  = `{"_name_or_path": "bert-base", "model_type": "bert"}`
)

// folder creates a temp folder holding files (name → content; a name ending
// in "/" is a subfolder).
func folder(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// brief renders a backend as "label layer|profile|times|meta..." with base
// names, for compact comparisons.
func brief(b Backend) string {
	base := func(p string) string {
		if p == "" {
			return "-"
		}
		return filepath.Base(p)
	}
	s := b.Label + " " + base(b.LayerPath) + "|" + base(b.ProfilePath) + "|" + base(b.TimesPath)
	for _, m := range b.MetaPaths {
		s += "|" + base(m)
	}
	return s
}

func briefs(sc *Scope) []string {
	var out []string
	for _, b := range sc.Backends {
		out = append(out, brief(b))
	}
	return out
}

func hasIgnored(sc *Scope, prefix, reason string) bool {
	for _, ig := range sc.Ignored {
		if strings.HasPrefix(ig, prefix+":") && strings.Contains(ig, reason) {
			return true
		}
	}
	return false
}

func TestFolder(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		want    []string
		ignored map[string]string // file → reason substring
		check   func(t *testing.T, sc *Scope)
	}{
		{
			name: "conventional names with companions",
			files: map[string]string{
				"layers_fp16.json": layerJSON, "profile_fp16.json": profileJSON, "times_fp16.json": timesJSON,
				"meta_fp16_build.json": metaJSON, "meta_fp16_profile.json": metaJSON, "meta_device.json": metaJSON,
				"layers_fp32.json": layerJSON, "profile_int8.json": profileJSON,
				"layers.json": layerJSON, "profile.json": profileJSON,
				"log_fp16.txt": "x", "model.engine": "x", "b.plan": "x", "config.json": configJSON, "sub/": "",
			},
			want: []string{
				"default layers.json|profile.json|-|meta_device.json",
				"fp16 layers_fp16.json|profile_fp16.json|times_fp16.json|meta_device.json|meta_fp16_build.json|meta_fp16_profile.json",
				"fp32 layers_fp32.json|-|-|meta_device.json",
				"int8 -|profile_int8.json|-|meta_device.json",
			},
			ignored: map[string]string{"log_fp16.txt": "text that is no trtexec log"},
			check: func(t *testing.T, sc *Scope) {
				if !reflect.DeepEqual(sc.EngineFiles, []string{"b.plan", "model.engine"}) {
					t.Errorf("engine files %v", sc.EngineFiles)
				}
				if len(sc.ConfigFiles) != 1 || filepath.Base(sc.ConfigFiles[0]) != "config.json" || !filepath.IsAbs(sc.ConfigFiles[0]) {
					t.Errorf("configs %v", sc.ConfigFiles)
				}
				for _, b := range sc.Backends {
					for _, p := range []string{b.LayerPath, b.ProfilePath} {
						if p != "" && !filepath.IsAbs(p) {
							t.Errorf("relative path %s", p)
						}
					}
				}
			},
		},
		{
			name: "prefix variants and case",
			files: map[string]string{
				"Layer-FP16.json": layerJSON, "PROFILES_fp16.json": profileJSON,
				"layers-int8.JSON": layerJSON, "profile-int8.json": profileJSON,
			},
			want: []string{"FP16 Layer-FP16.json|PROFILES_fp16.json|-", "int8 layers-int8.JSON|profile-int8.json|-"},
		},
		{
			name: "latency files",
			files: map[string]string{
				"layers_a.json": layerJSON, "profile_a.json": profileJSON, "latency_a.json": latencyJSON,
				"layers_b.json": layerJSON, "latency_b.json": latencyJSON,
			},
			want:    []string{"a layers_a.json|profile_a.json|-", "b layers_b.json|latency_b.json|-"},
			ignored: map[string]string{"latency_a.json": "also has the trtexec profile profile_a.json"},
			check: func(t *testing.T, sc *Scope) {
				if n := strings.Join(sc.Backends[1].Notes, ";"); !strings.Contains(n, "latency samples") {
					t.Errorf("notes %q", n)
				}
			},
		},
		{
			name: "recognised by content and paired by stem",
			files: map[string]string{
				"x.engine.graph.json": layerJSON, "x.engine.profile.json": profileJSON, "x.engine.times.json": timesJSON,
				"x.engine.build.metadata.json":         metaJSON,
				"resnet_engine_layer_information.json": layerJSON, "resnet_latency.json": latencyJSON,
				"solo.json": layerJSON, "notes.json": `{"foo": 1}`, "lonely.times.json": timesJSON,
				"model_index.json": `{"_class_name": "StableDiffusionPipeline"}`, "unet_cfg.json": configJSON,
			},
			want: []string{
				"resnet resnet_engine_layer_information.json|resnet_latency.json|-",
				"solo solo.json|-|-",
				"x x.engine.graph.json|x.engine.profile.json|x.engine.times.json",
			},
			ignored: map[string]string{
				"notes.json": "JSON that is no dump, metadata or per-layer table (keys: foo)", "lonely.times.json": "trtexec --exportTimes records (one per inference",
				"x.engine.build.metadata.json": "trtexec build metadata (build and model options, no timing), with no dump of the same stem",
			},
			check: func(t *testing.T, sc *Scope) {
				if len(sc.ConfigFiles) != 2 {
					t.Errorf("configs %v", sc.ConfigFiles)
				}
				if n := strings.Join(sc.Backends[2].Notes, ";"); !strings.Contains(n, `paired by common stem "x.engine"`) || !strings.Contains(n, "recognised by content as layer info") {
					t.Errorf("notes %q", n)
				}
			},
		},
		{
			name: "stem label collides with a conventional label",
			files: map[string]string{
				"layers_x.json": layerJSON, "x.engine.graph.json": layerJSON, "x.engine.profile.json": profileJSON,
			},
			want: []string{"x layers_x.json|-|-", "x.engine x.engine.graph.json|x.engine.profile.json|-"},
		},
		{
			name: "second file of one label and orphan companions",
			files: map[string]string{
				"layers_a.json": layerJSON, "layer_a.json": layerJSON, "times_zz.json": timesJSON, "meta_zz_build.json": metaJSON,
			},
			want: []string{"a layer_a.json|-|-"},
			ignored: map[string]string{
				"layers_a.json": "a second file", "times_zz.json": "no layer info or profile", "meta_zz_build.json": "no layer info or profile",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := folder(t, tc.files)
			sc, err := Folder(dir)
			if err != nil {
				t.Fatalf("Folder: %v", err)
			}
			if sc.Folder != dir {
				t.Errorf("Folder = %s, want %s", sc.Folder, dir)
			}
			if got := briefs(sc); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("backends\n got %q\nwant %q", got, tc.want)
			}
			for f, reason := range tc.ignored {
				if !hasIgnored(sc, f, reason) {
					t.Errorf("%s not ignored with %q; ignored = %q", f, reason, sc.Ignored)
				}
			}
			if tc.check != nil {
				tc.check(t, sc)
			}
		})
	}
}

func TestFolderErrors(t *testing.T) {
	t.Run("missing", func(t *testing.T) {
		_, err := Folder(filepath.Join(t.TempDir(), "nope"))
		if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), "layers_<label>.json") {
			t.Errorf("%v", err)
		}
	})
	t.Run("a file", func(t *testing.T) {
		dir := folder(t, map[string]string{"layers_a.json": layerJSON})
		_, err := Folder(filepath.Join(dir, "layers_a.json"))
		if !errors.Is(err, ErrNotFolder) || !strings.Contains(err.Error(), "give the file itself") {
			t.Errorf("%v", err)
		}
	})
	t.Run("empty", func(t *testing.T) {
		_, err := Folder(t.TempDir())
		if !errors.Is(err, ErrNoDumps) || !strings.Contains(err.Error(), "the folder is empty") || !strings.Contains(err.Error(), "profile_<label>.json") {
			t.Errorf("%v", err)
		}
	})
	t.Run("no dumps", func(t *testing.T) {
		dir := folder(t, map[string]string{"run.log": "x", "notes.json": `{"a": 1}`, "times_a.json": timesJSON})
		_, err := Folder(dir)
		if !errors.Is(err, ErrNoDumps) || !strings.Contains(err.Error(), "found: notes.json, run.log, times_a.json") {
			t.Errorf("%v", err)
		}
	})
	t.Run("components", func(t *testing.T) {
		dir := folder(t, map[string]string{
			"unet/layers_fp16.json": layerJSON, "vae/profile_fp16.json": profileJSON, "text_encoder/x.graph.json": layerJSON,
			"empty/": "", "docs/readme.md": "x", ".hidden/layers_a.json": layerJSON, "model_index.json": configJSON,
		})
		_, err := Folder(dir)
		var ce *ComponentsError
		if !errors.As(err, &ce) {
			t.Fatalf("err = %v, want *ComponentsError", err)
		}
		if !reflect.DeepEqual(ce.Components, []string{"text_encoder", "unet", "vae"}) || ce.Parent != dir {
			t.Errorf("%+v", ce)
		}
		want := dir + " holds no dumps but component folders: text_encoder, unet, vae; analyze one component folder at a time (e.g. " + filepath.Join(dir, "text_encoder") + "), or package them all as one suite"
		if err.Error() != want {
			t.Errorf("message\n got %s\nwant %s", err, want)
		}
		comps, err := FindComponents(dir)
		if err != nil || len(comps) != 3 || comps[1] != filepath.Join(dir, "unet") {
			t.Errorf("FindComponents = %v, %v", comps, err)
		}
	})
}

func TestPairs(t *testing.T) {
	dir := folder(t, map[string]string{
		"run_a/layers_fp16.json": layerJSON, "run_a/profile_fp16.json": profileJSON,
		"run_b/layers_fp16.json": layerJSON, "run_b/profile_fp16.json": profileJSON,
		"x.engine.graph.json": layerJSON, "x.engine.profile.json": profileJSON,
		"layers.json": layerJSON, "lat.json": latencyJSON, "some_dir/": "",
	})
	p := func(parts ...string) string { return filepath.Join(append([]string{dir}, parts...)...) }
	tests := []struct {
		name  string
		pairs [][]string
		want  []string
		note  string
	}{
		{"one pair", [][]string{{p("run_a", "layers_fp16.json"), p("run_a", "profile_fp16.json")}},
			[]string{"fp16 layers_fp16.json|profile_fp16.json|-"}, ""},
		{"same label, different folders", [][]string{
			{p("run_b", "layers_fp16.json"), p("run_b", "profile_fp16.json")},
			{p("run_a", "layers_fp16.json"), p("run_a", "profile_fp16.json")}},
			[]string{"run_a-fp16 layers_fp16.json|profile_fp16.json|-", "run_b-fp16 layers_fp16.json|profile_fp16.json|-"}, "shared by several"},
		{"same file twice", [][]string{{p("run_a", "layers_fp16.json")}, {p("run_a", "layers_fp16.json")}, {p("run_a", "layers_fp16.json")}},
			[]string{"fp16 layers_fp16.json|-|-", "fp16-2 layers_fp16.json|-|-", "fp16-3 layers_fp16.json|-|-"}, ""},
		{"stem and default labels", [][]string{{p("x.engine.graph.json"), p("x.engine.profile.json")}, {p("layers.json")}},
			[]string{"default layers.json|-|-", "x x.engine.graph.json|x.engine.profile.json|-"}, ""},
		{"swapped order", [][]string{{p("x.engine.profile.json"), p("x.engine.graph.json")}},
			[]string{"x x.engine.graph.json|x.engine.profile.json|-"}, "profile was given first"},
		{"profile only", [][]string{{p("lat.json")}},
			[]string{"lat -|lat.json|-"}, "no layer info was given"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Pairs(tc.pairs)
			if err != nil {
				t.Fatal(err)
			}
			if got := briefs(sc); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
			if sc.Folder != "" {
				t.Errorf("Folder = %q", sc.Folder)
			}
			if tc.note != "" && !strings.Contains(strings.Join(sc.Backends[0].Notes, ";"), tc.note) {
				t.Errorf("notes %q lack %q", sc.Backends[0].Notes, tc.note)
			}
		})
	}

	for _, tc := range []struct {
		name  string
		pairs [][]string
		want  string
	}{
		{"none", nil, "no files given"},
		{"three paths", [][]string{{p("layers.json"), p("lat.json"), p("layers.json")}}, "one or two files (layer info, then profile), got 3"},
		{"missing layers", [][]string{{p("nope.json")}}, "layer-info file " + p("nope.json") + " does not exist"},
		{"missing profile", [][]string{{p("layers.json"), p("gone.json")}}, "profile file " + p("gone.json") + " does not exist"},
		{"folder", [][]string{{p("some_dir")}}, "is a folder, not a file"},
	} {
		t.Run("error "+tc.name, func(t *testing.T) {
			_, err := Pairs(tc.pairs)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct{ in, stem, label string }{
		{"x.engine.graph", "x.engine", "x"},
		{"resnet_engine_layer_information", "resnet", "resnet"},
		{"bert-profile", "bert", "bert"},
		{"model.plan_latency", "model.plan", "model"},
		{"graph", "graph", "graph"},
		{"foo", "foo", "foo"},
	} {
		if s := stemOf(tc.in); s != tc.stem || labelOfStem(s) != tc.label {
			t.Errorf("stemOf(%q) = %q → %q, want %q → %q", tc.in, s, labelOfStem(s), tc.stem, tc.label)
		}
	}
	for _, tc := range []struct {
		in    string
		role  role
		label string
	}{
		{"layers_fp16.json", roleLayers, "fp16"}, {"LAYER-x_y.JSON", roleLayers, "x_y"}, {"layers.json", roleLayers, ""},
		{"profiles_a.json", roleProfile, "a"}, {"latency_t.json", roleLatency, "t"}, {"times_a.json", roleTimes, "a"},
		{"meta_a_build.json", roleMeta, "a_build"}, {"layersx.json", roleNone, ""}, {"layers_a.txt", roleLayers, "a"}, {"layers_a.csv", roleNone, ""},
		{"profile_a.csv", roleProfile, "a"}, {"latency-b.TSV", roleLatency, "b"}, {"times_a.csv", roleNone, ""},
	} {
		if r, l := conventional(tc.in); r != tc.role || l != tc.label {
			t.Errorf("conventional(%q) = %v %q, want %v %q", tc.in, r, l, tc.role, tc.label)
		}
	}
}

// TestCorpusLabels checks that every case folder of the shared corpus gives
// exactly the labels of expected.json, and the corpus root is reported as a
// folder of components.
func TestCorpusLabels(t *testing.T) {
	dir := corpustest.Dir(t, corpustest.Discovery)
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatal(err)
	}
	var cases []string
	for c, backends := range exp {
		cases = append(cases, c)
		var want []string
		for l := range backends {
			want = append(want, l)
		}
		slices.Sort(want)
		sc, err := Folder(filepath.Join(dir, c))
		if err != nil {
			t.Errorf("%s: %v", c, err)
			continue
		}
		var got []string
		for _, b := range sc.Backends {
			got = append(got, b.Label)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: labels %q, want %q", c, got, want)
		}
	}
	_, err = Folder(dir)
	var ce *ComponentsError
	if !errors.As(err, &ce) {
		t.Fatalf("corpus root: err = %v, want *ComponentsError", err)
	}
	slices.Sort(cases)
	if !reflect.DeepEqual(ce.Components, cases) {
		t.Errorf("components %q, want %q", ce.Components, cases)
	}
}
