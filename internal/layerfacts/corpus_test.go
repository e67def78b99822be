package layerfacts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/engine"
)

// corpusLayers reads every detailed layer of every layers_*.json in the
// corpus with a minimal decoder (this package must not depend on the dump
// parser), keyed by "case/file".
func corpusLayers(t *testing.T) map[string][]engine.Layer {
	t.Helper()
	dir := corpustest.Dir(t, corpustest.LayerFacts)
	files, err := filepath.Glob(filepath.Join(dir, "*", "layers_*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no layers_*.json under %s (err %v)", dir, err)
	}
	out := map[string][]engine.Layer{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		var root struct {
			Layers []json.RawMessage
		}
		if err := json.Unmarshal(raw, &root); err != nil {
			var list []json.RawMessage
			if err2 := json.Unmarshal(raw, &list); err2 != nil {
				t.Fatalf("decode %s: %v", f, err)
			}
			root.Layers = list
		}
		key := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		for i, lr := range root.Layers {
			var obj map[string]json.RawMessage
			if json.Unmarshal(lr, &obj) != nil {
				continue // names-only dump: a string, not a layer object
			}
			out[key] = append(out[key], decodeLayer(t, i, obj))
		}
	}
	return out
}

func decodeLayer(t *testing.T, i int, obj map[string]json.RawMessage) engine.Layer {
	t.Helper()
	str := func(k string) string {
		var s string
		if v, ok := obj[k]; ok {
			_ = json.Unmarshal(v, &s)
		}
		return s
	}
	tensors := func(k string) []engine.Tensor {
		var ts []struct {
			Name       string
			Dimensions []int64
			Format     string `json:"Format/Datatype"`
		}
		if v, ok := obj[k]; ok {
			if err := json.Unmarshal(v, &ts); err != nil {
				t.Fatalf("layer %d %s: %v", i, k, err)
			}
		}
		out := make([]engine.Tensor, len(ts))
		for j, x := range ts {
			out[j] = engine.Tensor{Name: x.Name, Dims: x.Dimensions, Format: x.Format}
		}
		return out
	}
	l := engine.Layer{
		Index: i, Name: str("Name"), Type: str("LayerType"),
		Inputs: tensors("Inputs"), Outputs: tensors("Outputs"),
		ParameterType: str("ParameterType"), TacticName: str("TacticName"),
		Origin: str("Origin"),
		// The dump parser makes the separators visible; do the same.
		Metadata: strings.NewReplacer("\x1e", "␞", "\x1f", "␟").Replace(str("Metadata")),
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch k {
		case "Name", "LayerType", "Inputs", "Outputs", "ParameterType", "TacticName", "Origin", "Metadata":
			continue
		}
		l.Params = append(l.Params, engine.Param{Key: k, Value: obj[k]})
	}
	return l
}

// Every format string in the corpus names a known data type.
func TestCorpusFormatsHaveKnownTypes(t *testing.T) {
	seen := map[string]string{}
	for _, layers := range corpusLayers(t) {
		for _, l := range layers {
			for _, ts := range [][]engine.Tensor{l.Inputs, l.Outputs} {
				for _, x := range ts {
					seen[x.Format] = DataType(x.Format)
				}
			}
		}
	}
	if len(seen) < 10 {
		t.Fatalf("only %d distinct formats in the corpus; the corpus reader is broken", len(seen))
	}
	for f, typ := range seen {
		if typ == Unknown && !strings.HasPrefix(f, "N/A") {
			t.Errorf("DataType(%q) = UNKNOWN", f)
		}
	}
}

// Deriving every corpus layer never fails to name a precision for compute
// layers, and every tag is from the vocabulary.
func TestCorpusDerive(t *testing.T) {
	vocab := map[string]bool{}
	for _, n := range tagNames {
		vocab[n] = true
	}
	for file, layers := range corpusLayers(t) {
		for i := range layers {
			l := &layers[i]
			f := Derive(l)
			for _, tag := range f.Tags {
				if !vocab[tag] {
					t.Errorf("%s %q: tag %q not in vocabulary", file, l.Name, tag)
				}
			}
			if !slices.IsSorted(f.Tags) {
				t.Errorf("%s %q: tags not sorted: %v", file, l.Name, f.Tags)
			}
			if f.Precision == Unknown && (len(l.Inputs) > 0 || len(l.Outputs) > 0) {
				t.Errorf("%s %q (%s): precision UNKNOWN", file, l.Name, l.Type)
			}
			if f.FusedOps < 1 {
				t.Errorf("%s %q: FusedOps %d", file, l.Name, f.FusedOps)
			}
		}
	}
}
