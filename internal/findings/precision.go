package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// precisionRank orders precisions by width; 0 for types that are no compute
// precision (INT32, BOOL, UNKNOWN).
func precisionRank(p string) int {
	switch p {
	case "FP4", "INT4":
		return 1
	case "FP8", "INT8", "UINT8":
		return 2
	case "FP16", "BF16":
		return 3
	case "TF32":
		return 4
	case "FP32":
		return 5
	}
	return 0
}

// labelPrecision reads a target precision from a backend label's words
// ("int8-qat" → INT8, "fp16" → FP16, "best" → INT8); "" when it names none.
func labelPrecision(label string) string {
	best := ""
	for _, w := range strings.FieldsFunc(strings.ToLower(label), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		p := ""
		switch w {
		case "fp32", "float32", "float":
			p = "FP32"
		case "tf32":
			p = "TF32"
		case "fp16", "half", "float16":
			p = "FP16"
		case "bf16", "bfloat16":
			p = "BF16"
		case "int8", "i8", "qat", "best", "int8qat":
			p = "INT8"
		case "fp8", "e4m3":
			p = "FP8"
		case "fp4", "nvfp4":
			p = "FP4"
		}
		if p != "" && (best == "" || precisionRank(p) < precisionRank(best)) {
			best = p
		}
	}
	return best
}

// dominantPrecision is the precision carrying the most conv/GEMM time (all
// compute time when there is no conv/GEMM), with its share of that time.
func dominantPrecision(c *ctx) (string, float64) {
	// Time per precision, indexed like rankedPrecisions (in name order).
	var byPrec [len(rankedPrecisions)]float64
	total := 0.0
	for _, matmulOnly := range []bool{true, false} {
		for j := range c.tinfo {
			t := &c.tinfo[j]
			if k := t.k; !k.is(fCompute) || (matmulOnly && !k.is(fMatmul)) || k.rank == 0 {
				continue
			}
			byPrec[t.k.prec] += t.avg
			total += t.avg
		}
		if total > 0 {
			break
		}
	}
	best, bestMs := "", 0.0
	for i := 1; i < len(byPrec); i++ {
		if byPrec[i] > bestMs {
			best, bestMs = rankedPrecisions[i], byPrec[i]
		}
	}
	if total == 0 {
		return "", 0
	}
	return best, bestMs / total
}

// targetPrecision: the narrower of what the label asks for and what most
// conv/GEMM time runs in (a QAT engine labelled "qat" is INT8; an engine
// labelled "onnx-trt" is what it mostly computes in).
func targetPrecision(c *ctx) (string, string) {
	lp := labelPrecision(c.b.Label)
	dp, _ := dominantPrecision(c)
	if dp == "TF32" {
		dp = "FP32" // TF32 is how FP32 engines run on Ampere+, not a target
	}
	switch {
	case lp == "" && dp == "":
		return "", ""
	case lp == "":
		return dp, "dominant"
	case dp == "" || precisionRank(lp) <= precisionRank(dp):
		return lp, "label"
	}
	return dp, "dominant"
}

func (c *ctx) targetEvidence() string {
	if c.targetFrom == "label" {
		return fmt.Sprintf("target precision %s, from the backend label %q", c.target, c.b.Label)
	}
	dp, share := dominantPrecision(c)
	return fmt.Sprintf("target precision %s, the precision of %.0f%% of the convolution/GEMM time (%s)", c.target, share*100, dp)
}

// evalPrecisionFallback: compute layers wider than the engine's target.
// FP32 layers TensorRT keeps for accuracy (a final Softmax, small) are
// information, not a finding.
func evalPrecisionFallback(c *ctx) *contract.Finding {
	tr := precisionRank(c.target)
	if tr == 0 || c.target == "FP32" {
		return nil
	}
	var recs, expected []*contract.Record
	for _, r := range c.freeRecs(c.fallbackRecs()) {
		if c.expectedWide(r) {
			expected = append(expected, r)
		} else {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return nil
	}
	conf := contract.ConfidenceHigh
	if c.targetFrom != "label" {
		conf = contract.ConfidenceMedium
	}
	f := c.newFinding("precision_fallback", conf, recs)
	byPrec := map[string][]*contract.Record{}
	for _, r := range recs {
		byPrec[r.Precision] = append(byPrec[r.Precision], r)
	}
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d compute layers run wider than the %s; they take %.4f ms (%.2f%% of the profile).",
			len(recs), c.targetEvidence(), sumMs(recs), c.pct(sumMs(recs))))
	for _, p := range sortedKeys(byPrec) {
		rs := byPrec[p]
		f.Metrics[strings.ToLower(p)+"_ms"] = round(sumMs(rs), 6)
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s: %d layers, %.2f%%: %s.", p, len(rs), c.pct(sumMs(rs)), c.topNames(rs, 5)))
	}
	if len(expected) > 0 {
		f.Evidence = append(f.Evidence, fmt.Sprintf("Not counted: %d small layers TensorRT keeps wide for accuracy (%s).", len(expected), c.topNames(expected, 2)))
	}
	target := strings.ToLower(c.target)
	switch {
	case c.explicitQDQ():
		f.Action = "Quantize these layers in the model (Q/DQ on their inputs and weights): in an explicitly quantized engine precision flags must not be used to move layers."
		f.NextCheck = "Add QuantizeLinear/DequantizeLinear on the inputs of " + c.topNames(recs, 3) + " in the model, " + c.rebuildWith("--int8 --fp16") + ", and check their precision in the layer list."
	default:
		names := c.addressable(recs, target)
		f.Action = fmt.Sprintf("Let these layers run in %s: find what keeps them wide (an FP32 cast or an op without a %s kernel in the model) and remove it, or pin their precision.", c.target, c.target)
		if names != "" && !c.stronglyTyped() {
			flag := "--" + target
			if target == "int8" {
				flag = "--int8 --fp16"
			}
			f.NextCheck = fmt.Sprintf("Rebuild with %s --precisionConstraints=prefer --layerPrecisions=%s and compare latency and accuracy.", flag, names)
		} else {
			f.NextCheck = "These layers carry names TensorRT made while fusing, which --layerPrecisions cannot address: look for Cast nodes to FP32 (or ops without " + c.target + " kernels) around " + c.topNames(recs, 2) + " in the model, remove them, rebuild and check the layers' precision."
		}
	}
	return f
}

// expectedWide: a layer TensorRT keeps in FP32 on purpose: a softmax or
// normalization statistic that takes under expectedFP32Pct of the time.
func (c *ctx) expectedWide(r *contract.Record) bool {
	k := c.class(r)
	return (k.has(tgSoftmax) || k.has(tgNorm)) && c.pct(r.AvgMs) < limits.expectedFP32Pct
}

// fallbackRecs are the timed compute layers wider than the target, once
// per ctx (the rule and the no_precision_fallback positive both ask).
func (c *ctx) fallbackRecs() []*contract.Record {
	if !c.fallbackD {
		tr := precisionRank(c.target)
		c.fallback = c.selectTimed(func(_ *contract.Record, t *timedInfo) bool {
			k := t.k
			return k.is(fCompute) && int(k.rank) > tr && !(c.target == "FP16" && k.is(fBF16))
		})
		c.fallbackD = true
	}
	return c.fallback
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
