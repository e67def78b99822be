package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// DefaultRows is how many aligned groups a pair lists by default.
const DefaultRows = 40

// maxRegions caps by_region; the rest are lumped into one row.
const maxRegions = 24

const otherRegions = "(other regions)"

// Pair compares backend B against backend A. rows caps the aligned groups
// listed (DefaultRows when ≤ 0); all of them count in the totals.
func Pair(a, b Side, rows int) (*contract.ComparisonPair, error) {
	for _, s := range []Side{a, b} {
		if why := Interpretable(s.Backend); why != "" {
			return nil, fmt.Errorf("%s: %s; compare backends that have a profile or predicted times", s.Name, why)
		}
	}
	if measuredOnly(a) || measuredOnly(b) {
		return measuredPair(a, b)
	}
	if (len(a.Backend.Records) == 0) != (len(b.Backend.Records) == 0) && !(predicted(a.Backend) && predicted(b.Backend)) {
		return nil, fmt.Errorf("%s and %s have no measure in common: one has only the cost model's predicted times and the other has no detailed layer info to predict from; export the missing profile (trtexec --loadEngine=ENGINE --exportProfile=F) or layer info", a.Name, b.Name)
	}
	if rows <= 0 {
		rows = DefaultRows
	}
	p := &contract.ComparisonPair{A: a.Name, B: b.Name}
	var sa, sb *side
	if len(a.Backend.Records) == 0 || len(b.Backend.Records) == 0 {
		// A layer_only side: both on predicted times, the one measure
		// they share.
		sa, sb = newSideOf(a.Backend, recordsOf(a.Backend)), newSideOf(b.Backend, recordsOf(b.Backend))
		p.Measure, p.AMs, p.BMs = contract.MeasurePredicted, a.Backend.Prediction.TotalMs, b.Backend.Prediction.TotalMs
		p.MeasureNote = "both sides are compared on the cost model's PREDICTED layer sums (no measurement: at least one side has layer info but no profile)"
	} else {
		sa, sb = newSide(a.Backend), newSide(b.Backend)
		p.Measure, p.MeasureNote, p.AMs, p.BMs = chooseMeasure(a, b, layerSum(sa.recs), layerSum(sb.recs))
		p.MeasureNote = joinNotes(p.MeasureNote, guessedNote(a, b))
	}
	sumA, sumB := layerSum(sa.recs), layerSum(sb.recs)
	p.AScale, p.BScale = scale(p.AMs, sumA), scale(p.BMs, sumB)
	p.DeltaMs = p.BMs - p.AMs
	if p.AMs > 0 {
		p.DeltaPct = p.DeltaMs / p.AMs * 100
	}
	if p.AMs > 0 {
		p.BTimeRatio = p.BMs / p.AMs
	}
	msA := scaled(sa.recs, p.AScale)
	msB := scaled(sb.recs, p.BScale)

	al := align(sa, sb)
	view := &pairView{al: al, msA: msA, msB: msB}
	view.build()
	p.Alignment = view.alignment()
	p.ByType = groupDeltas(sa, sb, msA, msB, func(s *side, i int) string { return s.recs[i].LayerType })
	p.ByPrec = groupDeltas(sa, sb, msA, msB, func(s *side, i int) string { return s.recs[i].Precision })
	p.ByRegion = lumpRegions(groupDeltas(sa, sb, msA, msB, func(s *side, i int) string { return region(s, i) }))
	p.Changes = view.changes
	p.OneSided = view.oneSided()
	p.Rows, p.RowsOmitted, p.RowsOmittedDeltaMs = view.rows(rows)
	p.SameEngine = view.sameEngine()
	p.Noise = noise(a, b, p)
	p.Verdict = verdict(p)
	p.Reasons = view.reasons(a.Name, b.Name, p.Measure)
	if n := placementNote(a, b); n != "" {
		p.Reasons = append([]string{n}, p.Reasons...) // where the layers ran explains the rest
	}
	p.Summary = summarize(p)
	if pct, n := al.sameWork(); n > 0 && pct < MinSameWorkPct && !samePlacedLayers(a.Backend, b.Backend) {
		unrelated(p, pct)
	}
	return p, nil
}

// dlaPlacement is what a side's profile says ran on the DLA: the layers
// its DLA subgraph records list, and the time of those records plus the
// GPU's hand-over and wait records (DLA time).
func dlaPlacement(b *contract.Backend) (layers []string, ms float64) {
	for i := range b.Records {
		r := &b.Records[i]
		switch r.LayerType {
		case layerfacts.KindDLA:
			m, _ := layerfacts.DLAMembers(r.Name)
			layers = append(layers, m...)
			ms += r.AvgMs
		case layerfacts.KindDLATransfer:
			ms += r.AvgMs
		}
	}
	return layers, ms
}

// placementNote compares where two builds ran their layers (GPU or DLA),
// from the DLA subgraph names; "" when neither used the DLA. Two builds
// whose DLA records list the same layers placed them the same way, so a
// GPU/DLA split asked of one of them did not take.
func placementNote(a, b Side) string {
	la, msA := dlaPlacement(a.Backend)
	lb, msB := dlaPlacement(b.Backend)
	if len(la) == 0 && len(lb) == 0 {
		return ""
	}
	where := func(s Side, ls []string, ms float64) string {
		if len(ls) == 0 {
			return s.Name + " runs every layer on the GPU"
		}
		return fmt.Sprintf("%s runs %d layers on the DLA (%.4f ms of DLA subgraph, hand-over and wait records, %.1f %% of its profile)", s.Name, len(ls), ms, ms/max(layerSum(s.Backend.Records), 1e-12)*100)
	}
	note := "Placement: " + where(a, la, msA) + "; " + where(b, lb, msB)
	if len(la) > 0 && slices.Equal(slices.Sorted(slices.Values(la)), slices.Sorted(slices.Values(lb))) {
		note += fmt.Sprintf("; both DLA records list the same %d layers, so the two builds placed them the same way: a GPU/DLA split asked of one of them did not take", len(la))
	}
	return note
}

// samePlacedLayers reports whether two builds run the same layers with at
// least one of them on the DLA: the layers a DLA subgraph record lists are
// found, at least MinSameWorkPct of them, among the other build's layer
// names (its own DLA members, or the parts of its fused GPU layer names).
// A DLA subgraph is one record for many layers, so record alignment alone
// would call a GPU and a DLA build of one model different models.
func samePlacedLayers(a, b *contract.Backend) bool {
	names := func(x *contract.Backend) map[string]bool {
		out := map[string]bool{}
		dla, _ := dlaPlacement(x)
		for _, n := range dla {
			out[n] = true
		}
		for i := range x.Records {
			if t := x.Records[i].LayerType; t == layerfacts.KindDLA || t == layerfacts.KindDLATransfer {
				continue
			}
			for _, h := range strings.Split(x.Records[i].Name, "||") {
				for _, part := range strings.Split(h, " + ") {
					out[strings.TrimSpace(part)] = true
				}
			}
		}
		return out
	}
	for _, pair := range [][2]*contract.Backend{{a, b}, {b, a}} {
		dla, _ := dlaPlacement(pair[0])
		if len(dla) == 0 {
			continue
		}
		other, found := names(pair[1]), 0
		for _, n := range dla {
			if other[n] {
				found++
			}
		}
		if float64(found) >= float64(len(dla))*MinSameWorkPct/100 {
			return true
		}
	}
	return false
}

// guessedNote says which sides' layer kinds are guessed from names.
func guessedNote(a, b Side) string {
	var ns []string
	for _, s := range []Side{a, b} {
		if s.Backend.Validation.AnalysisMode == contract.ModeProfileOnly {
			ns = append(ns, s.Name)
		}
	}
	if len(ns) == 0 {
		return ""
	}
	return strings.Join(ns, " and ") + " have a profile but no detailed layer info: layers are aligned by name and their kinds are guessed from names (precisions, tactics and formats are unknown)"
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// LayerByLayer reports whether a pair compares its layers (false for two
// unrelated models: no aligned group is listed, all are counted omitted;
// and for a side of measured time only, which has no layers).
func LayerByLayer(p *contract.ComparisonPair) bool {
	if p.Alignment.ALayers == 0 || p.Alignment.BLayers == 0 {
		return false
	}
	return len(p.Rows) > 0 || p.RowsOmitted == 0
}

// unrelated turns a pair whose layers mostly do different work (two
// models, not two builds of one) into its end-to-end numbers: no aligned
// rows, breakdowns, layer changes or reasons, which would compare layers
// that are not counterparts, and a summary that says so.
func unrelated(p *contract.ComparisonPair, sameWorkPct float64) {
	p.RowsOmitted += len(p.Rows)
	p.RowsOmittedDeltaMs = p.DeltaMs
	p.Rows = []contract.AlignedRow{}
	p.Reasons = []string{}
	p.ByType, p.ByPrec, p.ByRegion = []contract.GroupDelta{}, []contract.GroupDelta{}, []contract.GroupDelta{}
	p.Changes = contract.LayerChanges{}
	p.OneSided = []contract.OneSidedKind{}
	p.Summary = fmt.Sprintf("%s and %s are not comparable layer by layer: only %.1f %% of their compute layers have a counterpart doing the same work (builds of one model have at least %g %%), so they are probably different models. End to end only: %s takes %.4f ms and %s %.4f ms (%+.1f %% %s, noise ±%.1f %%).",
		p.A, p.B, sameWorkPct, MinSameWorkPct, p.A, p.AMs, p.B, p.BMs, p.DeltaPct, measureWords(p.Measure), p.Noise.Pct)
}

func layerSum(rs []contract.Record) float64 {
	s := 0.0
	for i := range rs {
		s += rs[i].AvgMs
	}
	return s
}

func scale(ms, sum float64) float64 {
	if sum <= 0 {
		return 1
	}
	return ms / sum
}

func scaled(rs []contract.Record, f float64) []float64 {
	out := make([]float64, len(rs))
	for i := range rs {
		out[i] = rs[i].AvgMs * f
	}
	return out
}

// measured returns a backend's measured median GPU compute time and
// median latency per inference (timing.measured, else an --exportTimes
// summary), each 0 when unknown.
func measured(b *contract.Backend) (gpu, e2e float64) {
	if b.Timing == nil {
		return 0, 0
	}
	if m := b.Timing.Measured; m != nil {
		return deref(m.GPUComputeMs.Median), deref(m.LatencyMs.Median)
	}
	if e := b.Timing.EndToEnd; e != nil {
		if e.ComputeMeanMs != nil {
			gpu = *e.ComputeMeanMs
		}
		return gpu, e.MedianMs
	}
	return 0, 0
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// chooseMeasure picks the best measure both sides have: measured GPU
// compute, then measured end-to-end latency, then layer sums; never one of
// each.
func chooseMeasure(a, b Side, sumA, sumB float64) (measure, note string, aMs, bMs float64) {
	ga, ea := measured(a.Backend)
	gb, eb := measured(b.Backend)
	switch {
	case ga > 0 && gb > 0:
		return contract.MeasureGPUCompute, "", ga, gb
	case ea > 0 && eb > 0:
		note := ""
		if ga > 0 || gb > 0 {
			note = "only one side has measured GPU compute time, so both are compared on measured " + contract.HostLatencyWords
		}
		return contract.MeasureEndToEnd, note, ea, eb
	}
	note = ""
	switch {
	case ga > 0 || ea > 0:
		note = fmt.Sprintf("only %s has measured latency, so both are compared on sums of profiled layer times (which include per-layer profiling overhead)", a.Name)
	case gb > 0 || eb > 0:
		note = fmt.Sprintf("only %s has measured latency, so both are compared on sums of profiled layer times (which include per-layer profiling overhead)", b.Name)
	}
	if ka, kb := a.Backend.ProfileKind, b.Backend.ProfileKind; ka != "" && kb != "" && ka != kb {
		// Per-layer overhead depends on the profiler: the sums are not
		// the same measure, whatever the verdict's noise band says.
		cross := fmt.Sprintf("the two profiles come from different profilers (%s: %s, %s: %s), whose per-layer overhead differs; confirm the difference by timing both engines the same way (trtexec --loadEngine with --exportTimes)", a.Name, ka, b.Name, kb)
		if note != "" {
			note += "; " + cross
		} else {
			note = cross
		}
	}
	return contract.MeasureLayerSum, note, sumA, sumB
}

// pairView is the alignment turned into aligned groups with times.
type pairView struct {
	al       *aligner
	msA, msB []float64
	rowsAll  []row
	changes  contract.LayerChanges
}

type row struct {
	g       *group
	kind    string
	aMs     float64
	bMs     float64
	changes []string
	chg     changeSet
}

type changeSet struct {
	precision, tactic, tensorCore, format bool
	rawTactic                             bool // the exact tactic differs (same family or not)
}

func (v *pairView) build() {
	v.rowsAll = make([]row, 0, len(v.al.groups))
	for k := range v.al.groups {
		g := &v.al.groups[k]
		r := row{g: g, kind: kindOf(len(g.a), len(g.b))}
		for _, i := range g.a {
			r.aMs += v.msA[i]
		}
		for _, j := range g.b {
			r.bMs += v.msB[j]
		}
		if r.kind == "matched" {
			r.chg, r.changes = describeChanges(&v.al.A.recs[g.a[0]], &v.al.B.recs[g.b[0]], v.al.A.layer(g.a[0]), v.al.B.layer(g.b[0]))
			if r.chg.tactic {
				v.changes.Tactic++
			}
			if r.chg.tensorCore {
				v.changes.TensorCore++
			}
			if r.chg.precision {
				v.changes.Precision++
			}
			if r.chg.format {
				v.changes.Format++
			}
		}
		v.rowsAll = append(v.rowsAll, r)
	}
}

func kindOf(na, nb int) string {
	switch {
	case na == 0:
		return "only_b"
	case nb == 0:
		return "only_a"
	case na == 1 && nb == 1:
		return "matched"
	case na == 1:
		return "split"
	case nb == 1:
		return "merged"
	}
	return "regrouped"
}

func describeChanges(ra, rb *contract.Record, la, lb *contract.Layer) (changeSet, []string) {
	var c changeSet
	var out []string
	if ra.Precision != rb.Precision {
		c.precision = true
		out = append(out, "precision "+ra.Precision+" → "+rb.Precision)
	}
	// Unknown (a tactic without a name) is no verdict: only a known
	// verdict on both sides can change.
	if ra.TensorCore != nil && rb.TensorCore != nil && *ra.TensorCore != *rb.TensorCore {
		c.tensorCore = true
		out = append(out, coreName(ra.TensorCore)+" → "+coreName(rb.TensorCore))
	}
	if ra.TacticFamily != rb.TacticFamily {
		c.tactic = true
		out = append(out, "tactic "+familyName(ra.TacticFamily)+" → "+familyName(rb.TacticFamily))
	}
	c.rawTactic = ra.Tactic != rb.Tactic
	if la != nil && lb != nil && !sameFormats(la.Outputs, lb.Outputs) {
		c.format = true
		out = append(out, "output "+formats(la.Outputs)+" → "+formats(lb.Outputs))
	}
	return c, out
}

// familyName is a tactic family for prose: the dump names no tactic for
// "none" (a fused or Myelin layer), which is not a family.
func familyName(f string) string {
	if f == "" || f == "none" {
		return "unnamed"
	}
	return f
}

// coreName names a tensor-core verdict; nil is unknown (the tactic table
// has no verdict), never "CUDA cores".
func coreName(tc *bool) string {
	switch {
	case tc == nil:
		return "unknown cores"
	case *tc:
		return "tensor cores"
	}
	return "CUDA cores"
}

func sameFormats(a, b []contract.Tensor) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Format != b[i].Format {
			return false
		}
	}
	return true
}

func formats(ts []contract.Tensor) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.Format
	}
	return strings.Join(parts, "; ")
}

// isCompute says whether a record does model math (not a reformat, copy,
// Q/DQ, no-op or shape bookkeeping).
func isCompute(r *contract.Record) bool {
	switch r.LayerType {
	case "Reformat", "MyelinReformat", "NoOp", "shape_call", "misc", "Constant":
		return false
	}
	return !slices.Contains(r.Tags, layerfacts.TagReformat) && !slices.Contains(r.Tags, layerfacts.TagNoop) && !slices.Contains(r.Tags, layerfacts.TagCopy)
}

// overheadKind is "qdq" or "reformat" for a layer that only moves or
// converts data, else "".
func overheadKind(r *contract.Record) string {
	if isCompute(r) && r.LayerType != "Quantize" && r.LayerType != "Dequantize" {
		return ""
	}
	if slices.Contains(r.Tags, layerfacts.TagQuantize) || r.LayerType == "Quantize" || r.LayerType == "Dequantize" {
		return "qdq"
	}
	if slices.Contains(r.Tags, layerfacts.TagReformat) || slices.Contains(r.Tags, layerfacts.TagCopy) || r.LayerType == "Reformat" || r.LayerType == "MyelinReformat" {
		return "reformat"
	}
	return ""
}

func (v *pairView) alignment() contract.Alignment {
	a := contract.Alignment{ALayers: len(v.al.A.recs), BLayers: len(v.al.B.recs)}
	for _, r := range v.rowsAll {
		switch r.kind {
		case "matched":
			a.Matched++
		case "split":
			a.Split++
		case "merged":
			a.Merged++
		case "regrouped":
			a.Regrouped++
		case "only_a":
			a.OnlyA++
		case "only_b":
			a.OnlyB++
		}
		switch r.g.stage {
		case stageName:
			a.ByName += len(r.g.a)
		case stageSourceOp:
			a.BySourceOp += len(r.g.a)
		case stageStructure:
			a.ByStructure += len(r.g.a)
		}
	}
	a.AComputeLayers, a.BComputeLayers, a.ComputeAligned = v.al.computeAligned()
	if n := a.AComputeLayers + a.BComputeLayers; n > 0 {
		a.ComputeAlignedPct = round2(float64(a.ComputeAligned) / float64(n) * 100)
	}
	return a
}

func (v *pairView) oneSided() []contract.OneSidedKind {
	acc := map[[2]string]*contract.OneSidedKind{}
	for _, r := range v.rowsAll {
		s, idx, ms, sideName := v.al.A, r.g.a, v.msA, "a"
		switch r.kind {
		case "only_a":
		case "only_b":
			s, idx, ms, sideName = v.al.B, r.g.b, v.msB, "b"
		default:
			continue
		}
		for _, i := range idx {
			k := overheadKind(&s.recs[i])
			if k == "" {
				continue
			}
			o := acc[[2]string{sideName, k}]
			if o == nil {
				o = &contract.OneSidedKind{Side: sideName, Kind: k}
				acc[[2]string{sideName, k}] = o
			}
			o.Count++
			o.Ms += ms[i]
		}
	}
	res := []contract.OneSidedKind{}
	for _, sd := range []string{"a", "b"} {
		for _, k := range []string{"qdq", "reformat"} {
			if o := acc[[2]string{sd, k}]; o != nil {
				res = append(res, *o)
			}
		}
	}
	return res
}

// sameEngine: every layer paired by exact name one to one, with the same
// tactic, precision and formats.
func (v *pairView) sameEngine() bool {
	if len(v.al.A.recs) != len(v.al.B.recs) || len(v.al.A.recs) == 0 {
		return false
	}
	for _, s := range []*side{v.al.A, v.al.B} {
		if s.b.Validation.AnalysisMode != contract.ModeLayerProfile {
			return false // profile_only or predicted: tactics and formats unknown
		}
	}
	for _, r := range v.rowsAll {
		if r.kind != "matched" || r.g.stage != stageName || r.g.conf < 1 {
			return false
		}
		if r.chg.precision || r.chg.tactic || r.chg.rawTactic || r.chg.format || r.chg.tensorCore {
			return false
		}
	}
	return true
}

func (v *pairView) rows(limit int) ([]contract.AlignedRow, int, float64) {
	order := make([]int, len(v.rowsAll))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		dx, dy := v.rowsAll[x].bMs-v.rowsAll[x].aMs, v.rowsAll[y].bMs-v.rowsAll[y].aMs
		return cmp.Compare(math.Abs(dy), math.Abs(dx))
	})
	out := []contract.AlignedRow{}
	omitted, omittedMs := 0, 0.0
	for n, k := range order {
		r := &v.rowsAll[k]
		if n >= limit {
			omitted++
			omittedMs += r.bMs - r.aMs
			continue
		}
		out = append(out, v.aligned(r))
	}
	return out, omitted, omittedMs
}

func (v *pairView) aligned(r *row) contract.AlignedRow {
	ar := contract.AlignedRow{
		Kind: r.kind, Stage: r.g.stage, Confidence: r.g.conf, Reason: v.al.reasonOf(r.g),
		ALayers: []int{}, BLayers: []int{}, Changes: r.changes,
		AMs: r.aMs, BMs: r.bMs, DeltaMs: r.bMs - r.aMs,
	}
	if ar.Changes == nil {
		ar.Changes = []string{}
	}
	// A profile_only record has no layer (-1): the row names it instead.
	for _, i := range r.g.a {
		if l := v.al.A.recs[i].Layer; l >= 0 {
			ar.ALayers = append(ar.ALayers, l)
		}
	}
	for _, j := range r.g.b {
		if l := v.al.B.recs[j].Layer; l >= 0 {
			ar.BLayers = append(ar.BLayers, l)
		}
	}
	if len(r.g.a) > 0 {
		i := r.g.a[0]
		ar.AName, ar.Type, ar.Region = v.al.A.recs[i].Name, v.al.A.recs[i].LayerType, region(v.al.A, i)
	}
	if len(r.g.b) > 0 {
		j := r.g.b[0]
		ar.BName = v.al.B.recs[j].Name
		if ar.Type == "" {
			ar.Type, ar.Region = v.al.B.recs[j].LayerType, region(v.al.B, j)
		}
	}
	return ar
}

// region is the part of the network a record belongs to: the block of its
// module path (up to the first numbered segment: "layer1.0", "features.5",
// "model.layers.3", else the first scope), which is the same across
// exports; else its Myelin graph.
func region(s *side, i int) string {
	r := &s.recs[i]
	md := ""
	if l := s.layer(i); l != nil {
		md = l.Metadata
	}
	if m := firstModule(r.Name, md); m != "" {
		return block(m)
	}
	if r.MyelinGraph != nil {
		return "Myelin graph " + strconv.Itoa(*r.MyelinGraph)
	}
	return "(unnamed ops)"
}

func block(module string) string {
	first := ""
	for rest, start := module, 0; ; {
		seg, tail, more := strings.Cut(rest, ".")
		if first == "" {
			first = seg
		}
		if allDigits(seg) {
			return module[:start+len(seg)]
		}
		if !more {
			return first
		}
		start += len(seg) + 1
		rest = tail
	}
}

func groupDeltas(a, b *side, msA, msB []float64, key func(*side, int) string) []contract.GroupDelta {
	idx := map[string]int{}
	var rows []contract.GroupDelta
	at := func(k string) *contract.GroupDelta {
		i, ok := idx[k]
		if !ok {
			i = len(rows)
			idx[k] = i
			rows = append(rows, contract.GroupDelta{Name: k})
		}
		return &rows[i]
	}
	for i := range a.recs {
		d := at(key(a, i))
		d.ACount++
		d.AMs += msA[i]
	}
	for j := range b.recs {
		d := at(key(b, j))
		d.BCount++
		d.BMs += msB[j]
	}
	for i := range rows {
		rows[i].DeltaMs = rows[i].BMs - rows[i].AMs
	}
	slices.SortFunc(rows, func(x, y contract.GroupDelta) int {
		return cmp.Or(cmp.Compare(math.Abs(y.DeltaMs), math.Abs(x.DeltaMs)),
			cmp.Compare(math.Max(y.AMs, y.BMs), math.Max(x.AMs, x.BMs)), cmp.Compare(x.Name, y.Name))
	})
	if rows == nil {
		rows = []contract.GroupDelta{}
	}
	return rows
}

func lumpRegions(rows []contract.GroupDelta) []contract.GroupDelta {
	if len(rows) <= maxRegions {
		return rows
	}
	rest := contract.GroupDelta{Name: otherRegions}
	for _, r := range rows[maxRegions-1:] {
		rest.ACount += r.ACount
		rest.BCount += r.BCount
		rest.AMs += r.AMs
		rest.BMs += r.BMs
		rest.DeltaMs += r.DeltaMs
	}
	return append(rows[:maxRegions-1:maxRegions-1], rest)
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// measuredPair compares two builds of which one has measured time only
// (measured_only): on measured GPU compute or latency, end to end, without
// rows or breakdowns — nothing per layer is known of that side.
func measuredPair(a, b Side) (*contract.ComparisonPair, error) {
	p := &contract.ComparisonPair{A: a.Name, B: b.Name, Reasons: []string{}, Rows: []contract.AlignedRow{},
		ByType: []contract.GroupDelta{}, ByPrec: []contract.GroupDelta{}, ByRegion: []contract.GroupDelta{}, OneSided: []contract.OneSidedKind{}}
	p.Measure, p.MeasureNote, p.AMs, p.BMs = chooseMeasure(a, b, 0, 0)
	if p.Measure == contract.MeasureLayerSum {
		return nil, fmt.Errorf("%s and %s have no measure in common: one has measured time only (no per-layer table) and the other no measured time; time both with trtexec the same way (its performance summary) or export both per-layer tables", a.Name, b.Name)
	}
	p.DeltaMs = p.BMs - p.AMs
	if p.AMs > 0 {
		p.DeltaPct = p.DeltaMs / p.AMs * 100
		p.BTimeRatio = p.BMs / p.AMs
	}
	sumA, sumB := layerSum(a.Backend.Records), layerSum(b.Backend.Records)
	p.AScale, p.BScale = scale(p.AMs, sumA), scale(p.BMs, sumB)
	// Every record of a side with a profile is counted, none aligned.
	p.Alignment = contract.Alignment{ALayers: contract.ComparedRecords(a.Backend), BLayers: contract.ComparedRecords(b.Backend)}
	p.Alignment.OnlyA, p.Alignment.OnlyB = p.Alignment.ALayers, p.Alignment.BLayers
	p.RowsOmitted = p.Alignment.ALayers + p.Alignment.BLayers
	p.RowsOmittedDeltaMs = p.DeltaMs
	p.Noise = noise(a, b, p)
	p.Verdict = verdict(p)
	var only []string
	for _, s := range []Side{a, b} {
		if measuredOnly(s) {
			only = append(only, s.Name)
		}
	}
	p.Summary = fmt.Sprintf("%s: %s %.4g ms vs %s %.4g ms (%.2f×, %+.1f %% %s, noise ±%.1f %%). %s measured time only (no per-layer table), so this says which build is faster, not why; the per-layer tables (--dumpProfile --exportProfile) of both would.",
		verdictWords(p), p.B, p.BMs, p.A, p.AMs, p.BTimeRatio, p.DeltaPct, measureWords(p.Measure), p.Noise.Pct, strings.Join(only, " and ")+hasHave(len(only)))
	return p, nil
}

func hasHave(n int) string {
	if n == 1 {
		return " has"
	}
	return " have"
}

// verdictWords is a pair's verdict in words.
func verdictWords(p *contract.ComparisonPair) string {
	switch p.Verdict {
	case contract.VerdictBFaster:
		return p.B + " is faster"
	case contract.VerdictBSlower:
		return p.B + " is slower"
	}
	return "within run-to-run noise"
}
