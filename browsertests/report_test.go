package browsertests

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// passedBackend returns the backend the app opens first.
func passedBackend(t *testing.T, d *contract.AnalyzeData) *contract.Backend {
	t.Helper()
	for i := range d.Results {
		if d.Results[i].Validation.Status == contract.StatusPassed {
			return &d.Results[i]
		}
	}
	t.Fatal("no passed backend")
	return nil
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return v
}

// checkNumbers compares the metric cards with the analysis.
func checkNumbers(t *testing.T, p *page, d *contract.AnalyzeData) {
	t.Helper()
	b := passedBackend(t, d)
	if got := p.text(t, "#model-name"); got != d.ModelName {
		t.Errorf("model name on page %q, want %q", got, d.ModelName)
	}
	// The headline: measured latency when the dumps hold one, else the
	// layer sum; the layer sum is always given.
	want, measured := b.Timing.AverageInferenceMs, "0"
	m := b.Timing.Measured
	switch {
	case m != nil && m.GPUComputeMs.Median != nil && *m.GPUComputeMs.Median > 0:
		want, measured = *m.GPUComputeMs.Median, "1"
	case m != nil && m.LatencyMs.Median != nil && *m.LatencyMs.Median > 0:
		want, measured = *m.LatencyMs.Median, "1"
	case b.Timing.EndToEnd != nil && b.Timing.EndToEnd.MedianMs > 0:
		want, measured = b.Timing.EndToEnd.MedianMs, "1"
	}
	if got := parseFloat(t, p.attr(t, "#latency", "data-value")); math.Abs(got-want) > 1e-9*math.Max(1, got) {
		t.Errorf("headline latency on page %v, want %v", got, want)
	}
	if got := p.attr(t, "#latency", "data-measured"); got != measured {
		t.Errorf("headline says measured=%s, want %s", got, measured)
	}
	if got, want := p.text(t, "#latency-value"), fmt.Sprintf("%.3f ms", want); got != want {
		t.Errorf("headline latency shows %q, want %q", got, want)
	}
	if got := p.text(t, "#latency-source"); got == "" {
		t.Error("the headline latency does not say where it comes from")
	}
	if got := parseFloat(t, p.attr(t, "#latency-sum", "data-value")); math.Abs(got-b.Timing.AverageInferenceMs) > 1e-9*math.Max(1, got) {
		t.Errorf("layer sum on page %v, want %v", got, b.Timing.AverageInferenceMs)
	}
	noisy := eval[bool](t, p, `document.getElementById("noise-warning") !== null`)
	if wantNoisy := b.Count != nil && *b.Count < 10; noisy != wantNoisy {
		t.Errorf("noise warning shown %v, want %v (count %v)", noisy, wantNoisy, b.Count)
	}
	if got := p.attr(t, "#card-layers", "data-value"); got != strconv.Itoa(b.LayerCount) {
		t.Errorf("layer count on page %s, want %d", got, b.LayerCount)
	}
	slowest := slices.MaxFunc(b.Records, func(x, y contract.Record) int { return cmp.Compare(x.AvgMs, y.AvgMs) })
	if got := p.attr(t, "#slowest-name", "title"); got != slowest.Name {
		t.Errorf("slowest layer on page %q, want %q", got, slowest.Name)
	}
	if got, want := eval[int](t, p, `document.querySelectorAll("#pareto .pareto-bar").length`), min(20, len(b.Records)); got != want {
		t.Errorf("Pareto chart has %d bars, want %d", got, want)
	}
	if got := p.attr(t, "#pareto .pareto-bar", "data-layer"); got != strconv.Itoa(slowest.Layer) {
		t.Errorf("first Pareto bar is layer %s, want the slowest %d", got, slowest.Layer)
	}
	if got := eval[int](t, p, `document.querySelectorAll("#pareto .mark").length`); got != 3 {
		t.Errorf("Pareto chart has %d share marks, want 3 (50/80/90%%)", got)
	}
	// Clicking the second bar opens its layer in the side panel.
	if len(b.Records) > 1 {
		p.click(t, "#pareto .pareto-bar:nth-of-type(2) .hit")
		l := mustAtoi(t, p.attr(t, "#pareto .pareto-bar:nth-of-type(2)", "data-layer"))
		p.do(t, chromedp.WaitReady(chromedp.CSS(fmt.Sprintf(`#details[data-loaded="%d"]`, l))))
		if got := p.text(t, "#details-name"); got != b.Layers[l].Name {
			t.Errorf("clicking the second Pareto bar shows %q, want layer %d %q", got, l, b.Layers[l].Name)
		}
	}
	if got := eval[int](t, p, `document.querySelectorAll("#top-findings ol.top-findings > li").length`); got != min(3, len(b.Issues)) {
		t.Errorf("first screen shows %d findings, want %d", got, min(3, len(b.Issues)))
	}
	// In the analysis' rank (by score), as the summary prints them.
	shown := eval[[]string](t, p, `Array.from(document.querySelectorAll("#top-findings ol.top-findings > li")).map(li => li.dataset.id)`)
	for i, id := range shown {
		if i < len(b.Issues) && id != b.Issues[i].ID {
			t.Errorf("first screen finding %d is %s, the analysis ranks %s there", i+1, id, b.Issues[i].ID)
		}
	}
	bars := eval[int](t, p, `document.querySelectorAll("#chart-type .bar-row").length`)
	if want := min(len(b.TypeBreakdown), 7); bars != want {
		t.Errorf("type chart has %d bars, want %d", bars, want)
	}
	tabs := eval[int](t, p, `document.querySelectorAll("#backend-tabs .tab").length`)
	if tabs != len(d.Results) {
		t.Errorf("%d backend tabs, want %d", tabs, len(d.Results))
	}
}

func rows(t *testing.T, p *page) []int {
	t.Helper()
	return eval[[]int](t, p, `window.__trtperf.rows()`)
}

// checkVisibleRows compares what the table shows with what it says: every
// row on screen (not display:none, inside the scroll box) is one of the
// filtered rows, no layer shows twice, the count line matches, and a
// non-empty result shows rows.
func checkVisibleRows(t *testing.T, p *page, after string) {
	t.Helper()
	v := eval[struct {
		Count, Rows, Shown, Stray, Dupes int
	}](t, p, `(() => {
		const rows = window.__trtperf.rows();
		const set = new Set(rows);
		const body = document.getElementById("table-body");
		const box = body.getBoundingClientRect();
		let shown = 0, stray = 0, dupes = 0;
		const seen = new Set();
		for (const r of body.querySelectorAll(".trow")) {
			if (getComputedStyle(r).display === "none") continue;
			const b = r.getBoundingClientRect();
			if (b.bottom <= box.top || b.top >= box.bottom) continue;
			shown++;
			const l = Number(r.dataset.layer);
			if (!set.has(l)) stray++;
			if (seen.has(l)) dupes++;
			seen.add(l);
		}
		const count = Number(document.getElementById("table-count").textContent.split(" of ")[0].replace(/,/g, ""));
		return {count, rows: rows.length, shown, stray, dupes};
	})()`)
	if v.Count != v.Rows || v.Stray != 0 || v.Dupes != 0 || v.Shown > v.Rows || (v.Rows > 0 && v.Shown == 0) {
		t.Errorf("after %s: the table says %d layers, holds %d, shows %d rows (%d not in the result, %d twice)", after, v.Count, v.Rows, v.Shown, v.Stray, v.Dupes)
	}
}

// checkTable filters by name and type and sorts by time.
func checkTable(t *testing.T, p *page, d *contract.AnalyzeData) {
	t.Helper()
	b := passedBackend(t, d)
	p.click(t, "#view-tab-table")
	// Headers are readable (none cut off) and the name column resizes.
	if cut := eval[[]string](t, p, `Array.from(document.querySelectorAll(".layer-table .thead > span")).filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)`); len(cut) > 0 {
		t.Errorf("table headers cut off: %q", cut)
	}
	nameW := `document.querySelector(".layer-table .thead .c-name").getBoundingClientRect().width`
	w0 := eval[float64](t, p, nameW)
	p.do(t, js(`document.getElementById("name-resize").dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}))`))
	if w1 := eval[float64](t, p, nameW); w1 < w0+20 {
		t.Errorf("name column %.0f px wide after widening it, was %.0f", w1, w0)
	}
	if w := eval[float64](t, p, `document.querySelector("#table-body .trow:not([hidden]) .c-name").getBoundingClientRect().width`); math.Abs(w-eval[float64](t, p, nameW)) > 1 {
		t.Errorf("row name cells (%.0f px) do not follow the header (%.0f px)", w, eval[float64](t, p, nameW))
	}

	// Names are cut to the column but the full name is on hover (title),
	// and the selected layer's name wraps in full in the side panel.
	cut := eval[[]struct {
		Layer int
		Title string
	}](t, p, `Array.from(document.querySelectorAll("#table-body .trow:not([hidden])")).map((r) => ({layer: Number(r.dataset.layer), title: r.querySelector(".c-name").title}))`)
	for _, r := range cut {
		if r.Title != b.Layers[r.Layer].Name {
			t.Errorf("row of layer %d: hovering the name shows %q, want the full name %q", r.Layer, r.Title, b.Layers[r.Layer].Name)
			break
		}
	}
	if len(cut) == 0 {
		t.Error("the table shows no rows")
	}
	if eval[bool](t, p, `!!document.getElementById("details-name")`) {
		v := eval[struct {
			Overflow bool
			Text     string
		}](t, p, `(() => { const e = document.getElementById("details-name"); return {overflow: e.scrollWidth > e.clientWidth + 1, text: e.textContent}; })()`)
		if v.Overflow {
			t.Errorf("the side panel cuts the selected layer's name %q instead of wrapping it", v.Text)
		}
	}

	// Sort by time: rows follow avg_ms descending.
	p.setValue(t, "#sort", "time", "change")
	checkVisibleRows(t, p, "sort by time")
	got := rows(t, p)
	if len(got) != b.LayerCount {
		t.Fatalf("sorted table has %d rows, want %d", len(got), b.LayerCount)
	}
	avg := make([]float64, b.LayerCount)
	for _, r := range b.Records {
		avg[r.Layer] = r.AvgMs
	}
	for i := 1; i < len(got); i++ {
		if avg[got[i]] > avg[got[i-1]] {
			t.Fatalf("row %d (%v ms) after a faster row (%v ms): not sorted by time", i, avg[got[i]], avg[got[i-1]])
		}
	}
	p.do(t, js(`document.getElementById("table-body").scrollTop = 0`), chromedp.Sleep(50*time.Millisecond))
	first := p.text(t, fmt.Sprintf(`#table-body .trow[data-layer="%d"]:not([hidden]) .c-name`, got[0]))
	if want := b.Layers[got[0]].Name; first != want {
		t.Errorf("first visible row %q, want the slowest layer %q", first, want)
	}

	// Filter by a name fragment (typed as a user would).
	frag := strings.ToLower(b.Layers[got[0]].Name)
	frag = frag[len(frag)/3 : len(frag)/3+min(8, len(frag)-len(frag)/3)]
	p.do(t, chromedp.SendKeys(chromedp.CSS("#filter-name"), frag))
	want := 0
	for _, l := range b.Layers {
		if strings.Contains(strings.ToLower(l.Name), frag) {
			want++
		}
	}
	if got := len(rows(t, p)); got != want || want == 0 {
		t.Errorf("name filter %q shows %d rows, want %d (>0)", frag, got, want)
	}
	checkVisibleRows(t, p, "name filter "+frag)
	p.setValue(t, "#filter-name", "no layer is called this \u2603", "input")
	checkVisibleRows(t, p, "a name filter nothing matches")
	p.setValue(t, "#filter-name", "", "input")
	checkVisibleRows(t, p, "clearing the name filter")

	// Filter by type through the select.
	typ := b.TypeBreakdown[0].Name
	p.setValue(t, "#filter-type", typ, "change")
	if got := len(rows(t, p)); got != b.TypeBreakdown[0].Count {
		t.Errorf("type filter %q shows %d rows, want %d", typ, got, b.TypeBreakdown[0].Count)
	}
	checkVisibleRows(t, p, "type filter "+typ)
	p.setValue(t, "#filter-type", "", "change")

	// Filter by source op (Metadata), which loads sources-<b>.js first.
	for _, l := range b.Layers {
		if len(l.Metadata) < 12 {
			continue
		}
		frag := strings.ToLower(l.Metadata[len(l.Metadata)-10:])
		want := 0
		for _, o := range b.Layers {
			src := o.Metadata
			if o.Origin != "" {
				src += " " + o.Origin
			}
			if strings.Contains(strings.ToLower(src), frag) {
				want++
			}
		}
		p.do(t, chromedp.SendKeys(chromedp.CSS("#filter-source"), frag))
		got := run(t, p, chromedp.Poll[int](fmt.Sprintf(`window.__trtperf.rows().length === %d ? %d : null`, want, want), chromedp.WithPollingTimeout(10*time.Second)))
		if got != want {
			t.Errorf("source filter %q shows %d rows, want %d", frag, got, want)
		}
		checkVisibleRows(t, p, "source filter "+frag)
		p.setValue(t, "#filter-source", "", "input")
		break
	}

	// Back to topological order.
	p.setValue(t, "#sort", "topo", "change")
	checkVisibleRows(t, p, "sort by topological order")
	for _, f := range b.Issues {
		if len(f.Layers) == 0 {
			continue
		}
		p.click(t, fmt.Sprintf(`.finding[data-id=%q] button.show-layers`, f.ID))
		checkVisibleRows(t, p, "show the layers of finding "+f.ID)
		distinct := map[int]bool{}
		for _, l := range f.Layers {
			distinct[l] = true
		}
		if got := len(rows(t, p)); got != len(distinct) {
			t.Errorf("finding %s: the table shows %d rows, want its %d layers", f.ID, got, len(distinct))
		}
	}
	p.click(t, "#table-chip button")
	checkVisibleRows(t, p, "show all")
	if got := rows(t, p); len(got) != b.LayerCount || (b.Graph.TopoOrder != nil && got[0] != b.Graph.TopoOrder[0]) {
		t.Errorf("topological order: %d rows starting %v, want %d starting %v", len(got), got[:min(1, len(got))], b.LayerCount, b.Graph.TopoOrder[:1])
	}
}

// checkGraphClick clicks a layer's node on the canvas and expects the table
// row and the details panel to follow.
func checkGraphClick(t *testing.T, p *page, d *contract.AnalyzeData, layer int) {
	t.Helper()
	b := passedBackend(t, d)
	p.click(t, "#view-tab-graph")
	pos := eval[struct{ X, Y float64 }](t, p, fmt.Sprintf(`window.__trtperf.locate(%d)`, layer))
	p.do(t, chromedp.MouseClickXY(pos.X, pos.Y), chromedp.Sleep(50*time.Millisecond))
	if got := p.text(t, "#details-name"); got != b.Layers[layer].Name {
		t.Errorf("details show %q, want %q", got, b.Layers[layer].Name)
	}
	p.do(t, chromedp.WaitReady(chromedp.CSS(fmt.Sprintf(`#details[data-loaded="%d"]`, layer))))
	if got := p.text(t, "#details"); len(b.Layers[layer].Outputs) > 0 && !strings.Contains(got, b.Layers[layer].Outputs[0].Name) {
		t.Errorf("details of layer %d lack its output tensor %q", layer, b.Layers[layer].Outputs[0].Name)
	}
	// The table, when shown, has the row selected and in view.
	p.click(t, "#view-tab-table")
	sel := eval[string](t, p, `(document.querySelector("#table-body .trow.selected")||{dataset:{}}).dataset.layer || ""`)
	if sel != strconv.Itoa(layer) {
		t.Errorf("after clicking node of layer %d the selected row is %q", layer, sel)
	}
	// And the other way: a row click selects (and centres) the node.
	// Click a row that is fully in view (pooled rows above and below the
	// viewport exist for smooth scrolling but cannot be clicked).
	row := eval[struct {
		X, Y  float64
		Layer string
	}](t, p, `(() => {
		const body = document.getElementById("table-body");
		body.scrollIntoView({block: "center", behavior: "instant"});
		const box = body.getBoundingClientRect();
		for (const r of body.querySelectorAll(".trow:not([hidden]):not(.selected)")) {
			const b = r.getBoundingClientRect();
			if (b.top >= box.top && b.bottom <= box.bottom) return {x: b.left + 30, y: b.top + b.height / 2, layer: r.dataset.layer};
		}
		return {x: -1, y: -1, layer: ""};
	})()`)
	if row.Layer == "" {
		t.Fatal("no table row in view to click")
	}
	p.do(t, chromedp.MouseClickXY(row.X, row.Y), chromedp.Sleep(50*time.Millisecond))
	rowLayer := eval[string](t, p, `(document.querySelector("#table-body .trow.selected")||{dataset:{}}).dataset.layer || ""`)
	if rowLayer != row.Layer {
		t.Errorf("clicked the row of layer %s, selected is %q", row.Layer, rowLayer)
	}
	if got := p.text(t, "#details-name"); rowLayer == "" || got != b.Layers[mustAtoi(t, rowLayer)].Name {
		t.Errorf("row click on layer %s shows details of %q", rowLayer, got)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func noJSErrors(t *testing.T, p *page) {
	t.Helper()
	for _, e := range p.jsErrors() {
		t.Errorf("page error: %s", e)
	}
}

func TestSyntheticReport(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 300, WithFailed: true, WithLayerOnly: true})
	md := []byte("# Diagnosis\n\nThe **GEMMs** dominate. Try FP8.\n\n| layer | ms |\n|---|---|\n| q_proj | 0.4 |\n")
	dir := publish(t, d, md)
	p := newPage(t, 60*time.Second)
	eachViewport(t, p, func(t *testing.T) {
		p.open(t, fileURL(dir))
		checkNumbers(t, p, d)
		if got := p.text(t, "#analysis-body h1"); got != "Diagnosis" {
			t.Errorf("analysis heading %q", got)
		}
		p.screenshot(t, "synthetic-300")
		checkTable(t, p, d)
		checkGraphClick(t, p, d, 17)

		// The failed backend says why, prominently.
		p.click(t, `#backend-tabs .tab[data-label="int8"]`)
		if got := p.text(t, "#validation h2"); !strings.Contains(got, "not interpretable") {
			t.Errorf("failed backend banner %q does not say not interpretable", got)
		}
		if got := p.text(t, "#validation"); !strings.Contains(got, "--profilingVerbosity=detailed") {
			t.Errorf("failed backend does not show its message: %q", got)
		}
		// layer_only: graph and table without timing.
		p.click(t, `#backend-tabs .tab[data-label="layers-only"]`)
		p.do(t, chromedp.WaitReady(chromedp.CSS(`#graph-canvas`)))
		timingCols := eval[int](t, p, `document.querySelectorAll(".layer-table .thead .c-num").length`)
		if timingCols != 0 {
			t.Errorf("layer_only table has %d timing columns", timingCols)
		}
		p.screenshot(t, "synthetic-layer-only")
	})
	noJSErrors(t, p)
}

// TestLargeEngineGroups: above 2000 layers the graph starts collapsed into
// groups; clicking a group expands it and selects its first layer.
func TestLargeEngineGroups(t *testing.T) {
	const n = 5000
	d := reporttest.Synthetic(reporttest.Options{Layers: n})
	dir := publish(t, d, nil)
	p := newPage(t, 120*time.Second)
	eachViewport(t, p, func(t *testing.T) {
		p.open(t, fileURL(dir))
		before := eval[int](t, p, `window.__trtperf.graphNodes()`)
		if before >= n || before < 2 {
			t.Fatalf("a %d-layer graph opened with %d nodes; want it grouped", n, before)
		}
		// The synthetic engine puts 48 consecutive layers in each Myelin graph.
		const layer, groupSize = 2500, 48
		first := layer / groupSize * groupSize
		pos := eval[struct{ X, Y float64 }](t, p, fmt.Sprintf(`window.__trtperf.locate(%d)`, layer))
		p.do(t, chromedp.MouseClickXY(pos.X, pos.Y), chromedp.Sleep(50*time.Millisecond))
		after := eval[int](t, p, `window.__trtperf.graphNodes()`)
		if after != before-1+groupSize {
			t.Errorf("after expanding one group: %d nodes, want %d", after, before-1+groupSize)
		}
		p.click(t, "#view-tab-table")
		sel := eval[string](t, p, `(document.querySelector("#table-body .trow.selected")||{dataset:{}}).dataset.layer || ""`)
		if sel != strconv.Itoa(first) {
			t.Errorf("expanding the group selected row %q, want its first layer %d", sel, first)
		}
		// Now the layer itself is a node: clicking it selects exactly it.
		checkGraphClick(t, p, d, layer)
		p.screenshot(t, "synthetic-5000-expanded")
		checkOpenFromOutside(t, p, n*4/5/groupSize*groupSize, groupSize)
	})
	noJSErrors(t, p)
}

// TestAllFailedReport: a folder whose every backend failed still gets a
// report, and it says why and that nothing is interpretable.
func TestAllFailedReport(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{FailedOnly: true})
	dir := publish(t, d, nil)
	p := newPage(t, 30*time.Second)
	eachViewport(t, p, func(t *testing.T) {
		p.open(t, fileURL(dir))
		if got := p.text(t, "#validation h2"); !strings.Contains(got, "not interpretable") {
			t.Errorf("banner %q", got)
		}
		if got := p.text(t, "#validation"); !strings.Contains(got, d.Results[0].Validation.Messages[0].Message) {
			t.Errorf("the failure message is not shown: %q", got)
		}
		if got := p.text(t, "header .badge"); !strings.HasPrefix(got, "failed") {
			t.Errorf("header status %q", got)
		}
	})
	noJSErrors(t, p)
}

// checkOpenFromOutside: a layer inside a collapsed group, chosen from the
// table (a row click) or from the side panel (a producer in the layer's
// details), opens its group in the graph and is centred there. layer must
// be the first of its group, so its producer is in the group before.
func checkOpenFromOutside(t *testing.T, p *page, layer, groupSize int) {
	t.Helper()
	if st := stateOf(t, p, layer); st.Group == "" {
		t.Fatalf("layer %d is not inside a collapsed group to begin with", layer)
	}
	nodes := eval[int](t, p, `window.__trtperf.graphNodes()`)
	p.click(t, "#view-tab-table")
	p.setValue(t, "#filter-name", "", "input")
	// Scroll the row into the middle of the table, then click it where it is.
	pos := eval[struct{ X, Y float64 }](t, p, fmt.Sprintf(`new Promise((resolve) => {
		const body = document.getElementById("table-body");
		body.scrollIntoView({block: "center", behavior: "instant"});
		body.scrollTop = window.__trtperf.rows().indexOf(%d) * 26 - body.clientHeight / 2;
		requestAnimationFrame(() => requestAnimationFrame(() => {
			const r = body.querySelector('.trow[data-layer="%d"]:not([hidden])');
			if (!r) return resolve({x: -1, y: -1});
			const b = r.getBoundingClientRect();
			resolve({x: b.left + 30, y: b.top + b.height / 2});
		}));
	})`, layer, layer), chromedp.EvalAwaitPromise)
	if pos.X < 0 {
		t.Fatalf("no table row shows layer %d", layer)
	}
	p.do(t, chromedp.MouseClickXY(pos.X, pos.Y), chromedp.Sleep(50*time.Millisecond))
	if st := stateOf(t, p, layer); st.Group != "" || !st.Selected {
		t.Errorf("table row click on layer %d (in a collapsed group): graph shows %+v, want the group opened and the layer selected", layer, st)
	}
	if got := eval[int](t, p, `window.__trtperf.graphNodes()`); got != nodes-1+groupSize {
		t.Errorf("after opening one group from the table: %d nodes, want %d", got, nodes-1+groupSize)
	}
	p.click(t, "#view-tab-graph")
	if !eval[bool](t, p, fmt.Sprintf(`window.__trtperf.inView(%d)`, layer)) {
		t.Errorf("layer %d chosen in the table is not in the graph's view", layer)
	}
	// The side panel: the layer's producer (last layer of the group
	// before, still collapsed) opens from the details' producer list.
	p.do(t, chromedp.WaitReady(chromedp.CSS(fmt.Sprintf(`#details[data-loaded="%d"]`, layer))))
	prod := eval[int](t, p, `(() => { const h = Array.from(document.querySelectorAll("#details h4")).find((e) => e.textContent.startsWith("Producers"));
		const b = h && h.nextElementSibling.querySelector("button"); if (!b) return -1; b.id = "first-producer"; return window.__trtperf.layerByName(b.title); })()`)
	if prod < 0 {
		t.Fatalf("the details of layer %d list no producer", layer)
	}
	if st := stateOf(t, p, prod); st.Group == "" {
		t.Fatalf("producer %d of layer %d is not in a collapsed group; the check needs one", prod, layer)
	}
	p.click(t, "#first-producer")
	if st := stateOf(t, p, prod); st.Group != "" || !st.Selected {
		t.Errorf("side-panel click on producer %d (in a collapsed group): graph shows %+v, want the group opened and the layer selected", prod, st)
	}
	if !eval[bool](t, p, fmt.Sprintf(`window.__trtperf.inView(%d)`, prod)) {
		t.Errorf("producer %d chosen in the side panel is not centred in the graph", prod)
	}
}
