package browsertests

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// contrastJS lists the text on the page whose contrast is below WCAG 2.x
// AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). Every
// rendered element with its own text (a non-blank text node child, or an
// SVG text) is checked: the foreground is its computed colour (fill for SVG
// text) with the opacity of it and its ancestors; the background is what
// lies under the text's centre (document.elementsFromPoint, so an absolutely
// positioned bar under a label counts), composited from the first opaque
// background up; off-screen text uses its ancestors' backgrounds. Text in a
// background image or gradient is skipped (no single colour to compare),
// and so is visually hidden text (sr-only, zero size, hidden, transparent).
const contrastJS = `(() => {
	const parse = (s) => {
		const m = s.match(/rgba?\(([^)]+)\)/);
		if (!m) return null;
		const p = m[1].split(/[ ,\/]+/).filter((x) => x).map(Number);
		return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
	};
	const over = (top, under) => {
		const a = top[3];
		return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
	};
	const lum = (c) => {
		const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
	};
	const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const hex = (c) => "#" + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
	// Backgrounds from the top of a stack of elements down to the first opaque one.
	const layers = (stack) => {
		const out = [];
		for (const e of stack) {
			const cs = getComputedStyle(e);
			if (cs.backgroundImage && cs.backgroundImage !== "none") return null;
			const c = parse(cs.backgroundColor);
			if (c && c[3] > 0) {
				out.push(c);
				if (c[3] >= 1) return out;
			}
		}
		const root = parse(getComputedStyle(document.documentElement).backgroundColor);
		out.push(root && root[3] >= 1 ? root : (matchMedia("(prefers-color-scheme: dark)").matches ? [18, 18, 18, 1] : [255, 255, 255, 1]));
		return out;
	};
	const ancestors = (el) => { const out = []; for (let e = el; e && e.nodeType === 1; e = e.parentElement) out.push(e); return out; };
	const bad = [];
	let checked = 0;
	const all = document.body.querySelectorAll("*");
	for (const el of all) {
		const isSVGText = el instanceof SVGTextElement;
		let own = isSVGText;
		if (!own) for (const n of el.childNodes) if (n.nodeType === 3 && n.textContent.trim()) { own = true; break; }
		if (!own || el.closest("svg title, script, style, noscript, option, [hidden]")) continue;
		const cs = getComputedStyle(el);
		if (cs.visibility !== "visible" || cs.display === "none") continue;
		const r = el.getBoundingClientRect();
		if (r.width < 2 || r.height < 2) continue;
		let hidden = false, opacity = 1;
		for (const a of ancestors(el)) {
			const s = getComputedStyle(a);
			if (s.clipPath !== "none" || (s.clip && s.clip !== "auto") || s.display === "none") { hidden = true; break; }
			opacity *= Number(s.opacity);
		}
		if (hidden || opacity === 0) continue;
		let fg = parse(isSVGText ? cs.fill : cs.color);
		if (!fg) continue;
		fg = [fg[0], fg[1], fg[2], fg[3] * opacity];
		if (fg[3] === 0) continue;
		const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
		let stack = null;
		if (cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight) {
			const at = document.elementsFromPoint(cx, cy);
			const i = at.indexOf(el);
			if (i >= 0) stack = at.slice(i);
		}
		if (!stack) stack = ancestors(el);
		const bgs = layers(stack);
		if (!bgs) continue;
		let bg = bgs[bgs.length - 1];
		for (let i = bgs.length - 2; i >= 0; i--) bg = over(bgs[i], bg);
		const color = over(fg, bg);
		const size = parseFloat(cs.fontSize), weight = Number(cs.fontWeight) || 400;
		const large = size >= 24 || (size >= 18.66 && weight >= 700);
		const need = large ? 3 : 4.5;
		const got = ratio(color, bg);
		checked++;
		if (got < need - 0.005) {
			const text = (isSVGText ? el.textContent : Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join("")).trim().slice(0, 40);
			const path = ancestors(el).slice(0, 3).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : "")).reverse().join(" > ");
			bad.push(path + " \"" + text + "\" " + hex(color) + " on " + hex(bg) + " = " + got.toFixed(2) + " (needs " + need + ")");
		}
	}
	return {checked, bad};
})()`

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

type contrastResult struct {
	Checked int
	Bad     []string
}

// colorScheme emulates prefers-color-scheme for the page.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})
}

// checkContrast runs contrastJS and reports each failing text once per
// state (the same rule repeats over many rows).
func checkContrast(t *testing.T, p *page, state string, seen map[string]bool) int {
	t.Helper()
	r := eval[contrastResult](t, p, contrastJS)
	if r.Checked == 0 {
		t.Errorf("%s: no text checked", state)
	}
	for _, b := range r.Bad {
		key := state + b[:strings.Index(b, "\"")]
		if seen[key] {
			continue
		}
		seen[key] = true
		t.Errorf("%s: contrast below WCAG AA: %s", state, b)
	}
	return r.Checked
}

// canvasPairs mirrors window.__trtperf.textColours(): the text and fill
// colours the last graph draw used for text on the canvas.
type canvasPair struct {
	What, Fg, Bg string
	Ratio        float64
	Large        bool
}

// TestContrastAndARIA: in light and dark mode, every visible text of a
// report — first screen, findings, the failed and layer-only backends, the
// table with a selected row, the graph and its labels drawn on the canvas,
// a layer's details — meets WCAG AA contrast; and the tabs, table and graph
// expose their ARIA roles and state.
func TestContrastAndARIA(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 300, WithFailed: true, WithLayerOnly: true})
	md := []byte("# Diagnosis\n\nThe **GEMMs** dominate. `code` and [a link](https://example.com).\n\n| layer | ms |\n|---|---|\n| q_proj | 0.4 |\n")
	dirs := map[string]string{"synthetic": publish(t, d, md)}
	// A corpus case too, when the corpus is there (Dir would skip the test).
	if root := filepath.Join(corpustest.ModuleRoot(t), "..", "shared", "corpus", "trex-mobilenetv2-qat-titanrtx"); isDir(root) {
		dirs["mobilenetv2-qat"] = packageCLI(t, root, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	}
	p := newPage(t, 300*time.Second)
	seen := map[string]bool{}
	for _, vp := range viewports {
		for _, scheme := range []string{"light", "dark"} {
			p.do(t, chromedp.EmulateViewport(vp.w, vp.h), colorScheme(scheme))
			for name, dir := range dirs {
				p.open(t, fileURL(dir))
				if got := eval[bool](t, p, `matchMedia("(prefers-color-scheme: dark)").matches`); got != (scheme == "dark") {
					t.Fatalf("prefers-color-scheme emulation did not take: dark=%v", got)
				}
				state := func(s string) string { return fmt.Sprintf("%dx%d %s %s %s", vp.w, vp.h, scheme, name, s) }
				checked := checkContrast(t, p, state("first screen"), seen)
				if vp.w != viewports[0].w {
					// At the larger size the first screen reflows; the views
					// below are the same as at the first size (time budget).
					// The roles are checked at both sizes.
					if scheme == "light" {
						checkARIA(t, p, state("ARIA"))
					}
					continue
				}
				// Colours the page actually uses differ by scheme.
				bg := eval[string](t, p, `getComputedStyle(document.body).backgroundColor`)
				if dark := eval[bool](t, p, `(() => { const m = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number); return m[0] + m[1] + m[2] < 200; })()`); dark != (scheme == "dark") {
					t.Errorf("%s: body background %s does not follow the colour scheme", state(""), bg)
				}
				checkCanvasText(t, p, state("graph"), seen)
				// The table with a row selected and its details loaded.
				p.click(t, "#view-tab-table")
				p.do(t, js(`window.__trtperf.select(window.__trtperf.rows()[2])`))
				p.do(t, chromedp.WaitReady(chromedp.CSS(`#details[data-loaded]`)))
				checked += checkContrast(t, p, state("table and details"), seen)
				// Every other view (conversions, and whatever views are added).
				for _, id := range eval[[]string](t, p, `Array.from(document.querySelectorAll('#view-tabs [role="tab"]')).map((e) => e.id)`) {
					if id == "view-tab-graph" || id == "view-tab-table" {
						continue
					}
					p.click(t, "#"+id)
					// Canvas views: their drawn text too; the treemap with its table open.
					switch {
					case id == "view-tab-hierarchy":
						p.click(t, "#treemap-list-toggle")
						checkCanvasPairs(t, eval[treemapReport](t, p, `window.__trtperf.treemap()`).Text, state("treemap canvas"), seen)
					case id == "view-tab-roofline" && eval[bool](t, p, `!!document.getElementById("roofline-canvas")`):
						checkCanvasPairs(t, eval[struct{ Text []canvasPair }](t, p, `window.__trtperf.roofline()`).Text, state("roofline canvas"), seen)
					}
					checked += checkContrast(t, p, state(id), seen)
					if id == "view-tab-hierarchy" {
						p.click(t, "#treemap-list-toggle")
					}
				}
				if scheme == "light" {
					checkARIA(t, p, state("ARIA"))
				}
				// The other backends (failed, layer only) show banners and badges.
				tabs := eval[int](t, p, `document.querySelectorAll("#backend-tabs .tab[data-label]").length`) // the compare tab has no label
				for i := 1; i < tabs; i++ {
					p.click(t, fmt.Sprintf(`#backend-tabs .tab[data-index="%d"]`, i))
					p.do(t, chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]:not([data-layout="pending"])`)))
					checked += checkContrast(t, p, state(fmt.Sprintf("backend %d", i)), seen)
					checkCanvasText(t, p, state(fmt.Sprintf("backend %d graph", i)), seen)
				}
				t.Logf("%s: %d text elements checked", state(""), checked)
			}
		}
	}
	noJSErrors(t, p)
}

// checkCanvasText colours the graph by each mode and checks the text the
// canvas drew against the box under it.
func checkCanvasText(t *testing.T, p *page, state string, seen map[string]bool) {
	t.Helper()
	if !eval[bool](t, p, `document.getElementById("graph-canvas") !== null`) {
		return
	}
	p.click(t, "#view-tab-graph")
	modes := eval[[]string](t, p, `Array.from(document.querySelectorAll("#graph-color option")).map((o) => o.value)`)
	for _, mode := range modes {
		p.setValue(t, "#graph-color", mode, "change")
		pairs := eval[[]canvasPair](t, p, `window.__trtperf.textColours()`)
		if len(pairs) == 0 {
			t.Errorf("%s by %s: the graph drew no text", state, mode)
		}
		for _, c := range pairs {
			need := 4.5
			if c.Large {
				need = 3
			}
			key := state + mode + c.What + c.Fg + c.Bg
			if c.Ratio < need-0.005 && !seen[key] {
				seen[key] = true
				t.Errorf("%s by %s: %s %s on %s = %.2f (needs %v)", state, mode, c.What, c.Fg, c.Bg, c.Ratio, need)
			}
		}
	}
	p.setValue(t, "#graph-color", modes[0], "change")
}

// checkARIA: tab strips follow the tabs pattern, the table exposes rows,
// column headers (aria-sort on the sorted one) and cells, and the graph
// canvas is a focusable, labelled image with a visible focus ring that the
// arrow keys drive.
func checkARIA(t *testing.T, p *page, name string) {
	t.Helper()
	for _, list := range []string{"#backend-tabs", "#view-tabs"} {
		v := eval[struct {
			Role      string
			Label     string
			Tabs      int
			Selected  int
			Focusable int
			Bad       []string
		}](t, p, fmt.Sprintf(`(() => {
			const l = document.querySelector(%q);
			const tabs = Array.from(l.querySelectorAll('[role="tab"]'));
			const bad = [];
			for (const t of tabs) {
				const c = t.getAttribute("aria-controls");
				const panel = c && document.getElementById(c);
				if (!panel || panel.getAttribute("role") !== "tabpanel") bad.push((t.textContent || "").trim() + ": aria-controls " + c + " is no tabpanel");
				if (!["true", "false"].includes(t.getAttribute("aria-selected"))) bad.push((t.textContent || "").trim() + ": aria-selected " + t.getAttribute("aria-selected"));
			}
			return {role: l.getAttribute("role"), label: l.getAttribute("aria-label") || "",
				tabs: tabs.length, selected: tabs.filter((t) => t.getAttribute("aria-selected") === "true").length,
				focusable: tabs.filter((t) => t.tabIndex === 0).length, bad};
		})()`, list))
		if v.Role != "tablist" || v.Label == "" || v.Tabs == 0 || v.Selected != 1 || v.Focusable != 1 || len(v.Bad) > 0 {
			t.Errorf("%s %s: role %q label %q, %d tabs, %d selected, %d in the tab order (want tablist, a label, 1, 1): %v", name, list, v.Role, v.Label, v.Tabs, v.Selected, v.Focusable, v.Bad)
		}
	}
	// Arrow keys move along the view tabs.
	p.do(t, js(`document.querySelector('#view-tabs [aria-selected="true"]').focus()`))
	before := eval[string](t, p, `document.activeElement.id`)
	p.do(t, chromedp.KeyEvent(kb.ArrowRight)) // ArrowRight
	if after := eval[string](t, p, `document.activeElement.id`); after == before || eval[string](t, p, `document.querySelector('#view-tabs [aria-selected="true"]').id`) != after {
		t.Errorf("%s: ArrowRight on view tab %s moved focus to %q without selecting it", name, before, after)
	}

	// The table: native-table semantics through ARIA roles.
	p.click(t, "#view-tab-table")
	tbl := eval[struct {
		Role, Label string
		Headers     int
		Cells       []int // cells per rendered row
		Sorted      []string
	}](t, p, `(() => {
		const t = document.querySelector(".layer-table");
		const heads = t.querySelectorAll('.thead [role="columnheader"]');
		const rows = Array.from(t.querySelectorAll('#table-body [role="row"]:not([hidden])')).slice(0, 5);
		return {role: t.getAttribute("role"), label: t.getAttribute("aria-label") || "", headers: heads.length,
			cells: rows.map((r) => r.querySelectorAll('[role="cell"], [role="gridcell"]').length),
			sorted: Array.from(heads).filter((h) => h.hasAttribute("aria-sort")).map((h) => h.textContent.trim() + "=" + h.getAttribute("aria-sort"))};
	})()`)
	if (tbl.Role != "table" && tbl.Role != "grid") || tbl.Label == "" || tbl.Headers < 5 {
		t.Errorf("%s: layer table role %q label %q with %d column headers", name, tbl.Role, tbl.Label, tbl.Headers)
	}
	for _, c := range tbl.Cells {
		if c != tbl.Headers {
			t.Errorf("%s: a table row has %d cells for %d column headers", name, c, tbl.Headers)
			break
		}
	}
	sortBy := func(key string) []string {
		p.setValue(t, "#sort", key, "change")
		return eval[[]string](t, p, `Array.from(document.querySelectorAll('.layer-table [role="columnheader"][aria-sort]')).map((h) => h.textContent.trim() + "=" + h.getAttribute("aria-sort"))`)
	}
	if got := sortBy("name"); len(got) != 1 || !strings.HasPrefix(got[0], "Layer name=ascending") {
		t.Errorf("%s: sorted by name, the headers say %q, want the name column aria-sort=ascending", name, got)
	}
	if eval[bool](t, p, `Array.from(document.querySelectorAll("#sort option")).some((o) => o.value === "time")`) {
		if got := sortBy("time"); len(got) != 1 || !strings.HasPrefix(got[0], "Avg=descending") {
			t.Errorf("%s: sorted by time, the headers say %q, want Avg aria-sort=descending", name, got)
		}
	}
	if got := sortBy("topo"); len(got) != 1 || !strings.HasPrefix(got[0], "#=ascending") {
		t.Errorf("%s: in topological order, the headers say %q, want # aria-sort=ascending", name, got)
	}
	// Clicking a sortable header sorts by it.
	p.click(t, `.layer-table .thead .c-name [role="button"], .layer-table .thead .c-name button`)
	if got := eval[string](t, p, `document.getElementById("sort").value`); got != "name" {
		t.Errorf("%s: clicking the name header sorts by %q, want name", name, got)
	}
	p.setValue(t, "#sort", "topo", "change")

	// The graph: a labelled, focusable image with a focus ring, keyboard-driven.
	p.click(t, "#view-tab-graph")
	g := eval[struct {
		Role, Label, Desc string
		Tab               int
	}](t, p, `(() => { const c = document.getElementById("graph-canvas");
		const desc = (c.getAttribute("aria-describedby") || "").split(" ").map((id) => (document.getElementById(id) || {}).textContent || "").join(" ").trim();
		return {role: c.getAttribute("role"), label: c.getAttribute("aria-label") || "", desc, tab: c.tabIndex}; })()`)
	if (g.Role != "img" && g.Role != "application") || g.Label == "" || g.Desc == "" || g.Tab != 0 {
		t.Errorf("%s: graph canvas role %q, label %q, description %q, tabIndex %d", name, g.Role, g.Label, g.Desc, g.Tab)
	}
	p.do(t, js(`document.getElementById("graph-canvas").focus({focusVisible: true})`))
	ring := eval[string](t, p, `(() => { const s = getComputedStyle(document.getElementById("graph-canvas")); return s.outlineStyle + " " + s.outlineWidth; })()`)
	if strings.HasPrefix(ring, "none") || strings.HasSuffix(ring, " 0px") {
		t.Errorf("%s: the focused graph has no focus ring (outline %s)", name, ring)
	}
	p.do(t, chromedp.KeyEvent(kb.ArrowDown)) // ArrowDown: selects a layer when none is
	first := eval[string](t, p, `document.getElementById("details-name") ? document.getElementById("details-name").textContent : ""`)
	p.do(t, chromedp.KeyEvent(kb.ArrowDown))
	second := eval[string](t, p, `document.getElementById("details-name") ? document.getElementById("details-name").textContent : ""`)
	if first == "" || second == "" || first == second {
		t.Errorf("%s: arrow keys on the graph selected %q then %q, want two different layers", name, first, second)
	}
	if alt := p.text(t, "#graph-alt"); !strings.Contains(alt, second) {
		t.Errorf("%s: the graph's text alternative says %q, not the selected layer %q", name, alt, second)
	}
}
