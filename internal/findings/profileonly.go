package findings

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// The layer kinds layerfacts.GuessKind gives the records of a backend
// analysed from its profile alone (profile_only).
const (
	guessedSoftmax  = "SoftMax"
	guessedMatMul   = "MatrixMultiply"
	guessedReformat = "Reformat"
)

// DescribeProfileOnly says where the time goes in a backend that has a
// profile but no usable layer info (profile_only): unscored overview items
// from the layer names alone, since without tensors, formats and tactics no
// cause can be priced. It names what an expert reads off such a profile:
// the share of reformat/copy layers and attention that runs as separate
// MatMul and Softmax kernels.
func DescribeProfileOnly(b *contract.Backend) []contract.OverviewItem {
	out := []contract.OverviewItem{}
	if b.Timing == nil || b.Timing.AverageInferenceMs <= 0 {
		return out
	}
	total := b.Timing.AverageInferenceMs
	pct := func(ms float64) float64 { return ms / total * 100 }
	var reformats []*contract.Record
	named := 0
	for i := range b.Records {
		if r := &b.Records[i]; r.LayerType == guessedReformat {
			named++
			if r.AvgMs > 0 {
				reformats = append(reformats, r)
			}
		}
	}
	if ms := sumMs(reformats); pct(ms) >= limits.hotLayerPct {
		slices.SortStableFunc(reformats, byTime)
		out = append(out, contract.OverviewItem{ID: "profile_conversions",
			Title: fmt.Sprintf("Reformat/copy layers take %.1f%% of the time (from layer names)", pct(ms)),
			Evidence: []string{
				fmt.Sprintf("%d layers are named as TensorRT's reformatters; the %d of them that take time take %.4f ms (%.2f%% of %.4f ms). Largest: %s.", named, len(reformats), ms, pct(ms), total, namesOf(reformats, 3)),
				"Which producer and consumer disagree on type or layout, and whether the engine's inputs or Q/DQ placement cause it, needs the detailed layer info (formats of every tensor).",
			},
			Metrics: map[string]float64{"time_ms": round(ms, 6), "share_pct": round(pct(ms), 3), "layer_count": float64(len(reformats))},
			Layers:  matchedLayers(reformats)})
	}
	if o, ok := decomposedAttention(b, total); ok {
		out = append(out, o)
	}
	return out
}

// decomposedAttention finds Softmax layers whose name scope also holds
// MatMul layers (attention as separate QK^T, Softmax and ·V kernels), with
// the MatMul and Softmax layers directly in those scopes.
func decomposedAttention(b *contract.Backend, total float64) (contract.OverviewItem, bool) {
	scopeOf := func(name string) string {
		if strings.Contains(name, " + ") || strings.Contains(name, "||") {
			return "" // fused names span scopes
		}
		i := strings.LastIndexByte(name, '/')
		if i <= 0 {
			return ""
		}
		return name[:i]
	}
	byScope := map[string][]*contract.Record{}
	softmax := map[string]bool{}
	for i := range b.Records {
		r := &b.Records[i]
		if r.LayerType != guessedSoftmax && r.LayerType != guessedMatMul {
			continue
		}
		s := scopeOf(r.Name)
		if s == "" {
			continue
		}
		byScope[s] = append(byScope[s], r)
		if r.LayerType == guessedSoftmax {
			softmax[s] = true
		}
	}
	var recs []*contract.Record
	blocks, softmaxes := 0, 0
	for _, s := range slices.Sorted(maps.Keys(softmax)) {
		rs := byScope[s]
		if !slices.ContainsFunc(rs, func(r *contract.Record) bool { return r.LayerType == guessedMatMul }) {
			continue
		}
		blocks++
		for _, r := range rs {
			if r.LayerType == guessedSoftmax {
				softmaxes++
			}
		}
		recs = append(recs, rs...)
	}
	ms := sumMs(recs)
	if blocks == 0 || ms/total*100 < limits.hotLayerPct {
		return contract.OverviewItem{}, false
	}
	slices.SortStableFunc(recs, byTime)
	return contract.OverviewItem{ID: "profile_decomposed_attention",
		Title: fmt.Sprintf("Attention runs as separate MatMul and Softmax kernels: %.1f%% of the time (from layer names)", ms/total*100),
		Evidence: []string{
			fmt.Sprintf("%d attention blocks have a Softmax layer beside MatMul layers in the same name scope: %d layers take %.4f ms (%.2f%% of %.4f ms). Largest: %s.", blocks, len(recs), ms, ms/total*100, total, namesOf(recs, 3)),
			fmt.Sprintf("%d Softmax layers run on their own: TensorRT did not fuse these blocks into one attention kernel. Whether a precision, a Q/DQ placement or a mask op blocked the fusion needs the detailed layer info.", softmaxes),
		},
		Metrics: map[string]float64{"time_ms": round(ms, 6), "share_pct": round(ms/total*100, 3), "layer_count": float64(len(recs)), "attention_blocks": float64(blocks)},
		Layers:  matchedLayers(recs)}, true
}

// namesOf names the first n records, shortened, with their shares.
func namesOf(recs []*contract.Record, n int) string {
	var parts []string
	for i, r := range recs {
		if i == n {
			parts = append(parts, fmt.Sprintf("and %d more", len(recs)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%.4f ms)", short(r.Name), r.AvgMs))
	}
	return strings.Join(parts, ", ")
}

// matchedLayers are the layer indexes of records matched to a layer
// (names-only layer info), most expensive first.
func matchedLayers(recs []*contract.Record) []int {
	out := []int{}
	for _, r := range recs {
		if r.Layer >= 0 {
			out = append(out, r.Layer)
		}
	}
	return out
}
