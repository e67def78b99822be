package findings

import (
	"fmt"

	"github.com/trtperf/trtperf/internal/contract"
)

// positiveRule is one row of the positives table.
type positiveRule struct {
	ID   string
	Eval func(*evaluation) *contract.Positive
}

var positiveRules = []positiveRule{
	{"tensor_core_coverage", posTensorCores},
	{"no_precision_fallback", posNoFallback},
	{"low_reformat_overhead", posLowReformat},
	{"fused_attention", posFusedAttention},
	{"layer_fusion", posFusion},
	{"zero_time_layers", posZeroTime},
}

func evalPositives(c *evaluation) []contract.Positive {
	out := []contract.Positive{}
	for _, p := range positiveRules {
		if v := p.Eval(c); v != nil {
			v.ID = p.ID
			out = append(out, *v)
		}
	}
	return out
}

func posTensorCores(c *evaluation) *contract.Positive {
	mm := c.selectTimed(func(_ *contract.Record, t *timedInfo) bool {
		return t.k.is(fMatmul) && t.k.is(fTactic) && !t.k.is(fTacticMyelin)
	})
	if len(mm) == 0 {
		return nil
	}
	tc := sumMs(c.selectTimed(func(_ *contract.Record, t *timedInfo) bool {
		return t.k.is(fMatmul) && t.k.is(fTactic) && !t.k.is(fTacticMyelin) && t.k.is(fTensorCore)
	}))
	all := sumMs(mm)
	if tc < 0.8*all {
		return nil
	}
	return &contract.Positive{
		Title:    fmt.Sprintf("%.0f%% of convolution/GEMM time runs on tensor cores", tc/all*100),
		Evidence: []string{fmt.Sprintf("%.4f of %.4f ms of convolution/GEMM time (%d layers with named tactics) uses tensor-core tactics.", tc, all, len(mm))},
		Metrics:  map[string]float64{"tensor_core_ms": round(tc, 6), "matmul_ms": round(all, 6), "share_pct": round(tc/all*100, 3)},
	}
}

func posNoFallback(c *evaluation) *contract.Positive {
	if precisionRank(c.target) == 0 || c.target == "FP32" || len(c.fallbackRecs()) > 0 {
		return nil
	}
	n := len(c.selectTimed(flagged(fCompute)))
	return &contract.Positive{
		Title:    fmt.Sprintf("Every compute layer runs at %s or narrower", c.target),
		Evidence: []string{fmt.Sprintf("%d timed compute layers, none wider than the %s.", n, c.targetEvidence())},
		Metrics:  map[string]float64{"compute_layers": float64(n)},
	}
}

func posLowReformat(c *evaluation) *contract.Positive {
	recs := c.selectTimed(flagged(fReformat))
	if c.pct(sumMs(recs)) >= limits.reformatMinPct {
		return nil
	}
	return &contract.Positive{
		Title:    "Reformat overhead is low",
		Evidence: []string{fmt.Sprintf("%d timed reformat layers take %.4f ms (%.2f%%).", len(recs), sumMs(recs), c.pct(sumMs(recs)))},
		Metrics:  map[string]float64{"time_ms": round(sumMs(recs), 6), "share_pct": round(c.pct(sumMs(recs)), 3), "layer_count": float64(len(recs))},
	}
}

func posFusedAttention(c *evaluation) *contract.Positive {
	recs := c.selectTimed(func(_ *contract.Record, t *timedInfo) bool {
		k := t.k
		return k.is(fKgenMHA) || (k.has(tgAttention) && (k.has(tgPlugin) || k.is(fMyelinRaw)) && k.has(tgSoftmax|tgGemm))
	})
	if len(recs) == 0 {
		return nil
	}
	return &contract.Positive{
		Title:    "Attention runs in fused kernels",
		Evidence: []string{fmt.Sprintf("%d fused attention layers take %.4f ms (%.2f%%): %s.", len(recs), sumMs(recs), c.pct(sumMs(recs)), c.topNames(recs, 3))},
		Metrics:  map[string]float64{"time_ms": round(sumMs(recs), 6), "share_pct": round(c.pct(sumMs(recs)), 3), "layer_count": float64(len(recs))},
	}
}

func posFusion(c *evaluation) *contract.Positive {
	ops, layers := 0, 0
	for i := range c.b.Records {
		if r := &c.b.Records[i]; r.Layer >= 0 && r.FusedOps > 0 {
			ops += r.FusedOps
			layers++
		}
	}
	if layers == 0 || float64(ops) < 1.5*float64(layers) {
		return nil
	}
	return &contract.Positive{
		Title:    fmt.Sprintf("TensorRT fused %d source ops into %d layers", ops, layers),
		Evidence: []string{fmt.Sprintf("%.2f source ops per layer on average.", float64(ops)/float64(layers))},
		Metrics:  map[string]float64{"source_ops": float64(ops), "layers": float64(layers)},
	}
}

func posZeroTime(c *evaluation) *contract.Positive {
	zero, noop := 0, 0
	for i := range c.b.Records {
		r := &c.b.Records[i]
		if r.AvgMs == 0 {
			zero++
			if r.RawLayerType == "NoOp" {
				noop++
			}
		}
	}
	if zero == 0 {
		return nil
	}
	return &contract.Positive{
		Title: fmt.Sprintf("%d layers take no time", zero),
		Evidence: []string{fmt.Sprintf("%d of %d profiled layers report 0 ms (%d NoOps: reshapes and copies TensorRT elided); no rule counts them.",
			zero, len(c.b.Records), noop)},
		Metrics: map[string]float64{"zero_time_layers": float64(zero), "noop_layers": float64(noop)},
	}
}
