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
	InputTypes   []string // DataType of each input's format
	OutputTypes  []string
	TacticFamily string // tactic table family, FamilyNone, or FamilyUnknown
	TensorCore   bool
	GPUArch      string   // architecture the kernel names ("sm80", "ampere"), or ""
	SourceOps    []string // from Metadata, "[ONNX Layer: X]" unwrapped; nil when absent
	MyelinGraph  int      // G of a "_myl<G>_<K>" name suffix, or -1
	FusedOps     int      // source ops fused into the layer, at least 1
	Tags         []string // sorted, deduplicated; shared, do not modify
}

// Derive computes the facts of one layer.
func Derive(l *engine.Layer) Facts {
	f := Facts{
		InputTypes:  tensorTypes(l.Inputs),
		OutputTypes: tensorTypes(l.Outputs),
		SourceOps:   SourceOps(l.Metadata),
		MyelinGraph: MyelinGraph(l.Name),
	}
	tc := ClassifyTactic(l.TacticName)
	f.TacticFamily, f.TensorCore, f.GPUArch = tc.Family, tc.TensorCore, tc.Arch
	f.Precision = precisionOf(l, f.InputTypes, f.OutputTypes)
	f.FusedOps = fusedOps(l.Name, len(f.SourceOps))

	set := typeTags(l.Type)
	switch l.Origin {
	case "QDQ":
		set |= tQuantize
	case "REFORMAT":
		set |= tReformat
	}
	if f.TacticFamily == "myelin" || f.MyelinGraph >= 0 || strings.Contains(l.Name, "ForeignNode[") {
		set |= tMyelin
	}
	if set&(tReformat|tNoop) != 0 && strings.HasPrefix(l.Name, "Reformatting CopyNode") {
		// The rest of the name is the consumer's name, not this layer's.
		set |= tCopy
	} else if set&tReformat == 0 {
		words := wordsTags(l.Name) | wordsTags(l.Metadata)
		if set&computeTags != 0 {
			words &^= shapeTags
		}
		set |= words
	}
	if l.Type == "kgen" && isAttentionKernel(l) {
		set |= tAttention
		f.DerivedType = TypeKgenMHA
	} else {
		f.DerivedType = DerivedType(l.Type)
	}
	f.Tags = set.strings()
	return f
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

// isAttentionKernel decides whether a kgen layer is a fused attention
// kernel: an explicit attention-kernel word (mha, fmha, mhca, flash, sdpa,
// xqa) in its name, tactic or source ops, the word "attention" in its tactic
// (a kernel name, unlike a module path such as "/layer.3/attention/LayerNorm"),
// or softmax together with a matrix product among its words (the fused
// QK^T·softmax·V pattern).
func isAttentionKernel(l *engine.Layer) bool {
	s := wordsTags(l.Name) | wordsTags(l.Metadata)
	t := wordsTags(l.TacticName)
	s |= t
	if s&sigMHA != 0 || t&tAttention != 0 {
		return true
	}
	return s&sigSoftmax != 0 && s&sigMatmul != 0
}

func tensorTypes(ts []engine.Tensor) []string {
	if len(ts) == 0 {
		return nil
	}
	out := make([]string, len(ts))
	for i := range ts {
		out[i] = DataType(ts[i].Format)
	}
	return out
}
