package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

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
