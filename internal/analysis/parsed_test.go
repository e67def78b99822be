package analysis

import (
	"bytes"
	"os"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/inputs"
	"github.com/trtperf/trtperf/internal/load"
)

// TestAnalyzeParsedMatchesFiles: dumps parsed in memory and handed to
// AnalyzeParsed give the same analyze-data.json, byte for byte, as Analyze
// reading the same dumps from their files.
func TestAnalyzeParsedMatchesFiles(t *testing.T) {
	for _, o := range []gen.Options{
		{Shape: "cnn", Layers: 60, Seed: 3},
		{Shape: "bert", Layers: 80, Seed: 1, NamesOnly: true},
		{Shape: "llm", Layers: 40, Seed: 2, ProfileKind: "latency", Count: 5},
	} {
		dir := t.TempDir()
		lp, pp, err := gen.WriteFolder(dir, "x", o)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := discover.Folder(dir)
		if err != nil {
			t.Fatal(err)
		}
		fromFiles, err := AnalyzeParsed(sc, load.Source(sc), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var in inputs.Backend
		in.LayerInfo, in.LayerInfoErr = dump.ParseLayerInfo(readBytes(t, lp))
		in.Profile, in.ProfileErr = dump.ParseProfile(readBytes(t, pp))
		inMemory, err := AnalyzeParsed(sc, inputs.InMemory(nil, in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, b := encodeData(t, fromFiles), encodeData(t, inMemory)
		if !bytes.Equal(a, b) {
			t.Errorf("%s/%d layers: in-memory analysis differs from the file analysis (%d vs %d bytes)", o.Shape, o.Layers, len(b), len(a))
		}
	}
	if _, err := AnalyzeParsed(&discover.Scope{Backends: make([]discover.Backend, 2)}, inputs.Source{}, Options{}); err == nil {
		t.Error("AnalyzeParsed accepted a source without backends for a scope with two")
	}
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func encodeData(t *testing.T, d *contract.AnalyzeData) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := contract.Encode(&buf, d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
