package findings

import (
	"fmt"

	"github.com/trtperf/trtperf/internal/contract"
)

// evalInt8GemmFP16: an INT8 build without Q/DQ (INT8 layers elsewhere, or
// the build's own flags say so) whose GEMMs run in FP16 inside Myelin
// regions: implicit quantization does not reach them.
func evalInt8GemmFP16(c *evaluation) *contract.Finding {
	int8, why := c.int8Intent()
	if !int8 {
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
		fmt.Sprintf("The build targets INT8 without Q/DQ (%s), yet %d GEMMs inside Myelin regions run in FP16: %.4f ms (%.2f%% of the profile): %s.",
			why, len(recs), sumMs(recs), c.pct(sumMs(recs)), c.topNames(recs, 3)),
		"Implicit (calibration) INT8 does not quantize GEMMs that Myelin compiles; explicit Q/DQ does.")
	f.Action = "Quantize the transformer explicitly (Q/DQ before each MatMul, e.g. with NVIDIA ModelOpt) instead of relying on implicit (calibration) INT8."
	if c.has("--int8") {
		f.Action = "Quantize the transformer explicitly (Q/DQ before each MatMul, e.g. with NVIDIA ModelOpt) instead of relying on --int8 calibration."
	}
	return f
}
