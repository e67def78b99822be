package graph

import (
	"hash/maphash"
	"math/bits"
	"slices"

	"github.com/trtperf/trtperf/internal/engine"
)

// tensorIndex numbers the distinct tensors of a dump (see key) and resolves every layer's inputs and outputs to
// those ids, in order of first reference: outputs of all layers, then
// inputs.
//
// A map from names to ids hashed and probed a 400k-entry table once per
// tensor reference (10^5-layer engines have ~5×10^5 references). Instead
// the outputs are sorted by a 64-bit hash of their key, which finds the
// names written twice, and an input is looked for first among the outputs
// of the few layers before it, where dumps in execution order almost always
// have its producer, then by binary search on the hashes. Hash matches are
// confirmed on the names, so a collision costs a comparison, never a wrong
// id.
type tensorIndex struct {
	layers   []engine.Layer
	seed     maphash.Seed
	names    []string // id → name
	outIDs   []int32  // per output reference, layer after layer
	inIDs    []int32  // per input reference
	outStart []int32  // layer i's outputs are outIDs[outStart[i]:outStart[i+1]]
	inStart  []int32
	outLayer []int32 // output reference → its layer
	// byHash holds each output reference in the low refBits bits under the
	// high bits of its key's hash, sorted: references of one hash are
	// adjacent, in reference order.
	byHash   []uint64
	refBits  uint
	external map[key]int32 // tensors no layer writes
}

// key names a tensor: its name within its engine, since the layers of
// several engines concatenated in one dump (`_subgraph`) reuse names like
// "input".
type key struct{ sub, name string }

// recentLayers is how many layers before a consumer are searched for the
// producer of its inputs before the hash index is.
const recentLayers = 8

// maxRunScan bounds the outputs sharing one hash that are compared pairwise;
// longer runs (one name written by many layers) use a map.
const maxRunScan = 8

func indexTensors(layers []engine.Layer) *tensorIndex {
	x := &tensorIndex{layers: layers, seed: maphash.MakeSeed(), outStart: make([]int32, len(layers)+1), inStart: make([]int32, len(layers)+1)}
	nOut, nIn := 0, 0
	for i := range layers {
		nOut += len(layers[i].Outputs)
		nIn += len(layers[i].Inputs)
	}
	x.names = make([]string, 0, nOut+nIn/8)
	x.outIDs = make([]int32, nOut)
	x.outLayer = make([]int32, nOut)
	x.byHash = make([]uint64, nOut)
	x.refBits = uint(bits.Len(uint(nOut)))
	r := 0
	for i := range layers {
		l := &layers[i]
		for j := range l.Outputs {
			x.outLayer[r] = int32(i)
			x.byHash[r] = x.hash(l.Subgraph, l.Outputs[j].Name) | uint64(r)
			r++
		}
		x.outStart[i+1] = int32(r)
	}
	slices.Sort(x.byHash)
	// firstRef[r] is the first output reference of r's tensor; outIDs
	// holds it until the ids are handed out.
	firstRef := x.outIDs
	for lo := 0; lo < len(x.byHash); {
		hi := lo + 1
		for hi < len(x.byHash) && x.hashOf(x.byHash[hi]) == x.hashOf(x.byHash[lo]) {
			hi++
		}
		if hi == lo+1 { // the one reference of its hash: a tensor of its own
			firstRef[x.refOf(x.byHash[lo])] = x.refOf(x.byHash[lo])
		} else {
			x.firstRefs(x.byHash[lo:hi], firstRef)
		}
		lo = hi
	}
	r = 0
	for i := range layers {
		for _, t := range layers[i].Outputs {
			if f := firstRef[r]; f == int32(r) {
				x.outIDs[r] = x.newID(t.Name)
			} else {
				x.outIDs[r] = x.outIDs[f] // f < r: already an id
			}
			r++
		}
	}
	x.inIDs = make([]int32, 0, nIn)
	for v := range layers {
		l := &layers[v]
		for _, t := range l.Inputs {
			x.inIDs = append(x.inIDs, x.inputID(v, l.Subgraph, t.Name))
		}
		x.inStart[v+1] = int32(len(x.inIDs))
	}
	return x
}

// hash is the hash of a tensor's key, its low refBits bits cleared for
// the reference byHash stores there.
func (x *tensorIndex) hash(sub, name string) uint64 {
	h := maphash.String(x.seed, name)
	if sub != "" {
		h = h*0x9E3779B97F4A7C15 ^ maphash.String(x.seed, sub)
	}
	return x.hashOf(h)
}

func (x *tensorIndex) hashOf(v uint64) uint64 { return v >> x.refBits << x.refBits }
func (x *tensorIndex) refOf(v uint64) int32   { return int32(v &^ x.hashOf(v)) }

func (x *tensorIndex) newID(name string) int32 {
	x.names = append(x.names, name)
	return int32(len(x.names) - 1)
}

// outKey is the key of output reference r.
func (x *tensorIndex) outKey(r int32) key {
	l := &x.layers[x.outLayer[r]]
	return key{l.Subgraph, l.Outputs[r-x.outStart[x.outLayer[r]]].Name}
}

// firstRefs sets firstRef of each output reference of run (entries of
// byHash with one hash, in reference order) to the first reference of the
// same key.
func (x *tensorIndex) firstRefs(run []uint64, firstRef []int32) {
	if len(run) <= maxRunScan {
	next:
		for k, a := range run {
			ra := x.refOf(a)
			ka := x.outKey(ra)
			for _, b := range run[:k] {
				if rb := x.refOf(b); x.outKey(rb) == ka {
					firstRef[ra] = firstRef[rb]
					continue next
				}
			}
			firstRef[ra] = ra
		}
		return
	}
	first := make(map[key]int32, len(run))
	for _, a := range run {
		ra := x.refOf(a)
		ka := x.outKey(ra)
		f, ok := first[ka]
		if !ok {
			f = ra
			first[ka] = f
		}
		firstRef[ra] = f
	}
}

// inputID is the id of tensor name read by layer v of engine sub; a name
// no layer writes gets a new id on its first reference.
func (x *tensorIndex) inputID(v int, sub, name string) int32 {
	for u := v - 1; u >= 0 && u >= v-recentLayers; u-- {
		l := &x.layers[u]
		if l.Subgraph != sub {
			continue
		}
		for j := range l.Outputs {
			if l.Outputs[j].Name == name {
				return x.outIDs[x.outStart[u]+int32(j)]
			}
		}
	}
	if id, ok := x.lookup(sub, name); ok {
		return id
	}
	if x.external == nil {
		x.external = map[key]int32{}
	}
	id := x.newID(name)
	x.external[key{sub, name}] = id
	return id
}

// lookup returns the id of a tensor some layer reads or writes.
func (x *tensorIndex) lookup(sub, name string) (int32, bool) {
	h := x.hash(sub, name)
	i, _ := slices.BinarySearch(x.byHash, h)
	for ; i < len(x.byHash) && x.hashOf(x.byHash[i]) == h; i++ {
		if r := x.refOf(x.byHash[i]); x.outKey(r) == (key{sub, name}) {
			return x.outIDs[r], true
		}
	}
	id, ok := x.external[key{sub, name}]
	return id, ok
}
