package findings

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// ctx is what every rule reads: the backend plus indexes built once.
type ctx struct {
	b     *contract.Backend
	total float64 // sum of avg_ms over all records: the time budget
	// timed are the records with time (avg_ms > 0) matched to a layer,
	// most expensive first (ties by layer index). Rules only see these, so
	// they never fire on layers that take no time.
	timed []*contract.Record
	recOf []int32 // layer index → index in b.Records, -1 when not profiled
	// target is the engine's target precision (FP32, TF32, FP16, BF16,
	// INT8, FP8, FP4) and targetFrom says how it was decided.
	target, targetFrom string
	// preds/succs: data-flow neighbours per layer (CSR over graph.edges).
	predStart, succStart []int32
	predList, succList   []int32
}

func newCtx(b *contract.Backend) *ctx {
	c := &ctx{b: b, recOf: make([]int32, len(b.Layers))}
	for i := range c.recOf {
		c.recOf[i] = -1
	}
	for i := range b.Records {
		r := &b.Records[i]
		c.total += r.AvgMs
		if r.Layer >= 0 && r.Layer < len(b.Layers) {
			c.recOf[r.Layer] = int32(i)
			if r.AvgMs > 0 {
				c.timed = append(c.timed, r)
			}
		}
	}
	slices.SortStableFunc(c.timed, byTime)
	c.buildAdjacency()
	c.target, c.targetFrom = targetPrecision(c)
	return c
}

func byTime(a, b *contract.Record) int {
	if a.AvgMs != b.AvgMs {
		return cmp.Compare(b.AvgMs, a.AvgMs)
	}
	return cmp.Compare(a.Layer, b.Layer)
}

func (c *ctx) buildAdjacency() {
	n := len(c.b.Layers)
	c.predStart = make([]int32, n+1)
	c.succStart = make([]int32, n+1)
	edges := c.b.Graph.Edges
	for _, e := range edges {
		if valid(e, n) {
			c.succStart[e[0]+1]++
			c.predStart[e[1]+1]++
		}
	}
	for i := 0; i < n; i++ {
		c.succStart[i+1] += c.succStart[i]
		c.predStart[i+1] += c.predStart[i]
	}
	c.succList = make([]int32, c.succStart[n])
	c.predList = make([]int32, c.predStart[n])
	sf := slices.Clone(c.succStart[:n])
	pf := slices.Clone(c.predStart[:n])
	for _, e := range edges {
		if valid(e, n) {
			c.succList[sf[e[0]]] = int32(e[1])
			sf[e[0]]++
			c.predList[pf[e[1]]] = int32(e[0])
			pf[e[1]]++
		}
	}
}

func valid(e [2]int, n int) bool { return e[0] >= 0 && e[0] < n && e[1] >= 0 && e[1] < n }

func (c *ctx) preds(layer int) []int32 { return c.predList[c.predStart[layer]:c.predStart[layer+1]] }
func (c *ctx) succs(layer int) []int32 { return c.succList[c.succStart[layer]:c.succStart[layer+1]] }

// record returns the record of a layer, or nil when it was not profiled.
func (c *ctx) record(layer int) *contract.Record {
	if layer < 0 || layer >= len(c.recOf) || c.recOf[layer] < 0 {
		return nil
	}
	return &c.b.Records[c.recOf[layer]]
}

func (c *ctx) layer(r *contract.Record) *contract.Layer { return &c.b.Layers[r.Layer] }

// selectTimed returns the timed records keep accepts, most expensive first.
func (c *ctx) selectTimed(keep func(*contract.Record) bool) []*contract.Record {
	var out []*contract.Record
	for _, r := range c.timed {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

func sumMs(rs []*contract.Record) float64 {
	s := 0.0
	for _, r := range rs {
		s += r.AvgMs
	}
	return s
}

// pct is the share of the time budget, in percent.
func (c *ctx) pct(ms float64) float64 {
	if c.total <= 0 {
		return 0
	}
	return ms / c.total * 100
}

// maxLayers caps a finding's layer list.
const maxLayers = 20

// newFinding builds a finding over recs (sorted most expensive first): the
// time at stake is their summed avg_ms. Metrics always hold time_ms,
// total_ms, share_pct and layer_count so a reader can recompute the share.
func (c *ctx) newFinding(id, confidence string, recs []*contract.Record) *contract.Finding {
	return c.newFindingStake(id, confidence, recs, 1)
}

// newFindingStake is newFinding for rules where only a fraction of the
// layers' time is at stake (metrics stake_factor): share and score use
// time_ms × stake_factor.
func (c *ctx) newFindingStake(id, confidence string, recs []*contract.Record, factor float64) *contract.Finding {
	ms := sumMs(recs)
	f := &contract.Finding{
		ID: id, Confidence: confidence,
		Evidence: []string{},
		Metrics: map[string]float64{
			"time_ms":     round(ms, 6),
			"total_ms":    round(c.total, 6),
			"share_pct":   round(c.pct(ms), 3),
			"layer_count": float64(len(recs)),
		},
		Layers: layerIndexes(recs),
	}
	if factor != 1 {
		f.Metrics["stake_factor"] = factor
		f.Metrics["share_pct"] = round(c.pct(ms*factor), 3)
	}
	f.Share = round(c.pct(ms*factor), 3)
	f.Score = round(c.pct(ms*factor)/100*weight(confidence), 4)
	return f
}

func layerIndexes(recs []*contract.Record) []int {
	n := min(len(recs), maxLayers)
	out := make([]int, n)
	for i := range n {
		out[i] = recs[i].Layer
	}
	return out
}

func weight(confidence string) float64 {
	switch confidence {
	case contract.ConfidenceHigh:
		return 1.0
	case contract.ConfidenceMedium:
		return 0.7
	}
	return 0.4
}

func round(x float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(x*p) / p
}

// topNames lists up to n records as `name (x.xx%)`, names shortened.
func (c *ctx) topNames(recs []*contract.Record, n int) string {
	parts := make([]string, 0, n)
	for i, r := range recs {
		if i == n {
			parts = append(parts, fmt.Sprintf("and %d more", len(recs)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%.2f%%)", short(r.Name), c.pct(r.AvgMs)))
	}
	return strings.Join(parts, ", ")
}

// short shortens long names in the middle so evidence stays readable.
func short(s string) string {
	const max = 90
	if len(s) <= max {
		return s
	}
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max/2-1]) + "…" + string(r[len(r)-max/2+1:])
}

// hasTag reports whether a record carries a tag.
func hasTag(r *contract.Record, tag string) bool { return slices.Contains(r.Tags, tag) }

func hasAnyTag(r *contract.Record, tags ...string) bool {
	for _, t := range tags {
		if slices.Contains(r.Tags, t) {
			return true
		}
	}
	return false
}

// isReformat: a layer that only moves or converts data (TensorRT reformats,
// Myelin reformats, QDQ-origin reformats).
func isReformat(r *contract.Record) bool {
	return strings.Contains(r.RawLayerType, "Reformat") || hasTag(r, "reformat")
}

// isComputeLayer: a layer that does math the engine's precision applies to.
func isComputeLayer(r *contract.Record) bool {
	if isReformat(r) || r.RawLayerType == "NoOp" || r.LayerType == "misc" {
		return false
	}
	return hasAnyTag(r, "conv", "gemm", "attention", "norm", "softmax", "pooling",
		"pointwise", "elementwise", "activation", "myelin", "plugin")
}

// isMatmulLayer: convolution or GEMM, the layers tensor cores serve.
func isMatmulLayer(r *contract.Record) bool {
	return !isReformat(r) && (hasAnyTag(r, "conv", "gemm") || r.LayerType == "kgen_mha")
}
