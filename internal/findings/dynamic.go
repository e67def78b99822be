package findings

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// shapeKinds are the tags of shape-computation layers, in report order.
var shapeKinds = []string{"shape", "cast", "slice", "concat", "gather"}

func isShapeLayer(r *contract.Record) bool {
	if isReformat(r) || r.RawLayerType == "NoOp" || isMatmulLayer(r) {
		return false
	}
	return r.LayerType == "misc" || hasAnyTag(r, shapeKinds...)
}

func evalDynamicShape(c *ctx) *contract.Finding {
	recs := c.selectTimed(isShapeLayer)
	if len(recs) == 0 || c.pct(sumMs(recs)) < 1 {
		return nil
	}
	f := c.newFinding("dynamic_shape_overhead", contract.ConfidenceMedium, recs)
	parts := []string{}
	for _, k := range shapeKinds {
		rs := make([]*contract.Record, 0)
		for _, r := range recs {
			if hasTag(r, k) || (k == "shape" && r.LayerType == "misc") {
				rs = append(rs, r)
			}
		}
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
