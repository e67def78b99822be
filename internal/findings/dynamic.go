package findings

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// shapeKinds are the tags of shape-computation layers, in report order.
var shapeKinds = []string{"shape", "cast", "slice", "concat", "gather"}

func evalDynamicShape(c *evaluation) *contract.Finding {
	recs := c.selectTimed(flagged(fShape))
	if len(recs) == 0 || c.pct(sumMs(recs)) < 1 {
		return nil
	}
	f := c.newFinding("dynamic_shape_overhead", contract.ConfidenceMedium, recs)
	// Each layer in the first kind its tags name; the rest is other shape
	// work.
	var cands []part
	for _, k := range shapeKinds {
		bit, shape := tagBit(k), k == "shape"
		var rs []*contract.Record
		for _, r := range recs {
			if t := c.class(r); t.has(bit) || (shape && t.is(fMisc)) {
				rs = append(rs, r)
			}
		}
		cands = append(cands, part{k, rs})
	}
	cands = append(cands, part{"other", recs})
	parts := []string{}
	for i, rs := range c.partition(f, cands...) {
		if k := cands[i].name; len(rs) > 0 {
			f.Metrics[k+"_ms"] = round(sumMs(rs), 6)
			parts = append(parts, fmt.Sprintf("%s ×%d (%.2f%%)", k, len(rs), c.pct(sumMs(rs))))
		}
	}
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d shape/cast/slice/concat/gather layers take %.4f ms (%.2f%%): %s.", len(recs), sumMs(recs), c.pct(sumMs(recs)), strings.Join(parts, ", ")),
		"Largest: "+c.topNames(recs, 5)+".")
	if c.b.Model.DynamicDims {
		f.Evidence = append(f.Evidence, "The engine has dynamic dimensions (-1 in tensor shapes).")
	}
	return f
}
