package compare

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/trtperf/trtperf/internal/contract"
)

// Alignment pairs the profiled layers (records) of two backends in three
// stages, each over what the previous left unpaired, each near-linear:
//
//  1. name: the same name (k-th occurrence with k-th), then the same name
//     apart from Myelin kernel numbering (_myl<G>_<K>);
//  2. source_op: shared source ops — metadata ("[ONNX Layer: x]"), the parts
//     of fused names, Torch-TensorRT scopes and weight names, reduced to
//     module paths (see keys.go). Keys held by more than maxKeyFanout layers
//     on a side say nothing and are dropped; each layer points at the layer
//     of the other side it shares most with, and those links, unioned,
//     make the groups: one↔one (matched), one↔several (split or merged),
//     several↔several (regrouped);
//  3. structure: the same derived type and tensor shapes (batch aside), in
//     the same order and near the same relative place in the graph.
//
// What is left is only in A or only in B.

const (
	maxKeyFanout  = 8    // a key on more layers than this per side is too common to pair by
	numberedReach = 0.1  // numbered ONNX nodes pair only this close in relative position
	structReach   = 0.12 // structure pairs only this close in relative position
	acceptScore   = 0.5  // a one-way link needs this much shared weight
	mutualScore   = 0.2  // a link both sides choose needs this much
)

// Stages of alignment (contract AlignedRow.Stage).
const (
	stageName      = "name"
	stageSourceOp  = "source_op"
	stageStructure = "structure"
	stageNone      = "none"
)

// side is one backend prepared for alignment.
type side struct {
	b    *contract.Backend
	recs []contract.Record
	pos  []float64 // relative position of each record's layer in topological order, 0..1
}

func newSide(b *contract.Backend) *side { return newSideOf(b, b.Records) }

// newSideOf is a side over recs (the backend's records, or predicted ones).
func newSideOf(b *contract.Backend, recs []contract.Record) *side {
	s := &side{b: b, recs: recs, pos: make([]float64, len(recs))}
	rank := make([]int, len(b.Layers))
	for i := range rank {
		rank[i] = i
	}
	if len(b.Graph.TopoOrder) == len(b.Layers) {
		for r, l := range b.Graph.TopoOrder {
			if l >= 0 && l < len(rank) {
				rank[l] = r
			}
		}
	}
	den := float64(max(1, len(b.Layers)-1))
	for i := range s.recs {
		l := s.recs[i].Layer
		if l >= 0 && l < len(rank) {
			s.pos[i] = float64(rank[l]) / den
		} else {
			s.pos[i] = float64(i) / float64(max(1, len(s.recs)-1))
		}
	}
	return s
}

func (s *side) layer(i int) *contract.Layer {
	l := s.recs[i].Layer
	if l < 0 || l >= len(s.b.Layers) {
		return nil
	}
	return &s.b.Layers[l]
}

// group is one aligned group of records.
type group struct {
	a, b   []int // record indexes
	stage  string
	conf   float64
	reason string
}

// aligner holds the assignment of records to groups while stages run.
type aligner struct {
	A, B   *side
	gA, gB []int32 // group of each record, -1 while unpaired
	groups []group
}

func align(a, b *side) *aligner {
	al := &aligner{A: a, B: b, gA: filled(len(a.recs)), gB: filled(len(b.recs)),
		groups: make([]group, 0, max(len(a.recs), len(b.recs)))}
	al.byName()
	al.bySourceOps()
	al.byStructure()
	for i, g := range al.gA {
		if g < 0 {
			al.groups = append(al.groups, group{a: []int{i}, stage: stageNone, reason: "no layer of B does this work"})
		}
	}
	for j, g := range al.gB {
		if g < 0 {
			al.groups = append(al.groups, group{b: []int{j}, stage: stageNone, reason: "no layer of A does this work"})
		}
	}
	return al
}

func filled(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

func (al *aligner) add(g group) {
	id := int32(len(al.groups))
	for _, i := range g.a {
		al.gA[i] = id
	}
	for _, j := range g.b {
		al.gB[j] = id
	}
	al.groups = append(al.groups, g)
}

// byName pairs records by name occurrence, then by name without Myelin
// kernel numbering.
func (al *aligner) byName() {
	next := make([]int32, len(al.B.recs)) // next unpaired B record of the same key
	for pass, keyOf := range []func(string) string{func(s string) string { return s }, stripMyelinSuffix} {
		type chain struct{ head, tail int32 }
		queue := make(map[string]chain, len(al.B.recs))
		for j := range al.B.recs {
			if al.gB[j] >= 0 {
				continue
			}
			next[j] = -1
			k := keyOf(al.B.recs[j].Name)
			if c, ok := queue[k]; ok {
				next[c.tail] = int32(j)
				queue[k] = chain{c.head, int32(j)}
			} else {
				queue[k] = chain{int32(j), int32(j)}
			}
		}
		if len(queue) == 0 {
			return
		}
		for i := range al.A.recs {
			if al.gA[i] >= 0 {
				continue
			}
			k := keyOf(al.A.recs[i].Name)
			c, ok := queue[k]
			if !ok || c.head < 0 {
				continue
			}
			j := c.head
			queue[k] = chain{next[j], c.tail}
			g := group{a: []int{i}, b: []int{int(j)}, stage: stageName, conf: 1, reason: "same name"}
			if pass == 1 {
				g.conf, g.reason = 0.95, "same name apart from Myelin kernel numbering"
			}
			al.add(g)
		}
	}
}

// keyTable is every source-op key of the unpaired records of both sides,
// as ids in flat arrays.
type keyTable struct {
	kind   []keyKind
	count  [][2]int32 // layers holding the key, per side
	recKey [2][]int32 // key ids of each record, flat
	recOff [2][]int32 // record i's keys are recKey[off[i]:off[i+1]]
	// Holders of each useful key per side: hold[si][holdOff[si][id]:holdOff[si][id+1]].
	hold, holdOff [2][]int32
}

// sideKeys are one side's keys as hashes, per record.
type sideKeys struct {
	hash []uint64
	kind []keyKind
	off  []int32
}

func hashKeys(s *side, g []int32) sideKeys {
	var scratch []key
	k := sideKeys{off: make([]int32, len(s.recs)+1), hash: make([]uint64, 0, 4*len(s.recs)), kind: make([]keyKind, 0, 4*len(s.recs))}
	for i := range s.recs {
		k.off[i] = int32(len(k.hash))
		if g[i] >= 0 {
			continue
		}
		md := ""
		if l := s.layer(i); l != nil {
			md = l.Metadata
		}
		scratch = layerKeys(scratch[:0], s.recs[i].Name, md)
		start := len(k.hash)
		for _, x := range scratch {
			h := x.hash()
			if !slices.Contains(k.hash[start:], h) {
				k.hash = append(k.hash, h)
				k.kind = append(k.kind, x.kind)
			}
		}
	}
	k.off[len(s.recs)] = int32(len(k.hash))
	return k
}

func (al *aligner) keyTable() *keyTable {
	var sk [2]sideKeys
	var wg sync.WaitGroup
	wg.Go(func() { sk[1] = hashKeys(al.B, al.gB) })
	sk[0] = hashKeys(al.A, al.gA)
	wg.Wait()

	t := &keyTable{}
	ids := make(map[uint64]int32, (len(sk[0].hash)+len(sk[1].hash))/2)
	for si := range 2 {
		ks := make([]int32, len(sk[si].hash))
		for n, h := range sk[si].hash {
			id, ok := ids[h]
			if !ok {
				id = int32(len(t.kind))
				ids[h] = id
				t.kind = append(t.kind, sk[si].kind[n])
				t.count = append(t.count, [2]int32{})
			}
			ks[n] = id
			t.count[id][si]++
		}
		t.recKey[si], t.recOff[si] = ks, sk[si].off
	}
	for si := range 2 {
		off := make([]int32, len(t.kind)+1)
		for id := range t.kind {
			n := int32(0)
			if t.useful(int32(id)) {
				n = t.count[id][si]
			}
			off[id+1] = off[id] + n
		}
		hold := make([]int32, off[len(t.kind)])
		fill := slices.Clone(off[:len(t.kind)])
		ro, rk := t.recOff[si], t.recKey[si]
		for i := 0; i+1 < len(ro); i++ {
			for _, id := range rk[ro[i]:ro[i+1]] {
				if t.useful(id) {
					hold[fill[id]] = int32(i)
					fill[id]++
				}
			}
		}
		t.hold[si], t.holdOff[si] = hold, off
	}
	return t
}

func (t *keyTable) holders(si int, id int32) []int32 {
	return t.hold[si][t.holdOff[si][id]:t.holdOff[si][id+1]]
}

func (t *keyTable) useful(id int32) bool {
	c := t.count[id]
	return c[0] >= 1 && c[1] >= 1 && c[0] <= maxKeyFanout && c[1] <= maxKeyFanout
}

func (t *keyTable) weight(id int32) float64 {
	c := t.count[id]
	return kindWeight[t.kind[id]] / float64(c[0]*c[1])
}

// link is a record's strongest tie to the other side.
type link struct {
	to    int32 // record of the other side, -1 when none
	score float64
	num   float64 // the part of score from numbered ONNX nodes
}

// bestLinks finds, for each unpaired record of side si, the record of the
// other side it shares the most key weight with (ties: the nearest in
// relative position).
func (al *aligner) bestLinks(t *keyTable, si int) []link {
	from, to := al.A, al.B
	if si == 1 {
		from, to = al.B, al.A
	}
	out := make([]link, len(from.recs))
	type cand struct {
		j          int32
		score, num float64
	}
	var cands []cand
	off, ks := t.recOff[si], t.recKey[si]
	for i := range from.recs {
		out[i].to = -1
		cands = cands[:0]
		for _, id := range ks[off[i]:off[i+1]] {
			if !t.useful(id) {
				continue
			}
			w := t.weight(id)
			for _, j := range t.holders(1-si, id) {
				if t.kind[id] == keyNumbered && abs(from.pos[i]-to.pos[j]) > numberedReach {
					continue
				}
				k := slices.IndexFunc(cands, func(c cand) bool { return c.j == j })
				if k < 0 {
					cands = append(cands, cand{j: j})
					k = len(cands) - 1
				}
				cands[k].score += w
				if t.kind[id] == keyNumbered {
					cands[k].num += w
				}
			}
		}
		for _, c := range cands {
			b := out[i]
			if b.to < 0 || c.score > b.score+1e-12 ||
				(abs(c.score-b.score) <= 1e-12 && abs(from.pos[i]-to.pos[c.j]) < abs(from.pos[i]-to.pos[b.to])) {
				out[i] = link{to: c.j, score: c.score, num: c.num}
			}
		}
	}
	return out
}

// bySourceOps groups unpaired records through their strongest shared
// source-op keys.
func (al *aligner) bySourceOps() {
	t := al.keyTable()
	la, lb := al.bestLinks(t, 0), al.bestLinks(t, 1)
	nA := len(al.A.recs)
	uf := newUnionFind(nA + len(al.B.recs))
	score := make([]float64, nA+len(al.B.recs))
	// A link is kept when both ends choose each other, or when it is
	// strong. A one-way link resting on numbered nodes alone is kept only
	// where the numbering agrees: the target's own choice shares numbered
	// nodes with it (exports renumber, so "Conv_46" may be another conv).
	accept := func(l link, back []link, self int) bool {
		if l.to < 0 {
			return false
		}
		r := back[l.to]
		if r.to == int32(self) {
			return l.score >= mutualScore
		}
		if l.score < acceptScore {
			return false
		}
		return l.num < l.score || r.to >= 0 && r.num > 0
	}
	for i, l := range la {
		if al.gA[i] < 0 && accept(l, lb, i) {
			uf.union(i, nA+int(l.to))
			score[i] = l.score
		}
	}
	for j, l := range lb {
		if al.gB[j] < 0 && accept(l, la, j) {
			uf.union(int(l.to), nA+j)
			score[nA+j] = l.score
		}
	}
	comps := map[int]*group{}
	var order []int
	for i := range nA {
		if al.gA[i] >= 0 {
			continue
		}
		r := uf.find(i)
		g := comps[r]
		if g == nil {
			g = &group{stage: stageSourceOp}
			comps[r] = g
			order = append(order, r)
		}
		g.a = append(g.a, i)
	}
	for j := range al.B.recs {
		if al.gB[j] >= 0 {
			continue
		}
		if g := comps[uf.find(nA+j)]; g != nil {
			g.b = append(g.b, j)
		}
	}
	for _, r := range order {
		g := comps[r]
		if len(g.b) == 0 {
			continue
		}
		best := 0.0
		for _, i := range g.a {
			best = max(best, score[i])
		}
		for _, j := range g.b {
			best = max(best, score[nA+j])
		}
		g.conf = round3(min(0.95, 0.55+0.4*min(1, best)))
		al.add(*g) // reason: filled by reasonOf for the groups that are shown

	}
}

// reasonOf is why a group was formed.
func (al *aligner) reasonOf(g *group) string {
	if g.reason == "" && g.stage == stageSourceOp {
		g.reason = "shared source op " + al.sharedKey(g)
	}
	return g.reason
}

// sharedKey names the strongest source-op key a group's two sides share
// (computed again for the group only).
func (al *aligner) sharedKey(g *group) string {
	type held struct {
		kind keyKind
		a, b bool
	}
	seen := map[string]*held{}
	var scratch []key
	for si, recs := range [][]int{g.a, g.b} {
		s := al.A
		if si == 1 {
			s = al.B
		}
		for _, i := range recs {
			md := ""
			if l := s.layer(i); l != nil {
				md = l.Metadata
			}
			scratch = layerKeys(scratch[:0], s.recs[i].Name, md)
			for _, k := range scratch {
				h := seen[k.String()]
				if h == nil {
					h = &held{kind: k.kind}
					seen[k.String()] = h
				}
				if si == 0 {
					h.a = true
				} else {
					h.b = true
				}
			}
		}
	}
	bestS, bestW := "", -1.0
	for s, h := range seen {
		if !h.a || !h.b {
			continue
		}
		w := kindWeight[h.kind]
		if w > bestW || w == bestW && s < bestS {
			bestS, bestW = s, w
		}
	}
	return strconv.Quote(bestS)
}

// byStructure pairs what is left by derived type and shapes (batch aside),
// in order of relative position, when the positions are close.
func (al *aligner) byStructure() {
	bucket := func(s *side, g []int32, sig func(*contract.Record, *contract.Layer) string) (map[string][]int, []string) {
		m := map[string][]int{}
		var keys []string
		for i := range s.recs {
			if g[i] >= 0 {
				continue
			}
			k := sig(&s.recs[i], s.layer(i))
			if _, ok := m[k]; !ok {
				keys = append(keys, k)
			}
			m[k] = append(m[k], i)
		}
		return m, keys
	}
	for pass, sig := range []func(*contract.Record, *contract.Layer) string{signature, opSignature} {
		ma, keys := bucket(al.A, al.gA, sig)
		mb, _ := bucket(al.B, al.gB, sig)
		al.pairInOrder(ma, mb, keys, pass)
	}
}

// pairInOrder pairs the records of each bucket in order of relative
// position, when the positions are close.
func (al *aligner) pairInOrder(ma, mb map[string][]int, keys []string, pass int) {
	reason := "same type and shapes (batch aside) at the same place in the graph"
	if pass == 1 {
		reason = "same source op kind and shapes (batch aside) at the same place in the graph"
	}
	for _, k := range keys {
		if k == "" {
			continue
		}
		xs, ys := ma[k], mb[k]
		if len(ys) == 0 {
			continue
		}
		byPos := func(s *side) func(x, y int) int {
			return func(x, y int) int { return cmp.Or(cmp.Compare(s.pos[x], s.pos[y]), cmp.Compare(x, y)) }
		}
		slices.SortFunc(xs, byPos(al.A))
		slices.SortFunc(ys, byPos(al.B))
		for i, j := 0, 0; i < len(xs) && j < len(ys); {
			pa, pb := al.A.pos[xs[i]], al.B.pos[ys[j]]
			d := abs(pa - pb)
			switch {
			case d <= structReach:
				al.add(group{a: []int{xs[i]}, b: []int{ys[j]}, stage: stageStructure,
					conf:   round3(0.6 - 2*d - 0.1*float64(pass)),
					reason: reason})
				i++
				j++
			case pa < pb:
				i++
			default:
				j++
			}
		}
	}
}

// opSignature is, for a compute layer named by numbered ONNX nodes
// ("GlobalAveragePool_300"), the node kinds without numbers and its shapes:
// it pairs the same op run by another kernel type. "" for other layers
// (reformats and Q/DQ are never paired this way: one side may really lack
// them).
func opSignature(r *contract.Record, l *contract.Layer) string {
	if !isCompute(r) {
		return ""
	}
	var ks []key
	ks = layerKeys(ks, r.Name, "")
	var b strings.Builder
	for _, k := range ks {
		if k.kind != keyNumbered {
			return ""
		}
		b.WriteString(strings.TrimRight(k.s, "0123456789"))
		b.WriteByte('+')
	}
	if b.Len() == 0 {
		return ""
	}
	return b.String() + signature(&contract.Record{}, l)
}

// signature is a record's derived type and its tensors' shapes without the
// leading (batch) dimension.
func signature(r *contract.Record, l *contract.Layer) string {
	var b strings.Builder
	b.WriteString(r.LayerType)
	if l == nil {
		return b.String()
	}
	for _, ts := range [][]contract.Tensor{l.Inputs, l.Outputs} {
		b.WriteByte('|')
		for _, t := range ts {
			b.WriteByte('(')
			for k, d := range t.Dimensions {
				if k == 0 && len(t.Dimensions) > 1 {
					continue
				}
				b.WriteString(strconv.FormatInt(d, 10))
				b.WriteByte(',')
			}
			b.WriteByte(')')
		}
	}
	return b.String()
}

type unionFind []int32

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = int32(i)
	}
	return u
}

func (u unionFind) find(x int) int {
	for int(u[x]) != x {
		u[x] = u[u[x]]
		x = int(u[x])
	}
	return x
}

func (u unionFind) union(x, y int) {
	x, y = u.find(x), u.find(y)
	if x != y {
		u[max(x, y)] = int32(min(x, y))
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }
