package findings

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// evaluation is one backend being diagnosed: what every rule reads (the
// backend plus indexes built once) and which layers findings already own.
type evaluation struct {
	b     *contract.Backend
	total float64 // sum of avg_ms over all records: the time budget
	// timed are the records with time (avg_ms > 0) matched to a layer,
	// most expensive first (ties by layer index). Rules only see these, so
	// they never fire on layers that take no time.
	timed []*contract.Record
	// tinfo[j] is what rules read of timed[j] without touching the record
	// (10^5 records scattered in memory, read by some 20 rules).
	tinfo []timedInfo
	// typeNames are the distinct derived layer types (timedInfo.typ).
	typeNames []string
	recOf     []int32 // layer index → index in b.Records, -1 when not profiled
	// rinfo[i] is what rules read of b.Records[i] (records with a layer).
	rinfo []recInfo
	tname []string // names of the timed records
	// target is the engine's target precision (FP32, TF32, FP16, BF16,
	// INT8, FP8, FP4) and targetFrom says how it was decided.
	target, targetFrom string
	// preds/succs: data-flow neighbours per layer (CSR over graph.edges).
	predStart, succStart []int32
	predList, succList   []int32

	// ref is the reference latency (ms) every price is stated on, refSource
	// where it comes from, and scale = ref / total maps profiled layer time
	// onto it.
	ref, scale float64
	refSource  string
	meas       measured
	// minor are candidate findings priced under limits.minFindingPct: not
	// scored, listed in the overview so nothing measured is hidden.
	minor []contract.Finding
	trt   trtexecflags.Range // the backend's TensorRT release(s); zero when unknown
	// cause maps a layer to the finding that owns it, for the overview's
	// descriptions (set once the findings are ranked).
	cause map[int]string
	// model is the backend's cost model; nil without one (model.go).
	model *Model
	// owned[layer] is true once a finding owns the layer: rules select only
	// free layers, so no millisecond is priced twice.
	owned []bool

	conv      []convFacts // per layer, filled on first use (see convParams)
	scratch   []*contract.Record
	fallback  []*contract.Record
	fallbackD bool // fallback is computed
}

func newEvaluation(b *contract.Backend) *evaluation {
	c := &evaluation{b: b, recOf: make([]int32, len(b.Layers)), rinfo: make([]recInfo, len(b.Records))}
	for i := range c.recOf {
		c.recOf[i] = -1
	}
	// Sort keys inline, not behind the record pointers (10^5 records), as
	// integers: for positive avg_ms the IEEE bits order like the values,
	// inverted for "most expensive first"; then layer, then record index
	// (which keeps equal keys in record order, as a stable sort would).
	keys := make([]timedKey, 0, len(b.Records))
	typeID := map[string]int32{}
	for i := range b.Records { // in record order: sequential in memory
		r := &b.Records[i]
		c.total += r.AvgMs
		if r.Layer < 0 || r.Layer >= len(b.Layers) {
			continue
		}
		c.recOf[r.Layer] = int32(i)
		ri := &c.rinfo[i]
		ri.k, ri.avg, ri.layer, ri.name = c.classifyIn(r), r.AvgMs, int32(r.Layer), r.Name
		if r.MyelinGraph != nil {
			ri.myl, ri.hasMyl = *r.MyelinGraph, true
		}
		if r.AvgMs > 0 {
			keys = append(keys, timedKey{^math.Float64bits(r.AvgMs), uint64(r.Layer)<<32 | uint64(i)})
			id, ok := typeID[r.LayerType]
			if !ok {
				id = int32(len(c.typeNames))
				typeID[r.LayerType] = id
				c.typeNames = append(c.typeNames, r.LayerType)
			}
			ri.typ = id
		}
	}
	sortTimedKeys(keys)
	c.timed = make([]*contract.Record, len(keys))
	c.tinfo = make([]timedInfo, len(keys))
	c.tname = make([]string, len(keys))
	for j, k := range keys {
		i := uint32(k.lo)
		c.timed[j] = &b.Records[i]
		c.tinfo[j], c.tname[j] = c.rinfo[i].timedInfo, c.rinfo[i].name
	}
	c.buildAdjacency()
	c.target, c.targetFrom = targetPrecision(c)
	c.owned = make([]bool, len(b.Layers))
	c.trt = trtVersion(b)
	c.ref, c.refSource = reference(b, c.total)
	if b.Timing != nil {
		c.meas = measuredOf(b.Timing)
	}
	c.scale = 1
	if c.total > 0 && c.ref > 0 {
		c.scale = c.ref / c.total
	}
	return c
}

func byTime(a, b *contract.Record) int {
	if a.AvgMs != b.AvgMs {
		return cmp.Compare(b.AvgMs, a.AvgMs)
	}
	return cmp.Compare(a.Layer, b.Layer)
}

func (c *evaluation) buildAdjacency() {
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

func (c *evaluation) preds(layer int) []int32 {
	return c.predList[c.predStart[layer]:c.predStart[layer+1]]
}
func (c *evaluation) succs(layer int) []int32 {
	return c.succList[c.succStart[layer]:c.succStart[layer+1]]
}

// record returns the record of a layer, or nil when it was not profiled.
func (c *evaluation) record(layer int) *contract.Record {
	if layer < 0 || layer >= len(c.recOf) || c.recOf[layer] < 0 {
		return nil
	}
	return &c.b.Records[c.recOf[layer]]
}

func (c *evaluation) layer(r *contract.Record) *contract.Layer { return &c.b.Layers[r.Layer] }

// timedKey orders timed records: hi, then lo.
type timedKey struct{ hi, lo uint64 }

// sortTimedKeys sorts keys ascending. A least-significant-digit radix sort,
// a byte a pass, skipping bytes all keys share: 10^5 keys sort several
// times faster than by comparisons.
func sortTimedKeys(keys []timedKey) {
	if len(keys) < 512 {
		slices.SortFunc(keys, func(a, b timedKey) int {
			if a.hi != b.hi {
				return cmp.Compare(a.hi, b.hi)
			}
			return cmp.Compare(a.lo, b.lo)
		})
		return
	}
	digit := func(k timedKey, d int) uint8 { // d 0..15, least significant first
		if d < 8 {
			return uint8(k.lo >> (8 * d))
		}
		return uint8(k.hi >> (8 * (d - 8)))
	}
	var counts [16][256]int
	for _, k := range keys {
		for d := range 16 {
			counts[d][digit(k, d)]++
		}
	}
	src, dst := keys, make([]timedKey, len(keys))
	for d := range 16 {
		c := &counts[d]
		if c[digit(src[0], d)] == len(src) {
			continue // every key has this byte
		}
		sum := 0
		for v := range c {
			c[v], sum = sum, sum+c[v]
		}
		for _, k := range src {
			v := digit(k, d)
			dst[c[v]] = k
			c[v]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}

// timedInfo is what rules read of a record, gathered in one pass in record
// order (the records are large and rules visit them in time order). Small:
// selections scan it for 10^5 records some 20 times.
type timedInfo struct {
	k     class
	avg   float64 // avg_ms
	layer int32
	typ   int32 // derived layer type, an index into typeNames
}

// recInfo is timedInfo and the rest rules read of a record.
type recInfo struct {
	timedInfo
	name   string
	myl    int // *MyelinGraph, when hasMyl
	hasMyl bool
}

// selectTimed returns the timed records keep accepts, most expensive first.
// keep sees the record's timedInfo: test it first and the record itself
// only when that is not enough.
func (c *evaluation) selectTimed(keep func(*contract.Record, *timedInfo) bool) []*contract.Record {
	// Collect into a reused buffer and return an exact copy: selections run
	// some 20 times over 10^5 records.
	buf := c.scratch[:0]
	c.scratch = nil // a keep that selects again gets its own buffer
	for j := range c.tinfo {
		if !c.owned[c.tinfo[j].layer] && keep(c.timed[j], &c.tinfo[j]) {
			buf = append(buf, c.timed[j])
		}
	}
	var out []*contract.Record
	if len(buf) > 0 {
		out = slices.Clone(buf)
	}
	c.scratch = buf
	return out
}

// typesByName returns the indexes of typeNames in name order.
func (c *evaluation) typesByName() []int32 {
	ids := make([]int32, len(c.typeNames))
	for i := range ids {
		ids[i] = int32(i)
	}
	slices.SortFunc(ids, func(a, b int32) int { return cmp.Compare(c.typeNames[a], c.typeNames[b]) })
	return ids
}

// timedWhere returns the indexes (into timed) of the timed records keep
// accepts, most expensive first.
func (c *evaluation) timedWhere(keep func(*timedInfo) bool) []int32 {
	var out []int32
	for j := range c.tinfo {
		if !c.owned[c.tinfo[j].layer] && keep(&c.tinfo[j]) {
			out = append(out, int32(j))
		}
	}
	return out
}

// inLayerOrder returns the positions in js (indexes into timed) ordered by
// their layer: rules that read the layer table or names for many records
// read them in this order, sequential in memory, not in time order.
func (c *evaluation) inLayerOrder(js []int32) []int32 {
	keys := make([]uint64, len(js))
	for p, j := range js {
		keys[p] = uint64(c.tinfo[j].layer)<<32 | uint64(p)
	}
	slices.Sort(keys)
	out := make([]int32, len(js))
	for i, k := range keys {
		out[i] = int32(uint32(k))
	}
	return out
}

// flagged keeps the timed records with any of the flags f.
func flagged(f classFlags) func(*contract.Record, *timedInfo) bool {
	return func(_ *contract.Record, t *timedInfo) bool { return t.k.is(f) }
}

func sumMs(rs []*contract.Record) float64 {
	s := 0.0
	for _, r := range rs {
		s += r.AvgMs
	}
	return s
}

// pct is the share of the time budget, in percent.
func (c *evaluation) pct(ms float64) float64 {
	if c.total <= 0 {
		return 0
	}
	return ms / c.total * 100
}

// free reports whether no finding owns the layer yet.
func (c *evaluation) free(layer int) bool {
	return layer >= 0 && layer < len(c.owned) && !c.owned[layer]
}

// freeRecs keeps the records whose layers no finding owns, once each.
func (c *evaluation) freeRecs(recs []*contract.Record) []*contract.Record {
	out := make([]*contract.Record, 0, len(recs))
	seen := map[int]bool{}
	for _, r := range recs {
		if r != nil && c.free(r.Layer) && !seen[r.Layer] {
			seen[r.Layer] = true
			out = append(out, r)
		}
	}
	return out
}

// newFinding builds a finding that owns recs (those still free), priced
// with the rule's factor band from priceFactors. Metrics always hold
// time_ms (owned layer time on the profile's clock), total_ms, share_pct and
// layer_count so a reader can recompute share and price.
func (c *evaluation) newFinding(id, confidence string, recs []*contract.Record) *contract.Finding {
	recs = c.freeRecs(recs)
	slices.SortStableFunc(recs, byTime)
	ms := sumMs(recs)
	f := &contract.Finding{
		ID: id, Confidence: confidence,
		Evidence: []string{},
		Metrics:  c.ownedMetrics(ms, len(recs)),
		Layers:   layerIndexes(recs),
	}
	f.Share = round(c.pct(ms), 3)
	if b, ok := priceFactors[id]; ok {
		c.price(f, ms, b, id)
	}
	return f
}

func layerIndexes(recs []*contract.Record) []int {
	out := make([]int, len(recs))
	for i, r := range recs {
		out[i] = r.Layer
	}
	return out
}

func round(x float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(x*p) / p
}

// topNames lists up to n records as `name (x.xx%)`, names shortened.
func (c *evaluation) topNames(recs []*contract.Record, n int) string {
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

// part is one cause inside a finding, as its evidence names it.
type part struct {
	name string
	recs []*contract.Record
}

// partition splits a finding's owned layers among its parts, in order: a
// layer several parts select goes to the first, a layer the finding does
// not own to none. It returns each part's records (evidence and price then
// count every layer once) and, when two or more parts hold layers, sets
// f.Parts. Every owned layer must be in a part.
func (c *evaluation) partition(f *contract.Finding, parts ...part) [][]*contract.Record {
	owned := make(map[int]bool, len(f.Layers))
	for _, l := range f.Layers {
		owned[l] = true
	}
	out := make([][]*contract.Record, len(parts))
	var fp []contract.FindingPart
	for i, p := range parts {
		for _, r := range p.recs {
			if r != nil && owned[r.Layer] {
				delete(owned, r.Layer)
				out[i] = append(out[i], r)
			}
		}
		if len(out[i]) > 0 {
			slices.SortStableFunc(out[i], byTime)
			fp = append(fp, contract.FindingPart{Name: p.name, Layers: layerIndexes(out[i]), TimeMs: round(sumMs(out[i]), 6)})
		}
	}
	if len(owned) > 0 {
		panic(fmt.Sprintf("findings: %s owns %d layers in no part", f.ID, len(owned)))
	}
	if len(fp) > 1 {
		f.Parts = fp
	}
	return out
}

// placesText names places in an action: all of them up to three, else
// the first three and how many in all ("the 10 residual Add layers (Add_1,
// Add_2, Add_3 and 7 more)"); the finding's Places list them in full.
func placesText(what string, names []string) string {
	switch {
	case len(names) == 1:
		return fmt.Sprintf("the %s (%s)", what, names[0])
	case len(names) <= 3:
		return fmt.Sprintf("the %d %s (%s)", len(names), what, strings.Join(names, ", "))
	}
	return fmt.Sprintf("the %d %s (%s and %d more)", len(names), what, strings.Join(names[:3], ", "), len(names)-3)
}

// ownedMetrics are the metrics every finding starts with: the time of
// what it owns (layers or records), the layer sum, that share and the
// count.
func (c *evaluation) ownedMetrics(ms float64, n int) map[string]float64 {
	return map[string]float64{
		"time_ms":     round(ms, 6),
		"total_ms":    round(c.total, 6),
		"share_pct":   round(c.pct(ms), 3),
		"layer_count": float64(n),
	}
}
