package dump

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/engine"
)

// TestCorpus parses every layer and profile file of the shared corpus and
// checks counts, iteration counts and sums against expected.json.
func TestCorpus(t *testing.T) {
	dir := corpustest.Dir(t, corpustest.Parsing)
	exp := corpustest.LoadExpected(t, dir)
	checked := 0
	for caseName, backends := range exp {
		for label, want := range backends {
			t.Run(caseName+"/"+label, func(t *testing.T) {
				folder := filepath.Join(dir, caseName)
				layerPath := filepath.Join(folder, "layers_"+label+".json")
				if want.Layers != nil {
					li, err := ReadLayerInfo(layerPath)
					if err != nil {
						t.Fatalf("ReadLayerInfo: %v", err)
					}
					if len(li.Layers) != *want.Layers {
						t.Errorf("layers = %d, want %d", len(li.Layers), *want.Layers)
					}
					namesOnly := strings.Contains(want.Expect, "names-only")
					if li.NamesOnly != namesOnly {
						t.Errorf("NamesOnly = %v, want %v", li.NamesOnly, namesOnly)
					}
					if !li.HasIODeclaration || len(li.IO) == 0 {
						t.Errorf("no Bindings read (HasIODeclaration=%v, %d IO)", li.HasIODeclaration, len(li.IO))
					}
					checkAgainstReference(t, layerPath, li)
				} else if _, err := os.Stat(layerPath); err == nil {
					t.Errorf("%s exists but expected.json has no layer count", layerPath)
				}

				profPath := filepath.Join(folder, "profile_"+label+".json")
				if want.ProfileKind == engine.ProfileLatencyDict {
					profPath = filepath.Join(folder, "latency_"+label+".json")
				}
				if strings.Contains(want.Expect, "concatenated") {
					_, err := ReadProfile(profPath)
					var fe *FormatError
					if !errors.As(err, &fe) || fe.Code != CodeConcatenated || fe.Documents != 7 {
						t.Fatalf("ReadProfile err = %v, want json_concatenated with 7 documents", err)
					}
					return
				}
				if want.Profile == nil {
					return
				}
				p, err := ReadProfile(profPath)
				if err != nil {
					t.Fatalf("ReadProfile: %v", err)
				}
				if len(p.Records) != *want.Profile {
					t.Errorf("profile records = %d, want %d", len(p.Records), *want.Profile)
				}
				if p.Kind != want.ProfileKind {
					t.Errorf("kind = %q, want %q", p.Kind, want.ProfileKind)
				}
				if want.Count != nil && (!p.HasCount || p.Count != *want.Count) {
					t.Errorf("count = %d (has %v), want %d", p.Count, p.HasCount, *want.Count)
				}
				if want.SumAvgMs != nil {
					var sum float64
					for _, r := range p.Records {
						sum += r.AverageMs
					}
					if math.Abs(sum-*want.SumAvgMs) > 1e-6*math.Abs(*want.SumAvgMs) {
						t.Errorf("sum of averageMs = %.9f, want %.9f", sum, *want.SumAvgMs)
					}
				}
			})
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("only %d corpus backends checked", checked)
	}
}

// checkAgainstReference decodes the file again with encoding/json and
// compares every layer field the model names, so the hand-written scanner is
// checked against an independent decoder on real files.
func checkAgainstReference(t *testing.T, path string, li *engine.LayerInfo) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		Layers   []json.RawMessage
		Bindings []string
	}
	if err := json.Unmarshal(raw, &root); err != nil {
		t.Fatal(err)
	}
	if len(root.Bindings) != len(li.IO) {
		t.Errorf("IO = %d, want %d", len(li.IO), len(root.Bindings))
	}
	for i, b := range root.Bindings {
		if i < len(li.IO) && li.IO[i].Name != visible(b) {
			t.Errorf("binding %d = %q, want %q", i, li.IO[i].Name, b)
		}
	}
	for i, lr := range root.Layers {
		got := li.Layers[i]
		var name string
		if json.Unmarshal(lr, &name) == nil {
			if got.Name != visible(name) {
				t.Errorf("layer %d name %q, want %q", i, got.Name, name)
			}
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(lr, &m); err != nil {
			t.Fatal(err)
		}
		str := func(k string) string { s, _ := m[k].(string); return visible(s) }
		for _, c := range []struct{ k, got string }{
			{"Name", got.Name}, {"LayerType", got.Type}, {"TacticName", got.TacticName},
			{"TacticValue", got.TacticValue}, {"Metadata", got.Metadata}, {"ParameterType", got.ParameterType},
		} {
			if c.got != str(c.k) {
				t.Errorf("layer %d %s = %q, want %q", i, c.k, c.got, str(c.k))
			}
		}
		if sid, ok := m["StreamId"].(float64); ok != got.HasStreamID || int(sid) != got.StreamID {
			t.Errorf("layer %d StreamId = %d/%v, want %v", i, got.StreamID, got.HasStreamID, m["StreamId"])
		}
		for _, tl := range []struct {
			k   string
			got []engine.Tensor
		}{{"Inputs", got.Inputs}, {"Outputs", got.Outputs}, {"Constants", got.Constants}} {
			want, _ := m[tl.k].([]any)
			if len(want) != len(tl.got) {
				t.Errorf("layer %d %s: %d tensors, want %d", i, tl.k, len(tl.got), len(want))
				continue
			}
			for j, w := range want {
				wm := w.(map[string]any)
				g := tl.got[j]
				wf, _ := wm["Format/Datatype"].(string)
				ws, _ := wm["Name"].(string)
				if g.Name != visible(ws) || g.Format != wf {
					t.Errorf("layer %d %s[%d] = %q %q, want %q %q", i, tl.k, j, g.Name, g.Format, ws, wf)
				}
				dims, _ := wm["Dimensions"].([]any)
				if len(dims) != len(g.Dims) {
					t.Errorf("layer %d %s[%d] dims %v, want %v", i, tl.k, j, g.Dims, dims)
				}
			}
		}
		named := map[string]bool{"Name": true, "LayerType": true, "Inputs": true, "Outputs": true, "Constants": true,
			"TacticName": true, "TacticValue": true, "Metadata": true, "ParameterType": true, "StreamId": true, "Origin": true}
		params := 0
		for k := range m {
			if !named[k] {
				params++
			}
		}
		if params != len(got.Params) {
			t.Errorf("layer %d: %d params, want %d", i, len(got.Params), params)
		}
		for _, p := range got.Params {
			if !json.Valid(p.Value) {
				t.Errorf("layer %d param %s: invalid JSON %s", i, p.Key, p.Value)
			}
		}
	}
}

// visible applies the documented control-character mapping to a decoded
// string.
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0x1e:
			b.WriteString("␞")
		case r == 0x1f:
			b.WriteString("␟")
		case r < 0x20:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestCorpusFilesParse parses every dump file by name pattern, so files
// expected.json does not list are still exercised.
func TestCorpusFilesParse(t *testing.T) {
	dir := corpustest.Dir(t, corpustest.Parsing)
	for _, pat := range []string{"layers_*.json", "profile_*.json", "latency_*.json"} {
		files, err := filepath.Glob(filepath.Join(dir, "*", pat))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no %s files in %s", pat, dir)
		}
		for _, f := range files {
			head, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			kind := Sniff(head[:min(len(head), SniffSize)])
			if strings.HasPrefix(pat, "layers") {
				if _, err := ReadLayerInfo(f); err != nil {
					t.Errorf("%v", err)
				}
				if kind != KindLayerInfo {
					t.Errorf("Sniff(%s) = %v", f, kind)
				}
				continue
			}
			_, err = ReadProfile(f)
			var fe *FormatError
			if err != nil && !(errors.As(err, &fe) && fe.Code == CodeConcatenated) {
				t.Errorf("%v", err)
			}
			if !kind.IsProfile() {
				t.Errorf("Sniff(%s) = %v", f, kind)
			}
		}
	}
}
