package analysis

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/golden"
	"github.com/trtperf/trtperf/internal/load"
)

// fixtureVariants are the dump variants the generator makes, including
// those the real corpus lacks; each is analysed and pinned by a golden
// analyze-data.json, and each has the outcome a user must see.
var fixtureVariants = []struct {
	name     string
	opt      gen.Options
	status   string // backend status + " " + mode
	wantCode string // a message code that must be present ("" for none)
}{
	{"cnn-trt8-fp16", gen.Options{Shape: "cnn", Era: "trt8"}, "passed layer_profile", ""},
	{"bert-trt10-int8", gen.Options{Shape: "bert", Precision: "int8"}, "passed layer_profile", ""},
	{"llm-trt11-io-tensors-split-format", gen.Options{Shape: "llm", Era: "trt11", Precision: "bf16"}, "passed layer_profile", ""},
	{"unet-trt8-fp16", gen.Options{Shape: "unet", Era: "trt8"}, "passed layer_profile", ""},
	{"multi-profile", gen.Options{Shape: "bert", OptProfiles: 2}, "passed layer_profile", CodeOptProfilesSetAside},
	{"repeated-names", gen.Options{Shape: "cnn", RepeatNames: 2}, "passed layer_profile", CodeDuplicateNames},
	{"dynamic-dims", gen.Options{Shape: "llm", DynamicDims: true}, "passed layer_profile", ""},
	{"subgraphs", gen.Options{Shape: "cnn", Subgraphs: 2}, "passed layer_profile", CodeSubgraphs},
	{"cycle", gen.Options{Shape: "cnn", Cycle: true}, "failed unusable", CodeNotDAG},
	{"duplicate-producers", gen.Options{Shape: "cnn", DuplicateProducers: 1}, "passed layer_profile", CodeAmbiguousTensor},
	{"input-produced-by-layer", gen.Options{Shape: "cnn", Era: "trt11", InputProducedByLayer: true}, "failed unusable", CodeInputProduced},
	{"mismatched-names", gen.Options{Shape: "cnn", MismatchNames: 3}, "failed unusable", CodeNameMismatch},
	{"names-only", gen.Options{Shape: "cnn", NamesOnly: true}, "failed profile_only", CodeNamesOnly},
	{"list-root", gen.Options{Shape: "cnn", Root: "list"}, "passed layer_profile", ""},
	{"latency-dict", gen.Options{Shape: "cnn", ProfileKind: "latency", Count: 5}, "passed layer_profile", CodeProfileSourceLatency},
	{"latency-pairs", gen.Options{Shape: "cnn", ProfileKind: "latency-pairs", Count: 5}, "passed layer_profile", CodeProfileSourceLatency},
	{"no-median-no-count", gen.Options{Shape: "cnn", NoMedian: true, NoCount: true}, "passed layer_profile", CodeCountInferred},
	{"concatenated-profile", gen.Options{Shape: "cnn", Concatenated: 3}, "passed layer_profile", "profile_json_concatenated"},
	{"layer-only", gen.Options{Shape: "cnn", ProfileKind: "none"}, "passed layer_only", CodeNoProfile},
}

// TestFixtureGoldens analyses every generated variant, checks the outcome a
// user must see, and compares the whole analyze-data.json with its golden
// folder, one pretty-printed file per section (run with -update to rewrite
// them after a deliberate change).
func TestFixtureGoldens(t *testing.T) {
	for _, v := range fixtureVariants {
		t.Run(v.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), v.name)
			opt := v.opt
			opt.Layers, opt.Seed = 24, 7
			if _, _, err := gen.WriteFolder(dir, "fp16", opt); err != nil {
				t.Fatalf("generate: %v", err)
			}
			sc, err := discover.Folder(dir)
			if err != nil {
				t.Fatalf("discover: %v", err)
			}
			d, err := AnalyzeParsed(sc, load.Source(sc), Options{ToolVersion: "golden"})
			if err != nil {
				t.Fatalf("analyze: %v", err)
			}
			if len(d.Results) != 1 {
				t.Fatalf("want 1 backend, got %d", len(d.Results))
			}
			b := d.Results[0]
			if got := b.Validation.Status + " " + b.Validation.AnalysisMode; got != v.status {
				t.Errorf("status %q, want %q; messages %+v", got, v.status, b.Validation.Messages)
			}
			if v.wantCode != "" && !hasCode(b.Validation.Messages, v.wantCode) {
				t.Errorf("no %s message in %+v", v.wantCode, b.Validation.Messages)
			}
			if v.status == "failed unusable" && b.Validation.Messages[0].Level != contract.LevelError {
				t.Errorf("a failed backend's first message must be the error: %+v", b.Validation.Messages[0])
			}
			var buf bytes.Buffer
			if err := contract.Encode(&buf, d); err != nil {
				t.Fatal(err)
			}
			if r := contract.Validate(buf.Bytes()); !r.SchemaOK() || !r.SemanticOK() {
				t.Errorf("output breaks the contract: schema %v semantic %v", r.Schema, r.Semantic)
			}
			// Paths differ per run; pin them to a placeholder.
			got := bytes.ReplaceAll(buf.Bytes(), []byte(jsonPath(dir)), []byte("$FIXTURE"))
			golden.CheckFiles(t, filepath.Join("testdata", "golden", v.name), goldenSections(t, got), true)
		})
	}
}

// goldenSection names the file of testdata/golden/<variant>/ that holds a
// member of a backend; members not named here go to backend.json (the
// run facts), so a new contract field lands in a golden the moment it
// exists.
var goldenSection = map[string]string{
	"layers":              "layers.json",
	"graph":               "graph.json",
	"records":             "records.json",
	"type_breakdown":      "breakdowns.json",
	"tag_breakdown":       "breakdowns.json",
	"precision_breakdown": "breakdowns.json",
	"concentration":       "breakdowns.json",
	"roofline":            "roofline.json",
	"prediction":          "roofline.json",
	"diagnosis":           "findings.json",
	"issues":              "findings.json",
	"positives":           "findings.json",
	"overview":            "findings.json",
}

// goldenSections splits analyze-data.json into the files of its golden
// folder, each one JSON object holding members of the document in their
// order: document.json (everything but results), then per backend (prefixed
// with its index when there are several) backend.json, findings.json, and
// the bulky layers.json, records.json, graph.json, breakdowns.json,
// roofline.json. A rule change then shows as a diff of findings.json alone;
// the files hold every member verbatim, so together they pin the bytes.
func goldenSections(t *testing.T, doc []byte) map[string][]byte {
	t.Helper()
	files := map[string]*bytes.Buffer{}
	add := func(file string, name, val jsontext.Value) {
		b := files[file]
		if b == nil {
			b = &bytes.Buffer{}
			files[file] = b
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(val)
	}
	members := func(v jsontext.Value, each func(name, val jsontext.Value)) {
		dec := jsontext.NewDecoder(bytes.NewReader(v))
		if _, err := dec.ReadToken(); err != nil {
			t.Fatal(err)
		}
		for dec.PeekKind() != '}' {
			name, err := dec.ReadValue()
			if err != nil {
				t.Fatal(err)
			}
			name = slices.Clone(name)
			val, err := dec.ReadValue()
			if err != nil {
				t.Fatal(err)
			}
			each(name, slices.Clone(val))
		}
	}
	members(jsontext.Value(bytes.TrimSpace(doc)), func(name, val jsontext.Value) {
		if string(name) != `"results"` {
			add("document.json", name, val)
			return
		}
		dec := jsontext.NewDecoder(bytes.NewReader(val))
		if _, err := dec.ReadToken(); err != nil {
			t.Fatal(err)
		}
		var backends []jsontext.Value
		for dec.PeekKind() != ']' {
			b, err := dec.ReadValue()
			if err != nil {
				t.Fatal(err)
			}
			backends = append(backends, slices.Clone(b))
		}
		for i, b := range backends {
			prefix := ""
			if len(backends) > 1 {
				prefix = fmt.Sprintf("%d-", i)
			}
			members(b, func(name, val jsontext.Value) {
				var key string
				if err := jsonv2.Unmarshal(name, &key); err != nil {
					t.Fatal(err)
				}
				file, ok := goldenSection[key]
				if !ok {
					file = "backend.json"
				}
				add(prefix+file, name, val)
			})
		}
	})
	out := map[string][]byte{}
	for name, b := range files {
		b.WriteByte('}')
		out[name] = b.Bytes()
	}
	return out
}

// jsonPath is how a path appears inside a JSON string.
func jsonPath(p string) string { return strings.ReplaceAll(p, `\`, `\\`) }

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestDeterministic: the same input gives the same bytes, run after run.
func TestDeterministic(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := gen.WriteFolder(dir, "fp16", gen.Options{Shape: "llm", Layers: 3000, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	var first []byte
	for i := range 3 {
		sc, err := discover.Folder(dir)
		if err != nil {
			t.Fatal(err)
		}
		d, err := AnalyzeParsed(sc, load.Source(sc), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := contract.Encode(&buf, d); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = buf.Bytes()
		} else if !bytes.Equal(first, buf.Bytes()) {
			t.Fatalf("run %d differs from run 0 at byte %d", i, firstDiff(first, buf.Bytes()))
		}
	}
}

func fileSize(tb testing.TB, path string) int64 {
	tb.Helper()
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return st.Size()
}
