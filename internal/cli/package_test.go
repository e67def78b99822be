package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/report"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// analyzeDataFile writes a valid synthetic analyze-data.json and returns it.
func analyzeDataFile(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := contract.Encode(&buf, reporttest.Synthetic(reporttest.Options{Layers: 30})); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "analysis.json")
	if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return f, buf.Bytes()
}

func TestPackageCorpusFolder(t *testing.T) {
	src := filepath.Join(corpustest.Dir(t, corpustest.Reports), "controlnet-sd15-trt86-fp16")
	parent := filepath.Join(t.TempDir(), "r") // created on demand
	md := filepath.Join(t.TempDir(), "a.md")
	os.WriteFile(md, []byte("# Analysis\n"), 0o644)
	code, out, errOut := run(t, "package", src, "--output-parent", parent, "--timestamp", "20240131_120000", "--analyze-md", md)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	dir := filepath.Join(parent, "report_controlnet-sd15_20240131_120000")
	want := fmt.Sprintf("report_dir: %s\nanalyze_data: %s\nanalyze_md: %s\n", dir, filepath.Join(dir, "analyze-data.json"), filepath.Join(dir, "analyze.md"))
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	if !report.IsReport(dir) {
		t.Errorf("%s is not a report", dir)
	}
	// The report names the input folder by its base name only: no byte
	// of any report file holds the absolute path.
	abs, _ := filepath.Abs(src)
	assertNoPath := func(dir, path string) {
		t.Helper()
		filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(path)) {
				t.Errorf("%s holds the input path %s", p, path)
			}
			return nil
		})
	}
	assertNoPath(dir, abs)
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Folder == nil || *d.Folder != "controlnet-sd15-trt86-fp16" {
		t.Errorf("folder %v, want the base name", d.Folder)
	}
	if l := d.Results[0].Validation.SourcePaths.Layer; l == nil || !strings.HasPrefix(*l, "controlnet-sd15-trt86-fp16/") {
		t.Errorf("layer source path %v, want relative to the folder's base name", l)
	}
	// Same timestamp again: _2; --full-paths keeps the path.
	code, out, _ = run(t, "package", src, "--output-parent", parent, "--timestamp", "20240131_120000", "--full-paths")
	if code != 0 || !strings.HasPrefix(out, "report_dir: "+dir+"_2\n") {
		t.Errorf("second run: exit %d, %q", code, out)
	}
	if d2, err := contract.ReadFile(filepath.Join(dir+"_2", "analyze-data.json")); err != nil || d2.Folder == nil || *d2.Folder != abs {
		t.Errorf("--full-paths: folder %v (%v), want %s", d2.Folder, err, abs)
	}
}

// TestPackageAnalyzeDataDoesNotAnalyse is issue 15's acceptance 3: a
// validated analyze-data.json is packaged as it is (the analyser is never
// called), the folder is named from the model name analyze recorded, and
// FOLDER mode says on stderr that it analyses.
func TestPackageAnalyzeDataDoesNotAnalyse(t *testing.T) {
	t.Parallel() // its dependencies are its own (deps), not swapped globals
	calls := 0
	counting := defaultDeps()
	counting.analyzePackage = func(sc *discover.Scope, o analysis.Options) (*contract.AnalyzeData, error) {
		calls++
		return analyzeScope(sc, o)
	}
	run := func(t *testing.T, args ...string) (int, string, string) { return runWith(t, counting, args...) }

	tmp := t.TempDir()
	f, data := analyzeDataFile(t, tmp)
	d, err := contract.Decode(data)
	if err != nil || d.ModelName == "" {
		t.Fatalf("synthetic data without a model name (%v)", err)
	}
	parent := filepath.Join(tmp, "reports")
	code, out, errOut := run(t, "package", "--analyze-data", f, "--output-parent", parent, "--timestamp", "20240131_120000", "--model-name", d.ModelName)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	dir := filepath.Join(parent, "report_"+d.ModelName+"_20240131_120000")
	if !strings.HasPrefix(out, "report_dir: "+dir+"\n") {
		t.Errorf("stdout %q, want the folder named from the recorded model name %s", out, dir)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "analyze-data.json")); !bytes.Equal(got, data) {
		t.Error("the report does not hold the given analyze-data.json byte for byte")
	}
	if strings.Contains(errOut, "analysing") {
		t.Errorf("--analyze-data said it analyses: %q", errOut)
	}
	if calls != 0 {
		t.Fatalf("--analyze-data ran the analysis %d times", calls)
	}

	// A folder is analysed once, and package says so.
	src := filepath.Join(tmp, "dumps")
	writeFile(t, filepath.Join(src, "layers_fp16.json"), tinyLayers)
	writeFile(t, filepath.Join(src, "profile_fp16.json"), tinyProfile)
	code, _, errOut = run(t, "package", src, "--output-parent", parent)
	if code != 0 || calls != 1 || !strings.Contains(errOut, "package: analysing "+src) {
		t.Errorf("FOLDER mode: exit %d, %d analyses, stderr %q", code, calls, errOut)
	}
}

func TestPackageUpdatesAnalysisOfExistingReport(t *testing.T) {
	tmp := t.TempDir()
	f, _ := analyzeDataFile(t, tmp)
	dir := filepath.Join(tmp, "report")
	if code, _, e := run(t, "package", "--analyze-data", f, "--report-dir", dir); code != 0 {
		t.Fatalf("package: %s", e)
	}
	before := reporttest.Listing(t, dir)
	md := filepath.Join(tmp, "analyze.md")
	os.WriteFile(md, []byte("# Second opinion\n"), 0o644)
	code, out, e := run(t, "package", "--analyze-data", filepath.Join(dir, "analyze-data.json"), "--report-dir", dir, "--analyze-md", md)
	if code != 0 {
		t.Fatalf("update: exit %d %s", code, e)
	}
	if !strings.Contains(out, "analyze_md: "+filepath.Join(dir, "analyze.md")) {
		t.Errorf("stdout %q", out)
	}
	after := reporttest.Listing(t, dir)
	for _, line := range strings.Split(after, "\n") {
		if !strings.Contains(before, line) {
			name := strings.Fields(line)[0]
			if name != "analyze.md" && name != "analysis.js" {
				t.Errorf("update changed %s", name)
			}
		}
	}
	// The same data from another path also counts as this report's.
	code, _, e = run(t, "package", "--analyze-data", f, "--report-dir", dir, "--analyze-md", md)
	if code != 0 {
		t.Errorf("update via an equal copy: exit %d %s", code, e)
	}
	if !strings.Contains(e, "warning: the packaged analyze.md has 2 problem(s)") || !strings.Contains(e, "no ## Summary section") {
		t.Errorf("a title-only analysis lacks both sections: %s", e)
	}
	// An analysis that fails the check is still packaged, with a warning
	// naming its problems and how to check it.
	os.WriteFile(md, []byte("## Summary\n`Conv_999` is slow.\n## Details\nx\n"), 0o644)
	code, _, e = run(t, "package", "--analyze-data", f, "--report-dir", dir, "--analyze-md", md)
	if code != 0 || !strings.Contains(e, "warning: the packaged analyze.md has 1 problem(s)") || !strings.Contains(e, "`Conv_999` is not a layer name") || !strings.Contains(e, "--analyze-md analyze.md") {
		t.Errorf("failing analyze.md: exit %d, stderr %q", code, e)
	}
}

func TestPackageErrors(t *testing.T) {
	tmp := t.TempDir()
	f, data := analyzeDataFile(t, tmp)
	full := filepath.Join(tmp, "full")
	os.Mkdir(full, 0o755)
	os.WriteFile(filepath.Join(full, "x.txt"), []byte("keep"), 0o644)
	parentOfComponents := t.TempDir()
	for _, c := range []string{"unet", "vae"} {
		os.Mkdir(filepath.Join(parentOfComponents, c), 0o755)
		os.WriteFile(filepath.Join(parentOfComponents, c, "layers_fp16.json"), []byte(`{"Layers":[],"Bindings":[]}`), 0o644)
	}
	invalid := filepath.Join(tmp, "invalid.json")
	os.WriteFile(invalid, bytes.Replace(data, []byte(`"layer_count":30`), []byte(`"layer_count":31`), 1), 0o644)
	otherReport := filepath.Join(tmp, "other")
	if code, _, e := run(t, "package", "--analyze-data", f, "--report-dir", otherReport); code != 0 {
		t.Fatal(e)
	}
	tests := []struct {
		name  string
		args  []string
		code  int
		hints []string
	}{
		{"missing folder", []string{"package", filepath.Join(tmp, "nope")}, 2, []string{"does not exist", "layers_<label>.json"}},
		{"non-empty report dir", []string{"package", "--analyze-data", f, "--report-dir", full}, 2, []string{"not empty", "new or empty"}},
		{"both targets", []string{"package", "--analyze-data", f, "--report-dir", filepath.Join(tmp, "a"), "--output-parent", tmp}, 2, []string{"not both"}},
		{"parent of components", []string{"package", parentOfComponents, "--output-parent", tmp}, 2, []string{"unet, vae", "package each component"}},
		{"analyze-data renamed", []string{"package", "--analyze-data", f, "--output-parent", filepath.Join(tmp, "e"), "--model-name", "other"}, 2, []string{"records model_name", "analyze FOLDER --model-name other"}},
		{"existing report renamed", []string{"package", "--analyze-data", filepath.Join(otherReport, "analyze-data.json"), "--report-dir", otherReport, "--model-name", "x", "--analyze-md", f}, 2, []string{"existing report", "only --analyze-md"}},
		{"folder and analyze-data", []string{"package", tmp, "--analyze-data", f, "--report-dir", filepath.Join(tmp, "b")}, 2, []string{"not both"}},
		{"bad timestamp", []string{"package", tmp, "--timestamp", "2024-01-31"}, 2, []string{"YYYYMMDD_HHMMSS"}},
		{"missing analyze-md", []string{"package", "--analyze-data", f, "--report-dir", filepath.Join(tmp, "c"), "--analyze-md", filepath.Join(tmp, "none.md")}, 2, []string{"--analyze-md"}},
		{"unwritable parent", []string{"package", "--analyze-data", f, "--report-dir", "/proc/self/trtperf-report"}, 2, []string{"/proc/self"}},
		{"contract validation fails", []string{"package", "--analyze-data", invalid, "--report-dir", filepath.Join(tmp, "d")}, 1, []string{"layer_count", "no report was published"}},
		{"report of another analysis", []string{"package", "--analyze-data", invalid, "--report-dir", otherReport, "--analyze-md", f}, 2, []string{"another analysis"}},
		{"existing report without analyze-md", []string{"package", "--analyze-data", filepath.Join(otherReport, "analyze-data.json"), "--report-dir", otherReport}, 2, []string{"--analyze-md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := reporttest.Listing(t, tmp)
			code, out, errOut := run(t, tt.args...)
			wantError(t, code, errOut, tt.code, tt.hints...)
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if after := reporttest.Listing(t, tmp); after != before {
				t.Errorf("file system changed:\nbefore\n%s\nafter\n%s", before, after)
			}
		})
	}
}

func TestPackageTemplateMissing(t *testing.T) {
	t.Parallel() // its dependencies are its own (deps), not swapped globals
	tmp := t.TempDir()
	f, _ := analyzeDataFile(t, tmp)
	broken := fstest.MapFS{}
	fs.WalkDir(report.DefaultAssets(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != "index.html.tmpl" {
			data, _ := fs.ReadFile(report.DefaultAssets(), p)
			broken[p] = &fstest.MapFile{Data: data}
		}
		return err
	})
	brokenDeps := defaultDeps()
	brokenDeps.publisher = report.Publisher{Builder: report.Builder{Assets: broken}}
	run := func(t *testing.T, args ...string) (int, string, string) { return runWith(t, brokenDeps, args...) }
	before := reporttest.Listing(t, tmp)
	code, _, errOut := run(t, "package", "--analyze-data", f, "--output-parent", tmp, "--report-dir", "")
	wantError(t, code, errOut, 2, "index.html.tmpl", "rebuild")
	code, _, errOut = run(t, "package", "--analyze-data", f, "--report-dir", filepath.Join(tmp, "r"))
	wantError(t, code, errOut, 2, "index.html.tmpl", "rebuild")
	if after := reporttest.Listing(t, tmp); after != before {
		t.Errorf("file system changed:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// syncBuffer is a bytes.Buffer safe for the serve goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServe(t *testing.T) {
	t.Parallel() // its dependencies are its own (deps), not swapped globals
	tmp := t.TempDir()
	f, _ := analyzeDataFile(t, tmp)
	dir := filepath.Join(tmp, "report")
	if code, _, e := run(t, "package", "--analyze-data", f, "--report-dir", dir); code != 0 {
		t.Fatal(e)
	}
	ctx, cancel := context.WithCancel(context.Background())
	sd := defaultDeps()
	sd.serveContext = func(parent context.Context) (context.Context, context.CancelFunc) { return ctx, cancel }
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() { done <- mainWith(sd, []string{"serve", dir}, &out, &errOut) }()
	re := regexp.MustCompile(`^serving (.+) at (http://127\.0\.0\.1:[0-9]+/)\n$`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			if m[1] != dir {
				t.Errorf("serving %q, want %q", m[1], dir)
			}
			url = m[2]
			break
		}
	}
	if url == "" {
		cancel()
		t.Fatalf("serve printed %q (stderr %q)", out.String(), errOut.String())
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("Content-Security-Policy")) || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("GET / = %d %q", resp.StatusCode, body[:min(80, len(body))])
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exit %d after interrupt (stderr %q)", code, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after interrupt")
	}
}

func TestServeErrors(t *testing.T) {
	tmp := t.TempDir()
	code, _, e := run(t, "serve", filepath.Join(tmp, "nope"))
	wantError(t, code, e, 2, "does not exist")
	code, _, e = run(t, "serve", tmp)
	wantError(t, code, e, 2, "not a trtperf report", "trtperf package")
	f, _ := analyzeDataFile(t, tmp)
	dir := filepath.Join(tmp, "r")
	run(t, "package", "--analyze-data", f, "--report-dir", dir)
	code, _, e = run(t, "serve", dir, "--addr", "256.0.0.1:99999")
	wantError(t, code, e, 2, "cannot listen", "--addr")
}
