package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// separable: layer types a fused transformer op decomposes into.
func separable(r *contract.Record) bool {
	switch r.RawLayerType {
	case "ElementWise", "Reduce", "Unary", "PointWise", "PointWiseV2", "Scale", "Activation":
		return true
	}
	return false
}

func isGemmish(r *contract.Record) bool {
	return r != nil && !isReformat(r) && hasTag(r, "gemm")
}

func evalAttentionUnfused(c *ctx) *contract.Finding {
	var soft []*contract.Record
	for _, r := range c.timed {
		if !hasTag(r, "softmax") || r.LayerType == "kgen_mha" || r.RawLayerType == "Myelin" || hasTag(r, "plugin") || isGemmish(r) {
			continue
		}
		if hasTag(r, "attention") || (c.anyNeighbour(c.preds(r.Layer), isGemmish) && c.anyNeighbour(c.succs(r.Layer), isGemmish)) {
			soft = append(soft, r)
		}
	}
	if len(soft) == 0 {
		return nil
	}
	stake := slices.Clone(soft)
	seen := map[int]bool{}
	for _, r := range soft {
		seen[r.Layer] = true
	}
	for _, r := range soft {
		for _, n := range append(slices.Clone(c.preds(r.Layer)), c.succs(r.Layer)...) {
			if nr := c.record(int(n)); nr != nil && nr.AvgMs > 0 && isGemmish(nr) && !seen[nr.Layer] {
				seen[nr.Layer] = true
				stake = append(stake, nr)
			}
		}
	}
	slices.SortStableFunc(stake, byTime)
	f := c.newFinding("attention_unfused", contract.ConfidenceMedium, stake)
	f.Metrics["softmax_layers"] = float64(len(soft))
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d softmax layers run between separate matrix products (decomposed attention); with their GEMMs they take %.4f ms (%.2f%%).", len(soft), sumMs(stake), c.pct(sumMs(stake))),
		"Softmax layers: "+c.topNames(soft, 5)+".")
	return f
}

func (c *ctx) anyNeighbour(ns []int32, f func(*contract.Record) bool) bool {
	for _, n := range ns {
		if f(c.record(int(n))) {
			return true
		}
	}
	return false
}

// qkvRole returns "q", "k" or "v" when a path segment names a projection.
func qkvRole(seg string) string {
	switch strings.ToLower(seg) {
	case "query", "q_proj", "to_q", "q", "wq", "q_lin":
		return "q"
	case "key", "k_proj", "to_k", "k", "wk", "k_lin":
		return "k"
	case "value", "v_proj", "to_v", "v", "wv", "v_lin":
		return "v"
	}
	return ""
}

// splitPath splits a layer name into path segments ("/" and ".").
func splitPath(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '.' || r == ' ' })
}

func evalQKVUnfused(c *ctx) *contract.Finding {
	type block struct {
		roles map[string]bool
		recs  []*contract.Record
	}
	blocks := map[string]*block{}
	for _, r := range c.timed {
		if !isGemmish(r) || strings.Contains(r.Name, " + ") && strings.Count(r.Name, "/") > 8 {
			continue
		}
		segs := splitPath(r.Name)
		for i, s := range segs {
			role := qkvRole(s)
			if role == "" {
				continue
			}
			key := strings.Join(segs[:i], "/")
			b := blocks[key]
			if b == nil {
				b = &block{roles: map[string]bool{}}
				blocks[key] = b
			}
			b.roles[role] = true
			b.recs = append(b.recs, r)
			break
		}
	}
	var recs []*contract.Record
	n := 0
	for _, k := range sortedKeys(blocks) {
		if b := blocks[k]; len(b.roles) >= 2 {
			n++
			recs = append(recs, b.recs...)
		}
	}
	if n == 0 {
		return nil
	}
	slices.SortStableFunc(recs, byTime)
	f := c.newFinding("qkv_unfused", contract.ConfidenceLow, recs)
	f.Metrics["blocks"] = float64(n)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d blocks run their Q/K/V projections as %d separate GEMM layers: %.4f ms (%.2f%%).", n, len(recs), sumMs(recs), c.pct(sumMs(recs))),
		"Largest: "+c.topNames(recs, 5)+".")
	return f
}

// decomposedGroups groups separable layers by the module path before the
// segment that match accepts, keeping modules split into ≥2 timed layers.
func (c *ctx) decomposedGroups(tag string, match func(seg string) bool) ([]*contract.Record, int) {
	groups := map[string][]*contract.Record{}
	for _, r := range c.timed {
		if !separable(r) || !hasTag(r, tag) {
			continue
		}
		segs := splitPath(r.Name)
		for i, s := range segs {
			if match(strings.ToLower(s)) {
				key := strings.Join(segs[:i+1], "/")
				groups[key] = append(groups[key], r)
				break
			}
		}
	}
	var recs []*contract.Record
	n := 0
	for _, k := range sortedKeys(groups) {
		if len(groups[k]) >= 2 {
			n++
			recs = append(recs, groups[k]...)
		}
	}
	slices.SortStableFunc(recs, byTime)
	return recs, n
}

func evalNormUnfused(c *ctx) *contract.Finding {
	recs, n := c.decomposedGroups("norm", func(s string) bool { return strings.Contains(s, "norm") || s == "ln" || strings.HasPrefix(s, "ln_") })
	if n == 0 {
		return nil
	}
	f := c.newFinding("norm_unfused", contract.ConfidenceMedium, recs)
	f.Metrics["modules"] = float64(n)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d normalization modules run as %d separate elementwise/reduce layers: %.4f ms (%.2f%%).", n, len(recs), sumMs(recs), c.pct(sumMs(recs))),
		"Largest: "+c.topNames(recs, 5)+".")
	return f
}

func evalGeluUnfused(c *ctx) *contract.Finding {
	recs, n := c.decomposedGroups("activation", func(s string) bool {
		return strings.Contains(s, "gelu") || s == "act" || s == "erf" || strings.HasPrefix(s, "erf_")
	})
	if n == 0 {
		return nil
	}
	f := c.newFinding("gelu_unfused", contract.ConfidenceMedium, recs)
	f.Metrics["modules"] = float64(n)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d GELU activations run as %d separate layers: %.4f ms (%.2f%%).", n, len(recs), sumMs(recs), c.pct(sumMs(recs))),
		"Largest: "+c.topNames(recs, 5)+".")
	return f
}

func evalResidualUnfused(c *ctx) *contract.Finding {
	recs := c.selectTimed(func(r *contract.Record) bool {
		if r.RawLayerType != "ElementWise" || isMatmulLayer(r) {
			return false
		}
		segs := splitPath(r.Name)
		if len(segs) == 0 || !strings.HasPrefix(strings.ToLower(segs[len(segs)-1]), "add") || strings.Contains(r.Name, " + ") {
			return false
		}
		return c.anyNeighbour(c.preds(r.Layer), func(p *contract.Record) bool { return p != nil && isMatmulLayer(p) })
	})
	if len(recs) == 0 || c.pct(sumMs(recs)) < 0.5 {
		return nil
	}
	f := c.newFinding("residual_unfused", contract.ConfidenceLow, recs)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d residual Add layers after a convolution/GEMM run as their own kernels: %.4f ms (%.2f%%).", len(recs), sumMs(recs), c.pct(sumMs(recs))),
		"Largest: "+c.topNames(recs, 5)+".")
	return f
}
