package layerfacts

import (
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
)

// Derived layer types besides the raw LayerType (contract.md).
const (
	TypeKgenMHA = "kgen_mha"
	TypeMisc    = "misc"
)

// Facts are the derived facts of one layer.
type Facts struct {
	DerivedType  string
	Precision    string   // compute precision; see precision.go for the rule
	InputTypes   []string // DataType of each input's format; shared, do not modify
	OutputTypes  []string // likewise for outputs
	TacticFamily string   // tactic table family, FamilyNone, or FamilyUnknown
	TensorCore   TensorCoreUse
	GPUArch      string   // architecture the kernel names ("sm80", "ampere"), or ""
	SourceOps    []string // from Metadata, "[ONNX Layer: X]" unwrapped; nil when absent
	MyelinGraph  int      // G of a "_myl<G>_<K>" name suffix, or -1
	FusedOps     int      // source ops fused into the layer, at least 1
	Tags         []string // sorted, deduplicated; shared, do not modify
}

// Derive computes the facts of one layer. It is safe for concurrent use and
// allocates at most the SourceOps slice: tag and data-type slices are shared
// (see tagSet.strings and tensorTypes).
func Derive(l *engine.Layer) Facts {
	var exact opSlab
	return derive(l, &exact)
}

// Deriver derives the facts of many layers, carving their SourceOps lists
// from shared blocks: one allocation per few thousand layers instead of one
// per layer. The facts are those Derive gives. Not safe for concurrent use:
// one Deriver per goroutine.
type Deriver struct{ ops opSlab }

// NewDeriver returns a Deriver.
func NewDeriver() *Deriver { return &Deriver{ops: opSlab{chunk: 4096}} }

// Derive computes the facts of one layer, as the package's Derive does.
func (d *Deriver) Derive(l *engine.Layer) Facts { return derive(l, &d.ops) }

func derive(l *engine.Layer, ops *opSlab) Facts {
	f := Facts{
		InputTypes:  tensorTypes(l.Inputs),
		OutputTypes: tensorTypes(l.Outputs),
		SourceOps:   ops.sourceOps(l.Metadata),
		MyelinGraph: MyelinGraph(l.Name),
	}
	ti := tacticInfoOf(l.TacticName)
	f.TacticFamily, f.TensorCore, f.GPUArch = ti.class.Family, ti.class.TensorCore, ti.class.Arch
	f.Precision = precisionOf(l, ti.precision, f.InputTypes, f.OutputTypes)
	f.FusedOps = fusedOps(l.Name, len(f.SourceOps))

	set := typeTagsCached(l.Type)
	switch l.Origin {
	case "QDQ":
		set |= tQuantize
	case "REFORMAT":
		set |= tReformat
	}
	if f.TacticFamily == "myelin" || f.MyelinGraph >= 0 || strings.Contains(l.Name, "ForeignNode[") {
		set |= tMyelin
	}
	// The words of name and metadata: the longest scan of Derive, done at
	// most once.
	var words tagSet
	wordsDone := false
	if set&(tReformat|tNoop) != 0 && strings.HasPrefix(l.Name, "Reformatting CopyNode") {
		// The rest of the name is the consumer's name, not this layer's.
		set |= tCopy
	} else if set&tReformat == 0 {
		words, wordsDone = wordsTags(l.Name)|wordsTags(l.Metadata), true
		set |= wordTagsFor(l.Type, set, words)
	}
	if l.Type == "kgen" {
		if !wordsDone {
			words = wordsTags(l.Name) | wordsTags(l.Metadata)
		}
		tw := ti.words
		if !ti.wordsDone {
			tw = wordsTags(l.TacticName)
		}
		if isAttention(words, tw) {
			set |= tAttention
			f.DerivedType = TypeKgenMHA
		} else {
			f.DerivedType = DerivedType(l.Type)
		}
	} else {
		f.DerivedType = DerivedType(l.Type)
	}
	f.Tags = set.strings()
	return f
}

// tacticInfo is everything Derive reads from a tactic name.
type tacticInfo struct {
	class     TacticClass
	precision string // tacticPrecision
	words     tagSet // wordsTags of the name, when wordsDone
	wordsDone bool
}

// tactics caches tacticInfo per tactic name: engines reuse a few hundred
// library kernels across 10^5 layers. Myelin kernel names end in a unique
// hash ("__myl_CasMulMea_0x75d7…") but their op part repeats, so they are
// cached under the name without the hash (see hashFreeKey).
var tactics strCache[tacticInfo]

func tacticInfoOf(tactic string) tacticInfo {
	key := tactic
	if strings.HasPrefix(tactic, "__myl") {
		k, ok := hashFreeKey(tactic)
		if !ok {
			return tacticInfo{class: ClassifyTactic(tactic), precision: tacticPrecision(tactic)}
		}
		key = k
	}
	if ti, ok := tactics.load(key); ok {
		return ti
	}
	ti := tacticInfo{class: ClassifyTactic(tactic), precision: tacticPrecision(tactic), words: wordsTags(tactic), wordsDone: true}
	tactics.store(key, ti)
	return ti
}

// hashFreeKey strips a trailing lower-case hex hash from a tactic name:
// "__myl_Add_0x9a8b7c" → "__myl_Add_". Nothing Derive reads of a tactic
// depends on such a hash: no tactic pattern lies in or runs into it and no
// tag word starts with a digit (checked at init by checkHashFree), so names
// that differ only in it share a cache entry.
func hashFreeKey(tactic string) (string, bool) {
	i := strings.LastIndexByte(tactic, '_')
	if i < 0 || len(tactic)-i < 4 || tactic[i+1] != '0' || tactic[i+2] != 'x' {
		return "", false
	}
	for j := i + 3; j < len(tactic); j++ {
		if c := tactic[j]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return "", false
		}
	}
	return tactic[:i+1], true
}

var _ = checkHashFree()

// checkHashFree panics when a table change breaks hashFreeKey's premise.
func checkHashFree() bool {
	isHex := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c == 'x' }
	for _, r := range tacticRules {
		allHex := true
		for i := 0; i < len(r.Pattern); i++ {
			allHex = allHex && isHex(r.Pattern[i])
		}
		if allHex || strings.Contains(r.Pattern, "_0") {
			panic("layerfacts: tactic pattern " + r.Pattern + " could match a kernel hash; see hashFreeKey")
		}
	}
	for w := range wordTags {
		if !(w[0] >= 'a' && w[0] <= 'z') {
			panic("layerfacts: tag word " + w + " must start with a letter; see hashFreeKey")
		}
	}
	return true // tacticPrecision skips "__myl" names: hashes never reach it
}

// DerivedType maps a raw LayerType to the contract's derived type, except
// the kgen attention case, which needs the whole layer (see Derive).
func DerivedType(raw string) string {
	switch raw {
	case "reshape", "shape_call", "signal", "wait":
		return TypeMisc
	}
	return raw
}

// isAttention decides whether a kgen layer is a fused attention kernel,
// from the word tags of its name and metadata and of its tactic: an explicit
// attention-kernel word (mha, fmha, mhca, flash, sdpa, xqa) in its name,
// tactic or source ops, the word "attention" in its tactic (a kernel name,
// unlike a module path such as "/layer.3/attention/LayerNorm"), or softmax
// together with a matrix product among its words (the fused
// QK^T·softmax·V pattern).
func isAttention(nameMeta, tactic tagSet) bool {
	s := nameMeta | tactic
	if s&sigMHA != 0 || tactic&tAttention != 0 {
		return true
	}
	return s&sigSoftmax != 0 && s&sigMatmul != 0
}

// typeCache caches typeTags per raw layer type (a closed vocabulary).
var typeCache strCache[tagSet]

func typeTagsCached(layerType string) tagSet {
	if s, ok := typeCache.load(layerType); ok {
		return s
	}
	s := typeTags(layerType)
	typeCache.store(layerType, s)
	return s
}

// typeSlices shares the data-type slices of layers: engines have a handful
// of distinct (input types) lists.
var typeSlices sliceCache

// tensorTypes returns the DataType of each tensor's format, as a shared,
// read-only slice when the list is short enough to pack into a cache key.
func tensorTypes(ts []engine.Tensor) []string {
	if len(ts) == 0 {
		return nil
	}
	const maxPacked = 15 // 4 bits of length + 15 × 4 bits of codes
	if len(ts) > maxPacked {
		out := make([]string, len(ts))
		for i := range ts {
			out[i] = DataType(ts[i].Format)
		}
		return out
	}
	key := uint64(len(ts))
	for i := range ts {
		key |= uint64(dataTypeCode(ts[i].Format)) << (4 + 4*i)
	}
	if v, ok := typeSlices.load(key); ok {
		return v
	}
	out := make([]string, len(ts))
	for i := range ts {
		out[i] = typeNames[key>>(4+4*i)&15]
	}
	typeSlices.store(key, out)
	return out
}
