package analysis

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/load"
)

// TestIssueFoldersKeepTheContract: what users paste (../shared/issues:
// partial trtexec logs, pasted profile records, several engines side by
// side) analyses into an analyze-data.json that passes its own schema and
// semantic checks, like every corpus case does. "analyze exits 0" must
// mean a file validate, summary and package accept.
func TestIssueFoldersKeepTheContract(t *testing.T) {
	dir := corpustest.IssuesDir(t, corpustest.Issues)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			sc, err := discover.Folder(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatalf("discover: %v", err)
			}
			d, err := AnalyzeParsed(sc, load.Source(sc), Options{ToolVersion: "test"})
			if err != nil {
				t.Fatalf("analyze: %v", err)
			}
			keepsContract(t, d)
		})
	}
	if n == 0 {
		t.Fatalf("no case folders in %s", dir)
	}
}
