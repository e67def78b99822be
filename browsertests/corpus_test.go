package browsertests

import (
	"fmt"
	"slices"

	"bytes"
	"github.com/chromedp/chromedp"
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
// packageCorpus packages each of the corpus cases (folders under root) as
// a user would and reads back the analyze-data.json of its report.
func packageCorpus(t *testing.T, root string, cases []string) (dirs []string, data []*contract.AnalyzeData) {
	t.Helper()
	dirs = make([]string, len(cases))
	data = make([]*contract.AnalyzeData, len(cases))
	for i, c := range cases {
		dirs[i] = packageCLI(t, filepath.Join(root, c), "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
		d, err := contract.ReadFile(filepath.Join(dirs[i], "analyze-data.json"))
		if err != nil {
			t.Fatal(err)
		}
		data[i] = d
	}
	return dirs, data
}

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
	src := filepath.Join(corpustest.Dir(t, corpustest.Reports), "controlnet-sd15-trt86-fp16")
	md := filepath.Join(t.TempDir(), "analyze.md")
	os.WriteFile(md, []byte("# ControlNet on TRT 8.6\n\nSeven Myelin `ForeignNode` regions carry most of the time; "+
		"the **PluginV2** layers are next.\n\n- Check the attention fusion.\n- Try FP8 for the GEMMs.\n"), 0o644)
	dir := packageCLI(t, src, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000", "--analyze-md", md)
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	b := passedBackend(t, d)

	// Both window sizes of issue 12, in one browser: first screen, table
	// filters, sort and "show layers", graph clicks, no console errors.
	t.Run("file", func(t *testing.T) {
		p := newPage(t, 180*time.Second)
		for _, vp := range viewports {
			p.do(t, chromedp.EmulateViewport(vp.w, vp.h))
			p.open(t, fileURL(dir))
			checkNumbers(t, p, d)
			if got := p.text(t, "#analysis-body h1"); got != "ControlNet on TRT 8.6" {
				t.Errorf("AI analysis heading %q", got)
			}
			// Select the slowest layer so the details panel is filled too.
			p.click(t, "#slowest-name")
			if vp.w == viewports[0].w {
				shot := p.screenshot(t, "controlnet-sd15-trt86-fp16")
				t.Logf("full report screenshot: %s", shot)
			}
			checkTable(t, p, d)
			checkGraphClick(t, p, d, b.Graph.TopoOrder[len(b.Graph.TopoOrder)/2])
			if errs := p.jsErrors(); len(errs) > 0 {
				t.Errorf("at %dx%d: page errors %v", vp.w, vp.h, errs)
			}
		}
	})
	t.Run("serve", func(t *testing.T) {
		p := newPage(t, 90*time.Second)
		eachViewport(t, p, func(t *testing.T) {
			p.open(t, serve(t, dir))
			checkNumbers(t, p, d)
			checkGraphClick(t, p, d, b.Graph.TopoOrder[3])
		})
		noJSErrors(t, p)
	})
}

// TestCorpusAllFailed: the DETR dump has names-only layer info, so its only
// backend fails (profile_only); the report is still published, says what is
// usable (the profile) and how to get the rest (TestProfileOnlyReport checks
// the page itself).
func TestCorpusAllFailed(t *testing.T) {
	src := filepath.Join(corpustest.Dir(t, corpustest.Reports), "detr-resnet50-int8-layer-names-only")
	dir := packageCLI(t, src, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	p := newPage(t, 60*time.Second)
	eachViewport(t, p, func(t *testing.T) {
		p.open(t, fileURL(dir))
		if got := p.text(t, "#validation h2"); !strings.Contains(got, "profile only") {
			t.Errorf("banner %q", got)
		}
		if got := p.text(t, "#validation"); !strings.Contains(got, "--profilingVerbosity=detailed") {
			t.Errorf("the page does not tell how to fix the dump: %q", got)
		}
		p.screenshot(t, "detr-all-failed")
	})
	noJSErrors(t, p)
}

// viewports are the window sizes issue 12 asks the report to work at.
var viewports = []struct{ w, h int64 }{{1280, 800}, {1920, 1080}}

// eachViewport runs check at each of the viewports in one browser, in a
// subtest named by the size.
func eachViewport(t *testing.T, p *page, check func(t *testing.T)) {
	t.Helper()
	for _, vp := range viewports {
		t.Run(fmt.Sprintf("%dx%d", vp.w, vp.h), func(t *testing.T) {
			p.do(t, chromedp.EmulateViewport(vp.w, vp.h))
			check(t)
		})
	}
}

// viewportShot saves what fits in the window (the first screen) as a PNG
// under $TRTPERF_ARTIFACTS (or a temp dir) and returns its path.
func (p *page) viewportShot(tb testing.TB, name string) string {
	tb.Helper()
	dir := os.Getenv("TRTPERF_ARTIFACTS")
	if dir == "" {
		dir = tb.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	p.do(tb, js(`window.scrollTo(0, 0)`))
	buf := run(tb, p, chromedp.CaptureScreenshot())
	file := filepath.Join(dir, name+".png")
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("first screen: %s", file)
	return file
}

// elementShot saves a PNG of the element matching sel.
func (p *page) elementShot(tb testing.TB, sel, name string) {
	tb.Helper()
	dir := os.Getenv("TRTPERF_ARTIFACTS")
	if dir == "" {
		dir = tb.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	buf := run(tb, p, chromedp.Screenshot(chromedp.CSS(sel)))
	file := filepath.Join(dir, name+".png")
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("screenshot: %s", file)
}

// TestCorpusFirstScreen: at 1280×800 and 1920×1080 the first screen of
// three corpus reports holds the latency, the top findings and the Pareto
// chart (their tops are above the fold), with no console errors; the
// screenshots are saved as artifacts.
func TestCorpusFirstScreen(t *testing.T) {
	root := corpustest.Dir(t, corpustest.Reports)
	cases := []string{"trex-mobilenetv2-qat-titanrtx", "trex-resnet18-a100-fp32-fp16", "controlnet-sd15-trt86-fp16", "kalfazed-vgg16-fp32-rtx3080-trt85"}
	dirs, data := packageCorpus(t, root, cases)
	// The same folder packaged with --full-paths shows the whole path.
	abs, err := filepath.Abs(filepath.Join(root, cases[0]))
	if err != nil {
		t.Fatal(err)
	}
	full := packageCLI(t, abs, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000", "--full-paths")
	p := newPage(t, 180*time.Second)
	for _, vp := range viewports {
		p.do(t, chromedp.EmulateViewport(vp.w, vp.h))
		for i, c := range cases {
			p.open(t, fileURL(dirs[i]))
			checkFirstScreenExtras(t, p, passedBackend(t, data[i]), c, filepath.Dir(abs), fmt.Sprintf("%s at %dx%d", c, vp.w, vp.h))
			for _, sel := range []string{"#latency-value", "#top-findings h2", "#pareto svg"} {
				top := eval[float64](t, p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.getBoundingClientRect().top : 1e9; })()`, sel))
				if top < 0 || top > float64(vp.h)-40 {
					t.Errorf("%s at %dx%d: %s starts at y=%.0f, not on the first screen", c, vp.w, vp.h, sel, top)
				}
			}
			if vp.w == 1280 {
				p.viewportShot(t, "first-screen-"+c)
				p.do(t, colorScheme("dark"))
				p.viewportShot(t, "first-screen-dark-"+c)
				p.do(t, colorScheme("light"))
			}
		}
		p.open(t, fileURL(full))
		if got := p.textOf(t, "header .subtitle .mono"); got != abs {
			t.Errorf("packaged with --full-paths, the header shows the folder as %q, want %q", got, abs)
		}
	}
	noJSErrors(t, p)
}

// checkFirstScreenExtras: the first screen also shows time by type and by
// precision (their bars, with the breakdowns' first names, above the
// fold), the AI panel without analyze.md as one line, and the input
// folder by its base name only: no directory above it anywhere on the page.
func checkFirstScreenExtras(t *testing.T, p *page, b *contract.Backend, base, parent, at string) {
	t.Helper()
	vh := eval[float64](t, p, `innerHeight`)
	for _, c := range []struct {
		sel  string
		want []contract.Breakdown
		max  int
	}{{"#chart-type", b.TypeBreakdown, 6}, {"#chart-precision", b.PrecisionBreakdown, 5}} {
		bars := eval[[]struct {
			Text       string
			Top, Width float64
		}](t, p, fmt.Sprintf(`Array.from(document.querySelectorAll("%s .bar-row")).map((r) => { const b = r.getBoundingClientRect(); return {text: r.innerText, top: b.top, width: b.width}; })`, c.sel))
		want := len(c.want)
		if want > c.max {
			want = c.max + 1 // the rest in one "other" bar
		}
		if len(bars) != want {
			t.Errorf("%s: %s has %d bars, want %d for a breakdown of %d (up to %d and the rest)", at, c.sel, len(bars), want, len(c.want), c.max)
			continue
		}
		if len(bars) > 0 && (!strings.Contains(bars[0].Text, c.want[0].Name) || bars[0].Top > vh-20 || bars[0].Width < 100) {
			t.Errorf("%s: %s's first bar %q at y=%.0f, %.0f px wide: want %s on the first screen", at, c.sel, bars[0].Text, bars[0].Top, bars[0].Width, c.want[0].Name)
		}
	}
	checkWhatElseWasChecked(t, p, b, at)
	checkTensorRTVersion(t, p, b, at)
	checkModelDevice(t, p, b, at)
	ai := p.box(t, "#analysis", false)
	if !ai.Found || ai.Height > 56 || !strings.HasPrefix(p.textOf(t, "#analysis-none"), "No AI analysis") {
		t.Errorf("%s: without analyze.md the AI panel should be one line; it is %.0f px high: %q", at, ai.Height, p.textOf(t, "#analysis"))
	}
	if got := p.textOf(t, "header .subtitle .mono"); got != base {
		t.Errorf("%s: the header shows the input folder as %q, want its base name %q", at, got, base)
	}
	if txt := eval[string](t, p, `document.body.innerText + " " + document.title`); strings.Contains(txt, parent) {
		t.Errorf("%s: the page shows the directory %s above the input folder", at, parent)
	}
}

// checkTensorRTVersion: the How fast card's TensorRT row names the
// version a log or metadata gives, else the range the analysis inferred
// from the file formats with its source (as summary prints it), and says
// "version unknown" only when neither is known.
func checkTensorRTVersion(t *testing.T, p *page, b *contract.Backend, at string) {
	t.Helper()
	want := ""
	switch r := b.TensorRTRange; {
	case b.Build != nil && b.Build.TensorRTVersion != nil:
		want = *b.Build.TensorRTVersion
	case r != nil && r.Max == nil:
		want = r.Min + " or newer (from file formats)"
	case r != nil && *r.Max == r.Min:
		want = r.Min + " (from file formats)"
	case r != nil:
		want = r.Min + "–" + *r.Max + " (from file formats)"
	case b.Build != nil:
		want = "version unknown"
	}
	got := eval[string](t, p, `(() => { const e = document.getElementById("run-trt"); return e ? e.textContent : ""; })()`)
	if !strings.Contains(got, want) || (want == "" && got != "") {
		t.Errorf("%s: the How fast card's TensorRT row says %q, want %q", at, got, want)
	}
	if r := b.TensorRTRange; r != nil && len(r.Evidence) > 0 {
		if title := p.attr(t, "#run-trt", "title"); !strings.Contains(title, r.Evidence[0]) {
			t.Errorf("%s: the TensorRT range's hover text %q does not give its evidence %q", at, title, r.Evidence[0])
		}
	}
}

// checkModelDevice: a finding the cost model priced names the GPU it was
// priced for on its price line, in both findings lists; when no file names
// the GPU (prediction.device_source default_class) the first such finding
// says the GPU is a default the model assumed and how to name the real
// one, as summary does.
func checkModelDevice(t *testing.T, p *page, b *contract.Backend, at string) {
	t.Helper()
	first := true
	for k, f := range b.Issues {
		if f.PriceBasis != "model" || b.Prediction == nil {
			continue
		}
		dev := b.Prediction.Device
		for _, list := range []string{"#top-findings", "#findings"} {
			if list == "#top-findings" && k >= 3 {
				continue
			}
			li := fmt.Sprintf(`%s li[data-id=%q]`, list, f.ID)
			if got := p.textOf(t, li+" .worth"); !strings.Contains(got, "cost model for "+dev) {
				t.Errorf("%s: %s: the model price of %s does not name its GPU %s: %q", at, list, f.ID, dev, got)
			}
			note := eval[string](t, p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.textContent : ""; })()`, li+" .device-note"))
			wantNote := first && b.Prediction.DeviceSource == contract.PredictionDeviceDefault
			if wantNote != (note != "") || wantNote && (!strings.Contains(note, dev) || !strings.Contains(note, "DEFAULT") || !strings.Contains(note, "--gpu")) {
				t.Errorf("%s: %s: finding %s's device note %q (want one: %v)", at, list, f.ID, note, wantNote)
			}
		}
		first = false
	}
}

// checkWhatElseWasChecked: with fewer than three findings the "What to
// do" panel fills the room with what else was checked: the line of
// candidates too small to score (when there are any) and the first
// positives' titles, above the fold.
func checkWhatElseWasChecked(t *testing.T, p *page, b *contract.Backend, at string) {
	t.Helper()
	if len(b.Issues) >= 3 {
		return
	}
	minor := slices.IndexFunc(b.Overview, func(o contract.OverviewItem) bool { return o.ID == contract.OverviewMinorItems })
	if got := p.textOf(t, "#minor-items summary"); minor >= 0 && got != b.Overview[minor].Title {
		t.Errorf("%s: the What to do panel shows %q for the unscored candidates, want %q", at, got, b.Overview[minor].Title)
	}
	room := min(3-len(b.Issues), len(b.Positives))
	got := eval[[]string](t, p, `Array.from(document.querySelectorAll("#top-positives li")).filter((e) => { const r = e.getBoundingClientRect(); return r.height > 0 && r.bottom <= innerHeight; }).map((e) => e.innerText)`)
	var want []string
	for _, pos := range b.Positives[:room] {
		want = append(want, pos.Title)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: the What to do panel shows %q as already good on the first screen, want %q", at, got, want)
	}
}

// edgeReport mirrors window.__trtperf.edgeReport().
type edgeReport struct {
	Engine      string
	Edges       int
	Hidden      [][]int  // producer, consumer, the layer whose box the edge crosses
	Boundary    int      // edges where the precision changes
	Conversions int      // reformat / Q/DQ nodes marked
	RankSpan    []int    // per edge, how many rows it spans
	Labels      []string // per edge, the tensor label drawn on it ("" without one)
}

// TestCorpusGraphMobileNetV2 is acceptance 2: on the MobileNetV2 QAT case
// every edge, residual (skip) edges included, is routed clear of the other
// nodes (checked on the edge geometry, not on pixels), and every reformat
// and Q/DQ layer and every precision change is marked.
func TestCorpusGraphMobileNetV2(t *testing.T) {
	src := filepath.Join(corpustest.Dir(t, corpustest.Reports), "trex-mobilenetv2-qat-titanrtx")
	dir := packageCLI(t, src, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t, 120*time.Second)
	eachViewport(t, p, func(t *testing.T) {
		p.open(t, fileURL(dir))
		for bi, b := range d.Results {
			p.click(t, fmt.Sprintf(`#backend-tabs .tab[data-index="%d"]`, bi))
			p.do(t, chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]:not([data-layout="pending"])`)))
			if got := p.attr(t, fmt.Sprintf(`#backend-tabs .tab[data-index="%d"]`, bi), "aria-selected"); got != "true" {
				t.Errorf("%s: tab aria-selected=%q", b.Label, got)
			}
			r := eval[edgeReport](t, p, `window.__trtperf.edgeReport()`)
			if r.Engine != "dagre" || r.Edges != len(b.Graph.Edges) {
				t.Errorf("%s: %s layout with %d edges, want dagre with all %d", b.Label, r.Engine, r.Edges, len(b.Graph.Edges))
			}
			for _, h := range r.Hidden {
				t.Errorf("%s: edge %q → %q runs through %q", b.Label, b.Layers[h[0]].Name, b.Layers[h[1]].Name, b.Layers[h[2]].Name)
			}
			skips := 0
			for _, s := range r.RankSpan {
				if s > 1 {
					skips++
				}
			}
			// MobileNetV2 has 10 residual connections; each is an edge that
			// skips at least one row.
			if skips < 10 {
				t.Errorf("%s: %d edges skip a row, want the 10 residuals at least", b.Label, skips)
			}
			conv, boundary := 0, 0
			prec := map[int]string{}
			for _, rec := range b.Records {
				prec[rec.Layer] = rec.Precision
				if isConversion(&rec) {
					conv++
				}
			}
			for _, e := range b.Graph.Edges {
				if prec[e[0]] != prec[e[1]] {
					boundary++
				}
			}
			if r.Conversions != conv || r.Boundary != boundary {
				t.Errorf("%s: %d conversion nodes and %d precision-change edges marked, want %d and %d", b.Label, r.Conversions, r.Boundary, conv, boundary)
			}
			// Zoom in on the first residual so the shot shows edge labels.
			for k, sp := range r.RankSpan {
				if sp > 1 {
					p.do(t, js(fmt.Sprintf(`window.__trtperf.select(%d)`, b.Graph.Edges[k][1])))
					break
				}
			}
			p.elementShot(t, "#explorer", "graph-mobilenetv2-"+b.Label)
		}
	})
	noJSErrors(t, p)
}
