package browsertests

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trtperf/trtperf/internal/cli"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
)

// packageCLI runs `trtperf package args...` in-process and returns the
// report folder it printed.
func packageCLI(tb testing.TB, args ...string) string {
	tb.Helper()
	var out, errb bytes.Buffer
	if code := cli.Main(append([]string{"package"}, args...), &out, &errb); code != 0 {
		tb.Fatalf("trtperf package %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if dir, ok := strings.CutPrefix(line, "report_dir: "); ok {
			return dir
		}
	}
	tb.Fatalf("package printed no report_dir: %q", out.String())
	return ""
}

// TestCorpusReport is acceptance 1 and 2: the ControlNet corpus case,
// packaged by the command line, opened from file:// and over HTTP.
func TestCorpusReport(t *testing.T) {
	src := filepath.Join(corpustest.Dir(t), "controlnet-sd15-trt86-fp16")
	md := filepath.Join(t.TempDir(), "analyze.md")
	os.WriteFile(md, []byte("# ControlNet on TRT 8.6\n\nSeven Myelin `ForeignNode` regions carry most of the time; "+
		"the **PluginV2** layers are next.\n\n- Check the attention fusion.\n- Try FP8 for the GEMMs.\n"), 0o644)
	dir := packageCLI(t, src, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000", "--analyze-md", md)
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	b := passedBackend(t, d)

	t.Run("file", func(t *testing.T) {
		p := newPage(t, 90*time.Second)
		p.open(t, fileURL(dir))
		checkNumbers(t, p, d)
		if got := p.text(t, "#analysis-body h1"); got != "ControlNet on TRT 8.6" {
			t.Errorf("AI analysis heading %q", got)
		}
		// Select the slowest layer so the details panel is filled too.
		p.click(t, "#card-slowest .card-name")
		shot := p.screenshot(t, "controlnet-sd15-trt86-fp16")
		t.Logf("full report screenshot: %s", shot)
		checkTable(t, p, d)
		checkGraphClick(t, p, d, b.Graph.TopoOrder[len(b.Graph.TopoOrder)/2])
		noJSErrors(t, p)
	})
	t.Run("serve", func(t *testing.T) {
		p := newPage(t, 90*time.Second)
		p.open(t, serve(t, dir))
		checkNumbers(t, p, d)
		checkGraphClick(t, p, d, b.Graph.TopoOrder[3])
		noJSErrors(t, p)
	})
}

// TestCorpusAllFailed: the DETR dump has names-only layer info, so its only
// backend fails; the report is still published and says why.
func TestCorpusAllFailed(t *testing.T) {
	src := filepath.Join(corpustest.Dir(t), "detr-resnet50-int8-layer-names-only")
	dir := packageCLI(t, src, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	p := newPage(t, 60*time.Second)
	p.open(t, fileURL(dir))
	if got := p.text(t, "#validation h2"); !strings.Contains(got, "not interpretable") {
		t.Errorf("banner %q", got)
	}
	if got := p.text(t, "#validation"); !strings.Contains(got, "--profilingVerbosity=detailed") {
		t.Errorf("the page does not tell how to fix the dump: %q", got)
	}
	p.screenshot(t, "detr-all-failed")
	noJSErrors(t, p)
}
