package browsertests

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/trtperf/trtperf/internal/cli"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// looks are the window sizes of issue 23 in light and dark colour schemes.
var looks = []struct {
	w, h   int64
	scheme string
}{{1280, 800, "light"}, {1280, 800, "dark"}, {1920, 1080, "light"}, {1920, 1080, "dark"}}

// eachLook runs check at each size and colour scheme in one browser, in a
// subtest named by both ("1280x800-dark").
func eachLook(t *testing.T, p *page, check func(t *testing.T, name string)) {
	t.Helper()
	for _, lk := range looks {
		name := fmt.Sprintf("%dx%d-%s", lk.w, lk.h, lk.scheme)
		t.Run(name, func(t *testing.T) {
			p.do(t, chromedp.EmulateViewport(lk.w, lk.h), colourScheme(lk.scheme))
			check(t, name)
		})
	}
}

// colourScheme emulates prefers-color-scheme.
func colourScheme(s string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}}})
		return err
	})
}

// openBackend opens the report and the backend labelled label.
func (p *page) openBackend(t *testing.T, url, label string) {
	t.Helper()
	p.open(t, url)
	if eval[string](t, p, `document.querySelector("#backend-tabs .tab.active").dataset.label || ""`) == label {
		return
	}
	p.do(t, js(fmt.Sprintf(`document.querySelector('#backend-tabs .tab[data-label=%q]').click()`, label)),
		chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]:not([data-layout="pending"])`)))
}

// TestConversionsAndFormats is issue 23 items 2 and 3 on real engines: the
// conversions are what the analysis' tags say (layerfacts.ConversionKind
// over the records), the same set in the graph's marks, the Conversions
// tab and the first screen's count; every edge label is the tensor's
// dimensions and layerfacts.FormatLabel of its format (the command line's
// vocabulary: a Thirty-two wide format is chw32, never C/2).
func TestConversionsAndFormats(t *testing.T) {
	root := corpustest.Dir(t, corpustest.Reports)
	cases := []struct{ dir, label string }{
		{"trex-tf-resnet50-rtx3090", "int8-qat"},
		{"trex-mobilenetv2-qat-titanrtx", "int8-qat"},
		{"trex-resnet18-a100-qat", "int8-qat"},
	}
	var names []string
	for _, c := range cases {
		names = append(names, c.dir)
	}
	dirs, data := packageCorpus(t, root, names)
	p := newPage(t, 300*time.Second)
	for i, c := range cases {
		b := backendByLabel(t, data[i], c.label)
		want := map[int]string{}
		for k := range b.Records {
			r := &b.Records[k]
			if kind := layerfacts.ConversionKind(r.Tags, r.FusedOps, r.InputTypes, r.OutputTypes, r.Name); kind != "" {
				want[r.Layer] = kind
			}
		}
		labels := map[string]bool{}
		chw32 := false
		for _, l := range b.Layers {
			for _, x := range append(append([]contract.Tensor(nil), l.Inputs...), l.Outputs...) {
				labels[strings.TrimSpace(dimsText(x.Dimensions)+" "+layerfacts.FormatLabel(x.Format))] = true
				chw32 = chw32 || strings.Contains(x.Format, "Thirty-two wide")
			}
		}
		t.Run(c.dir, func(t *testing.T) {
			eachLook(t, p, func(t *testing.T, look string) {
				p.openBackend(t, fileURL(dirs[i]), c.label)
				if got := p.attr(t, "#card-conversions", "data-value"); got != fmt.Sprint(len(want)) {
					t.Errorf("first screen counts %s conversions, the analysis' tags %d", got, len(want))
				}
				r := eval[edgeReport](t, p, `window.__trtperf.edgeReport()`)
				if r.Conversions != len(want) {
					t.Errorf("the graph marks %d conversions, the analysis' tags %d", r.Conversions, len(want))
				}
				sawChw32 := false
				for _, l := range r.Labels {
					if l == "" {
						continue
					}
					if !labels[l] {
						t.Errorf("edge label %q is no tensor's dims and FormatLabel", l)
						break
					}
					sawChw32 = sawChw32 || strings.Contains(l, ":chw32")
				}
				if chw32 && !sawChw32 {
					t.Errorf("the engine has Thirty-two wide tensors but no edge says chw32")
				}
				p.showView(t, "conversions")
				rows := eval[[]struct {
					Layer int
					Kind  string
					Label string
				}](t, p, `Array.from(document.querySelectorAll("#conversions tbody tr")).map((r) => ({layer: Number(r.dataset.layer),
					kind: r.children[1].querySelector(".muted").textContent, label: r.querySelector(".conv-labels").textContent}))`)
				if len(rows) != len(want) {
					t.Errorf("the Conversions tab lists %d layers, the analysis' tags %d", len(rows), len(want))
				}
				for _, row := range rows {
					if want[row.Layer] != row.Kind {
						t.Errorf("conversion row of layer %d says %q, the tags %q", row.Layer, row.Kind, want[row.Layer])
					}
					if strings.Contains(row.Label, "C/") || !strings.Contains(row.Label, ":") {
						t.Errorf("conversion row of layer %d labels its formats %q", row.Layer, row.Label)
					}
				}
				checkNoBrokenTokens(t, p, "conversions")
				// A conversion's details: tensors, shapes and formats.
				p.click(t, "#conversions tbody tr .linkish")
				p.do(t, chromedp.WaitReady(chromedp.CSS(`#details[data-loaded]`)))
				p.showView(t, "conversions")
				checkNoBrokenTokens(t, p, "conversion details")
				checkDetailsFit(t, p)
				if look == "1280x800-dark" && i == 0 {
					p.elementShot(t, "#explorer", "conversions-"+c.dir+"-"+look)
				}
			})
		})
	}
	noJSErrors(t, p)
}

// detailsFit is what checkDetailsFit measures in the layer details panel.
const detailsFit = `(() => {
	const side = document.getElementById("side"), d = document.getElementById("details");
	const right = d.getBoundingClientRect().right;
	const out = [];
	for (const e of d.querySelectorAll("*")) {
		const r = e.getBoundingClientRect();
		if (r.width > 0 && r.right > right + 1) out.push(e.tagName + " " + (e.textContent || "").slice(0, 40));
		if (["TD", "TH", "DD"].includes(e.tagName) && e.scrollWidth > e.clientWidth + 1 && !e.classList.contains("dims")) out.push("clipped " + e.tagName + " " + (e.textContent || "").slice(0, 40));
	}
	const lh = (e) => parseFloat(getComputedStyle(e).lineHeight) || 18;
	const wrapped = Array.from(d.querySelectorAll(".kv dt")).filter((e) => e.getBoundingClientRect().height > 1.5 * lh(e)).map((e) => e.textContent);
	return {width: side.getBoundingClientRect().width, overflow: side.scrollWidth > side.clientWidth + 1, out: out.slice(0, 5), wrapped};
})()`

// checkDetailsFit is issue 23's details panel at 1280 px: the panel is at
// least 400 px wide, nothing in it reaches past its right edge or is
// clipped in its cell (the tensor tables included: whole tensor names,
// formats), and its labels keep to one line.
func checkDetailsFit(t *testing.T, p *page) {
	t.Helper()
	f := eval[struct {
		Width    float64
		Overflow bool
		Out      []string
		Wrapped  []string
	}](t, p, detailsFit)
	if f.Width < 400 || f.Overflow || len(f.Out) > 0 || len(f.Wrapped) > 0 {
		t.Errorf("layer details: %.0f px wide (want ≥ 400), scrolls sideways %v, past its edge or clipped %q, labels on two lines %q", f.Width, f.Overflow, f.Out, f.Wrapped)
	}
}

// backendByLabel returns the backend labelled label.
func backendByLabel(t *testing.T, d *contract.AnalyzeData, label string) *contract.Backend {
	t.Helper()
	for i := range d.Results {
		if d.Results[i].Label == label {
			return &d.Results[i]
		}
	}
	t.Fatalf("no backend %q", label)
	return nil
}

// dimsText is dims as the report writes them ("1×64×8×8").
func dimsText(d []int64) string {
	parts := make([]string, len(d))
	for i, v := range d {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, "×")
}

// brokenTokens returns up to 20 words (runs of non-space characters) of
// the page's tables, cards and charts that the layout broke across lines:
// a number split from its digits or a name cut mid-word ("0.0 / 614 / ms",
// "Sha/pe"). The whole-name places (the details' heading, parameters,
// prose) are left out.
const brokenTokens = `(() => {
	const bad = [];
	for (const root of document.querySelectorAll("#latency, #pareto, #breakdowns, .tensors, .kv, .trow, .cmp-table, #run-card, .bars")) {
		const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
		for (let n = w.nextNode(); n; n = w.nextNode()) {
			const el = n.parentElement;
			if (!el || el.closest("#details-name, pre, .markdown, .evidence, [hidden]") || !el.getClientRects().length) continue;
			const re = /\S+/g;
			let m;
			while ((m = re.exec(n.textContent)) && bad.length < 20) {
				const r = document.createRange();
				r.setStart(n, m.index);
				r.setEnd(n, m.index + m[0].length);
				const tops = new Set(Array.from(r.getClientRects()).filter((x) => x.width > 0).map((x) => Math.round(x.bottom)));
				// A word longer than a card column (a path, a fused
				// layer's name) may wrap; names in tables are cut instead.
				if (tops.size > 1 && m[0].length <= 32) bad.push(m[0]);
			}
		}
	}
	return bad;
})()`

// checkNoBrokenTokens fails when a number or identifier is broken across
// lines.
func checkNoBrokenTokens(t *testing.T, p *page, where string) {
	t.Helper()
	if bad := eval[[]string](t, p, brokenTokens); len(bad) > 0 {
		t.Errorf("%s: words broken across lines: %q", where, bad)
	}
}

// expectedHeadline is the latency the first screen should quote: measured
// GPU compute or latency median, else end to end, else the layer sum.
func expectedHeadline(b *contract.Backend) (float64, bool) {
	tm := b.Timing
	if m := tm.Measured; m != nil {
		if v := m.GPUComputeMs.Median; v != nil && *v > 0 {
			return *v, true
		}
		if v := m.LatencyMs.Median; v != nil && *v > 0 {
			return *v, true
		}
	}
	if e := tm.EndToEnd; e != nil && e.MedianMs > 0 {
		return e.MedianMs, true
	}
	// A partial table: the layer sum its rows' percentages imply.
	if d := b.Diagnosis; d != nil && d.ReferenceSource == "layer_sum" && d.LayerSumMs > tm.AverageInferenceMs*1.01 {
		return d.LayerSumMs, false
	}
	return tm.AverageInferenceMs, false
}

// TestPartialTableHeadline: a pasted fragment of a per-layer table is not
// the engine's time: the How fast card shows the layer sum its rows'
// percentages imply (as the summary prices on), marked approximate, and
// says what the rows read sum to.
func TestPartialTableHeadline(t *testing.T) {
	root := corpustest.IssuesDir(t, corpustest.Reports)
	cases := []string{"issue-pytorch-tensorrt-3715-prelu-converter-extra-layers", "issue-nvidia-tensorrt-1293-qat-slower-than-ptq-residual-without-qdq"}
	dirs, data := packageCorpus(t, root, cases)
	p := newPage(t, 120*time.Second)
	checked := 0
	for i, c := range cases {
		for bi := range data[i].Results {
			b := &data[i].Results[bi]
			d := b.Diagnosis
			if b.Timing == nil || d == nil || d.LayerSumMs <= b.Timing.AverageInferenceMs*1.01 {
				continue
			}
			checked++
			p.openBackend(t, fileURL(dirs[i]), b.Label)
			if got := parseFloat(t, p.attr(t, "#latency", "data-value")); math.Abs(got-d.LayerSumMs) > 1e-9*math.Max(1, d.LayerSumMs) {
				t.Errorf("%s %s: headline %v ms, want the implied layer sum %v (rows read %v)", c, b.Label, got, d.LayerSumMs, b.Timing.AverageInferenceMs)
			}
			if txt := p.textOf(t, "#latency-value"); !strings.HasPrefix(txt, "≈") {
				t.Errorf("%s %s: headline %q is not marked approximate", c, b.Label, txt)
			}
			if src := p.textOf(t, "#latency-source"); !strings.Contains(src, "partial table") {
				t.Errorf("%s %s: source %q does not say the table is partial", c, b.Label, src)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no partial table among the cases")
	}
	noJSErrors(t, p)
}

// TestProfileOnlyReport is issue 23 item 1 for profile_only backends: a
// TensorRT 7 GPU run without layer info (the Jetson GoogLeNet sweep), a
// names-only dump (DETR) and a generated names-only engine. Each page
// shows the headline latency (measured when the folder has it), the
// profiled layer count, time by kind saying the kinds come from layer
// names, the overview items, the slowest layers as bars that open their
// record, and one table row per record — no graph.
func TestProfileOnlyReport(t *testing.T) {
	root := corpustest.Dir(t, corpustest.Reports)
	cases := []string{"jetson-trt7-googlenet-int8-batch-sweep-concat", "detr-resnet50-int8-layer-names-only"}
	dirs, data := packageCorpus(t, root, cases)
	dir, d := generatedReport(t, "--shape", "cnn", "--layers", "120", "--names-only", "--label", "int8", "--precision", "int8")
	cases, dirs, data = append(cases, "generated-names-only"), append(dirs, dir), append(data, d)
	p := newPage(t, 300*time.Second)
	for i, c := range cases {
		b := &data[i].Results[0]
		if b.Validation.AnalysisMode != contract.ModeProfileOnly {
			t.Fatalf("%s: analysis mode %s, want profile_only", c, b.Validation.AnalysisMode)
		}
		t.Run(c, func(t *testing.T) {
			eachLook(t, p, func(t *testing.T, look string) {
				p.open(t, fileURL(dirs[i]))
				if got := p.attr(t, "#validation", "class"); !strings.Contains(got, "partial-banner") {
					t.Errorf("validation panel class %q, want the partial (profile only) banner", got)
				}
				want, measured := expectedHeadline(b)
				if got := parseFloat(t, p.attr(t, "#latency", "data-value")); math.Abs(got-want) > 1e-9*math.Max(1, want) {
					t.Errorf("headline %v ms, want %v", got, want)
				}
				if got := p.attr(t, "#latency", "data-measured"); got != map[bool]string{true: "1", false: "0"}[measured] {
					t.Errorf("headline measured=%s, want %v", got, measured)
				}
				if got := p.attr(t, "#card-layers", "data-value"); got != strconv.Itoa(b.ProfileCount) {
					t.Errorf("card counts %s layers, the profile %d", got, b.ProfileCount)
				}
				if got := p.textOf(t, "#chart-type h3"); !strings.Contains(got, "guessed from layer names") {
					t.Errorf("time by kind is titled %q: it does not say the kinds are guessed from names", got)
				}
				var ids []string
				for _, o := range b.Overview {
					if o.ID != contract.OverviewMinorItems {
						ids = append(ids, o.ID)
					}
				}
				if got := eval[[]string](t, p, `Array.from(document.querySelectorAll("#overview-items > li")).map((e) => e.dataset.id)`); !slices.Equal(got, ids) {
					t.Errorf("overview items on the page %v, the analysis %v", got, ids)
				}
				if eval[bool](t, p, `!!document.getElementById("view-tab-graph")`) {
					t.Error("a profile_only backend has a graph tab")
				}
				if got := len(eval[[]int](t, p, `window.__trtperf.rows()`)); got != len(b.Records) {
					t.Errorf("the table has %d rows, the profile %d records", got, len(b.Records))
				}
				checkRecordConversions(t, p, b)
				// The slowest bar opens its record in the details.
				bars := eval[int](t, p, `document.querySelectorAll("#pareto .pareto-bar").length`)
				if bars != min(20, len(b.Records)) {
					t.Errorf("%d Pareto bars for %d records", bars, len(b.Records))
				}
				p.click(t, "#pareto .pareto-bar .hit")
				p.do(t, chromedp.WaitReady(chromedp.CSS(`#details[data-loaded]`)))
				slowest := slices.MaxFunc(b.Records, func(x, y contract.Record) int { return cmp.Compare(x.AvgMs, y.AvgMs) })
				if got := p.text(t, "#details-name"); got != slowest.Name {
					t.Errorf("the slowest bar opened %q, want %q", got, slowest.Name)
				}
				if got := p.textOf(t, "#details .kv"); !strings.Contains(got, "guessed from the name") {
					t.Errorf("details do not say the kind was guessed: %q", got)
				}
				checkNoBrokenTokens(t, p, c)
				if strings.HasSuffix(look, "light") || i == 0 {
					p.screenshot(t, "profile-only-"+c+"-"+look)
				}
			})
		})
	}
	noJSErrors(t, p)
}

// checkRecordConversions is issue 23 item 2 on a profile_only backend:
// the records whose tags (guessed from their names) make them conversions
// (layerfacts.ConversionKind, the command line's set) are the first
// screen's count and the Conversions tab's rows, each with its kind.
func checkRecordConversions(t *testing.T, p *page, b *contract.Backend) {
	t.Helper()
	want := map[int]string{}
	for i := range b.Records {
		r := &b.Records[i]
		if kind := layerfacts.ConversionKind(r.Tags, r.FusedOps, r.InputTypes, r.OutputTypes, r.Name); kind != "" {
			want[i] = kind
		}
	}
	got := eval[string](t, p, `(() => { const e = document.getElementById("card-conversions"); return e ? e.dataset.value : "0"; })()`)
	if got != strconv.Itoa(len(want)) {
		t.Errorf("first screen counts %s conversions, the records' tags %d", got, len(want))
	}
	p.showView(t, "conversions")
	rows := eval[[]struct {
		Layer int
		Kind  string
	}](t, p, `Array.from(document.querySelectorAll("#conversions tbody tr")).map((r) => ({layer: Number(r.dataset.layer), kind: r.querySelector(".conv-kind").textContent}))`)
	if len(rows) != len(want) {
		t.Errorf("the Conversions tab lists %d records, the records' tags %d", len(rows), len(want))
	}
	for _, row := range rows {
		if want[row.Layer] != row.Kind {
			t.Errorf("conversion row of record %d says %q, the tags %q", row.Layer, row.Kind, want[row.Layer])
		}
	}
	p.showView(t, "table")
}

// TestDLAProfileReport is issue 23 item 1 on a generated DLA-style
// profile-only folder (trtperf gen --dla all: TensorRT 7 "{a,b,c}"
// subgraph and "output reformatter" wait records, TensorRT 8 foreign nodes
// between "to nvm" / "from nvm" / "copy finish" records): each backend's
// page shows the layer sum as its headline, the DLA placement item, time
// by kind guessed from names with the DLA kinds, one row per record, the
// GPU's reformats (not the DLA's wait records) as conversions, and the
// findings' "Show N records" highlighting the records they own.
func TestDLAProfileReport(t *testing.T) {
	dir, d := generatedReport(t, "--dla", "all")
	p := newPage(t, 300*time.Second)
	convs, owning := 0, 0
	for bi := range d.Results {
		b := &d.Results[bi]
		if b.Validation.AnalysisMode != contract.ModeProfileOnly {
			t.Fatalf("%s: analysis mode %s, want profile_only", b.Label, b.Validation.AnalysisMode)
		}
		t.Run(b.Label, func(t *testing.T) {
			eachLook(t, p, func(t *testing.T, look string) {
				p.openBackend(t, fileURL(dir), b.Label)
				if got := p.attr(t, "#validation", "class"); !strings.Contains(got, "partial-banner") {
					t.Errorf("validation panel class %q, want the partial (profile only) banner", got)
				}
				want, _ := expectedHeadline(b)
				if got := parseFloat(t, p.attr(t, "#latency", "data-value")); math.Abs(got-want) > 1e-9*math.Max(1, want) {
					t.Errorf("headline %v ms, want %v", got, want)
				}
				if got := p.attr(t, "#card-layers", "data-value"); got != strconv.Itoa(b.ProfileCount) {
					t.Errorf("card counts %s layers, the profile %d", got, b.ProfileCount)
				}
				if got := p.textOf(t, "#chart-type"); !strings.Contains(got, "guessed from layer names") || !strings.Contains(got, layerfacts.KindDLATransfer) {
					t.Errorf("time by kind %q: not guessed from names, or no DLA hand-over kind", got)
				}
				if !eval[bool](t, p, `!!document.querySelector('#overview-items [data-id="profile_dla"]')`) {
					t.Error("the page does not show the DLA placement (overview item profile_dla)")
				}
				// Time by placement is the analysis' DLA time (subgraph,
				// hand-over and wait records), not the "DLA" kind alone.
				for _, o := range b.Overview {
					if o.ID != "profile_dla" {
						continue
					}
					bars := eval[[]string](t, p, `Array.from(document.querySelectorAll("#chart-placement .bar-value")).map((e) => e.textContent)`)
					if want := fmt.Sprintf("%.3f ms", o.Metrics["time_ms"]); len(bars) != 2 || !strings.Contains(bars[0], want) {
						t.Errorf("time by placement %q, want DLA %s (profile_dla)", bars, want)
					}
				}
				if got := len(eval[[]int](t, p, `window.__trtperf.rows()`)); got != len(b.Records) {
					t.Errorf("the table has %d rows, the profile %d records", got, len(b.Records))
				}
				checkRecordConversions(t, p, b)
				for _, f := range b.Issues {
					if len(f.Records) == 0 {
						continue
					}
					p.click(t, fmt.Sprintf(`.finding[data-id=%q] button.show-layers`, f.ID))
					got := eval[[]int](t, p, `window.__trtperf.rows()`)
					slices.Sort(got)
					own := slices.Sorted(slices.Values(f.Records))
					if !slices.Equal(got, slices.Compact(own)) {
						t.Errorf("finding %s: the table shows records %v, it owns %v", f.ID, got, own)
					}
					p.click(t, "#table-chip button")
				}
				checkNoBrokenTokens(t, p, b.Label)
				if look == "1280x800-light" || look == "1920x1080-dark" {
					p.screenshot(t, "dla-"+b.Label+"-"+look)
				}
			})
		})
		for i := range b.Records {
			r := &b.Records[i]
			if layerfacts.ConversionKind(r.Tags, r.FusedOps, r.InputTypes, r.OutputTypes, r.Name) != "" {
				convs++
				if r.LayerType == layerfacts.KindDLATransfer || r.LayerType == layerfacts.KindDLA {
					t.Errorf("%s: the DLA record %q counts as a conversion", b.Label, r.Name)
				}
			}
		}
		for _, f := range b.Issues {
			if len(f.Records) > 0 {
				owning++
			}
		}
	}
	// The folder must exercise what the test checks.
	if convs == 0 || owning == 0 {
		t.Errorf("the generated DLA runs hold %d conversion records and %d findings owning records: the checks above did not run", convs, owning)
	}
	noJSErrors(t, p)
}

// generatedReport packages the engine trtperf gen makes with args and
// returns the report folder and its analysis.
func generatedReport(t *testing.T, args ...string) (string, *contract.AnalyzeData) {
	t.Helper()
	gen := t.TempDir()
	runGen(t, append(args, "--out", gen)...)
	dir := packageCLI(t, gen, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, d
}

// runGen runs trtperf gen with args.
func runGen(t *testing.T, args ...string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Main(append([]string{"gen"}, args...), &out, &errb); code != 0 {
		t.Fatalf("trtperf gen: exit %d: %s", code, errb.String())
	}
}

// graphView is window.__trtperf.viewOf(layer): where a node is drawn.
type graphView struct {
	FX, FY, S, W, H float64
	FitW, FitH      bool
}

// legibleScale is graph.ts LEGIBLE_SCALE.
const legibleScale = 0.72

// TestGraphViewport is issue 23 item 4: the graph canvas takes the
// window's height; it opens on a legible view (the whole graph when that is
// legible, else the slowest node at 1:1); Fit fits both axes; a layer
// selected in the Table is centred when the Graph opens. On an 86- and a
// 389-layer corpus engine and a generated 300-layer layer_only engine.
func TestGraphViewport(t *testing.T) {
	root := corpustest.Dir(t, corpustest.Reports)
	cases := []string{"trex-tf-resnet50-rtx3090", "controlnet-sd15-trt86-fp16"}
	dirs, data := packageCorpus(t, root, cases)
	dir, d := generatedReport(t, "--shape", "cnn", "--layers", "300", "--profile-kind", "none", "--label", "fp16")
	cases, dirs, data = append(cases, "generated-layer-only"), append(dirs, dir), append(data, d)
	p := newPage(t, 300*time.Second)
	for i, c := range cases {
		b := &data[i].Results[0]
		for k := range data[i].Results {
			if data[i].Results[k].Validation.Status == contract.StatusPassed {
				b = &data[i].Results[k]
				break
			}
		}
		slowest := -1
		for _, r := range b.Records {
			if slowest < 0 || r.AvgMs > b.Records[slowest].AvgMs {
				slowest = r.Layer
			}
		}
		far := b.Graph.TopoOrder[len(b.Graph.TopoOrder)-1]
		t.Run(c, func(t *testing.T) {
			eachLook(t, p, func(t *testing.T, look string) {
				p.open(t, fileURL(dirs[i]))
				vh := eval[float64](t, p, `innerHeight`)
				if h := eval[float64](t, p, `document.querySelector(".canvas-wrap").getBoundingClientRect().height`); h < vh-200 {
					t.Errorf("graph canvas %.0f px high in a %.0f px window", h, vh)
				}
				probe := b.Graph.TopoOrder[0]
				if slowest >= 0 {
					probe = slowest
				}
				v := eval[graphView](t, p, fmt.Sprintf(`window.__trtperf.viewOf(%d)`, probe))
				whole := v.FitW && v.FitH
				switch {
				case v.S < legibleScale-1e-9:
					t.Errorf("opens at zoom %.2f, below the legible %.2f", v.S, legibleScale)
				case !whole && slowest >= 0 && (math.Abs(v.FX-0.5) > 0.05 || math.Abs(v.FY-0.5) > 0.05):
					t.Errorf("opens on part of the graph but not centred on the slowest layer (at %.2f, %.2f)", v.FX, v.FY)
				}
				t.Logf("opens at zoom %.2f, whole graph %v", v.S, whole)
				if look == "1280x800-light" {
					p.elementShot(t, "#explorer", "graph-open-"+c)
				}
				p.click(t, "#graph-fit")
				if v := eval[graphView](t, p, fmt.Sprintf(`window.__trtperf.viewOf(%d)`, probe)); !v.FitW || !v.FitH {
					t.Errorf("after Fit the graph does not fit both axes: %+v", v)
				}
				// A Table row selected, then the Graph: the node is centred.
				p.showView(t, "table")
				p.do(t, js(fmt.Sprintf(`window.__trtperf.select(%d)`, far)))
				p.showView(t, "graph")
				if v := eval[graphView](t, p, fmt.Sprintf(`window.__trtperf.viewOf(%d)`, far)); math.Abs(v.FX-0.5) > 0.02 || math.Abs(v.FY-0.5) > 0.02 || v.S < legibleScale-1e-9 {
					t.Errorf("a layer selected in the Table is drawn at (%.2f, %.2f) of the canvas at zoom %.2f, not centred and legible", v.FX, v.FY, v.S)
				}
			})
		})
	}
	noJSErrors(t, p)
}

// minTypeDeltaE is the least CIEDE2000 difference the report's type
// colours keep between any two (colors.ts; its palette's smallest is 13.0).
const minTypeDeltaE = 12

// TestItems100k is issue 23 item 7 on the generated 100k-layer LLM engine,
// at 1280×800 and 1920×1080, light and dark: colour by time separates the
// graph's (grouped) nodes (quantile scale: no tenth of the scale holds
// more than a third of them), the type colours are apart (CIEDE2000), a
// Pareto bar click shows its effect in the window, and table rows say
// aria-selected.
func TestItems100k(t *testing.T) {
	if chromium() == "" {
		t.Skip("SKIP: no Chromium found; the 100k-layer browser test did not run")
	}
	dumps := t.TempDir()
	runGen(t, "--shape", "llm", "--layers", "100000", "--seed", "1", "--label", "fp16", "--out", dumps)
	dir := packageCLI(t, dumps, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000", "--model-name", "llm-100k")
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	b := passedBackend(t, d)
	p := newPage(t, 600*time.Second)
	palette := false
	eachLook(t, p, func(t *testing.T, look string) {
		p.open(t, fileURL(dir))
		if !palette {
			palette = true
			if dmin, x, y := minDeltaE(t, eval[[]string](t, p, `window.__trtperf.palette()`)); dmin < minTypeDeltaE {
				t.Errorf("type palette: %s and %s differ by ΔE2000 %.1f, want at least %d", x, y, dmin, minTypeDeltaE)
			}
		}
		if cs := eval[[]string](t, p, `window.__trtperf.typeColors()`); len(cs) <= 24 {
			if dmin, x, y := minDeltaE(t, cs); dmin < minTypeDeltaE {
				t.Errorf("type colours of the report: %s and %s differ by ΔE2000 %.1f", x, y, dmin)
			}
		}
		// Pareto: the click shows its effect where the click was.
		bar := b.Records[0].Layer
		if top := eval[[]int](t, p, `Array.from(document.querySelectorAll("#pareto .pareto-bar")).map((g) => Number(g.dataset.layer))`); len(top) > 1 {
			bar = top[1]
		}
		p.click(t, fmt.Sprintf(`#pareto .pareto-bar[data-layer="%d"] .hit`, bar))
		p.checkVisible(t, "Pareto selection line", "#pareto-selected", false)
		if got := p.textOf(t, "#pareto-selected"); !strings.Contains(got, b.Layers[bar].Name) {
			t.Errorf("after a Pareto click the chart says %q, not the layer %q", got, b.Layers[bar].Name)
		}
		if !eval[bool](t, p, fmt.Sprintf(`document.querySelector('#pareto .pareto-bar[data-layer="%d"]').classList.contains("selected")`, bar)) {
			t.Error("the clicked Pareto bar is not marked")
		}
		// Table rows: aria-selected.
		p.showView(t, "table")
		sel := eval[[]string](t, p, `Array.from(document.querySelectorAll("#table-body .trow:not([hidden])")).map((r) => r.dataset.layer + ":" + r.getAttribute("aria-selected"))`)
		found := false
		for _, s := range sel {
			l, v, _ := strings.Cut(s, ":")
			if want := map[bool]string{true: "true", false: "false"}[l == strconv.Itoa(bar)]; v != want {
				t.Errorf("table row of layer %s has aria-selected=%q, want %q", l, v, want)
				break
			}
			found = found || l == strconv.Itoa(bar)
		}
		if !found {
			t.Errorf("the selected layer %d has no visible table row", bar)
		}
		// Colour by time separates the nodes.
		p.showView(t, "graph")
		p.setValue(t, "#graph-color", "time", "change")
		bands := eval[[]float64](t, p, `window.__trtperf.timeBands()`)
		used := 0
		for _, f := range bands {
			if f > 0.35 {
				t.Errorf("one tenth of the time scale holds %.0f%% of the nodes: %v", 100*f, bands)
			}
			if f > 0 {
				used++
			}
		}
		if used < 6 {
			t.Errorf("colour by time uses %d of 10 steps: %v", used, bands)
		}
		if look == "1280x800-light" || look == "1920x1080-dark" {
			p.elementShot(t, "#explorer", "100k-time-"+look)
		}
		p.setValue(t, "#graph-color", "type", "change")
		// Hierarchy: labelled tiles at every level from the top down to
		// the layers, opened largest first with Enter.
		p.showView(t, "hierarchy")
		cv := p.checkVisible(t, "treemap canvas", "#treemap-canvas", false)
		p.do(t, chromedp.Focus(chromedp.CSS("#treemap-canvas")))
		for level := 0; level < 6; level++ {
			r := eval[treemapReport](t, p, `window.__trtperf.treemap()`)
			checkTreemapLabels(t, r, cv.Width*cv.Height, fmt.Sprintf("level %d (%s)", level, r.At))
			if look == "1280x800-light" {
				p.elementShot(t, "#treemap", fmt.Sprintf("100k-hierarchy-%s-level%d", look, level))
			}
			if len(r.Rects) == 0 || r.Rects[0].Layer >= 0 {
				break
			}
			p.do(t, chromedp.KeyEvent("\r"))
		}
		checkNoBrokenTokens(t, p, "100k")
	})
	noJSErrors(t, p)
}

// legibleTile is the smallest treemap tile (px) that must carry a label:
// one 12 px line with a few characters of its name.
const legibleTileW, legibleTileH = 44.0, 20.0

// checkTreemapLabels is issue 23 item 7's "labelled hierarchy tiles down
// to a legible size" on one level of the treemap: every tile at least
// legibleTileW × legibleTileH carries a label of at least three characters
// of its name (cut in the middle) that fits inside it, no two tiles of a depth overlap, and
// labelled tiles cover most of the canvas (a level of a thousand specks
// has none).
func checkTreemapLabels(t *testing.T, r treemapReport, canvas float64, at string) {
	t.Helper()
	labelled, bad := 0.0, 0
	for i, x := range r.Rects {
		if x.Open {
			continue // a group drawn open: its header and parts are drawn
		}
		if x.W >= legibleTileW && x.H >= legibleTileH && !x.Labelled && bad < 5 {
			bad++
			t.Errorf("%s: the %.0f×%.0f px tile %q has no label", at, x.W, x.H, x.Name)
		}
		if x.Labelled {
			labelled += x.W * x.H
			// The label is the tile's name (and count), or its start and
			// end around "…".
			head, tail, cut := strings.Cut(x.Label, "…")
			if !strings.HasPrefix(x.Full, x.Name) || (!cut && x.Label != x.Full) || (cut && (!strings.HasPrefix(x.Full, head) || !strings.HasSuffix(x.Full, tail) || len([]rune(head+tail)) < 3)) {
				t.Errorf("%s: tile %q is labelled %q", at, x.Name, x.Label)
			}
			if x.LabelW > x.W-5 {
				t.Errorf("%s: the label %q (%.0f px) is wider than its %.0f px tile", at, x.Label, x.LabelW, x.W)
			}
		}
		for _, y := range r.Rects[i+1:] {
			if y.Depth == x.Depth && min(x.X+x.W, y.X+y.W)-max(x.X, y.X) > 0.5 && min(x.Y+x.H, y.Y+y.H)-max(x.Y, y.Y) > 0.5 {
				t.Errorf("%s: tiles %q and %q overlap", at, x.Name, y.Name)
				return
			}
		}
	}
	if labelled < 0.8*canvas {
		t.Errorf("%s: labelled tiles cover %.0f%% of the canvas, want at least 80%%", at, 100*labelled/canvas)
	}
}

// TestLogOnlyReport is issue 23 item 1 for log-derived backends (a trtexec
// console log alone, from ../shared/issues): the page quotes the measured
// time, lists which file and lines gave each measured number, shows what
// the log says (the overview items), and a --loadEngine run's trtexec
// defaults ("Precision: FP32") are not shown as the build precision.
func TestLogOnlyReport(t *testing.T) {
	root := corpustest.IssuesDir(t, corpustest.Reports)
	cases := []string{"issue-nvidia-tensorrt-2377-trt84-80ms-app-timing-not-engine", "issue-nvidia-tensorrt-4026-huge-fp32-inputs-h2d-as-long-as-compute"}
	dirs, data := packageCorpus(t, root, cases)
	p := newPage(t, 300*time.Second)
	for i, c := range cases {
		t.Run(c, func(t *testing.T) {
			for bi := range data[i].Results {
				b := &data[i].Results[bi]
				if b.LayerCount > 0 || b.ProfileCount > 0 {
					continue
				}
				eachLook(t, p, func(t *testing.T, look string) {
					p.openBackend(t, fileURL(dirs[i]), b.Label)
					// A measured_only backend is usable in part (its
					// measured time), not refused as uninterpretable.
					if b.Validation.AnalysisMode == contract.ModeMeasuredOnly {
						if got := p.attr(t, "#validation", "class"); !strings.Contains(got, "partial-banner") {
							t.Errorf("measured_only backend: validation panel class %q, want the partial banner", got)
						}
						if got := p.textOf(t, "#card-layers"); got != "no per-layer data" {
							t.Errorf("measured_only backend: the card says %q, want no per-layer data", got)
						}
						// Its tab says partial, as the CLI summary does,
						// not failed.
						if got := eval[string](t, p, fmt.Sprintf(`document.querySelector('#backend-tabs .tab[data-label=%q] .badge').textContent`, b.Label)); got != "partial" {
							t.Errorf("measured_only backend: tab badge %q, want partial", got)
						}
					}
					if !eval[bool](t, p, `!!document.getElementById("log-facts")`) {
						t.Fatalf("backend %s: no 'What the log says' panel", b.Label)
					}
					var ids []string
					for _, o := range b.Overview {
						ids = append(ids, o.ID)
					}
					if got := eval[[]string](t, p, `Array.from(document.querySelectorAll("#log-facts #overview-items > li")).map((e) => e.dataset.id)`); !slices.Equal(got, ids) {
						t.Errorf("overview items %v, the analysis %v", got, ids)
					}
					rows := eval[[][]string](t, p, `Array.from(document.querySelectorAll("#fact-sources tr")).map((r) => Array.from(r.children).map((c) => c.textContent))`)
					if m := b.Timing; m != nil && m.Measured != nil {
						want, _ := expectedHeadline(b)
						if got := parseFloat(t, p.attr(t, "#latency", "data-value")); math.Abs(got-want) > 1e-9*math.Max(1, want) {
							t.Errorf("headline %v ms, want the measured %v", got, want)
						}
						for _, s := range m.Measured.Sources {
							found := false
							for _, r := range rows {
								found = found || (len(r) == 4 && r[2] == s.File && (s.Lines == nil || r[3] == *s.Lines))
							}
							if !found {
								t.Errorf("no row gives the source %s lines %v: %q", s.File, s.Lines, rows)
							}
						}
					}
					if bu := b.Build; bu != nil && bu.Precision == nil {
						if txt := p.textOf(t, "#latency"); strings.Contains(txt, "FP32") || strings.Contains(txt, "FP16") {
							t.Errorf("the How fast card states a precision the analysis does not know (a --loadEngine run?): %q", txt)
						}
					}
					checkNoBrokenTokens(t, p, c)
					if look == "1280x800-light" {
						p.screenshot(t, "log-only-"+b.Label+"-"+look)
					}
				})
			}
		})
	}
	noJSErrors(t, p)
}

// TestLayerOnlyReport is issue 23 item 1 for a layer_only backend (a
// generated engine without a profile): structure, precision and kernel
// family mix, and the cost model's predicted times marked PREDICTED in the
// headline, the Pareto chart, the table and the graph's colour by time.
func TestLayerOnlyReport(t *testing.T) {
	dir, d := generatedReport(t, "--shape", "cnn", "--layers", "300", "--profile-kind", "none", "--label", "fp16")
	b := &d.Results[0]
	if b.Validation.AnalysisMode != contract.ModeLayerOnly || b.Prediction == nil {
		t.Fatalf("generated engine: mode %s, prediction %v", b.Validation.AnalysisMode, b.Prediction != nil)
	}
	p := newPage(t, 300*time.Second)
	eachLook(t, p, func(t *testing.T, look string) {
		p.open(t, fileURL(dir))
		if got := p.attr(t, "#latency", "data-predicted"); got != "1" {
			t.Errorf("headline data-predicted=%q", got)
		}
		if got := parseFloat(t, p.attr(t, "#latency", "data-value")); math.Abs(got-b.Prediction.TotalMs) > 1e-9*math.Max(1, got) {
			t.Errorf("headline %v, the prediction %v", got, b.Prediction.TotalMs)
		}
		for _, sel := range []string{"#latency-source", "#pareto h2"} {
			if got := p.textOf(t, sel); !strings.Contains(got, "PREDICTED") {
				t.Errorf("%s does not say PREDICTED: %q", sel, got)
			}
		}
		if n := eval[int](t, p, `document.querySelectorAll("#pareto .pareto-bar").length`); n != min(20, b.LayerCount) {
			t.Errorf("%d Pareto bars", n)
		}
		if got := eval[int](t, p, `document.querySelectorAll("#chart-tactics .bar-row").length`); got == 0 {
			t.Error("no kernel family mix")
		}
		if got := p.textOf(t, "#layer-table .thead, .layer-table .thead"); !strings.Contains(got, "Predicted") {
			t.Errorf("table header %q does not say the times are predicted", got)
		}
		if got := eval[string](t, p, `document.querySelector('#graph-color option[value="time"]').textContent`); !strings.Contains(got, "predicted") {
			t.Errorf("graph colour option %q", got)
		}
		checkNoBrokenTokens(t, p, "layer-only")
		if look == "1280x800-dark" {
			p.screenshot(t, "layer-only-"+look)
		}
	})
	noJSErrors(t, p)
}
