package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// trtperfFlags collects the long name of every flag of every trtperf
// command, hidden ones included.
func trtperfFlags(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add := func(f *pflag.Flag) { names[f.Name] = true }
		c.Flags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(io.Discard, io.Discard, &profiling{}, defaultDeps()))
	if len(names) < 20 || !names["report-dir"] || !names["max-input-bytes"] {
		t.Fatalf("collected %d flags (%v); the command tree walk is broken", len(names), names)
	}
	return names
}

// flagToken is a long option in text: "--name" not preceded by a letter,
// digit or dash.
var flagToken = regexp.MustCompile(`(^|[^A-Za-z0-9-])--([A-Za-z0-9][A-Za-z0-9-]*)`)

// libraryFlagExceptions are string literals that name a trtperf flag on
// purpose, by file and a substring of the literal, each with its reason.
var libraryFlagExceptions = []struct{ file, literal, why string }{
	{"skill/install.go", "'skill install --force' replaces this folder",
		"the header of the marker file installed skills carry; install recognises earlier installs by it, so it cannot change"},
	{"trtexecflags/table.go", "--output",
		"trtexec's own --output option (before TensorRT 9) in the table of trtexec's options"},
}

// TestLibraryNamesNoFlag: no string literal in a library package (every
// package under internal/ but cli; test files excepted) names a trtperf
// flag. A library does not know which front end set its inputs, so the
// command line adds the flag advice (advice.go). Comments may name flags.
// A flag trtexec also has (TensorRT's own options, which messages name on
// purpose) counts only when the literal does not mention trtexec.
func TestLibraryNamesNoFlag(t *testing.T) {
	flags := trtperfFlags(t)
	shared := []string{}
	for n := range flags {
		if _, ok := trtexecflags.Lookup("--" + n); ok {
			shared = append(shared, n)
		}
	}
	slices.Sort(shared)
	t.Logf("trtperf flags also trtexec's (checked only in literals not naming trtexec): %v", shared)

	root := ".." // internal/
	fset := token.NewFileSet()
	used := make([]bool, len(libraryFlagExceptions))
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "cli" || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: cannot unquote %s: %v", fset.Position(lit.Pos()), lit.Value, err)
				return true
			}
			for _, m := range flagToken.FindAllStringSubmatch(s, -1) {
				name := m[2]
				if !flags[name] || (slices.Contains(shared, name) && strings.Contains(s, "trtexec")) {
					continue
				}
				excepted := false
				for i, e := range libraryFlagExceptions {
					if rel == e.file && strings.Contains(s, e.literal) {
						used[i], excepted = true, true
					}
				}
				if !excepted {
					t.Errorf("%s: %q names trtperf's flag --%s; say what is wrong in the package's own terms and let internal/cli add the flag (advice.go)",
						fset.Position(lit.Pos()), s, name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("scanned only %d library files; the walk from %s is broken", files, root)
	}
	for i, e := range libraryFlagExceptions {
		if !used[i] {
			t.Errorf("exception for %s (%q) matches nothing any more; remove it", e.file, e.literal)
		}
	}
}

// TestFlagTokenFindsFlags: the scanner's pattern finds a flag in the
// places messages put one, and not inside other words.
func TestFlagTokenFindsFlags(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"raise the limit with --max-input-bytes", []string{"max-input-bytes"}},
		{"--report-dir x: taken", []string{"report-dir"}},
		{"(--data LAYERS PROFILE)", []string{"data"}},
		{"trtexec --exportLayerInfo=F", []string{"exportLayerInfo"}},
		{"a---b x--force", nil},
	} {
		var got []string
		for _, m := range flagToken.FindAllStringSubmatch(tt.in, -1) {
			got = append(got, m[2])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: got %v, want %v", tt.in, got, tt.want)
		}
	}
}
