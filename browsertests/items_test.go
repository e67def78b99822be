package browsertests

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/layerfacts"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// TestCorpusGraphItems covers issue 12's graph and conversions items on
// two real engines (MobileNetV2 QAT with Q/DQ and reformats, the A100
// ResNet18), at 1280×800 and 1920×1080: the legend for each colour mode
// (a type keeps its colour in every report, the time scale is drawn),
// hover tooltips inside the canvas, edge labels with shape and data type
// drawn when zoomed in, keyboard navigation along edges and rows, and the
// conversions table with its links into the graph. No console errors.
func TestCorpusGraphItems(t *testing.T) {
	root := corpustest.Dir(t, corpustest.Reports)
	cases := []string{"trex-mobilenetv2-qat-titanrtx", "trex-resnet18-a100-fp32-fp16"}
	dirs, data := packageCorpus(t, root, cases)
	p := newPage(t, 300*time.Second)
	typeColours := map[string]string{} // layer type → legend colour, over every report and size
	for _, vp := range viewports {
		for i, c := range cases {
			t.Run(fmt.Sprintf("%s-%dx%d", c, vp.w, vp.h), func(t *testing.T) {
				p.do(t, chromedp.EmulateViewport(vp.w, vp.h))
				p.open(t, fileURL(dirs[i]))
				b := passedBackend(t, data[i])
				checkLegend(t, p, b, typeColours)
				checkTooltip(t, p, b)
				checkEdgeLabels(t, p, b)
				checkGraphKeys(t, p, b)
				checkConversions(t, p, b)
			})
		}
	}
	noJSErrors(t, p)
}

type legendItem struct {
	Text, Colour string
	W, H         float64
}

// checkLegend switches the graph's colour modes and checks the legend of
// each: every present type (up to 14) and precision has a visible swatch,
// a type has the same colour in every report, and colour by time shows a
// drawn quantile scale up to the slowest layer.
func checkLegend(t *testing.T, p *page, b *contract.Backend, typeColours map[string]string) {
	t.Helper()
	p.showView(t, "graph")
	legend := func(mode string) []legendItem {
		p.setValue(t, "#graph-color", mode, "change")
		p.checkVisible(t, "legend "+mode, "#graph-legend", true)
		return eval[[]legendItem](t, p, `Array.from(document.querySelectorAll("#graph-legend .legend-item")).map((e) => {
			const sw = e.querySelector(".swatch:not(.conv):not(.group)"); const r = (sw || e).getBoundingClientRect();
			return {text: e.textContent.trim(), colour: sw ? getComputedStyle(sw).backgroundColor : "", w: r.width, h: r.height}; })`)
	}
	types := map[string]bool{}
	precs := map[string]bool{}
	for _, r := range b.Records {
		types[r.LayerType] = true
		precs[r.Precision] = true
	}
	swatch := func(items []legendItem, text string) *legendItem {
		for k := range items {
			if items[k].Text == text && items[k].Colour != "" {
				return &items[k]
			}
		}
		return nil
	}
	items := legend("type")
	listed := 0
	for typ := range types {
		it := swatch(items, typ)
		if it == nil {
			continue
		}
		listed++
		if it.W < 6 || it.H < 6 || it.Colour == "rgba(0, 0, 0, 0)" {
			t.Errorf("legend swatch of type %s is %.0f×%.0f %s: not visible", typ, it.W, it.H, it.Colour)
		}
		if was, ok := typeColours[typ]; ok && was != it.Colour {
			t.Errorf("type %s is %s here and %s in another report or size: colours per type are not stable", typ, it.Colour, was)
		}
		typeColours[typ] = it.Colour
	}
	if want := min(len(types), 14); listed < want {
		t.Errorf("the type legend lists %d of the %d types (want %d): %+v", listed, len(types), want, items)
	}
	items = legend("precision")
	for pr := range precs {
		if it := swatch(items, pr); it == nil || it.W < 6 || it.H < 6 {
			t.Errorf("the precision legend has no visible swatch for %s: %+v", pr, items)
		}
	}
	legend("time")
	scale := p.checkVisible(t, "time scale", "#time-scale", false)
	if scale.Width < 60 || scale.Height < 4 {
		t.Errorf("the time scale is %.0f×%.0f px", scale.Width, scale.Height)
	}
	if bg := eval[string](t, p, `getComputedStyle(document.getElementById("time-scale")).backgroundImage`); !strings.Contains(bg, "gradient") {
		t.Errorf("the time scale has no colour ramp: %s", bg)
	}
	// A quantile scale (issue 23): the fastest and slowest times at its
	// ends, the median and 90th percentile named.
	slow := 0.0
	for _, r := range b.Records {
		slow = max(slow, r.AvgMs)
	}
	if txt := p.textOf(t, "#graph-legend"); !strings.Contains(txt, "quantile scale") || !strings.Contains(txt, "median") || !strings.Contains(txt, fmt.Sprintf("%.4f ms", slow)) {
		t.Errorf("the time legend does not give its range (slowest %.4f ms) and its quantiles: %q", slow, txt)
	}
	p.setValue(t, "#graph-color", "type", "change")
}

// checkTooltip hovers the slowest layer's node: a tooltip inside the
// canvas names the layer, its type and precision; leaving hides it.
func checkTooltip(t *testing.T, p *page, b *contract.Backend) {
	t.Helper()
	slow := b.Records[0]
	for _, r := range b.Records {
		if r.AvgMs > slow.AvgMs {
			slow = r
		}
	}
	pos := eval[struct{ X, Y float64 }](t, p, fmt.Sprintf(`window.__trtperf.locate(%d)`, slow.Layer))
	p.do(t, chromedp.MouseEvent(chromedp.MouseMoved, pos.X, pos.Y), chromedp.Sleep(50*time.Millisecond))
	tip := eval[struct {
		Hidden                 bool
		Text                   string
		L, T, R, B             float64
		WL, WT, WR, WB, VW, VH float64
	}](t, p, `(() => { const e = document.getElementById("graph-tip"), r = e.getBoundingClientRect(), w = e.parentElement.getBoundingClientRect();
		return {hidden: e.hidden || getComputedStyle(e).display === "none", text: e.innerText, l: r.left, t: r.top, r: r.right, b: r.bottom,
			wl: w.left, wt: w.top, wr: w.right, wb: w.bottom, vw: innerWidth, vh: innerHeight}; })()`)
	name := b.Layers[slow.Layer].Name
	switch {
	case tip.Hidden:
		t.Errorf("hovering layer %d's node shows no tooltip", slow.Layer)
	case !strings.Contains(tip.Text, name) || !strings.Contains(tip.Text, slow.Precision):
		t.Errorf("the tooltip of layer %q (%s) says %q", name, slow.Precision, tip.Text)
	case tip.R-tip.L < 40 || tip.L < tip.WL-1 || tip.R > tip.WR+1 || tip.L < 0 || tip.R > tip.VW+1 || tip.T < 0 || tip.B > tip.VH+1:
		t.Errorf("the tooltip box (%.0f,%.0f)-(%.0f,%.0f) is not inside the graph (%.0f,%.0f)-(%.0f,%.0f) and the %.0f×%.0f window", tip.L, tip.T, tip.R, tip.B, tip.WL, tip.WT, tip.WR, tip.WB, tip.VW, tip.VH)
	}
	p.do(t, chromedp.MouseEvent(chromedp.MouseMoved, 2, 2), chromedp.Sleep(50*time.Millisecond))
	if !eval[bool](t, p, `document.getElementById("graph-tip").hidden`) {
		t.Error("the tooltip stays after the pointer left the graph")
	}
}

// dataType matches the data type shortLabel writes into an edge label.
var dataType = regexp.MustCompile(`(?i)\b(FP32|FP16|BF16|FP8|INT8|INT32|INT64|BOOL)\b`)

// isConversion is the analysis' verdict on a record: its tags make it a
// storage conversion (layerfacts.ConversionKind).
func isConversion(r *contract.Record) bool {
	return layerfacts.ConversionKind(r.Tags, r.FusedOps, r.InputTypes, r.OutputTypes, r.Name) != ""
}

// checkEdgeLabels: edges carry their tensor's shape and data type, and
// the canvas draws those labels once zoomed in on a layer.
func checkEdgeLabels(t *testing.T, p *page, b *contract.Backend) {
	t.Helper()
	r := eval[edgeReport](t, p, `window.__trtperf.edgeReport()`)
	labelled := 0
	for _, l := range r.Labels {
		if l == "" {
			continue
		}
		labelled++
		if !regexp.MustCompile(`\d`).MatchString(l) || !dataType.MatchString(l) {
			t.Errorf("edge label %q lacks a shape or a data type", l)
			break
		}
	}
	t.Logf("%d of %d edges labelled", labelled, r.Edges)
	if len(r.Labels) != r.Edges || labelled < r.Edges*9/10 {
		t.Errorf("%d of %d edges labelled (%d labels), want at least 90 %%", labelled, r.Edges, len(r.Labels))
	}
	mid := b.Graph.TopoOrder[len(b.Graph.TopoOrder)/2]
	p.do(t, js(fmt.Sprintf(`window.__trtperf.locate(%d)`, mid)))
	drew := false
	for _, c := range eval[[]canvasPair](t, p, `window.__trtperf.textColours()`) {
		drew = drew || c.What == "edge label"
	}
	if !drew {
		t.Errorf("zoomed in on layer %d (scale %.2f), the graph drew no edge label", mid, stateOf(t, p, mid).Scale)
	}
}

// checkGraphKeys drives the graph from the keyboard: ↓ moves to a
// consumer, ↑ to a producer, → to the next node in the same row, + and −
// zoom, 0 fits; the side panel follows the selection.
func checkGraphKeys(t *testing.T, p *page, b *contract.Backend) {
	t.Helper()
	cons, prods := map[int][]int{}, map[int][]int{}
	for _, e := range b.Graph.Edges {
		cons[e[0]] = append(cons[e[0]], e[1])
		prods[e[1]] = append(prods[e[1]], e[0])
	}
	sel := func() int {
		return eval[int](t, p, `(() => { const e = document.getElementById("details-name"); return e ? window.__trtperf.layerByName(e.textContent) : -1; })()`)
	}
	key := func(k string) int {
		p.do(t, chromedp.KeyEvent(k), chromedp.Sleep(30*time.Millisecond))
		return sel()
	}
	start := b.Graph.TopoOrder[0]
	p.do(t, js(fmt.Sprintf(`window.__trtperf.select(%d)`, start)))
	p.showView(t, "graph")
	p.do(t, js(`document.getElementById("graph-canvas").focus()`))
	cur := start
	for step := 0; step < 6 && len(cons[cur]) > 0; step++ {
		next := key(kb.ArrowDown)
		if !slices.Contains(cons[cur], next) {
			t.Fatalf("↓ on layer %d selected %d, not one of its consumers %v", cur, next, cons[cur])
		}
		if st := stateOf(t, p, next); !st.Selected || !eval[bool](t, p, fmt.Sprintf(`window.__trtperf.inView(%d)`, next)) {
			t.Errorf("↓ selected layer %d but its node is not marked selected in view: %+v", next, st)
		}
		if got := p.textOf(t, "#details-name"); got != b.Layers[next].Name {
			t.Errorf("after ↓ the side panel shows %q, want %q", got, b.Layers[next].Name)
		}
		cur = next
	}
	if prev := key(kb.ArrowUp); !slices.Contains(prods[cur], prev) {
		t.Errorf("↑ on layer %d selected %d, not one of its producers %v", cur, prev, prods[cur])
	}
	// A row with two nodes side by side (a branch): → goes to the right one.
	pair := eval[[]int](t, p, fmt.Sprintf(`(() => { const n = %d, s = [];
		for (let l = 0; l < n; l++) s.push(window.__trtperf.nodeState(l));
		for (let a = 0; a < n; a++) { let best = -1;
			for (let c = 0; c < n; c++) if (Math.abs(s[c].y - s[a].y) <= 1 && s[c].x > s[a].x && (best < 0 || s[c].x < s[best].x)) best = c;
			if (best >= 0) return [a, best]; }
		return []; })()`, len(b.Layers)))
	t.Logf("keys: walked ↓ to layer %d; row neighbours for → %v", cur, pair)
	if len(pair) == 2 {
		p.do(t, js(fmt.Sprintf(`window.__trtperf.select(%d)`, pair[0])))
		p.do(t, js(`document.getElementById("graph-canvas").focus()`))
		if got := key(kb.ArrowRight); got != pair[1] {
			t.Errorf("→ on layer %d selected %d, want its right neighbour in the row %d", pair[0], got, pair[1])
		}
		if got := key(kb.ArrowLeft); got != pair[0] {
			t.Errorf("← back from layer %d selected %d, want %d", pair[1], got, pair[0])
		}
	}
	s0 := stateOf(t, p, start).Scale
	key("+")
	if s1 := stateOf(t, p, start).Scale; s1 <= s0*1.1 {
		t.Errorf("+ zoomed from %.2f to %.2f", s0, s1)
	}
	key("-")
	key("-")
	if s2 := stateOf(t, p, start).Scale; s2 >= s0 {
		t.Errorf("− − zoomed from %.2f to %.2f", s0, s2)
	}
	key("0")
}

// checkConversions: the Conversions view lists every reformat and Q/DQ
// layer with producer → consumer, from → to type and format and its time;
// clicking a conversion opens it in the graph.
func checkConversions(t *testing.T, p *page, b *contract.Backend) {
	t.Helper()
	avg := map[int]float64{}
	for _, r := range b.Records {
		if isConversion(&r) {
			avg[r.Layer] = r.AvgMs
		}
	}
	p.showView(t, "conversions")
	if len(avg) == 0 {
		if got := p.textOf(t, "#conversions"); !strings.Contains(got, "No reformat") {
			t.Errorf("an engine without conversions says %q", got)
		}
		return
	}
	p.checkVisible(t, "conversions table", "#conversions table", true)
	rows := eval[[]struct {
		Layer                      int
		Prod, Conv, Cons, FT, Time string
		W                          float64
	}](t, p, `Array.from(document.querySelectorAll("#conversions tbody tr")).map((r) => { const c = r.children;
		return {layer: Number(r.dataset.layer), prod: c[0].innerText, conv: c[1].innerText, cons: c[2].innerText, ft: c[3].innerText,
			time: c[5] ? c[5].innerText : "", w: r.getBoundingClientRect().width}; })`)
	t.Logf("%d conversion rows", len(rows))
	if len(rows) != len(avg) {
		t.Errorf("the conversions table has %d rows, the engine %d conversion layers", len(rows), len(avg))
	}
	vw := eval[float64](t, p, `innerWidth`)
	for _, r := range rows {
		ms, ok := avg[r.Layer]
		if !ok {
			t.Errorf("conversions row for layer %d, which is no conversion", r.Layer)
			continue
		}
		if !strings.Contains(r.Conv, b.Layers[r.Layer].Name[:min(20, len(b.Layers[r.Layer].Name))]) || r.Prod == "" || r.Cons == "" || strings.Count(r.FT, "→") != 2 {
			t.Errorf("conversions row of layer %d: producer %q, conversion %q, consumer %q, from→to %q", r.Layer, r.Prod, r.Conv, r.Cons, r.FT)
		}
		if v, dec := printedMs(t, r.Time); !samePrinted(v, dec, ms) {
			t.Errorf("conversion %d shows %q, its average is %g ms", r.Layer, r.Time, ms)
		}
		if r.W > vw+1 {
			t.Errorf("conversions row is %.0f px wide in a %.0f px window", r.W, vw)
		}
	}
	l := rows[len(rows)/2].Layer
	p.click(t, fmt.Sprintf(`#conversions tr[data-layer="%d"] td:nth-child(2) button`, l))
	p.do(t, chromedp.WaitVisible(chromedp.CSS("#view-graph")))
	if st := stateOf(t, p, l); !st.Selected || st.Group != "" || !eval[bool](t, p, fmt.Sprintf(`window.__trtperf.inView(%d)`, l)) {
		t.Errorf("the conversion link of layer %d did not select it in view in the graph: %+v", l, st)
	}
}

// TestGraphKeyboardGroups: on a 5000-layer engine that opens in collapsed
// groups, ↓ walks from group to group (a group's first layer's consumers
// are inside it: the walk must follow the group's own edges), ↑ walks
// back, and Enter opens the group of the selected layer; at 1280×800 and
// 1920×1080.
func TestGraphKeyboardGroups(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 5000})
	dir := publish(t, d, nil)
	p := newPage(t, 120*time.Second)
	for _, vp := range viewports {
		p.do(t, chromedp.EmulateViewport(vp.w, vp.h))
		p.open(t, fileURL(dir))
		at := fmt.Sprintf("%dx%d", vp.w, vp.h)
		nodes := eval[int](t, p, `window.__trtperf.graphNodes()`)
		if nodes >= 5000 {
			t.Fatalf("%s: the graph opened with %d nodes; this test needs collapsed groups", at, nodes)
		}
		p.showView(t, "graph")
		p.do(t, js(`document.getElementById("graph-canvas").focus()`))
		sel := func() int {
			return eval[int](t, p, `(() => { const e = document.getElementById("details-name"); return e ? window.__trtperf.layerByName(e.textContent) : -1; })()`)
		}
		key := func(k string) int {
			p.do(t, chromedp.KeyEvent(k), chromedp.Sleep(30*time.Millisecond))
			return sel()
		}
		first := key(kb.ArrowDown) // selects the first layer
		if first < 0 {
			t.Fatalf("%s: ↓ on the focused graph selected nothing", at)
		}
		where := func(l int) string {
			st := stateOf(t, p, l)
			return fmt.Sprintf("%s@%.0f,%.0f", st.Group, st.X, st.Y)
		}
		seen := []string{where(first)}
		cur := first
		for step := 0; step < 4; step++ {
			next := key(kb.ArrowDown)
			if next == cur || slices.Contains(seen, where(next)) || stateOf(t, p, next).Y <= stateOf(t, p, cur).Y {
				t.Fatalf("%s: ↓ from layer %d (%s) went to %d (%s): the walk is stuck or not going down", at, cur, where(cur), next, where(next))
			}
			if !eval[bool](t, p, fmt.Sprintf(`window.__trtperf.inView(%d)`, next)) {
				t.Errorf("%s: ↓ selected layer %d out of view", at, next)
			}
			seen = append(seen, where(next))
			cur = next
		}
		if back := key(kb.ArrowUp); stateOf(t, p, back).Y >= stateOf(t, p, cur).Y {
			t.Errorf("%s: ↑ from %s went to %s, not to a node above", at, where(cur), where(back))
		}
		cur = sel()
		if st := stateOf(t, p, cur); st.Group != "" {
			key(kb.Enter)
			if st := stateOf(t, p, cur); st.Group != "" {
				t.Errorf("%s: Enter on collapsed group %q did not open it", at, st.Group)
			}
			if got := eval[int](t, p, `window.__trtperf.graphNodes()`); got <= nodes {
				t.Errorf("%s: after Enter the graph has %d nodes, had %d", at, got, nodes)
			}
		} else {
			t.Errorf("%s: the walk ended on layer %d outside any group; the check of Enter needs a group", at, cur)
		}
	}
	noJSErrors(t, p)
}
