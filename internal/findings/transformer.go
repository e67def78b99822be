package findings

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

func evalAttentionUnfused(c *evaluation) *contract.Finding {
	var soft []*contract.Record
	for j, r := range c.timed {
		k, layer := c.tinfo[j].k, int(c.tinfo[j].layer)
		if !k.has(tgSoftmax) || k.is(fKgenMHA) || k.is(fMyelinRaw) || k.has(tgPlugin) || k.is(fGemmish) {
			continue
		}
		if k.has(tgAttention) || (c.anyNeighbour(c.preds(layer), c.isGemmish) && c.anyNeighbour(c.succs(layer), c.isGemmish)) {
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
			if nr := c.record(int(n)); nr != nil && nr.AvgMs > 0 && c.isGemmish(nr) && !seen[nr.Layer] {
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

func (c *evaluation) anyNeighbour(ns []int32, f func(*contract.Record) bool) bool {
	for _, n := range ns {
		if f(c.record(int(n))) {
			return true
		}
	}
	return false
}

// qkvRole returns "q", "k" or "v" when a path segment names a projection.
func qkvRole(seg string) string {
	low := seg
	var buf [8]byte
	if isASCII(seg) {
		if len(seg) > len(buf) {
			return "" // longer than every role word
		}
		for i := 0; i < len(seg); i++ {
			buf[i] = lowerASCII(seg[i])
		}
		low = string(buf[:len(seg)])
	} else {
		low = strings.ToLower(seg) // Unicode case folding can shorten a segment
	}
	switch low {
	case "query", "q_proj", "to_q", "q", "wq", "q_lin":
		return "q"
	case "key", "k_proj", "to_k", "k", "wk", "k_lin":
		return "k"
	case "value", "v_proj", "to_v", "v", "wv", "v_lin":
		return "v"
	}
	return ""
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// nextPathSeg returns the next path segment of *rest (as splitPath splits)
// and advances *rest past it; false when none is left.
func nextPathSeg(rest *string) (string, bool) {
	s := *rest
	i := 0
	for i < len(s) && isPathSep(s[i]) {
		i++
	}
	if i == len(s) {
		*rest = ""
		return "", false
	}
	j := i
	for j < len(s) && !isPathSep(s[j]) {
		j++
	}
	*rest = s[j:]
	return s[i:j], true
}

func isPathSep(c byte) bool { return c == '/' || c == '.' || c == ' ' }

// splitPath splits a layer name into path segments ("/" and ".").
func splitPath(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '.' || r == ' ' })
}

func evalQKVUnfused(c *evaluation) *contract.Finding {
	type block struct {
		roles uint8 // bit per role: q, k, v
		recs  []*contract.Record
	}
	blocks := map[string]*block{}
	// The names of the GEMMs, read in layer order: each one's block and role.
	gemms := c.timedWhere(func(t *timedInfo) bool { return t.k.is(fGemmish) })
	blockOf := make([]*block, len(gemms))
	roleOf := make([]uint8, len(gemms))
	var key []byte // the path before the role segment, segments joined by "/"
	for _, p := range c.inLayerOrder(gemms) {
		name := c.tname[gemms[p]]
		if strings.Contains(name, " + ") && strings.Count(name, "/") > 8 {
			continue
		}
		key = key[:0]
		for rest := name; ; {
			s, more := nextPathSeg(&rest)
			if !more {
				break
			}
			role := qkvRole(s)
			if role == "" {
				if len(key) > 0 {
					key = append(key, '/')
				}
				key = append(key, s...)
				continue
			}
			b := blocks[string(key)]
			if b == nil {
				b = &block{}
				blocks[string(key)] = b
			}
			blockOf[p], roleOf[p] = b, 1<<(role[0]&7) // q, k, v differ in their low bits
			break
		}
	}
	for p, j := range gemms { // time order
		if b := blockOf[p]; b != nil {
			b.roles |= roleOf[p]
			b.recs = append(b.recs, c.timed[j])
		}
	}
	var recs []*contract.Record
	n := 0
	for _, k := range sortedKeys(blocks) {
		if b := blocks[k]; bits.OnesCount8(b.roles) >= 2 {
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
func (c *evaluation) decomposedGroups(tag tagBits, match func(seg string) bool) ([]*contract.Record, int) {
	groups := map[string][]*contract.Record{}
	for j, r := range c.timed {
		if k := c.tinfo[j].k; !k.is(fSeparable) || !k.has(tag) {
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

func evalNormUnfused(c *evaluation) *contract.Finding {
	recs, n := c.decomposedGroups(tgNorm, func(s string) bool { return strings.Contains(s, "norm") || s == "ln" || strings.HasPrefix(s, "ln_") })
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

func evalGeluUnfused(c *evaluation) *contract.Finding {
	recs, n := c.decomposedGroups(tgActivation, func(s string) bool {
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

func evalResidualUnfused(c *evaluation) *contract.Finding {
	recs := c.selectTimed(func(r *contract.Record, t *timedInfo) bool {
		if !t.k.is(fElementWise) || t.k.is(fMatmul) {
			return false
		}
		segs := splitPath(r.Name)
		if len(segs) == 0 || !strings.HasPrefix(strings.ToLower(segs[len(segs)-1]), "add") || strings.Contains(r.Name, " + ") {
			return false
		}
		return c.anyNeighbour(c.preds(r.Layer), func(p *contract.Record) bool { return p != nil && c.isMatmulLayer(p) })
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
