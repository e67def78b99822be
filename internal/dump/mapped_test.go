package dump

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/fsutil"
)

// mapEverything makes parseInput map every file and the layer decode take
// its two-goroutine path from 64 KB, for the test's duration.
func mapEverything(t *testing.T) {
	t.Helper()
	if !fsutil.CanMap {
		t.Skip("SKIP: files are read, not mapped, on this platform")
	}
	oldMin, oldPar := mapMinBytes, parallelMin
	mapMinBytes, parallelMin = 0, 64<<10
	t.Cleanup(func() { mapMinBytes, parallelMin = oldMin, oldPar })
}

// TestMappedParseKeepsNoInput: what ReadLayerInfo and ReadProfile return
// from a mapped file holds no reference into it. The mapping is released
// when they return, so comparing the result with a parse of a copy in the
// heap reads every string and slice of it: a reference into the unmapped
// file would crash the test (or differ, if the addresses were reused).
func TestMappedParseKeepsNoInput(t *testing.T) {
	mapEverything(t)
	dir := t.TempDir()
	layers := filepath.Join(dir, "layers_gen.json")
	profile := filepath.Join(dir, "profile_gen.json")
	if err := os.WriteFile(layers, genLayerInfo(2000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(profile, genProfile(2000), 0o644); err != nil {
		t.Fatal(err)
	}
	joins := parallelJoins.Load()
	checkMappedParse(t, []string{layers}, []string{profile})
	if parallelJoins.Load() == joins {
		t.Error("the layer list was not decoded on two goroutines")
	}
}

// TestMappedParseKeepsNoInputCorpus is TestMappedParseKeepsNoInput on
// every layer-info and profile file of the corpus (all eras and layouts).
func TestMappedParseKeepsNoInputCorpus(t *testing.T) {
	mapEverything(t)
	dir := corpustest.Dir(t, corpustest.Parsing)
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var layers, profiles []string
	for _, f := range files {
		switch base := strings.ToLower(filepath.Base(f)); {
		case strings.HasPrefix(base, "layer"):
			layers = append(layers, f)
		case strings.HasPrefix(base, "profile"), strings.HasPrefix(base, "latency"):
			profiles = append(profiles, f)
		}
	}
	if len(layers) == 0 || len(profiles) == 0 {
		t.Fatalf("found %d layer-info and %d profile files in %s", len(layers), len(profiles), dir)
	}
	checkMappedParse(t, layers, profiles)
}

// checkMappedParse reads each file through its map and compares the
// result with a parse of the file's bytes in the heap.
func checkMappedParse(t *testing.T, layers, profiles []string) {
	t.Helper()
	before := mappedFiles.Load()
	for _, p := range layers {
		got, gotErr := ReadLayerInfo(p)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := parseLayerFile(data)
		checkSame(t, p, got, want, gotErr, wantErr)
	}
	for _, p := range profiles {
		got, gotErr := ReadProfile(p)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := ParseProfile(data)
		checkSame(t, p, got, want, gotErr, wantErr)
	}
	if n := mappedFiles.Load() - before; n != int64(len(layers)+len(profiles)) {
		t.Errorf("%d of %d files were mapped", n, len(layers)+len(profiles))
	}
}

// checkSame compares a mapped parse with one in memory: the errors' text
// (read whole, so an error quoting the file must have copied it), and the
// results when there is no error (Read* return nil with an error).
func checkSame(t *testing.T, path string, got, want any, gotErr, wantErr error) {
	t.Helper()
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && !strings.HasSuffix(gotErr.Error(), wantErr.Error()) {
		t.Errorf("%s: error %v, from memory %v", path, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the mapped parse differs from the parse in memory", path)
	}
}

// TestMappedInputTruncated: a file truncated while it is parsed from its
// mapping (reading past the new end faults) gives an error, not a crash,
// on the parsing goroutine and on the helper of a parallel layer decode.
func TestMappedInputTruncated(t *testing.T) {
	mapEverything(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		data  []byte
		parse func([]byte) (any, error)
	}{
		{"layer info", genLayerInfo(2000), func(b []byte) (any, error) { return ParseLayerInfo(b) }},
		{"profile", genProfile(2000), func(b []byte) (any, error) { return ParseProfile(b) }},
	} {
		p := filepath.Join(dir, "f.json")
		if err := os.WriteFile(p, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, readErr, parseErr := parseInput(p, kindLayerFile, func(b []byte) (any, error) {
			if err := os.Truncate(p, 0); err != nil {
				t.Fatal(err)
			}
			return tc.parse(b)
		})
		if readErr == nil || !strings.Contains(readErr.Error(), "truncated while being read") || parseErr != nil {
			t.Errorf("%s: read error %v, parse error %v; want the truncation reported as a read error", tc.name, readErr, parseErr)
		}
	}
}
