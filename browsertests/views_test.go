package browsertests

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// box is an element's rectangle in CSS pixels, relative to the viewport.
type box struct {
	Found                    bool
	Left, Top, Width, Height float64
	VW, VH                   float64
}

// visible scrolls sel into view (unless noScroll) and returns its box.
func (p *page) box(tb testing.TB, sel string, scroll bool) box {
	tb.Helper()
	return eval[box](tb, p, fmt.Sprintf(`new Promise((resolve) => {
		const el = document.querySelector(%q);
		if (!el) return resolve({found: false});
		if (%v) el.scrollIntoView({block: "start", behavior: "instant"});
		requestAnimationFrame(() => requestAnimationFrame(() => {
			const r = el.getBoundingClientRect();
			resolve({found: true, left: r.left, top: r.top, width: r.width, height: r.height, vw: innerWidth, vh: innerHeight});
		}));
	})`, sel, scroll), chromedp.EvalAwaitPromise)
}

// checkVisible fails unless sel has a non-empty box whose top-left part
// lies inside the viewport and that is no wider than the viewport.
func (p *page) checkVisible(tb testing.TB, what, sel string, scroll bool) box {
	tb.Helper()
	b := p.box(tb, sel, scroll)
	switch {
	case !b.Found:
		tb.Errorf("%s: nothing matches %s", what, sel)
	case b.Width < 1 && b.Height < 1, b.Width*b.Height == 0 && !strings.Contains(sel, "line"):
		tb.Errorf("%s: %s has an empty box %.0f×%.0f", what, sel, b.Width, b.Height)
	case b.Left < -1 || b.Left+b.Width > b.VW+1 || b.Top < -1 || b.Top > b.VH-20:
		tb.Errorf("%s: %s at (%.0f, %.0f) %.0f×%.0f is not inside the %.0f×%.0f viewport", what, sel, b.Left, b.Top, b.Width, b.Height, b.VW, b.VH)
	}
	return b
}

// shotHere saves what the window shows now (no scrolling) as a PNG under
// $TRTPERF_ARTIFACTS (or a temp dir).
func (p *page) shotHere(tb testing.TB, name string) {
	tb.Helper()
	dir := os.Getenv("TRTPERF_ARTIFACTS")
	if dir == "" {
		dir = tb.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	buf := run(tb, p, chromedp.CaptureScreenshot())
	file := filepath.Join(dir, name+".png")
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("screenshot: %s", file)
}

// textOf is the text of the first element matching sel, "" when none
// does (p.text would wait for it).
func (p *page) textOf(tb testing.TB, sel string) string {
	tb.Helper()
	return eval[string](tb, p, fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel))
}

// showView clicks a view tab and waits until its panel is shown.
func (p *page) showView(tb testing.TB, id string) {
	tb.Helper()
	p.click(tb, "#view-tab-"+id)
	p.do(tb, chromedp.WaitVisible(chromedp.CSS("#view-"+id)))
}

// TestCorpusRunViews: on the A100 ResNet18 case (device and build metadata,
// --exportTimes files) the first screen shows the device / build /
// measurement card and the Latency view plots every kept inference with
// its median and p99, at 1280×800 and 1920×1080, light and dark, with no
// console errors. Screenshots are saved as artifacts.
func TestCorpusRunViews(t *testing.T) {
	src := filepath.Join(corpustest.Dir(t, corpustest.Reports), "trex-resnet18-a100-fp32-fp16")
	dir := packageCLI(t, src, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	b := passedBackend(t, d)
	m := b.Timing.Measured
	if b.Device == nil || m == nil || m.PerIteration == nil {
		t.Fatalf("%s lost its device facts or per-iteration times: the test needs them", src)
	}
	p := newPage(t, 180*time.Second)
	for _, vp := range []struct{ w, h int64 }{{1280, 800}, {1920, 1080}} {
		for _, scheme := range []string{"light", "dark"} {
			name := fmt.Sprintf("%dx%d-%s", vp.w, vp.h, scheme)
			t.Run(name, func(t *testing.T) {
				p.do(t, chromedp.EmulateViewport(vp.w, vp.h), colorScheme(scheme))
				p.open(t, fileURL(dir))
				p.checkVisible(t, "run card", "#run-card", false)
				card := p.textOf(t, "#run-card")
				for _, want := range []string{b.Device.Name, "compute capability " + *b.Device.ComputeCapability,
					fmt.Sprintf("%.0f GB/s", *b.Device.MemoryBandwidthGBs), fmt.Sprintf("FP16 %.0f", *b.Device.PeakTFLOPS.FP16), "TFLOP/s dense", "CUDA graph", *b.Build.Precision} {
					if !strings.Contains(card, want) {
						t.Errorf("run card lacks %q: %q", want, card)
					}
				}
				if got := p.textOf(t, "#profile-overhead"); !strings.Contains(got, fmt.Sprintf("%.2f×", *m.ProfileOverhead)) {
					t.Errorf("profiling overhead %q, the analysis says %.3f", got, *m.ProfileOverhead)
				}
				p.checkVisible(t, "measured latency", "#latency-value", false)
				p.checkVisible(t, "profiling overhead", "#profile-overhead", false)
				if scheme == "light" {
					p.viewportShot(t, "run-card-"+name)
				}

				p.showView(t, "latency")
				p.checkVisible(t, "latency view", "#latency-plot", true)
				p.checkVisible(t, "latency plot", "#latency-plot svg", false)
				pts := eval[int](t, p, `document.querySelector("#latency-plot polyline.series").points.numberOfItems`)
				if pts != len(m.PerIteration.Ms) {
					t.Errorf("the plot draws %d points, the series has %d", pts, len(m.PerIteration.Ms))
				}
				for _, sel := range []string{"#latency-plot line.median", "#latency-plot line.p99"} {
					p.checkVisible(t, "latency mark", sel, false)
				}
				note := p.textOf(t, "#latency-plot-note")
				if !strings.Contains(note, m.PerIteration.Source) || !strings.Contains(note, "median") {
					t.Errorf("plot note %q does not name its source and median", note)
				}
				labels := eval[string](t, p, `Array.from(document.querySelectorAll("#latency-plot .axis-title")).map((e) => e.textContent).join(" | ")`)
				if !strings.Contains(labels, "GPU compute time (ms)") || !strings.Contains(labels, "inference") {
					t.Errorf("axis titles %q", labels)
				}
				checkContrast(t, p, "latency view "+name, map[string]bool{})
				p.do(t, chromedp.MouseEvent(chromedp.MouseMoved, float64(vp.w)/3, 200))
				p.shotHere(t, "latency-"+name)
			})
		}
	}
	noJSErrors(t, p)
}

// treemapReport mirrors window.__trtperf.treemap().
type treemapReport struct {
	At    string
	Total float64
	Rects []struct {
		Name       string
		Layer      int
		X, Y, W, H float64
		Depth      int
		Value      float64
		Open       bool    // a group drawn open into its parts
		Labelled   bool    // a label was drawn on the tile
		Label      string  // the label as drawn (fitted with …)
		LabelW     float64 // its width in px
		Full       string  // the label before it was fitted
	}
	Text []canvasPair // text the last draw put on the canvas, with the colour under it
}

// TestCorpusHierarchy: the Hierarchy view of three corpus engines (a CNN
// without name prefixes, a QAT CNN, ControlNet with Myelin graphs and deep
// names) draws a treemap whose top-level areas are proportional to time,
// selects the clicked layer in the side panel, opens a group with Enter and
// goes back with Escape; at 1280×800 and 1920×1080, light and dark, with no
// console errors.
func TestCorpusHierarchy(t *testing.T) {
	root := corpustest.Dir(t, corpustest.Reports)
	cases := []string{"controlnet-sd15-trt86-fp16", "trex-mobilenetv2-qat-titanrtx", "trex-resnet18-a100-fp32-fp16"}
	dirs := make([]string, len(cases))
	for i, c := range cases {
		dirs[i] = packageCLI(t, filepath.Join(root, c), "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	}
	p := newPage(t, 240*time.Second)
	for _, vp := range []struct{ w, h int64 }{{1280, 800}, {1920, 1080}} {
		for _, scheme := range []string{"light", "dark"} {
			for i, c := range cases {
				if scheme == "dark" && i > 0 {
					continue // dark mode: one engine is enough
				}
				name := fmt.Sprintf("%s-%dx%d-%s", c, vp.w, vp.h, scheme)
				t.Run(name, func(t *testing.T) {
					p.do(t, chromedp.EmulateViewport(vp.w, vp.h), colorScheme(scheme))
					p.open(t, fileURL(dirs[i]))
					p.showView(t, "hierarchy")
					p.checkVisible(t, "treemap", "#treemap", true)
					cv := p.checkVisible(t, "treemap canvas", "#treemap-canvas", false)
					r := eval[treemapReport](t, p, `window.__trtperf.treemap()`)
					if len(r.Rects) == 0 || r.Total <= 0 {
						t.Fatalf("empty treemap: %+v", r)
					}
					// Top-level areas are proportional to time and tile the canvas.
					var area float64
					for _, x := range r.Rects {
						if x.Depth != 1 {
							continue
						}
						area += x.W * x.H
						if x.X < -0.5 || x.Y < -0.5 || x.X+x.W > cv.Width+0.5 || x.Y+x.H > cv.Height+0.5 {
							t.Errorf("%s lies outside the %.0f×%.0f canvas", x.Name, cv.Width, cv.Height)
						}
					}
					for _, x := range r.Rects {
						if x.Depth == 1 && x.Value/r.Total > 0.01 {
							if got, want := x.W*x.H/area, x.Value/r.Total; got < want*0.98-1e-3 || got > want*1.02+1e-3 {
								t.Errorf("%s covers %.3f of the area for %.3f of the time", x.Name, got, want)
							}
						}
					}
					if area < cv.Width*cv.Height*0.97 {
						t.Errorf("top-level rectangles cover %.0f of %.0f px²", area, cv.Width*cv.Height)
					}
					// Click the largest drawn layer: the side panel shows it.
					best := -1
					for k, x := range r.Rects {
						if x.Layer >= 0 && x.W > 4 && x.H > 4 && (best < 0 || x.W*x.H > r.Rects[best].W*r.Rects[best].H) {
							best = k
						}
					}
					if best < 0 {
						t.Fatal("no layer rectangle large enough to click")
					}
					hit := r.Rects[best]
					p.do(t, chromedp.MouseClickXY(cv.Left+hit.X+hit.W/2, cv.Top+hit.Y+hit.H/2), chromedp.Sleep(50*time.Millisecond))
					if got := p.textOf(t, "#details-name"); got != hit.Name {
						t.Errorf("clicked %q in the treemap, details show %q", hit.Name, got)
					}
					p.shotHere(t, "hierarchy-"+name)
					checkCanvasPairs(t, r.Text, "treemap "+name, map[string]bool{})
					checkTreemapTable(t, p, r, name)
					// Keyboard: Enter opens the first group, Escape goes back.
					group := ""
					for _, x := range r.Rects {
						if x.Depth == 1 && x.Layer < 0 {
							group = x.Name
							break
						}
					}
					if group != "" && r.Rects[0].Layer < 0 {
						p.do(t, chromedp.Focus(chromedp.CSS("#treemap-canvas")), chromedp.KeyEvent("\r"))
						in := eval[treemapReport](t, p, `window.__trtperf.treemap()`)
						if !strings.HasSuffix(in.At, r.Rects[0].Name) && !strings.Contains(in.At, r.Rects[0].Name) {
							t.Errorf("Enter on %q opened %q", r.Rects[0].Name, in.At)
						}
						if st := p.textOf(t, "#treemap-status"); st == "" {
							t.Error("no status text after Enter")
						}
						p.do(t, chromedp.KeyEvent("\x1b"))
						back := eval[treemapReport](t, p, `window.__trtperf.treemap()`)
						if back.At != r.At {
							t.Errorf("Escape went to %q, want %q", back.At, r.At)
						}
					}
				})
			}
		}
	}
	noJSErrors(t, p)
}

// TestCorpusRoofline: the Roofline view of the A100 ResNet18 plots every
// layer the analysis placed on the roofline under the device's ceilings,
// and a click on the slowest point selects it; at 1280×800 and 1920×1080,
// light and dark. A backend without work estimates says why in one line.
func TestCorpusRoofline(t *testing.T) {
	root := corpustest.Dir(t, corpustest.Reports)
	dir := packageCLI(t, filepath.Join(root, "trex-resnet18-a100-fp32-fp16"), "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	b := passedBackend(t, d)
	placed := 0
	for _, r := range b.Records {
		if r.Roofline != nil && r.Roofline.Intensity != nil && *r.Roofline.Intensity > 0 && r.Roofline.AchievedTFLOPS > 0 {
			placed++
		}
	}
	if placed == 0 {
		t.Fatal("no record has a roofline position: the test needs some")
	}
	p := newPage(t, 180*time.Second)
	for _, vp := range []struct{ w, h int64 }{{1280, 800}, {1920, 1080}} {
		for _, scheme := range []string{"light", "dark"} {
			name := fmt.Sprintf("%dx%d-%s", vp.w, vp.h, scheme)
			t.Run(name, func(t *testing.T) {
				p.do(t, chromedp.EmulateViewport(vp.w, vp.h), colorScheme(scheme))
				p.open(t, fileURL(dir))
				p.showView(t, "roofline")
				p.checkVisible(t, "roofline", "#roofline", true)
				cv := p.checkVisible(t, "roofline canvas", "#roofline-canvas", false)
				r := eval[struct {
					Text     []canvasPair
					Points   int
					Ceilings []string
					First    *struct {
						Layer int
						X, Y  float64
					}
				}](t, p, `window.__trtperf.roofline()`)
				if r.Points != placed {
					t.Errorf("%d points drawn, %d records placed", r.Points, placed)
				}
				if len(r.Ceilings) == 0 {
					t.Errorf("no ceiling drawn although the device has peaks %+v", b.Device.PeakTFLOPS)
				}
				if r.First == nil || r.First.X < 0 || r.First.Y < 0 || r.First.X > cv.Width || r.First.Y > cv.Height {
					t.Fatalf("slowest point %+v is not on the %.0f×%.0f canvas", r.First, cv.Width, cv.Height)
				}
				p.do(t, chromedp.MouseClickXY(cv.Left+r.First.X, cv.Top+r.First.Y), chromedp.Sleep(50*time.Millisecond))
				if got := p.textOf(t, "#details-name"); got != b.Layers[r.First.Layer].Name {
					t.Errorf("clicked the slowest point (layer %d), details show %q", r.First.Layer, got)
				}
				if st := p.textOf(t, "#roofline-status"); !strings.Contains(st, "TFLOP/s") {
					t.Errorf("status %q", st)
				}
				if note := p.textOf(t, "#roofline-note"); !strings.Contains(note, b.Device.Name) {
					t.Errorf("note %q does not name the device", note)
				}
				checkCanvasPairs(t, r.Text, "roofline "+name, map[string]bool{})
				p.checkVisible(t, "roofline", "#roofline", true)
				p.shotHere(t, "roofline-"+name)
			})
		}
	}
	// Synthetic engines carry no work estimates: the view says why in one line.
	syn := reporttest.Synthetic(reporttest.Options{Layers: 50})
	for _, r := range syn.Results[0].Records {
		if r.Roofline != nil {
			t.Fatal("the synthetic engine has roofline positions; pick another engine without")
		}
	}
	p.open(t, fileURL(publish(t, syn, nil)))
	p.showView(t, "roofline")
	if got := p.textOf(t, "#roofline-absent"); !strings.HasPrefix(got, "No roofline:") {
		t.Errorf("without work estimates the view says %q", got)
	}
	noJSErrors(t, p)
}

// checkCanvasPairs fails on canvas text below WCAG AA against the colour
// under it, and when the canvas drew no text at all.
func checkCanvasPairs(t *testing.T, pairs []canvasPair, state string, seen map[string]bool) {
	t.Helper()
	if len(pairs) == 0 {
		t.Errorf("%s: the canvas drew no text", state)
	}
	for _, c := range pairs {
		need := 4.5
		if c.Large {
			need = 3
		}
		key := state + c.What + c.Fg + c.Bg
		if c.Ratio < need-0.005 && !seen[key] {
			seen[key] = true
			t.Errorf("%s: %s %s on %s = %.2f (needs %v)", state, c.What, c.Fg, c.Bg, c.Ratio, need)
		}
	}
}

// checkTreemapTable: the treemap's text alternative lists the parts of
// the level shown, largest first, with their times, in a table that fits
// the window; its buttons open a group as a click on the canvas does, and
// its text meets WCAG AA contrast.
func checkTreemapTable(t *testing.T, p *page, r treemapReport, name string) {
	t.Helper()
	var top []string
	want := map[string]float64{}
	for _, x := range r.Rects {
		if x.Depth == 1 {
			top = append(top, x.Name)
			want[x.Name] = x.Value
		}
	}
	if eval[bool](t, p, `document.getElementById("treemap-list").open`) {
		t.Errorf("%s: the table opens expanded; it should be a toggle below the canvas", name)
	}
	p.click(t, "#treemap-list-toggle")
	p.checkVisible(t, name+" treemap table", "#treemap-table", true)
	rows := eval[[]struct {
		Name, Time string
		Right      float64
	}](t, p, `Array.from(document.querySelectorAll("#treemap-rows tr")).map((r) => ({name: r.querySelector("button").title,
		time: r.children[1].innerText, right: r.getBoundingClientRect().right}))`)
	vw := eval[float64](t, p, `innerWidth`)
	// Every drawn part is a row, in the same order (the table also lists
	// parts too small to draw), up to 50 rows, largest first.
	if len(rows) < min(len(top), 50) || len(rows) > 50 {
		t.Errorf("%s: the table lists %d parts, the treemap draws %d (the table shows up to 50)", name, len(rows), len(top))
	}
	rowOf := map[string]int{} // drawn part → its row (from 1)
	prev := 0.0
	for i, row := range rows {
		for _, part := range top { // row.Name is the part's path: "parent / … / name"
			if row.Name == part || strings.HasSuffix(row.Name, " / "+part) {
				rowOf[part] = i + 1
			}
		}
		if strings.HasSuffix(row.Time, "ms") {
			v, _ := printedMs(t, row.Time)
			if i > 0 && v > prev+1e-9 {
				t.Errorf("%s: table row %d (%q) is larger than the row before it", name, i, row.Time)
			}
			prev = v
		}
		if row.Right > vw+1 {
			t.Errorf("%s: table row %d ends at x=%.0f, outside the %.0f px window", name, i, row.Right, vw)
		}
	}
	last := 0
	for _, part := range top {
		i := rowOf[part]
		if i == 0 {
			if len(rows) < 50 {
				t.Errorf("%s: the treemap's part %q is not in the table", name, part)
			}
			continue
		}
		if i < last {
			t.Errorf("%s: part %q is row %d, after a part the treemap draws after it (row %d)", name, part, i, last)
		}
		last = i
		if row := rows[i-1]; strings.HasSuffix(row.Time, "ms") {
			if v, dec := printedMs(t, row.Time); !samePrinted(v, dec, want[part]) {
				t.Errorf("%s: %q shows %q, the treemap sizes it %g ms", name, part, row.Time, want[part])
			}
		}
	}
	checkContrast(t, p, name+" treemap table", map[string]bool{})
	// The first group's button opens it, as a click on its header does.
	for _, x := range r.Rects {
		if x.Depth != 1 || x.Layer >= 0 || rowOf[x.Name] == 0 {
			continue
		}
		p.click(t, fmt.Sprintf("#treemap-rows tr:nth-child(%d) button", rowOf[x.Name]))
		in := eval[treemapReport](t, p, `window.__trtperf.treemap()`)
		if !strings.HasSuffix(in.At, x.Name) {
			t.Errorf("%s: the table's button of group %q opened %q", name, x.Name, in.At)
		}
		if got := eval[int](t, p, `document.querySelectorAll("#treemap-rows tr").length`); got == 0 {
			t.Errorf("%s: after opening %q the table lists nothing", name, x.Name)
		}
		p.do(t, chromedp.Focus(chromedp.CSS("#treemap-canvas")), chromedp.KeyEvent("\x1b"))
		break
	}
	p.click(t, "#treemap-list-toggle")
}
