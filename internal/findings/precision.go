package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
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

// dominantPrecision is the precision carrying the most conv/GEMM time (all
// compute time when there is no conv/GEMM), with its share of that time.
func dominantPrecision(c *evaluation) (string, float64) {
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

// Where a target precision comes from (evaluation.targetFrom). Every source is a
// fact of the engine or of its build; a backend's label or folder name says
// what someone called the files, never what the engine computes in.
const (
	fromQDQ      = "qdq"         // explicit Q/DQ layers in the engine
	fromINT8     = "int8_layers" // INT8 compute layers without Q/DQ (calibrated)
	fromBuild    = "build"       // precision flags of the run that built it
	fromDominant = "dominant"    // the precision of most conv/GEMM time
)

// buildPrecision is the narrowest reduced precision the build's own flags
// enable (--int8/--best → INT8, --fp16 → FP16, ...); "" without build
// facts or for an FP32 build. A --loadEngine run never contributes flags
// (see analysis' build facts).
func buildPrecision(b *contract.Backend) (string, string) {
	bp, ok := layerfacts.BuildPrecision(b.Build)
	if !ok || bp.Narrowest == layerfacts.FP32 {
		return "", ""
	}
	return bp.Narrowest, bp.Flag
}

// int8Layers counts the timed compute layers that run in INT8.
func (c *evaluation) int8Layers() int {
	n := 0
	for j := range c.tinfo {
		if k := c.tinfo[j].k; k.is(fCompute) && k.prec != 0 && rankedPrecisions[k.prec] == "INT8" {
			n++
		}
	}
	return n
}

// targetPrecision is the narrowest precision the engine's facts say it was
// built for: explicit Q/DQ or INT8 compute layers (INT8), the flags of the
// run that built it, or else what most conv/GEMM time runs in.
func targetPrecision(c *evaluation) (string, string) {
	dp, _ := dominantPrecision(c)
	if dp == "TF32" {
		dp = "FP32" // TF32 is how FP32 engines run on Ampere+, not a target
	}
	switch {
	case c.explicitQDQ():
		return "INT8", fromQDQ
	case c.int8Layers() > 0:
		return "INT8", fromINT8
	}
	if bp, _ := buildPrecision(c.b); bp != "" && (dp == "" || precisionRank(bp) < precisionRank(dp)) {
		return bp, fromBuild
	}
	if dp == "" {
		return "", ""
	}
	return dp, fromDominant
}

// int8Intent says whether the engine was built for INT8 without explicit
// Q/DQ (implicit quantization: calibration or set dynamic ranges), and the
// fact that says so.
func (c *evaluation) int8Intent() (bool, string) {
	if c.explicitQDQ() {
		return false, ""
	}
	if n := c.int8Layers(); n > 0 {
		return true, fmt.Sprintf("%d compute layers run in INT8", n)
	}
	if bp, flag := buildPrecision(c.b); bp == "INT8" {
		return true, fmt.Sprintf("the build ran with %s (%s)", flag, strings.Join(c.b.Build.Sources, ", "))
	}
	return false, ""
}

// certain: the target comes from an engine or build fact, not from the
// majority of the time.
func (c *evaluation) certain() bool { return c.targetFrom != fromDominant }

func (c *evaluation) targetEvidence() string {
	switch c.targetFrom {
	case fromQDQ:
		return fmt.Sprintf("target precision %s, from the explicit Q/DQ layers in the engine", c.target)
	case fromINT8:
		return fmt.Sprintf("target precision %s, from the %d compute layers that run in INT8 (the build calibrated or set dynamic ranges)", c.target, c.int8Layers())
	case fromBuild:
		_, flag := buildPrecision(c.b)
		return fmt.Sprintf("target precision %s, from the build flag %s (%s)", c.target, flag, strings.Join(c.b.Build.Sources, ", "))
	}
	dp, share := dominantPrecision(c)
	return fmt.Sprintf("target precision %s, the precision of %.0f%% of the convolution/GEMM time (%s)", c.target, share*100, dp)
}

// evalPrecisionFallback: compute layers wider than the engine's target.
// FP32 layers TensorRT keeps for accuracy (a final Softmax, small) are
// information, not a finding.
func evalPrecisionFallback(c *evaluation) *contract.Finding {
	tr := precisionRank(c.target)
	if tr == 0 || c.target == "FP32" || !c.fastPath(c.target) {
		// Without a fast path for the target TensorRT rightly keeps
		// layers wider (FP16 on Pascal GP10x runs at 1/64 of FP32).
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
	if !c.certain() {
		conf = contract.ConfidenceMedium
	}
	f := c.newFinding("precision_fallback", conf, recs)
	byPrec := map[string][]*contract.Record{}
	for _, r := range recs {
		byPrec[r.Precision] = append(byPrec[r.Precision], r)
	}
	var ps []part
	for _, p := range sortedKeys(byPrec) {
		ps = append(ps, part{p, byPrec[p]})
	}
	c.partition(f, ps...)
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
			f.NextCheck = fmt.Sprintf("Rebuild with %s --precisionConstraints=prefer %s and compare latency and accuracy.", flag, layerPrecisionsArg(names))
		} else {
			f.NextCheck = "These layers " + c.unaddressableWhy(recs) + ": look for Cast nodes to FP32 (or ops without " + c.target + " kernels) around " + c.topNames(recs, 2) + " in the model, remove them, rebuild and check the layers' precision."
		}
	}
	return f
}

// expectedWide: a layer TensorRT keeps in FP32 on purpose: a softmax or
// normalization statistic that takes under expectedFP32Pct of the time.
func (c *evaluation) expectedWide(r *contract.Record) bool {
	k := c.class(r)
	return (k.has(tgSoftmax) || k.has(tgNorm)) && c.pct(r.AvgMs) < limits.expectedFP32Pct
}

// fallbackRecs are the timed compute layers wider than the target, once
// per evaluation (the rule and the no_precision_fallback positive both ask).
func (c *evaluation) fallbackRecs() []*contract.Record {
	if !c.fallbackD {
		tr := precisionRank(c.target)
		c.fallback = c.selectTimed(func(_ *contract.Record, t *timedInfo) bool {
			k := t.k
			// A quantize kernel reads the wide type by definition: it is the
			// conversion into the target, not a layer left behind.
			quantize := k.has(tgQuantize) && !k.has(tgMatmul)
			return k.is(fCompute) && int(k.rank) > tr && !(c.target == "FP16" && k.is(fBF16)) && !quantize
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
