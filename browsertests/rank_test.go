package browsertests

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
)

// TestFirstScreenKeepsTheAnalysisRank: "What to do" lists the findings in
// the analysis' order (by score), not by recoverable time. On the TF
// ResNet50 FP16 build the INT8 sibling's measured gain is the largest
// price, but it is an accuracy trade-off ranked after the input prologue,
// as the summary prints it.
func TestFirstScreenKeepsTheAnalysisRank(t *testing.T) {
	src := filepath.Join(corpustest.Dir(t, corpustest.Reports), "trex-tf-resnet50-rtx3090")
	dir := packageCLI(t, src, "--output-parent", t.TempDir(), "--timestamp", "20240101_000000")
	d, err := contract.ReadFile(filepath.Join(dir, "analyze-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	b := &d.Results[0]
	if b.Label != "fp16" || len(b.Issues) < 2 || b.Issues[0].RecoverableMs >= b.Issues[1].RecoverableMs {
		t.Fatalf("the fp16 backend no longer ranks a smaller price first (%s); this test needs such a case", b.Label)
	}
	p := newPage(t, 60*time.Second)
	for _, vp := range viewports {
		p.do(t, chromedp.EmulateViewport(vp.w, vp.h))
		p.open(t, fileURL(dir))
		shown := eval[[]string](t, p, `Array.from(document.querySelectorAll("#top-findings ol.top-findings > li")).map(li => li.dataset.id)`)
		for i := range min(len(shown), len(b.Issues)) {
			if shown[i] != b.Issues[i].ID {
				t.Errorf("%dx%d: finding %d on the first screen is %s, the analysis ranks %s there", vp.w, vp.h, i+1, shown[i], b.Issues[i].ID)
			}
		}
		if len(shown) != min(3, len(b.Issues)) {
			t.Errorf("%dx%d: %d findings shown, want %d", vp.w, vp.h, len(shown), min(3, len(b.Issues)))
		}
	}
	noJSErrors(t, p)
}
