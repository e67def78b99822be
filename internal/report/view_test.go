package report

import (
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// TestSummaryDropsPerLayerLists: data.js carries no per-layer arrays but
// the findings' layers (counted on the first screen, highlighted on a
// click), and making it leaves the analysis as it was.
func TestSummaryDropsPerLayerLists(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 300})
	b := &d.Results[0]
	b.Overview = append(b.Overview, contract.OverviewItem{ID: "x", Title: "x", Layers: []int{1, 2}})
	b.Issues = append(b.Issues, contract.Finding{ID: "y", Layers: []int{3}})
	s := summary(d)
	sb := &s.Results[0]
	if len(sb.Layers)+len(sb.Records)+len(sb.Graph.Edges)+len(sb.Graph.TopoOrder) != 0 {
		t.Error("data.js keeps layers, records, edges or the order")
	}
	for _, o := range sb.Overview {
		if o.Layers != nil {
			t.Errorf("overview item %s keeps its %d layers in data.js", o.ID, len(o.Layers))
		}
	}
	if len(sb.Overview) != len(b.Overview) {
		t.Errorf("data.js has %d overview items, the analysis %d", len(sb.Overview), len(b.Overview))
	}
	if got := sb.Issues[len(sb.Issues)-1].Layers; len(got) != 1 {
		t.Errorf("the finding's layers in data.js: %v, want [3]", got)
	}
	if got := b.Overview[len(b.Overview)-1].Layers; len(got) != 2 || len(b.Layers) != 300 {
		t.Error("summary changed the analysis")
	}
}
