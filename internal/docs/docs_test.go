package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const root = "../.."

// checkedDocs are the documents whose paths must exist, with the folder
// their relative paths are read from besides the repository root.
var checkedDocs = map[string]string{
	"README.md":       ".",
	"CONTRIBUTING.md": ".",
	"web/README.md":   "web",
}

var (
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	linkDest = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// pathLike is a relative path of files and folders, or a file name.
	pathLike = regexp.MustCompile(`^[A-Za-z0-9_.][A-Za-z0-9_./-]*$`)
	fileExt  = regexp.MustCompile(`\.(go|md|ts|mjs|js|json|sh|cmd|css|tmpl|html|sha256|mod)$`)
	// sourceExt are the files of the repository named bare (user files,
	// such as x.engine.graph.json or analyze.md, are not checked).
	sourceExt = regexp.MustCompile(`\.(go|ts|mjs|sh|css|tmpl)$`)
)

// namedPaths are the paths a document names in code spans and link
// targets: words with a slash whose first part is a folder of the
// repository (or ../shared), and file names of sources (foo.go, app.css).
// Placeholders (<label>, PKG, *, {a,b}) are not paths.
func namedPaths(doc string, tops map[string]bool) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimPrefix(strings.TrimSuffix(strings.TrimSpace(s), "/"), "./")
		s, _, _ = strings.Cut(s, "#")
		if s == "" || !pathLike.MatchString(s) || strings.Contains(s, "://") || strings.Contains(s, "...") {
			return
		}
		for _, part := range strings.Split(s, "/") {
			if part != "" && strings.ToUpper(part) == part && strings.ToLower(part) != part && !fileExt.MatchString(part) {
				return // PKG, DIR, FOLDER: a placeholder
			}
		}
		first, _, hasSlash := strings.Cut(s, "/")
		switch {
		case hasSlash && (tops[first] || first == ".."):
			out = append(out, s)
		case !hasSlash && sourceExt.MatchString(s):
			out = append(out, s) // a file name: some file of the repository has it
		}
	}
	for _, m := range codeSpan.FindAllStringSubmatch(doc, -1) {
		for _, w := range strings.Fields(m[1]) {
			add(w)
		}
	}
	for _, m := range linkDest.FindAllStringSubmatch(doc, -1) {
		add(m[1])
	}
	return out
}

// TestNamedPathsExist fails when a document names a path the repository
// does not have (a file renamed or deleted without its mention).
func TestNamedPathsExist(t *testing.T) {
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	tops := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			tops[e.Name()] = true
		}
	}
	names := map[string]bool{} // base names of every file
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "shared") && p != root {
			return filepath.SkipDir
		}
		names[d.Name()] = true
		return nil
	})
	for doc, base := range checkedDocs {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range namedPaths(string(b), tops) {
			if !strings.Contains(p, "/") {
				if !names[p] {
					t.Errorf("%s names %s, which no file of the repository is called", doc, p)
				}
				continue
			}
			if strings.HasPrefix(p, "../shared/") {
				continue // the session's shared material, not part of the repository
			}
			_, err1 := os.Stat(filepath.Join(root, p))
			_, err2 := os.Stat(filepath.Join(root, base, p))
			if err1 != nil && err2 != nil {
				t.Errorf("%s names %s, which does not exist", doc, p)
			}
		}
	}
}

// tableFirstColumn lists the code spans of the first column of a
// document's Markdown tables.
func tableFirstColumn(doc string) []string {
	var out []string
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell, _, _ := strings.Cut(strings.TrimPrefix(line, "|"), "|")
		for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
			out = append(out, strings.TrimSuffix(m[1], "/"))
		}
	}
	return out
}

// TestPackageTableComplete: the README's package table names every Go
// package of internal/ and cmd/ (nested internal packages belong to their
// parent's row).
func TestPackageTableComplete(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := tableFirstColumn(string(b))
	for _, parent := range []string{"internal", "cmd"} {
		entries, err := os.ReadDir(filepath.Join(root, parent))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			pkg := parent + "/" + e.Name()
			if gos, _ := filepath.Glob(filepath.Join(root, pkg, "*.go")); len(gos) == 0 {
				continue
			}
			if !slices.Contains(listed, pkg) {
				t.Errorf("README.md's package table has no row for %s: add one saying what it holds", pkg)
			}
		}
	}
}

// TestWebSourcesListed: web/README.md's table names every source of the
// report app (web/src) and no file that is not there.
func TestWebSourcesListed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "web", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := tableFirstColumn(string(b))
	srcs, err := os.ReadDir(filepath.Join(root, "web", "src"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range srcs {
		if !slices.Contains(listed, "src/"+s.Name()) {
			t.Errorf("web/README.md's table has no row for src/%s: add one saying what it does", s.Name())
		}
	}
}

func TestNamedPaths(t *testing.T) {
	tops := map[string]bool{"internal": true, "web": true}
	doc := "Edit `internal/findings/rules.go` and `rules_test.go`, run `go test ./internal/PKG -update`, see [the schema](internal/contract/schema/x.json), `layers_<label>.json`, `web/src/*.ts`, `go generate ./internal/contract`, `DIR/bin`, `analyze-data.json`."
	got := namedPaths(doc, tops)
	want := []string{"internal/findings/rules.go", "rules_test.go", "internal/contract", "internal/contract/schema/x.json"}
	if !slices.Equal(got, want) {
		t.Errorf("namedPaths = %q, want %q", got, want)
	}
}

// TestSkillExamplesForUsers: the skill's examples are read by its users, who
// have neither this machine's folders nor the source tree.
func TestSkillExamplesForUsers(t *testing.T) {
	dir := filepath.Join(root, "skill", "trt-perf-analysis", "examples")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	machinePath := regexp.MustCompile(`(^|[\s"'=(])(/work/|/home/|/Users/|/tmp/|/root/)`)
	devCommand := regexp.MustCompile(`\bgo (test|run|build|generate)\b|\./internal/|\bcmd/trtperf\b`)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := machinePath.FindString(line); m != "" {
				t.Errorf("skill examples/%s:%d names a machine path (%s): %s", e.Name(), i+1, strings.TrimSpace(m), line)
			}
			if m := devCommand.FindString(line); m != "" {
				t.Errorf("skill examples/%s:%d names a developer command (%s) the skill's users cannot run: %s", e.Name(), i+1, m, line)
			}
		}
	}
}
