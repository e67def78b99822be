package report

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/golden"
)

// TestAssetsUpToDate recomputes the hashes of the web app's sources the way
// web/build.mjs records them; a difference means someone changed web/
// without running scripts/build-web.sh (or edited the built assets by hand).
func TestAssetsUpToDate(t *testing.T) {
	web := filepath.Join(corpustest.ModuleRoot(t), "web")
	files := []string{"package.json", "package-lock.json", "tsconfig.json", "build.mjs"}
	err := filepath.WalkDir(filepath.Join(web, "src"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(web, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatalf("read web sources: %v", err)
	}
	slices.Sort(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(web, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), f)
	}
	recorded, err := fs.ReadFile(DefaultAssets(), assetSourceHash)
	if err != nil {
		t.Fatalf("embedded assets lack %s: run scripts/build-web.sh", assetSourceHash)
	}
	if got := b.String(); got != string(recorded) {
		t.Errorf("the embedded web app is stale: web/ changed since the last build; run scripts/build-web.sh and commit internal/report/assets.\nsources now:\n%s\nrecorded at build:\n%s", got, recorded)
	}
	for _, name := range append(shippedAssets, assetTemplate, assetLicenses+"/README.txt") {
		if _, err := fs.Stat(DefaultAssets(), name); err != nil {
			t.Errorf("embedded asset %s: %v", name, err)
		}
	}
}

// TestIndexGolden pins the rendered index.html (go test -update rewrites it).
func TestIndexGolden(t *testing.T) {
	tmpl, err := parseIndexTemplate(DefaultAssets())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	data := pageData{Title: `resnet50 <b>&</b> — trtperf report`, ModelName: `resnet50 <b>&</b>`, Status: "partial", Backends: 2, Passed: 1, ToolVersion: "v1.0.0", HasAnalysis: true}
	if err := tmpl.Execute(&b, data); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "index.golden.html"), []byte(b.String()))
}
