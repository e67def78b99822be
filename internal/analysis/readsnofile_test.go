package analysis

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAnalysisReadsNoFile: the analysis works on parsed inputs only;
// internal/load reads the files. No non-test file of this package imports
// a package whose job is the file system.
func TestAnalysisReadsNoFile(t *testing.T) {
	forbidden := map[string]bool{
		"os": true, "io/fs": true, "io/ioutil": true,
		"github.com/trtperf/trtperf/internal/fsutil": true,
		"github.com/trtperf/trtperf/internal/load":   true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		n++
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if forbidden[path] {
				t.Errorf("%s imports %s: the analysis reads no file; read it in internal/load and pass it in inputs.Backend or inputs.Source", f, path)
			}
		}
	}
	if n < 10 {
		t.Fatalf("looked at %d files; the glob is broken", n)
	}
	// dump's readers take paths; only its types and parsers of bytes belong here.
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, reader := range []string{"dump.Read", "dump.FirstProfile(", "dump.ProfileRuns(", "dump.TimesRuns("} {
			if strings.Contains(string(src), reader) {
				t.Errorf("%s calls %s…, a reader of files; read in internal/load", f, reader)
			}
		}
	}
}
