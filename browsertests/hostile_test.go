package browsertests

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// TestHostileReport: layer names, tactics, metadata, messages, findings and
// analyze.md full of markup must execute nothing and show up as text.
func TestHostileReport(t *testing.T) {
	d, md := reporttest.Hostile()
	dir := publish(t, d, md)
	for _, via := range []string{"file", "http"} {
		t.Run(via, func(t *testing.T) {
			p := newPage(t, 90*time.Second)
			url := fileURL(dir)
			if via == "http" {
				url = serve(t, dir)
			}
			check := func(t *testing.T) {
				p.open(t, url)
				b := &d.Results[0]
				// Exercise every place strings go: details of each hostile layer,
				// the graph search, a finding's highlight, the failed backend.
				for i := 1; i < len(reporttest.Payloads)+2; i++ {
					p.do(t, js(`window.__trtperf.select(`+strconv.Itoa(i)+`)`), chromedp.WaitReady(chromedp.CSS(`#details[data-loaded="`+strconv.Itoa(i)+`"]`)))
					if got := p.text(t, "#details-name"); got != b.Layers[i].Name {
						t.Errorf("layer %d name shown as %q, want it literally (%q)", i, trunc(got), trunc(b.Layers[i].Name))
					}
					if got := p.text(t, "#details"); !strings.Contains(got, b.Layers[i].Metadata) || !strings.Contains(got, b.Layers[i].TacticName) {
						t.Errorf("layer %d metadata/tactic not shown literally", i)
					}
				}
				p.do(t, chromedp.SendKeys(chromedp.CSS("#graph-search"), "<script>\r"))
				p.click(t, "#view-tab-table")
				p.do(t, chromedp.SendKeys(chromedp.CSS("#filter-name"), "onerror"))
				if got := len(rows(t, p)); got == 0 {
					t.Error("filtering for a hostile name found nothing")
				}
				// The tactic column arrives after the table (tactics-<b>.js).
				p.do(t, chromedp.WaitReady(chromedp.CSS(`body[data-tactics="1"]`)))
				shown := eval[[]struct {
					Layer  int
					Tactic string
				}](t, p, `[...document.querySelectorAll("#table-body .trow:not([hidden])")].map((r) => ({layer: Number(r.dataset.layer), tactic: r.querySelector(".c-tactic").textContent}))`)
				if len(shown) == 0 {
					t.Error("no table rows after filtering")
				}
				named := 0
				for _, r := range shown {
					want := b.Layers[r.Layer].TacticName
					for _, rec := range b.Records {
						if rec.Layer == r.Layer && rec.Tactic != "" {
							want = rec.Tactic
						}
					}
					if r.Tactic != want {
						t.Errorf("layer %d tactic cell %q, want it literally (%q)", r.Layer, trunc(r.Tactic), trunc(want))
					}
					if want != "" {
						named++
					}
				}
				if named == 0 {
					t.Error("no filtered row has a tactic: the check above saw nothing")
				}
				p.click(t, `#findings .finding button`)
				if got := p.text(t, "#findings"); !strings.Contains(got, reporttest.Payloads[2]) || !strings.Contains(got, reporttest.Payloads[5]) {
					t.Errorf("finding text not literal: %q", trunc(got))
				}
				if got := p.text(t, "#model-name"); got != d.ModelName {
					t.Errorf("model name %q, want literal %q", got, d.ModelName)
				}
				// analyze.md: rendered, sanitised, links neutered.
				html := eval[string](t, p, `document.getElementById("analysis-body").innerHTML`)
				for _, bad := range []string{"<script", "onerror", "onload", "onmouseover", "javascript:", "example.invalid/track.png\"", "<svg", "<iframe"} {
					if strings.Contains(strings.ToLower(html), bad) {
						t.Errorf("analysis HTML contains %q", bad)
					}
				}
				if !strings.Contains(html, "<table>") || !strings.Contains(html, "image not shown") {
					t.Errorf("analysis lost its safe parts: %s", trunc(html))
				}
				p.click(t, `#backend-tabs .tab[data-label="int8"]`)
				if got := p.text(t, "#validation"); !strings.Contains(got, reporttest.Payloads[1]) {
					t.Errorf("failed backend message not literal: %q", trunc(got))
				}
				p.click(t, `#backend-tabs .tab[data-label="fp16"]`)
				p.do(t, chromedp.WaitReady(chromedp.CSS(`#graph-canvas`)), chromedp.Sleep(200*time.Millisecond))
				if via == "file" && eval[float64](t, p, `innerWidth`) == float64(viewports[0].w) {
					p.screenshot(t, "hostile")
				}
				if pwned := eval[any](t, p, `window.__pwned === undefined ? null : String(window.__pwned)`); pwned != nil {
					t.Errorf("injected script ran: window.__pwned = %v", pwned)
				}
				injected := eval[int](t, p, `document.querySelectorAll("#app script, #app img[onerror], #app svg[onload], #app iframe, #app [onerror], #app [onload], #app [onmouseover]").length`)
				if injected != 0 {
					t.Errorf("%d injected elements in the DOM", injected)
				}
			}
			if via == "http" {
				p.do(t, chromedp.EmulateViewport(viewports[0].w, viewports[0].h))
				check(t) // the same page as over file://; one size is enough
			} else {
				eachViewport(t, p, check)
			}
			noJSErrors(t, p)
		})
	}
}

func trunc(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
