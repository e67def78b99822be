package findings

import (
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// addressableName reports whether trtexec's --layerPrecisions can name a
// layer: a network layer name, not a name TensorRT made up while building
// (fused "a + b" names, Myelin regions and kernels, reformats, Q/DQ), and no
// character the spec syntax splits on.
func addressableName(l *contract.Layer) bool {
	n := l.Name
	if n == "" || l.Origin == "QDQ" || l.Origin == "REFORMAT" {
		return false
	}
	for _, bad := range []string{" + ", "_myl", "__myl", "ForeignNode", "Reformatting CopyNode", "QuantizeLinear", "DequantizeLinear", "PWN(", "[", "]"} {
		if strings.Contains(n, bad) {
			return false
		}
	}
	return !strings.ContainsAny(n, ",:'\" ")
}

// addressable lists "name:prec" specs for the records whose layers can be
// named, at most five; "" when none can.
func (c *ctx) addressable(recs []*contract.Record, prec string) string {
	var specs []string
	for _, r := range recs {
		if len(specs) == 5 {
			break
		}
		if addressableName(c.layer(r)) {
			specs = append(specs, r.Name+":"+prec)
		}
	}
	return strings.Join(specs, ",")
}
