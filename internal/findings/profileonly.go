package findings

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
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
// from the layer names alone (the kinds are guessed from names; without
// tensors, formats and tactics no fix can be priced). First the causes
// the names show, largest first (profileCauses: graph-input prologue,
// standalone Q/DQ, unfused epilogues, decomposed GroupNorm), then what an
// expert reads off such a profile besides: the share of the other
// reformat/copy layers, attention that runs as separate MatMul and Softmax
// kernels, and the DLA placement.
func DescribeProfileOnly(b *contract.Backend) []contract.OverviewItem {
	out := []contract.OverviewItem{}
	if b.Timing == nil || b.Timing.AverageInferenceMs <= 0 {
		return out
	}
	total := b.Timing.AverageInferenceMs
	pct := func(ms float64) float64 { return ms / total * 100 }
	causes, held := profileCauses(b, total)
	out = append(out, causes...)
	var reformats []*contract.Record
	named := 0
	for i := range b.Records {
		if r := &b.Records[i]; r.LayerType == guessedReformat && !held[i] {
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
				fmt.Sprintf("%d layers (besides those of the causes above) are named as TensorRT's reformatters; the %d of them that take time take %.4f ms (%.2f%% of %.4f ms). Largest: %s.", named, len(reformats), ms, pct(ms), total, namesOf(reformats, 3)),
				"Which producer and consumer disagree on type or layout, and whether the engine's inputs or Q/DQ placement cause it, needs the detailed layer info (formats of every tensor).",
			},
			Metrics: map[string]float64{"time_ms": round(ms, 6), "share_pct": round(pct(ms), 3), "layer_count": float64(len(reformats))},
			Layers:  matchedLayers(reformats)})
	}
	if o, ok := decomposedAttention(b, total); ok {
		out = append(out, o)
	}
	// The largest first: the first item is the profile's first cause.
	slices.SortStableFunc(out, func(a, c contract.OverviewItem) int {
		return cmp.Compare(c.Metrics["share_pct"], a.Metrics["share_pct"])
	})
	if o, ok := DLAPlacement(b); ok {
		out = append(out, o)
	}
	return out
}

// DLAPlacement describes the DLA work of a profile: the DLA subgraph
// records (layerfacts.KindDLA), the GPU's hand-over to and wait for them
// (layerfacts.KindDLATransfer), which layers ran on the DLA (the subgraph
// names list them) and which on the GPU (every other timed record). The
// DLA runs asynchronously: the per-layer profiler books its run time on the
// record in which the GPU waits for it, so subgraph and wait records
// together are the DLA's time, never a reformat or copy cost. False when
// the profile has no DLA record.
func DLAPlacement(b *contract.Backend) (contract.OverviewItem, bool) {
	if b.Timing == nil || b.Timing.AverageInferenceMs <= 0 {
		return contract.OverviewItem{}, false
	}
	total := b.Timing.AverageInferenceMs
	var subgraphs, waits, gpu []*contract.Record
	members, partial := []string{}, false
	for i := range b.Records {
		r := &b.Records[i]
		switch r.LayerType {
		case layerfacts.KindDLA:
			subgraphs = append(subgraphs, r)
			ms, complete := layerfacts.DLAMembers(r.Name)
			members = append(members, ms...)
			partial = partial || !complete
		case layerfacts.KindDLATransfer:
			waits = append(waits, r)
		case guessedReformat:
		default:
			if r.AvgMs > 0 {
				gpu = append(gpu, r)
			}
		}
	}
	if len(subgraphs) == 0 {
		return contract.OverviewItem{}, false
	}
	dla, wait, gpuMs := sumMs(subgraphs), sumMs(waits), sumMs(gpu)
	pct := func(ms float64) float64 { return ms / total * 100 }
	slices.SortStableFunc(waits, byTime)
	slices.SortStableFunc(gpu, byTime)
	layers := fmt.Sprintf("%d layers", len(members))
	if partial {
		layers = "the layers " + strings.Join(members, " … ") // TensorRT 8+ names only the first and last of each
	}
	ev := []string{
		fmt.Sprintf("%d DLA subgraph record(s) hold %s (named in the records); they and the %d records in which the GPU hands data to the DLA or waits for it take %.4f ms (%.1f%% of %.4f ms): %.4f ms in the subgraph records, %.4f ms in the hand-over and wait records.", len(subgraphs), layers, len(waits), dla+wait, pct(dla+wait), total, dla, wait),
		"The DLA runs asynchronously to the GPU, so the per-layer profiler books most of its run time on the record that waits for it (\"… output reformatter 0\", \"… from nvm\", \"… finish\"): that record is DLA time, not a reformat or copy to remove. Compare placements on measured end-to-end time.",
	}
	if len(gpu) == 0 {
		ev = append(ev, "No layer ran on the GPU: every layer is in a DLA subgraph. If some layers were meant to run on the GPU (GPU fallback or per-layer device types), that split did not take.")
	} else {
		ev = append(ev, fmt.Sprintf("%d layers ran on the GPU and take %.4f ms (%.1f%%): %s.", len(gpu), gpuMs, pct(gpuMs), namesOf(gpu, 3)))
	}
	if len(waits) > 0 {
		ev = append(ev, "Largest hand-over or wait records: "+namesOf(waits, 3)+".")
	}
	return contract.OverviewItem{ID: "profile_dla",
		Title:    fmt.Sprintf("DLA runs %.1f%% of the time (%d subgraph(s)); the GPU runs %.1f%%", pct(dla+wait), len(subgraphs), pct(gpuMs)),
		Evidence: ev,
		Metrics: map[string]float64{"time_ms": round(dla+wait, 6), "share_pct": round(pct(dla+wait), 3), "dla_subgraph_ms": round(dla, 6), "dla_wait_ms": round(wait, 6),
			"gpu_ms": round(gpuMs, 6), "dla_subgraphs": float64(len(subgraphs)), "dla_layers": float64(len(members)), "gpu_layers": float64(len(gpu))},
		Layers: matchedLayers(append(subgraphs, waits...))}, true
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
