package findings

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// shapeKinds are the tags of shape-computation layers, in report order.
var shapeKinds = []string{"shape", "cast", "slice", "concat", "gather"}

func evalDynamicShape(c *ctx) *contract.Finding {
	recs := c.selectTimed(flagged(fShape))
	if len(recs) == 0 || c.pct(sumMs(recs)) < 1 {
		return nil
	}
	f := c.newFinding("dynamic_shape_overhead", contract.ConfidenceMedium, recs)
	parts := []string{}
	for _, k := range shapeKinds {
		bit, shape := tagBit(k), k == "shape"
		rs := c.selectTimed(func(_ *contract.Record, t *timedInfo) bool {
			return t.k.is(fShape) && (t.k.has(bit) || (shape && t.k.is(fMisc)))
		})
		if len(rs) > 0 {
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
