package findings

import (
	"fmt"

	"github.com/trtperf/trtperf/internal/contract"
)

// evalInt8GemmFP16: an INT8 build (by label) without Q/DQ whose GEMMs run
// in FP16 inside Myelin regions: implicit quantization does not reach them.
func evalInt8GemmFP16(c *ctx) *contract.Finding {
	if labelPrecision(c.b.Label) != "INT8" || c.explicitQDQ() {
		return nil
	}
	recs := c.selectTimed(func(r *contract.Record, t *timedInfo) bool {
		return t.k.is(fGemmish) && (t.k.is(fTacticMyelin) || t.k.has(tgMyelin)) && (r.Precision == "FP16" || r.Precision == "BF16")
	})
	if len(recs) == 0 {
		return nil
	}
	f := c.newFinding("int8_gemm_fp16", contract.ConfidenceMedium, recs)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("The build targets INT8 (label %q) without Q/DQ, yet %d GEMMs inside Myelin regions run in FP16: %.4f ms (%.2f%% of the profile): %s.",
			c.b.Label, len(recs), sumMs(recs), c.pct(sumMs(recs)), c.topNames(recs, 3)),
		"Implicit (calibration) INT8 does not quantize GEMMs that Myelin compiles; explicit Q/DQ does.")
	f.Action = "Quantize the transformer explicitly (Q/DQ before each MatMul, e.g. with NVIDIA ModelOpt) instead of relying on --int8 calibration."
	return f
}
