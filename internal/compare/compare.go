// Package compare sets two analysed backends side by side: totals, the
// speed-up, per-type and per-precision deltas, and the layers whose time
// changed most. It reads the contract only.
package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// Side is one backend being compared, with a name for headings.
type Side struct {
	Name    string // e.g. "dumps#fp16"
	Backend *contract.Backend
}

// Delta is one row of a breakdown comparison.
type Delta struct {
	Name    string  `json:"name"`
	ACount  int     `json:"a_count"`
	BCount  int     `json:"b_count"`
	AMs     float64 `json:"a_ms"`
	BMs     float64 `json:"b_ms"`
	DeltaMs float64 `json:"delta_ms"` // B − A
}

// Result is the whole comparison.
type Result struct {
	A, B       string  `json:"-"`
	ALabel     string  `json:"a"`
	BLabel     string  `json:"b"`
	ATotalMs   float64 `json:"a_total_ms"`
	BTotalMs   float64 `json:"b_total_ms"`
	Speedup    float64 `json:"speedup"` // A total / B total: > 1 means B is faster
	ALayers    int     `json:"a_layers"`
	BLayers    int     `json:"b_layers"`
	Matched    int     `json:"matched_layers"`
	Types      []Delta `json:"types"`
	Precisions []Delta `json:"precisions"`
	// Layers are layers present in both (matched by name occurrence),
	// largest absolute change first; OnlyA / OnlyB are the slowest layers
	// found on one side only (fused differently, or renamed).
	Layers []Delta `json:"layers"`
	OnlyA  []Delta `json:"only_a"`
	OnlyB  []Delta `json:"only_b"`
}

// Interpretable reports why a backend's timing cannot be compared, or "".
func Interpretable(b *contract.Backend) string {
	v := b.Validation
	switch {
	case v.Status != contract.StatusPassed:
		return fmt.Sprintf("backend %s failed validation (%s)", b.Label, firstError(v.Messages))
	case v.AnalysisMode != contract.ModeLayerProfile:
		return fmt.Sprintf("backend %s has no timing (analysis_mode %s)", b.Label, v.AnalysisMode)
	case b.Timing == nil:
		return fmt.Sprintf("backend %s has no timing", b.Label)
	}
	return ""
}

func firstError(ms []contract.Message) string {
	for _, m := range ms {
		if m.Level == contract.LevelError {
			return m.Code
		}
	}
	return "no error message"
}

// Compare computes the comparison; top caps the layer lists.
func Compare(a, b Side, top int) (*Result, error) {
	for _, s := range []Side{a, b} {
		if why := Interpretable(s.Backend); why != "" {
			return nil, fmt.Errorf("%s: %s; only passed layer_profile backends can be compared", s.Name, why)
		}
	}
	ab, bb := a.Backend, b.Backend
	r := &Result{
		A: a.Name, B: b.Name, ALabel: a.Name, BLabel: b.Name,
		ATotalMs: ab.Timing.AverageInferenceMs, BTotalMs: bb.Timing.AverageInferenceMs,
		ALayers: len(ab.Records), BLayers: len(bb.Records),
	}
	if r.BTotalMs > 0 {
		r.Speedup = r.ATotalMs / r.BTotalMs
	}
	r.Types = groupDeltas(ab.Records, bb.Records, func(x *contract.Record) string { return x.LayerType })
	r.Precisions = groupDeltas(ab.Records, bb.Records, func(x *contract.Record) string { return x.Precision })
	r.Layers, r.OnlyA, r.OnlyB, r.Matched = layerDeltas(ab.Records, bb.Records)
	r.Layers = capped(r.Layers, top)
	r.OnlyA = capped(r.OnlyA, top)
	r.OnlyB = capped(r.OnlyB, top)
	return r, nil
}

func capped(d []Delta, n int) []Delta {
	if n > 0 && len(d) > n {
		return d[:n]
	}
	if d == nil {
		return []Delta{}
	}
	return d
}

func groupDeltas(a, b []contract.Record, key func(*contract.Record) string) []Delta {
	idx := map[string]int{}
	var rows []Delta
	row := func(k string) *Delta {
		i, ok := idx[k]
		if !ok {
			i = len(rows)
			idx[k] = i
			rows = append(rows, Delta{Name: k})
		}
		return &rows[i]
	}
	for i := range a {
		d := row(key(&a[i]))
		d.ACount++
		d.AMs += a[i].AvgMs
	}
	for i := range b {
		d := row(key(&b[i]))
		d.BCount++
		d.BMs += b[i].AvgMs
	}
	for i := range rows {
		rows[i].DeltaMs = rows[i].BMs - rows[i].AMs
	}
	slices.SortFunc(rows, func(x, y Delta) int {
		if c := cmp.Compare(math.Max(y.AMs, y.BMs), math.Max(x.AMs, x.BMs)); c != 0 {
			return c
		}
		return cmp.Compare(x.Name, y.Name)
	})
	return rows
}

// layerDeltas matches layers by name occurrence (the k-th record named N
// in A with the k-th in B), as the integrity gate matches layers to
// profile records. Myelin kernels are renumbered by every build
// (`_myl<G>_<K>`), so layers left over are matched again with that suffix
// stripped.
func layerDeltas(a, b []contract.Record) (both, onlyA, onlyB []Delta, matched int) {
	usedA := make([]bool, len(a))
	usedB := make([]bool, len(b))
	for _, key := range []func(string) string{func(s string) string { return s }, stripMyelinSuffix} {
		queue := map[string][]int{}
		for j := range b {
			if !usedB[j] {
				k := key(b[j].Name)
				queue[k] = append(queue[k], j)
			}
		}
		for i := range a {
			if usedA[i] {
				continue
			}
			k := key(a[i].Name)
			q := queue[k]
			if len(q) == 0 {
				continue
			}
			j := q[0]
			queue[k] = q[1:]
			usedA[i], usedB[j] = true, true
			matched++
			both = append(both, Delta{Name: a[i].Name, ACount: 1, BCount: 1, AMs: a[i].AvgMs, BMs: b[j].AvgMs, DeltaMs: b[j].AvgMs - a[i].AvgMs})
		}
	}
	for i := range a {
		if !usedA[i] {
			onlyA = append(onlyA, Delta{Name: a[i].Name, ACount: 1, AMs: a[i].AvgMs, DeltaMs: -a[i].AvgMs})
		}
	}
	for j := range b {
		if !usedB[j] {
			onlyB = append(onlyB, Delta{Name: b[j].Name, BCount: 1, BMs: b[j].AvgMs, DeltaMs: b[j].AvgMs})
		}
	}
	byChange := func(x, y Delta) int {
		if c := cmp.Compare(math.Abs(y.DeltaMs), math.Abs(x.DeltaMs)); c != 0 {
			return c
		}
		return cmp.Compare(x.Name, y.Name)
	}
	slices.SortStableFunc(both, byChange)
	slices.SortStableFunc(onlyA, byChange)
	slices.SortStableFunc(onlyB, byChange)
	return both, onlyA, onlyB, matched
}

// stripMyelinSuffix removes a trailing `_myl<G>_<K>` kernel numbering.
func stripMyelinSuffix(name string) string {
	i := strings.LastIndex(name, "_myl")
	if i < 0 {
		return name
	}
	rest := name[i+4:]
	g, k, ok := strings.Cut(rest, "_")
	if !ok || !allDigits(g) || !allDigits(k) {
		return name
	}
	return name[:i]
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
