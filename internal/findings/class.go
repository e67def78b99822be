package findings

import (
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// Rules ask the same questions of every timed record (is it a reformat, a
// compute layer, a GEMM, which tags does it carry), on engines of 10^5
// layers and some 20 rules. newCtx answers them once per record into a
// class; the rules read bits.

// tagBits is the set of the tags rules ask about.
type tagBits uint32

const (
	tgConv tagBits = 1 << iota
	tgGemm
	tgAttention
	tgNorm
	tgSoftmax
	tgPooling
	tgPointwise
	tgElementwise
	tgActivation
	tgMyelin
	tgPlugin
	tgReformat
	tgCopy
	tgCast
	tgShape
	tgSlice
	tgConcat
	tgGather
	tgQuantize

	tgMatmul  = tgConv | tgGemm
	tgCompute = tgConv | tgGemm | tgAttention | tgNorm | tgSoftmax | tgPooling |
		tgPointwise | tgElementwise | tgActivation | tgMyelin | tgPlugin
	tgShapeKinds = tgShape | tgCast | tgSlice | tgConcat | tgGather
)

// tagBit returns the bit of a tag, 0 for tags no rule asks about.
func tagBit(tag string) tagBits {
	switch tag {
	case "conv":
		return tgConv
	case "gemm":
		return tgGemm
	case "attention":
		return tgAttention
	case "norm":
		return tgNorm
	case "softmax":
		return tgSoftmax
	case "pooling":
		return tgPooling
	case "pointwise":
		return tgPointwise
	case "elementwise":
		return tgElementwise
	case "activation":
		return tgActivation
	case "myelin":
		return tgMyelin
	case "plugin":
		return tgPlugin
	case "reformat":
		return tgReformat
	case "copy":
		return tgCopy
	case "cast":
		return tgCast
	case "shape":
		return tgShape
	case "slice":
		return tgSlice
	case "concat":
		return tgConcat
	case "gather":
		return tgGather
	case "quantize":
		return tgQuantize
	}
	return 0
}

// classFlags are the predicates of a record.
type classFlags uint32

const (
	fReformat      classFlags = 1 << iota // only moves or converts data
	fCompute                              // does math the engine's precision applies to
	fMatmul                               // convolution or GEMM
	fShape                                // shape/cast/slice/concat/gather work
	fGlue                                 // reformat, shape, copy or cast
	fGemmish                              // a GEMM that is no reformat
	fSeparable                            // a layer type fused transformer ops decompose into
	fNoOp                                 // raw type NoOp
	fMisc                                 // derived type misc
	fKgenMHA                              // derived type kgen_mha
	fMyelinRaw                            // raw type Myelin
	fStandaloneQDQ                        // a Quantize/Dequantize not fused into a neighbour (needs the layer)
	fQDQOrigin                            // the layer's Origin is QDQ (needs the layer)
	fElementWise                          // raw type ElementWise
	fTactic                               // names a tactic
	fTacticMyelin                         // tactic family myelin
	fTensorCore                           // a tensor-core tactic
	fBF16                                 // precision BF16
	fInt8OrFP8                            // precision INT8 or FP8
	fDepthwiseRaw                         // raw type names a depthwise convolution
	fTensorCoreNo                         // the tactic table says CUDA cores (not unknown)
	fPointwiseRaw                         // raw type is a pointwise/scale/activation kernel
)

// class is what the rules know of one record.
type class struct {
	tags  tagBits
	flags classFlags
	rank  int8  // precisionRank of the record's precision
	align int8  // alignment of the record's precision
	prec  uint8 // index of the precision in rankedPrecisions, 0 for none
}

// rankedPrecisions are the precisions precisionRank ranks, sorted, after
// an empty entry.
var rankedPrecisions = [...]string{"", "BF16", "FP16", "FP32", "FP4", "FP8", "INT4", "INT8", "TF32", "UINT8"}

func precisionIndex(p string) uint8 {
	for i := 1; i < len(rankedPrecisions); i++ {
		if rankedPrecisions[i] == p {
			return uint8(i)
		}
	}
	return 0
}

func (k class) is(f classFlags) bool { return k.flags&f != 0 }
func (k class) has(t tagBits) bool   { return k.tags&t != 0 }

// classify answers the record-only questions (see evaluation.class for those that
// need the layer).
func classify(r *contract.Record) class {
	var k class
	for _, t := range r.Tags {
		k.tags |= tagBit(t)
	}
	k.rank = int8(precisionRank(r.Precision))
	k.align = int8(alignment(r.Precision))
	k.prec = precisionIndex(r.Precision)
	raw, typ := r.RawLayerType, r.LayerType
	set := func(f classFlags, on bool) {
		if on {
			k.flags |= f
		}
	}
	reformat := strings.Contains(raw, "Reformat") || k.has(tgReformat)
	set(fReformat, reformat)
	set(fNoOp, raw == "NoOp")
	set(fMisc, typ == "misc")
	set(fKgenMHA, typ == "kgen_mha")
	set(fMyelinRaw, raw == "Myelin")
	set(fCompute, !reformat && raw != "NoOp" && typ != "misc" && k.has(tgCompute))
	matmul := !reformat && (k.has(tgMatmul) || typ == "kgen_mha")
	set(fMatmul, matmul)
	shape := !reformat && raw != "NoOp" && !matmul && (typ == "misc" || k.has(tgShapeKinds))
	set(fShape, shape)
	set(fGlue, reformat || shape || k.has(tgCopy|tgCast))
	set(fGemmish, !reformat && k.has(tgGemm))
	switch raw {
	case "ElementWise", "Reduce", "Unary", "PointWise", "PointWiseV2", "Scale", "Activation":
		k.flags |= fSeparable
	}
	switch raw {
	case "PointWise", "PointWiseV2", "Scale", "Activation", "Unary":
		k.flags |= fPointwiseRaw
	}
	set(fElementWise, raw == "ElementWise")
	set(fTactic, r.Tactic != "")
	set(fTacticMyelin, r.TacticFamily == "myelin")
	set(fTensorCore, r.TensorCore != nil && *r.TensorCore)
	set(fTensorCoreNo, r.TensorCore != nil && !*r.TensorCore)
	set(fBF16, r.Precision == "BF16")
	set(fInt8OrFP8, r.Precision == "INT8" || r.Precision == "FP8")
	set(fDepthwiseRaw, strings.Contains(raw, "Depthwise"))
	return k
}

// classifyIn adds the questions that need the record's layer.
func (c *evaluation) classifyIn(r *contract.Record) class {
	k := classify(r)
	qdq := c.layer(r).Origin == "QDQ"
	if qdq {
		k.flags |= fQDQOrigin | fStandaloneQDQ
	} else {
		switch r.RawLayerType {
		case "Scale", "Quantize", "Dequantize", "QuantizeLinear", "DequantizeLinear":
			if k.has(tgQuantize) && !k.has(tgMatmul) {
				k.flags |= fStandaloneQDQ
			}
		}
	}
	return k
}

// class returns the class of a record with a layer: precomputed for the
// record each layer maps to, computed for any other (several records of one
// layer). Rules that walk the timed records read timedInfo.k instead.
func (c *evaluation) class(r *contract.Record) class {
	if i := c.recOf[r.Layer]; i >= 0 && &c.b.Records[i] == r {
		return c.rinfo[i].k
	}
	return c.classifyIn(r)
}

// Predicates, as the rules read them.

func (c *evaluation) isMatmulLayer(r *contract.Record) bool { return c.class(r).is(fMatmul) }
func (c *evaluation) hasTag(r *contract.Record, t tagBits) bool {
	return c.class(r).has(t)
}

// isGemmish: a GEMM that is no reformat; false for nil (no record).
func (c *evaluation) isGemmish(r *contract.Record) bool { return r != nil && c.class(r).is(fGemmish) }
