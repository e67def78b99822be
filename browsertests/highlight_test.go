package browsertests

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// nodeState mirrors window.__trtperf.nodeState: how the graph shows a layer.
type nodeState struct {
	Group       string  // name of the collapsed group holding the layer, "" if it is its own node
	Highlighted int     // highlighted layers the node stands for
	Selected    bool    // the node shows the selected layer
	X, Y        float64 // layout position of the node (a row shares Y)
	Scale       float64 // the graph view's zoom
}

func stateOf(t *testing.T, p *page, layer int) nodeState {
	t.Helper()
	return eval[nodeState](t, p, fmt.Sprintf(`window.__trtperf.nodeState(%d)`, layer))
}

// TestFindingInCollapsedGroup: a finding's layers inside collapsed groups
// mark those groups (outline, count and a text line), expanding a group
// keeps the layers highlighted, and the overview appears for a graph larger
// than the view and pans it when clicked.
func TestFindingInCollapsedGroup(t *testing.T) {
	const n = 5000
	d := reporttest.Synthetic(reporttest.Options{Layers: n})
	b := passedBackend(t, d)
	f := b.Issues[0]
	if len(f.Layers) < 2 {
		t.Fatalf("finding %s has %d layers; the test needs several", f.ID, len(f.Layers))
	}
	// Expected marks: highlighted layers per Myelin graph (the grouping the
	// app uses for this engine).
	perGroup := map[int]int{}
	for _, l := range f.Layers {
		perGroup[*b.Records[l].MyelinGraph]++
	}
	dir := publish(t, d, nil)
	p := newPage(t, 120*time.Second)
	for _, vp := range viewports {
		t.Run(fmt.Sprintf("%dx%d", vp.w, vp.h), func(t *testing.T) {
			p.do(t, chromedp.EmulateViewport(vp.w, vp.h))
			checkFindingInCollapsedGroup(t, p, dir, b, f, perGroup)
		})
	}
	noJSErrors(t, p)
}

func checkFindingInCollapsedGroup(t *testing.T, p *page, dir string, b *contract.Backend, f contract.Finding, perGroup map[int]int) {
	const n = 5000
	p.open(t, fileURL(dir))
	if got := p.attr(t, "#graph-canvas", "data-highlight-groups"); got != "0" {
		t.Errorf("before any finding, %s groups are marked highlighted", got)
	}

	p.click(t, fmt.Sprintf(`.finding[data-id=%q] button`, f.ID))
	if got := p.attr(t, "#graph-canvas", "data-highlight-groups"); got != strconv.Itoa(len(perGroup)) {
		t.Errorf("finding with layers in %d groups marks %s groups", len(perGroup), got)
	}
	if got := p.attr(t, "#graph-canvas", "data-highlight-in-groups"); got != strconv.Itoa(len(f.Layers)) {
		t.Errorf("finding with %d layers in collapsed groups counts %s", len(f.Layers), got)
	}
	if got := p.text(t, "#graph-marks"); got == "" {
		t.Error("the graph does not say that highlighted layers are inside collapsed groups")
	}
	first := f.Layers[0]
	want := perGroup[*b.Records[first].MyelinGraph]
	st := stateOf(t, p, first)
	if st.Group == "" || st.Highlighted != want || !st.Selected {
		t.Errorf("group of the finding's first layer %d: %+v, want a collapsed group with %d highlighted, selected", first, st, want)
	}
	// A layer of another group that is not in the finding: unmarked.
	for l := 0; l < n; l++ {
		if perGroup[*b.Records[l].MyelinGraph] == 0 {
			if st := stateOf(t, p, l); st.Highlighted != 0 || st.Selected {
				t.Errorf("layer %d's group holds no highlighted layer but shows %+v", l, st)
			}
			break
		}
	}
	p.screenshot(t, "synthetic-5000-finding-groups")
	// The orange count badge on a group is readable (WCAG AA) in both schemes.
	for _, scheme := range []string{"dark", "light"} {
		p.do(t, colorScheme(scheme), js(fmt.Sprintf(`window.__trtperf.locate(%d)`, first)))
		badge := false
		for _, c := range eval[[]canvasPair](t, p, `window.__trtperf.textColours()`) {
			if c.What != "highlight badge" {
				continue
			}
			badge = true
			if c.Ratio < 4.5 {
				t.Errorf("%s: the highlight badge's text %s on %s has contrast %.2f (needs 4.5)", scheme, c.Fg, c.Bg, c.Ratio)
			}
		}
		if !badge {
			t.Errorf("%s: no highlight badge drawn on the finding's collapsed group", scheme)
		}
	}

	// Expanding the group keeps its layers highlighted one by one.
	pos := eval[struct{ X, Y float64 }](t, p, fmt.Sprintf(`window.__trtperf.locate(%d)`, first))
	p.do(t, chromedp.MouseClickXY(pos.X, pos.Y), chromedp.Sleep(50*time.Millisecond))
	if st := stateOf(t, p, first); st.Group != "" || st.Highlighted != 1 {
		t.Errorf("after expanding, layer %d shows %+v, want its own highlighted node", first, st)
	}
	if got := p.attr(t, "#graph-canvas", "data-highlight-groups"); got != strconv.Itoa(len(perGroup)-1) {
		t.Errorf("after expanding one group %s groups are marked, want %d", got, len(perGroup)-1)
	}

	// Selecting a layer in a collapsed group from outside the graph (as a
	// table row click does) opens the group.
	other := -1
	for l := n - 1; l >= 0; l-- {
		if perGroup[*b.Records[l].MyelinGraph] == 0 {
			other = l
			break
		}
	}
	p.do(t, js(fmt.Sprintf(`window.__trtperf.select(%d)`, other)), chromedp.Sleep(50*time.Millisecond))
	if st := stateOf(t, p, other); st.Group != "" || !st.Selected {
		t.Errorf("selected layer %d of a collapsed group from outside the graph: %+v, want its group opened and the layer selected", other, st)
	}

	// The overview: shown for this tall graph; a click on its top-left
	// corner moves the view there.
	if eval[bool](t, p, `document.getElementById("graph-minimap").hidden`) {
		t.Fatal("the overview is hidden although the graph is larger than the view")
	}
	p.do(t, js(fmt.Sprintf(`window.__trtperf.locate(%d)`, b.Graph.TopoOrder[0])))
	mini := eval[struct{ X, Y, W, H float64 }](t, p, `(() => { const r = document.getElementById("graph-minimap").getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; })()`)
	p.do(t, chromedp.MouseClickXY(mini.X+mini.W/2, mini.Y+mini.H-2), chromedp.Sleep(50*time.Millisecond))
	// The view is now at the bottom of the graph: the last layer's node is
	// inside the canvas, the first layer's is not.
	inView := func(layer int) bool {
		return eval[bool](t, p, fmt.Sprintf(`window.__trtperf.inView(%d)`, layer))
	}
	if !inView(b.Graph.TopoOrder[n-1]) || inView(b.Graph.TopoOrder[0]) {
		t.Errorf("after clicking the bottom of the overview: last layer in view %v, first layer in view %v; want true, false", inView(b.Graph.TopoOrder[n-1]), inView(b.Graph.TopoOrder[0]))
	}
	p.screenshot(t, "synthetic-5000-minimap")
}
