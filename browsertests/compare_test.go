package browsertests

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trtperf/trtperf/internal/cli"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
)

// TestCompareTabGenerated drives the compare tab on three generated builds
// of one network (fp16, int8, fp32): it needs no corpus.
func TestCompareTabGenerated(t *testing.T) {
	src := t.TempDir()
	for _, prec := range []string{"fp16", "int8", "fp32"} {
		var out, errb bytes.Buffer
		args := []string{"gen", "--shape", "cnn", "--layers", "60", "--seed", "5", "--precision", prec, "--label", prec, "--out", src}
		if code := cli.Main(args, &out, &errb); code != 0 {
			t.Fatalf("trtperf %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
	}
	checkCompareTab(t, src, "generated-cnn")
}

// TestCompareTabCorpus is issue 11 acceptance 5 on real dumps: the A100
// ResNet18 with three Q/DQ placements.
func TestCompareTabCorpus(t *testing.T) {
	// Skips with a message when ../shared/corpus is absent;
	// TestCompareTabGenerated covers the tab without it.
	checkCompareTab(t, filepath.Join(corpustest.Dir(t, corpustest.Reports), "trex-resnet18-a100-qat"), "trex-resnet18-a100-qat")
}

// checkCompareTab packages src, opens its compare tab at two window sizes
// and checks every pair: the verdict names the measure, the stacked bars
// have boxes in view, the waterfall starts at a_ms and ends at b_ms as
// printed and its steps add up to delta_ms, the aligned table has one row
// per row of the data, and a row click highlights the group's layers in
// the graph. Screenshots in light and dark mode go to $TRTPERF_ARTIFACTS.
func checkCompareTab(t *testing.T, src, name string) {
	dir := packageCLI(t, src, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Comparison == nil || len(d.Comparison.Pairs) < 2 {
		t.Fatalf("%s: want a comparison with at least two pairs (three backends), got %+v", name, d.Comparison)
	}
	p := newPage(t, 180*time.Second)
	for _, vp := range []struct{ w, h int64 }{{1280, 800}, {1920, 1080}} {
		p.do(t, chromedp.EmulateViewport(vp.w, vp.h))
		p.open(t, fileURL(dir))
		p.click(t, "#compare-tab")
		waitReady(t, p)
		if got := p.attr(t, "#compare-tab", "aria-selected"); got != "true" {
			t.Errorf("compare tab aria-selected=%s", got)
		}
		for i := range d.Comparison.Pairs {
			pr := &d.Comparison.Pairs[i]
			at := fmt.Sprintf("%s %dx%d %s vs %s", name, vp.w, vp.h, pr.A, pr.B)
			p.click(t, fmt.Sprintf("#pair-tab-%d", i))
			waitReady(t, p)
			checkPair(t, p, pr, at, int(vp.w))
		}
		if vp.w == 1280 {
			// Light and dark: screenshots with a group highlighted, and
			// every visible text of the tab meets WCAG AA contrast.
			seen := map[string]bool{}
			for _, scheme := range []string{"light", "dark"} {
				p.do(t, colorScheme(scheme))
				p.click(t, "#pair-tab-1")
				p.click(t, "#pair-tab-0")
				waitReady(t, p)
				p.click(t, `#aligned-table tr[data-row="0"]`)
				waitReady(t, p)
				p.screenshot(t, "compare-"+name+"-"+scheme)
				checkContrast(t, p, fmt.Sprintf("%s compare tab %s", name, scheme), seen)
			}
			p.do(t, colorScheme("light"))
		}
	}
	noJSErrors(t, p)
}

func waitReady(t *testing.T, p *page) {
	t.Helper()
	p.do(t, chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]:not([data-layout="pending"])`)))
}

// printedMs reads the number of a "0.251 ms" label and how many decimals
// it was printed with.
func printedMs(t *testing.T, s string) (float64, int) {
	t.Helper()
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "ms"))
	s = strings.Replace(s, "−", "-", 1)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a printed number of ms: %v", s, err)
	}
	dec := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		dec = len(s) - i - 1
	}
	return v, dec
}

// samePrinted: v printed with dec decimals reads as got.
func samePrinted(got float64, dec int, v float64) bool {
	return math.Abs(got-v) <= 0.5*math.Pow(10, -float64(dec))+1e-12
}

type rect struct{ Left, Right, Top, Bottom, Width, Height float64 }

func checkPair(t *testing.T, p *page, pr *contract.ComparisonPair, at string, vw int) {
	t.Helper()
	// The verdict in words, on a named measure.
	verdict := p.text(t, "#verdict-text")
	band := "noise band"
	if pr.Measure == contract.MeasurePredicted {
		band = "cost model's error band"
	}
	if !strings.Contains(verdict, pr.B) || !strings.Contains(verdict, band) {
		t.Errorf("%s: verdict %q names neither %s nor the %s", at, verdict, pr.B, band)
	}
	wantMeasure := map[string]string{"gpu_compute": "measured GPU compute median", "end_to_end": "measured host latency (H2D + compute + D2H) median", "layer_sum": "layer sums"}[pr.Measure]
	if got := p.text(t, "#compare-measure"); !strings.HasPrefix(got, wantMeasure) {
		t.Errorf("%s: measure shown %q, want %q for %s", at, got, wantMeasure, pr.Measure)
	}

	// Stacked bars: each backend row has segments with non-zero boxes
	// inside the viewport once scrolled to, and they add up to its total.
	stacks := eval[[]struct {
		Label      string
		Total, Sum float64
		Boxes      []rect
	}](t, p, `(() => {
		document.getElementById("stacks").scrollIntoView({block: "center", behavior: "instant"});
		return Array.from(document.querySelectorAll("#stacks .stack-row")).map((r) => ({
			label: r.dataset.label, total: +r.dataset.total, sum: +r.dataset.sum,
			boxes: Array.from(r.querySelectorAll(".stack-seg")).map((s) => { const b = s.getBoundingClientRect(); return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width, height: b.height}; }),
		}));
	})()`)
	vh := eval[float64](t, p, `window.innerHeight`)
	if len(stacks) < 2 {
		t.Errorf("%s: %d stacked bars, want the pair's two at least", at, len(stacks))
	}
	for _, s := range stacks {
		if len(s.Boxes) == 0 {
			t.Errorf("%s: stacked bar of %s has no segment", at, s.Label)
		}
		if math.Abs(s.Sum-s.Total) > 1e-6*math.Max(1, s.Total) {
			t.Errorf("%s: stacked bar of %s sums to %g, total %g", at, s.Label, s.Sum, s.Total)
		}
		for _, b := range s.Boxes {
			if b.Width <= 0 || b.Height <= 0 || b.Left < 0 || b.Right > float64(vw)+0.5 || b.Top < 0 || b.Bottom > vh {
				t.Errorf("%s: a segment of %s's bar is empty or outside the %dx%.0f viewport: %+v", at, s.Label, vw, vh, b)
			}
		}
	}

	// Waterfall: first and last bars print a_ms and b_ms; the steps add up
	// to delta_ms.
	wf := eval[struct {
		First, Last string
		Steps       []float64
		Boxes       []rect
	}](t, p, `(() => {
		document.getElementById("waterfall").scrollIntoView({block: "center", behavior: "instant"});
		const rows = Array.from(document.querySelectorAll("#waterfall .wf-row"));
		return {
			first: document.querySelector("#waterfall .wf-first .wf-value").textContent,
			last: document.querySelector("#waterfall .wf-last .wf-value").textContent,
			steps: rows.filter((r) => r.classList.contains("wf-step")).map((r) => +r.dataset.ms),
			boxes: rows.map((r) => { const b = r.querySelector(".wf-bar").getBoundingClientRect(); return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width, height: b.height}; }),
		};
	})()`)
	if v, dec := printedMs(t, wf.First); !samePrinted(v, dec, pr.AMs) {
		t.Errorf("%s: waterfall starts at %q, pair a_ms is %g", at, wf.First, pr.AMs)
	}
	if v, dec := printedMs(t, wf.Last); !samePrinted(v, dec, pr.BMs) {
		t.Errorf("%s: waterfall ends at %q, pair b_ms is %g", at, wf.Last, pr.BMs)
	}
	var sum float64
	for _, s := range wf.Steps {
		sum += s
	}
	if math.Abs(sum-pr.DeltaMs) > 1e-6*math.Max(1, math.Abs(pr.AMs)) {
		t.Errorf("%s: waterfall steps sum to %g, delta_ms is %g", at, sum, pr.DeltaMs)
	}
	for i, b := range wf.Boxes {
		if b.Width <= 0 || b.Height <= 0 || b.Left < 0 || b.Right > float64(vw)+0.5 {
			t.Errorf("%s: waterfall bar %d is empty or outside the viewport: %+v", at, i, b)
		}
	}
	if v, dec := printedMs(t, p.text(t, "#compare-a-ms")); !samePrinted(v, dec, pr.AMs) {
		t.Errorf("%s: A total printed %g, a_ms %g", at, v, pr.AMs)
	}

	// The aligned table: one row per row of the data.
	if got := eval[int](t, p, `document.querySelectorAll("#aligned-table tbody tr").length`); got != len(pr.Rows) {
		t.Errorf("%s: aligned table has %d rows, the pair has %d", at, got, len(pr.Rows))
	}
	// Sorting by Δ ms keeps every row.
	p.click(t, `#aligned-table th[data-key="delta_ms"] button`)
	if got := eval[int](t, p, `document.querySelectorAll("#aligned-table tbody tr").length`); got != len(pr.Rows) {
		t.Errorf("%s: after sorting the table has %d rows, want %d", at, got, len(pr.Rows))
	}
	if got := p.attr(t, `#aligned-table th[data-key="delta_ms"]`, "aria-sort"); got != "ascending" && got != "descending" {
		t.Errorf("%s: sorted column says aria-sort=none", at)
	}

	// Row clicks highlight the group's layers: a row with B layers in B's
	// graph, an only-A row in A's.
	clickRow := func(i int, side string, layers []int) {
		p.click(t, fmt.Sprintf(`#aligned-table tr[data-row="%d"]`, i))
		waitReady(t, p)
		if got := p.attr(t, "#graph-side-"+side, "aria-pressed"); got != "true" {
			t.Errorf("%s: after clicking row %d the graph of side %s is not shown", at, i, side)
			return
		}
		for _, l := range layers {
			if st := stateOf(t, p, l); st.Highlighted == 0 {
				t.Errorf("%s: row %d (%s): layer %d is not highlighted in the graph of %s", at, i, pr.Rows[i].Kind, l, side)
			}
		}
		if got := eval[string](t, p, `(document.querySelector("#aligned-table tr.selected")||{dataset:{}}).dataset.row || ""`); got != strconv.Itoa(i) {
			t.Errorf("%s: clicked row %d, selected row is %q", at, i, got)
		}
	}
	clicked := 0
	for i, r := range pr.Rows {
		if len(r.BLayers) > 0 && clicked&1 == 0 {
			clickRow(i, "b", r.BLayers)
			clicked |= 1
		}
		if len(r.BLayers) == 0 && len(r.ALayers) > 0 && clicked&2 == 0 {
			clickRow(i, "a", r.ALayers)
			clicked |= 2
		}
	}
	if clicked == 0 {
		t.Errorf("%s: no aligned row with layers to click", at)
	}
}

// TestCompareSameEngine: two labels of one engine (the same generated
// dumps twice) get the "same engine" verdict in the compare tab: the
// sentence names both labels and calls the difference run-to-run noise,
// the tab shows no change list of layers, at 1280×800 and 1920×1080, and
// its text meets WCAG AA contrast in light and dark mode.
func TestCompareSameEngine(t *testing.T) {
	src := t.TempDir()
	for _, label := range []string{"run1", "run2"} {
		var out, errb bytes.Buffer
		args := []string{"gen", "--shape", "cnn", "--layers", "60", "--seed", "5", "--label", label, "--out", src}
		if code := cli.Main(args, &out, &errb); code != 0 {
			t.Fatalf("trtperf %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
	}
	dir := packageCLI(t, src, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Comparison == nil || len(d.Comparison.Pairs) != 1 || d.Comparison.Pairs[0].Verdict != contract.VerdictSameEngine {
		t.Fatalf("two labels of the same dumps: want one pair with verdict same_engine, got %+v", d.Comparison)
	}
	pr := &d.Comparison.Pairs[0]
	p := newPage(t, 90*time.Second)
	seen := map[string]bool{}
	for _, vp := range viewports {
		for _, scheme := range []string{"light", "dark"} {
			at := fmt.Sprintf("%dx%d %s", vp.w, vp.h, scheme)
			p.do(t, chromedp.EmulateViewport(vp.w, vp.h), colorScheme(scheme))
			p.open(t, fileURL(dir))
			p.click(t, "#compare-tab")
			waitReady(t, p)
			verdict := p.text(t, "#verdict-text")
			if !strings.HasPrefix(verdict, "Same engine:") || !strings.Contains(verdict, pr.A) || !strings.Contains(verdict, pr.B) || !strings.Contains(verdict, "noise") {
				t.Errorf("%s: verdict %q, want the same-engine sentence naming %s and %s", at, verdict, pr.A, pr.B)
			}
			p.checkVisible(t, at+" verdict", "#verdict-text", true)
			// The verdict says it once; the line under it adds, not repeats.
			if head := strings.ToLower(p.text(t, "#compare-verdict")); strings.Count(head, "same engine") != 1 {
				t.Errorf("%s: the verdict section says \"same engine\" %d times, want once: %q", at, strings.Count(head, "same engine"), head)
			}
			if v, dec := printedMs(t, p.text(t, "#compare-a-ms")); !samePrinted(v, dec, pr.AMs) {
				t.Errorf("%s: A total printed %g, a_ms %g", at, v, pr.AMs)
			}
			checkContrast(t, p, "same engine compare tab "+at, seen)
			if vp.w == viewports[0].w {
				p.viewportShot(t, "compare-same-engine-"+scheme)
			}
		}
	}
	p.do(t, colorScheme("light"))
	noJSErrors(t, p)
}
