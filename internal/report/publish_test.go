package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

func encode(t *testing.T, d *contract.AnalyzeData) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := contract.Encode(&buf, d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func fixedNow() time.Time { return time.Date(2024, 1, 31, 12, 34, 56, 0, time.UTC) }

func TestPublishAutoNamesAndCollisions(t *testing.T) {
	parent := t.TempDir()
	d := reporttest.Synthetic(reporttest.Options{Layers: 20, Model: "Llama 3.1/8B (fp16)"})
	enc := encode(t, d)
	p := Publisher{Now: fixedNow}
	var got []string
	for range 3 {
		dir, err := p.Publish(d, enc, nil, Target{OutputParent: parent})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, filepath.Base(dir))
	}
	want := []string{"report_Llama-3.1-8B-fp16_20240131_123456", "report_Llama-3.1-8B-fp16_20240131_123456_2", "report_Llama-3.1-8B-fp16_20240131_123456_3"}
	if !slices.Equal(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
	dir, err := p.Publish(d, enc, nil, Target{OutputParent: parent, ModelName: "bert", Timestamp: "20200101_000000"})
	if err != nil || filepath.Base(dir) != "report_bert_20200101_000000" {
		t.Errorf("explicit model and timestamp: %s, %v", dir, err)
	}
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".trtperf-staging") {
			t.Errorf("staging folder left behind: %s", e.Name())
		}
	}
}

func TestPublishContents(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 20})
	enc := encode(t, d)
	target := filepath.Join(t.TempDir(), "new", "report")
	dir, err := Publisher{}.Publish(d, enc, []byte("# Hi <script>x</script>"), Target{ReportDir: target})
	if err != nil {
		t.Fatal(err)
	}
	if dir != target {
		t.Errorf("published to %s, want %s", dir, target)
	}
	for _, f := range []string{FileIndex, FileAnalyzeData, FileDataJS, FileAnalyzeMD, FileAnalysisJS, "assets/app.js", "assets/app.css", "licenses/README.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o755 {
		t.Errorf("report folder mode %v, want 0755", st.Mode().Perm())
	}
	got, _ := os.ReadFile(filepath.Join(dir, FileAnalyzeData))
	if !bytes.Equal(got, enc) {
		t.Error("analyze-data.json differs from the encoded analysis")
	}
	js, _ := os.ReadFile(filepath.Join(dir, FileDataJS))
	if !bytes.HasPrefix(js, []byte("window.TRTPERF_DATA = {")) {
		t.Errorf("data.js starts %q", js[:min(40, len(js))])
	}
	html, _ := os.ReadFile(filepath.Join(dir, FileIndex))
	for _, w := range []string{"Content-Security-Policy", "script-src 'self'", `src="data.js"`, `src="analysis.js"`, `src="assets/app.js"`} {
		if !bytes.Contains(html, []byte(w)) {
			t.Errorf("index.html lacks %q", w)
		}
	}
	if bytes.Contains(html, []byte("<script>")) {
		t.Error("index.html has an inline script")
	}
	a, _ := os.ReadFile(filepath.Join(dir, FileAnalysisJS))
	if bytes.Contains(a, []byte("<script")) || !bytes.Contains(a, []byte(`"present":true`)) {
		t.Errorf("analysis.js: %s", a)
	}
}

// TestIndexHostileModelName: html/template escapes what the page embeds.
func TestIndexHostileModelName(t *testing.T) {
	d, _ := reporttest.Hostile()
	dir, err := Publisher{}.Publish(d, encode(t, d), nil, Target{ReportDir: filepath.Join(t.TempDir(), "r")})
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, FileIndex))
	if bytes.Contains(html, []byte("onerror=")) && !bytes.Contains(html, []byte("&lt;img")) {
		t.Errorf("model name not escaped in index.html:\n%s", html)
	}
	if bytes.Count(html, []byte("<script")) != 3 {
		t.Errorf("index.html should have exactly the 3 script tags:\n%s", html)
	}
}

// TestPublishFailuresLeaveNoTrace injects each failure and compares the
// parent folder before and after.
func TestPublishFailuresLeaveNoTrace(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 20})
	enc := encode(t, d)
	broken := fstest.MapFS{}
	for k, v := range mustMapFS(t, DefaultAssets()) {
		if k != assetTemplate {
			broken[k] = v
		}
	}
	invalid := bytes.Replace(enc, []byte(`"layer_count":20`), []byte(`"layer_count":21`), 1)
	if bytes.Equal(invalid, enc) {
		t.Fatal("could not corrupt the fixture")
	}
	// Publish validates the bytes' schema and the semantics of the analysis
	// passed with them, which must be what the bytes decode to.
	dInvalid, err := contract.Decode(invalid)
	if err != nil {
		t.Fatal(err)
	}
	denied := func(string, string) (string, error) {
		return "", &fs.PathError{Op: "mkdirtemp", Path: "x", Err: syscall.EACCES}
	}
	tests := []struct {
		name    string
		p       Publisher
		d       *contract.AnalyzeData // nil means d
		enc     []byte
		target  func(parent string) Target
		setup   func(t *testing.T, parent string)
		wantErr string
		isValid bool
		// encodeFails: PublishEncoding's encode writes part of enc and
		// fails (a case for PublishEncoding only).
		encodeFails bool
	}{
		{name: "template asset missing", p: Publisher{Builder: Builder{Assets: broken}}, enc: enc,
			target: func(p string) Target { return Target{OutputParent: p} }, wantErr: "index.html.tmpl"},
		{name: "validation failure", p: Publisher{}, d: dInvalid, enc: invalid,
			target: func(p string) Target { return Target{OutputParent: p} }, wantErr: "layer_count", isValid: true},
		// Validation runs while the report is built; its verdict wins.
		{name: "validation failure and a failing build", p: Publisher{Builder: Builder{Assets: broken}}, d: dInvalid, enc: invalid,
			target: func(p string) Target { return Target{ReportDir: filepath.Join(p, "a", "report")} }, wantErr: "layer_count", isValid: true},
		{name: "non-empty report dir", p: Publisher{}, enc: enc,
			target: func(p string) Target { return Target{ReportDir: filepath.Join(p, "taken")} },
			setup: func(t *testing.T, p string) {
				os.Mkdir(filepath.Join(p, "taken"), 0o755)
				os.WriteFile(filepath.Join(p, "taken", "keep.txt"), []byte("mine"), 0o644)
			}, wantErr: "not empty"},
		{name: "unwritable parent (injected)", p: Publisher{mkdirTemp: denied}, enc: enc,
			target: func(p string) Target { return Target{OutputParent: p} }, wantErr: "permission denied"},
		{name: "missing parents are removed again", p: Publisher{Builder: Builder{Assets: broken}}, enc: enc,
			target: func(p string) Target { return Target{ReportDir: filepath.Join(p, "a", "b", "report")} }, wantErr: "index.html.tmpl"},
		{name: "encoding fails", p: Publisher{}, enc: enc, encodeFails: true,
			target: func(p string) Target { return Target{ReportDir: filepath.Join(p, "a", "report")} }, wantErr: "disk full (injected)"},
	}
	for _, tt := range tests {
		for _, encoding := range []bool{false, true} {
			if tt.encodeFails && !encoding {
				continue
			}
			name := tt.name + "/Publish"
			if encoding {
				name = tt.name + "/PublishEncoding"
			}
			t.Run(name, func(t *testing.T) {
				parent := t.TempDir()
				os.WriteFile(filepath.Join(parent, "existing.txt"), []byte("x"), 0o644)
				if tt.setup != nil {
					tt.setup(t, parent)
				}
				before := reporttest.Listing(t, parent)
				data := d
				if tt.d != nil {
					data = tt.d
				}
				var err error
				if encoding {
					_, err = tt.p.PublishEncoding(data, func(w io.Writer) (*contract.Index, error) {
						if tt.encodeFails {
							w.Write(tt.enc[:len(tt.enc)/2])
							return nil, errors.New("disk full (injected)")
						}
						_, err := w.Write(tt.enc)
						return nil, err
					}, []byte("# md"), tt.target(parent))
				} else {
					_, err = tt.p.Publish(data, tt.enc, []byte("# md"), tt.target(parent))
				}
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				var ve *ValidationError
				if errors.As(err, &ve) != tt.isValid {
					t.Errorf("ValidationError: %v, want %v", errors.As(err, &ve), tt.isValid)
				}
				if after := reporttest.Listing(t, parent); after != before {
					t.Errorf("file system changed:\nbefore:\n%s\nafter:\n%s", before, after)
				}
			})
		}
	}
}

// TestPublishEncodingSameReport: a report published from an encoding
// written into the staging folder (and read back through a map) has the
// same files, byte for byte, as one published from the bytes in memory.
func TestPublishEncodingSameReport(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 300})
	enc := encode(t, d)
	root := t.TempDir()
	want, err := Publisher{}.Publish(d, enc, []byte("# md"), Target{ReportDir: filepath.Join(root, "bytes")})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Publisher{}.PublishEncoding(d, func(w io.Writer) (*contract.Index, error) { return contract.EncodeIndexed(w, d) }, []byte("# md"), Target{ReportDir: filepath.Join(root, "encoding")})
	if err != nil {
		t.Fatal(err)
	}
	wantFiles, gotFiles := readTree(t, want), readTree(t, got)
	if len(gotFiles) != len(wantFiles) {
		t.Errorf("%d files, want %d", len(gotFiles), len(wantFiles))
	}
	for name, b := range wantFiles {
		if !bytes.Equal(gotFiles[name], b) {
			t.Errorf("%s differs (%d bytes, want %d)", name, len(gotFiles[name]), len(b))
		}
	}
	if !bytes.Equal(gotFiles[FileAnalyzeData], enc) {
		t.Error("analyze-data.json is not the encoding")
	}
}

// readTree reads every file under dir, keyed by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestPublishUnwritableParent uses real permissions; root ignores them, so
// it only runs as another user (the injected case above covers root).
func TestPublishUnwritableParent(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("SKIP: running as root, which can write anywhere; the injected failure covers this case")
	}
	d := reporttest.Synthetic(reporttest.Options{Layers: 5})
	parent := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(parent, 0o555)
	before := reporttest.Listing(t, parent)
	_, err := Publisher{}.Publish(d, encode(t, d), nil, Target{OutputParent: parent})
	if err == nil || !strings.Contains(err.Error(), "choose a writable folder") {
		t.Fatalf("error %v", err)
	}
	if after := reporttest.Listing(t, parent); after != before {
		t.Errorf("file system changed")
	}
}

func TestPublishIntoEmptyDir(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 5})
	target := filepath.Join(t.TempDir(), "empty")
	os.Mkdir(target, 0o755)
	if _, err := (Publisher{}).Publish(d, encode(t, d), nil, Target{ReportDir: target}); err != nil {
		t.Fatal(err)
	}
	if !IsReport(target) {
		t.Error("empty --report-dir did not become a report")
	}
}

func TestUpdateAnalysisTouchesOnlyAnalysis(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 10})
	dir, err := Publisher{}.Publish(d, encode(t, d), nil, Target{ReportDir: filepath.Join(t.TempDir(), "r")})
	if err != nil {
		t.Fatal(err)
	}
	before := reporttest.Listing(t, dir)
	if err := UpdateAnalysis(dir, []byte("# New analysis\n")); err != nil {
		t.Fatal(err)
	}
	after := reporttest.Listing(t, dir)
	changed := diffLines(before, after)
	for _, l := range changed {
		name := strings.Fields(l)[0]
		if name != FileAnalysisJS && name != FileAnalyzeMD && name != "." {
			t.Errorf("UpdateAnalysis changed %s", l)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, FileAnalyzeMD))
	js, _ := os.ReadFile(filepath.Join(dir, FileAnalysisJS))
	if string(md) != "# New analysis\n" || !bytes.Contains(js, []byte(`New analysis\u003c/h1`)) {
		t.Errorf("analysis not updated: md %q js %q", md, js)
	}
	if err := UpdateAnalysis(t.TempDir(), []byte("x")); !errors.Is(err, ErrNotAReport) {
		t.Errorf("update of a non-report: %v", err)
	}
}

func diffLines(a, b string) []string {
	in := map[string]bool{}
	for _, l := range strings.Split(a, "\n") {
		in[l] = true
	}
	var out []string
	for _, l := range strings.Split(b, "\n") {
		if !in[l] {
			out = append(out, l)
		}
	}
	return out
}

func TestSanitizeName(t *testing.T) {
	for in, want := range map[string]string{
		"resnet50":               "resnet50",
		"Llama 3.1/8B (fp16)":    "Llama-3.1-8B-fp16",
		"../../etc/passwd":       "etc-passwd",
		"":                       "model",
		"<script>":               "script",
		"模型":                     "model",
		strings.Repeat("a", 100): strings.Repeat("a", 64),
	} {
		if got := SanitizeName(in); got != want {
			t.Errorf("SanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckTimestamp(t *testing.T) {
	for ts, ok := range map[string]bool{"20240131_235959": true, "20241331_000000": false, "2024-01-31": false, "20240131235959": false, "": false} {
		if err := CheckTimestamp(ts); (err == nil) != ok {
			t.Errorf("CheckTimestamp(%q) = %v", ts, err)
		}
	}
}

func mustMapFS(t *testing.T, fsys fs.FS) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		m[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// BenchmarkPublish100k packages a 100k-layer synthetic analysis: contract
// validation, data scripts, detail chunks and the atomic rename.
func BenchmarkPublish100k(b *testing.B) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 100000})
	var buf bytes.Buffer
	if err := contract.Encode(&buf, d); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	parent := b.TempDir()
	for b.Loop() {
		dir, err := Publisher{}.Publish(d, buf.Bytes(), nil, Target{OutputParent: parent})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.RemoveAll(dir)
		b.StartTimer()
	}
}

func TestBuildColumns(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 30, WithLayerOnly: true})
	c, slowest := buildColumns(&d.Results[0])
	b := &d.Results[0]
	if c.N != 30 || !c.Timed || len(c.Names) != 30 || len(c.EdgesFlat) != 2*len(b.Graph.Edges) {
		t.Fatalf("columns: n %d timed %v names %d edges %d", c.N, c.Timed, len(c.Names), len(c.EdgesFlat))
	}
	best := 0
	for i, r := range b.Records {
		if r.AvgMs > b.Records[best].AvgMs {
			best = i
		}
		if c.Avg[r.Layer] != r.AvgMs || c.Strings[c.TypeID[r.Layer]] != r.LayerType || c.Strings[c.PrecID[r.Layer]] != r.Precision {
			t.Errorf("layer %d: columns disagree with its record", r.Layer)
		}
	}
	if slowest == nil || slowest.Layer != b.Records[best].Layer {
		t.Errorf("slowest %+v, want layer %d", slowest, b.Records[best].Layer)
	}
	lo, slowestLO := buildColumns(&d.Results[1])
	if lo.Timed || lo.Avg != nil || slowestLO != nil {
		t.Errorf("layer_only backend has timing columns")
	}
	if got := lo.Strings[lo.PrecID[0]]; got != "FP32" {
		t.Errorf("precision from the output format: %q, want FP32", got)
	}
}

// TestBuildDeterministic: the same analysis gives the same report bytes,
// file by file, even where the analysis holds maps (Go iterates them in a
// random order).
func TestBuildDeterministic(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 2500, WithLayerOnly: true})
	metrics := map[string]float64{}
	for i := range 20 {
		metrics[fmt.Sprintf("m%02d", i)] = float64(i)
	}
	d.Results[0].Positives[0].Metrics = metrics
	enc := encode(t, d)
	read := func(dir string) map[string][]byte {
		files := map[string][]byte{}
		err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			files[rel] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	var first map[string][]byte
	for i := range 4 {
		dir := filepath.Join(t.TempDir(), "r")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := Build(dir, d, enc, nil); err != nil {
			t.Fatal(err)
		}
		files := read(dir)
		if i == 0 {
			first = files
			continue
		}
		if len(files) != len(first) {
			t.Fatalf("build %d wrote %d files, build 0 %d", i, len(files), len(first))
		}
		for name, b := range first {
			if !bytes.Equal(files[name], b) {
				t.Fatalf("build %d: %s differs from build 0", i, name)
			}
		}
	}
}

// TestPublishFile: a report published from a file copied into the staging
// folder is the report published from its bytes; a decode error is
// returned as it is and leaves nothing behind.
func TestPublishFile(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 300})
	enc := encode(t, d)
	root := t.TempDir()
	src := filepath.Join(root, "analyze-data.json")
	if err := os.WriteFile(src, enc, 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := Publisher{}.Publish(d, enc, nil, Target{ReportDir: filepath.Join(root, "bytes")})
	if err != nil {
		t.Fatal(err)
	}
	open := func() *os.File {
		f, err := os.Open(src)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	got, err := Publisher{}.PublishFile(open(), contract.DecodeIndexed, nil, Target{ReportDir: filepath.Join(root, "file")})
	if err != nil {
		t.Fatal(err)
	}
	wantFiles, gotFiles := readTree(t, want), readTree(t, got)
	if len(gotFiles) != len(wantFiles) {
		t.Errorf("%d files, want %d", len(gotFiles), len(wantFiles))
	}
	for name, b := range wantFiles {
		if !bytes.Equal(gotFiles[name], b) {
			t.Errorf("%s differs (%d bytes, want %d)", name, len(gotFiles[name]), len(b))
		}
	}

	parent := filepath.Join(root, "parent")
	os.Mkdir(parent, 0o755)
	before := reporttest.Listing(t, parent)
	refused := errors.New("not an analysis (injected)")
	_, err = Publisher{}.PublishFile(open(), func([]byte) (*contract.AnalyzeData, *contract.Index, error) { return nil, nil, refused }, nil, Target{ReportDir: filepath.Join(parent, "a", "r")})
	if err != refused {
		t.Errorf("error %v, want the decoder's", err)
	}
	if after := reporttest.Listing(t, parent); after != before {
		t.Errorf("file system changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
