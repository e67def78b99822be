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

// PriceGuessedKinds is the price_basis of a profile_only backend's
// findings: the owned records' measured time × the rule's factor, the
// records' kinds guessed from their names.
const PriceGuessedKinds = contract.PriceGuessedKinds

// The layer kinds layerfacts.GuessKind gives the records of a backend
// analysed from its profile alone (profile_only).
const (
	guessedSoftmax  = "SoftMax"
	guessedMatMul   = "MatrixMultiply"
	guessedReformat = "Reformat"
)

// computeKinds are guessed kinds that do a layer's main work.
var computeKinds = map[string]bool{
	"Convolution": true, "Deconvolution": true, "MatrixMultiply": true, "FullyConnected": true,
	"Myelin": true, layerfacts.KindDLA: true, "Pooling": true,
}

// profileCause is one cause a profile_only backend's record names show:
// the rule of the same cause with layer info (its id, title and price
// band) and the records it owns.
type profileCause struct {
	id     string // the layer-info rule's id; profileBand(id) is its price band
	title  string
	why    string // what the names show and why it costs time
	action string // what to change, before the places
	what   string // what the places are, for placesText
	recs   []int  // indexes into the backend's records
}

// EvaluateProfileOnly diagnoses a backend that has a profile but no usable
// layer info (profile_only): the causes its record names show become
// findings of the rules with layer info that diagnose the same cause (same
// ids and price bands), priced on the owned records' measured time
// (price_basis PriceGuessedKinds). Findings own records (issues[].records),
// since such records have no layer: no record in two findings. The overview
// keeps what no finding says: the DLA placement (DLAPlacement; the GPU's
// wait for the DLA is DLA time, never priced), the candidates too small to
// score and the profiling overhead.
func EvaluateProfileOnly(b *contract.Backend) (issues []contract.Finding, diag *contract.Diagnosis, overview []contract.OverviewItem) {
	issues, overview = []contract.Finding{}, []contract.OverviewItem{}
	if b.Timing == nil || b.Timing.AverageInferenceMs <= 0 {
		return issues, nil, overview
	}
	c := newEvaluation(b)
	if c.total <= 0 {
		return issues, nil, overview
	}
	// A partial table (a pasted log cut to some rows) holds s % of the
	// engine's layer sum: its rows are priced on the engine's time, not on
	// their own sum, and their order says nothing of the graph input.
	whole := c.total
	partial := false
	if s := b.Timing.PercentageSum; s > 0 && s < contract.MinWholeProfilePct {
		partial, whole = true, c.total*100/s
		if c.refSource == RefLayerSum {
			c.ref = whole
		}
		c.scale = c.ref / whole
	}
	causes := profileCauses(b, partial)
	held := make([]bool, len(b.Records))
	var fs []*contract.Finding
	for _, pc := range causes {
		fs = append(fs, c.recordFinding(pc))
		for _, j := range pc.recs {
			held[j] = true
		}
	}
	if f := c.profileFP32Engine(held); f != nil {
		fs = append(fs, f)
	}
	for _, f := range fs {
		if partial {
			f.Evidence = append(f.Evidence, fmt.Sprintf("The table holds %.1f%% of the engine's time (the rows read of a partial table): these records are priced on the engine's %.4f ms, and causes that need the whole table (what runs before the first computation) are not read.", b.Timing.PercentageSum, c.ref))
		}
		if f.RecoverableShare < limits.minFindingPct {
			c.minor = append(c.minor, *f) // it still owns its records
			continue
		}
		if n := sampleCount(b, c.meas); n > 0 && n < limits.fewSamples {
			f.Confidence = contract.ConfidenceLow
			f.Evidence = append(f.Evidence, fmt.Sprintf("Only %d timed iterations: the price is uncertain (re-profile with more iterations).", n))
			c.rescore(f)
		}
		issues = append(issues, *f)
	}
	rank(issues)
	diag = c.diagnosis(issues)
	diag.LayerSumMs = round(whole, 6) // the engine's, when the table is partial
	if o, ok := DLAPlacement(b); ok {
		overview = append(overview, o)
	}
	if o, ok := minorItems(c); ok {
		overview = append(overview, o)
	}
	if o, ok := profilingOverhead(c); ok {
		overview = append(overview, o)
	}
	return issues, diag, overview
}

// profileBand is the price band (a priceFactors key) of a profile_only
// finding of rule id: the band the layer rule prices the same records
// with. qdq_placement's records here are its standalone Q/DQ part.
func profileBand(id string) string {
	if id == "qdq_placement" {
		return "qdq_standalone"
	}
	return id
}

// recordFinding builds the finding of a profile cause: it owns the
// cause's records, most expensive first, priced on their measured time
// with the layer rule's band; its parts split the records by guessed kind
// and its places are every owned record's name.
func (c *evaluation) recordFinding(pc profileCause) *contract.Finding {
	recs := c.b.Records
	idx := slices.Clone(pc.recs)
	slices.SortStableFunc(idx, func(a, b int) int {
		if recs[a].AvgMs != recs[b].AvgMs {
			return cmp.Compare(recs[b].AvgMs, recs[a].AvgMs)
		}
		return cmp.Compare(a, b)
	})
	ptrs := make([]*contract.Record, len(idx))
	for i, j := range idx {
		ptrs[i] = &recs[j]
	}
	ms := sumMs(ptrs)
	f := &contract.Finding{ID: pc.id, Title: pc.title + " (from layer names)", Confidence: contract.ConfidenceMedium,
		Evidence: []string{
			fmt.Sprintf("%d profiled layer(s) take %.4f ms (%.2f%% of the %.4f ms layer sum). Largest: %s.", len(idx), ms, c.pct(ms), c.total, namesOf(ptrs, 3)),
			pc.why,
			"The layer kinds are guessed from the record names: without detailed layer info (profile_only) no tensor, format, precision or tactic confirms them, so the price rests on these records' measured time and the factor of the rule that diagnoses this cause with layer info.",
		},
		Metrics:   c.ownedMetrics(ms, len(idx)),
		Layers:    matchedLayers(ptrs),
		Records:   idx,
		NextCheck: "Export the engine's detailed layer information (formats and precisions of every tensor) to confirm the cause, then rebuild and profile again: these layers should be gone or faster.",
	}
	f.Share = round(c.pct(ms), 3)
	band := profileBand(pc.id)
	b := priceFactors[band]
	c.priceMs(f, ms*c.scale*b.low, ms*c.scale*b.est, ms*c.scale*b.high,
		fmt.Sprintf("%s: owned record time %.4f ms (measured, kinds guessed from names) × profile scale %.3f × %.2f (range %.2f–%.2f)", band, ms, c.scale, b.est, b.low, b.high))
	f.PriceBasis = PriceGuessedKinds
	// Parts: the owned records by guessed kind, in the order of their time.
	byKind := map[string][]int{}
	var kinds []string
	for _, j := range idx {
		k := recs[j].LayerType
		if _, ok := byKind[k]; !ok {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], j)
	}
	if len(kinds) > 1 {
		for _, k := range kinds {
			p := contract.FindingPart{Name: k + " layers (kind guessed from names)", Layers: []int{}, Records: byKind[k]}
			for _, j := range byKind[k] {
				p.TimeMs += recs[j].AvgMs
				if recs[j].Layer >= 0 {
					p.Layers = append(p.Layers, recs[j].Layer)
				}
			}
			p.TimeMs = round(p.TimeMs, 6)
			f.Parts = append(f.Parts, p)
		}
	}
	seen := map[string]bool{}
	for _, j := range idx {
		if n := recs[j].Name; n != "" && !seen[n] {
			seen[n] = true
			f.Places = append(f.Places, n)
		}
	}
	f.Action = pc.action
	if len(f.Places) > 0 {
		f.Action += " " + placesText(pc.what, f.Places)
	}
	f.Action += "."
	return f
}

// profileCauses reads causes off the record names of a profile_only
// backend, each record held by at most one cause:
//   - decomposed GroupNorm: an InstanceNormalization plugin and the
//     scale, cast and reformat records around it in its scope;
//   - the graph input's quantize (input_quantize), and the rest of the
//     graph-input prologue (input_prologue): layout transposes, pads,
//     reformats and casts before the first computing layer, plus explicit
//     Pad layers anywhere (a pad a convolution or pooling could fold in);
//   - standalone Q/DQ layers, not fused into a computing layer's name
//     (qdq_placement's standalone Q/DQ);
//   - unfused epilogues: pointwise, activation and cast records right after
//     a computing layer (the activation TensorRT fuses into a convolution
//     or GEMM when nothing blocks it);
//   - attention as separate kernels: Softmax layers whose name scope also
//     holds MatMul layers, with those MatMul layers;
//   - the other reformat records (reformat_overhead).
//
// DLA subgraph and hand-over records (layerfacts.KindDLA,
// KindDLATransfer) are never held: the GPU's wait for the DLA is DLA time.
//
// A partial table (partial) has no graph input to read: only explicit Pad
// layers make a prologue, and a quantize is a standalone Q/DQ.
func profileCauses(b *contract.Backend, partial bool) []profileCause {
	recs := b.Records
	held := make([]bool, len(recs))
	var out []profileCause
	add := func(pc profileCause, idx []int) {
		if len(idx) == 0 {
			return
		}
		for _, j := range idx {
			held[j] = true
		}
		pc.recs = idx
		out = append(out, pc)
	}
	free := func(j int) bool {
		k := recs[j].LayerType
		return !held[j] && recs[j].AvgMs > 0 && k != layerfacts.KindDLA && k != layerfacts.KindDLATransfer
	}

	// Decomposed GroupNorm first: its reformats and casts belong to it.
	var norm []int
	for i := range recs {
		if !strings.Contains(recs[i].Name, "InstanceNormalization") {
			continue
		}
		scope := recs[i].Name[:max(0, strings.LastIndexByte(recs[i].Name, '/'))]
		if scope == "" {
			continue
		}
		for j := max(0, i-3); j < min(len(recs), i+4); j++ {
			if free(j) && !slices.Contains(norm, j) && strings.Contains(recs[j].Name, scope) {
				norm = append(norm, j)
			}
		}
	}
	add(profileCause{id: "decomposed_norm",
		title:  "GroupNorm runs decomposed (InstanceNormalization plugin, scale, casts and reformats)",
		why:    "Each normalization runs as an InstanceNormalization plugin plus separate scale, cast and reformat kernels, the ONNX export of GroupNorm; one GroupNorm kernel does the same work.",
		action: "Use TensorRT's GroupNorm plugin, or TensorRT 10's GroupNormalization layer (an opset 18 export), so each normalization runs as one kernel instead of",
		what:   "decomposed normalization layers"}, norm)

	first := slices.IndexFunc(recs, func(r contract.Record) bool { return computeKinds[r.LayerType] })
	var quant, pro []int
	for i := range recs {
		k := recs[i].LayerType
		before := (first < 0 || i < first) && !partial
		switch {
		case !free(i):
		case before && k == "Quantize":
			quant = append(quant, i)
		case before && (k == "Reformat" || k == "Shuffle" || k == "Padding" || k == "Cast" || k == "Slice") || k == "Padding":
			pro = append(pro, i)
		}
	}
	add(profileCause{id: "input_quantize",
		title:  "The graph input is quantized inside the engine",
		why:    "A standalone quantize layer runs before the first computation: it reads the float graph input, and nothing precedes it to fuse into.",
		action: "Feed the engine INT8 or FP16 input, or quantize in pre-processing, instead of quantizing the graph input in",
		what:   "input quantize layers"}, quant)
	add(profileCause{id: "input_prologue",
		title:  "Transpose, pad or reformat layers at the graph input",
		why:    "These layers convert the input before the first computation (a layout transpose such as an NHWC export, an explicit Pad, a type reformat or cast) or pad a tensor a convolution or pooling could pad itself.",
		action: "Feed the engine the type and layout its first layer computes in (export NCHW, set the engine's input format) and fold explicit pads into the next convolution or pooling, removing",
		what:   "input layout, pad and reformat layers"}, pro)

	var qdq []int
	for i := range recs {
		if k := recs[i].LayerType; free(i) && (k == "Quantize" || k == "Dequantize") {
			qdq = append(qdq, i)
		}
	}
	add(profileCause{id: "qdq_placement",
		title:  "Standalone Q/DQ layers run as their own kernels",
		why:    "A QuantizeLinear/DequantizeLinear that TensorRT fuses into its neighbours costs next to nothing; these run on their own, typically a quantize before a layer without INT8 input (a residual Add, a pooling) or a Q/DQ pair placed where no fusion applies.",
		action: "Place Q/DQ so each quantizes a convolution or GEMM input (quantize the residual branches too), so that TensorRT fuses them into their neighbours:",
		what:   "standalone Q/DQ layers"}, qdq)

	var pw []int
	for i := 1; i < len(recs); i++ {
		if !computeKinds[recs[i-1].LayerType] {
			continue
		}
		for j := i; j < len(recs); j++ {
			k := recs[j].LayerType
			if k != "PointWise" && k != "Activation" && k != "Cast" {
				break
			}
			if free(j) && !slices.Contains(pw, j) {
				pw = append(pw, j)
			}
		}
	}
	add(profileCause{id: "unfused_epilogue",
		title:  "Activations and casts run as separate kernels after convolutions or GEMMs",
		why:    "TensorRT fuses an activation (ReLU, clamp/ReLU6, GELU) into the convolution or GEMM before it; these run as their own kernels, reading and writing the whole tensor again. Something blocks the fusion: a cast between the two (a forced type change), a clamp exported as min/max with tensor bounds, or an op TensorRT has no fused epilogue for.",
		action: "Export each activation as one op TensorRT fuses into the convolution or GEMM before it (Relu, Clip with constant bounds) and remove the casts between them, for",
		what:   "standalone activation and cast layers"}, pw)

	att, blocks := attentionRecords(recs, free)
	add(profileCause{id: "attention_unfused",
		title:  "Attention is decomposed (softmax between separate matrix products)",
		why:    fmt.Sprintf("%d attention block(s) have a Softmax layer beside MatMul layers in the same name scope: TensorRT did not fuse them into one attention kernel. Whether a precision, a Q/DQ placement or a mask op blocked the fusion needs the detailed layer info.", blocks),
		action: "Export attention as one pattern TensorRT fuses (MatMul→Softmax→MatMul without casts or reshapes between, or scaled_dot_product_attention), build with TensorRT 10 or newer and check for a fused attention kernel in place of",
		what:   "attention layers"}, att)

	var ref []int
	for i := range recs {
		if free(i) && recs[i].LayerType == guessedReformat {
			ref = append(ref, i)
		}
	}
	add(profileCause{id: "reformat_overhead",
		title:  "Reformat/copy layers between layers that disagree on format",
		why:    "These records are named as TensorRT's reformatters: a producer and its consumer want different types or layouts. Which pairs disagree, and whether the engine's inputs or a Q/DQ placement cause it, needs the detailed layer info (formats of every tensor).",
		action: "Make producers and consumers agree on type and layout (one precision across the boundary, I/O formats the engine computes in) to remove",
		what:   "reformat layers"}, ref)
	return out
}

// attentionRecords finds Softmax records whose name scope also holds
// MatMul records (attention as separate QK^T, Softmax and ·V kernels):
// the MatMul and Softmax records directly in those scopes, and how many
// such scopes there are.
func attentionRecords(recs []contract.Record, free func(int) bool) ([]int, int) {
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
	byScope := map[string][]int{}
	softmax := map[string]bool{}
	for i := range recs {
		k := recs[i].LayerType
		if k != guessedSoftmax && k != guessedMatMul || !free(i) {
			continue
		}
		s := scopeOf(recs[i].Name)
		if s == "" {
			continue
		}
		byScope[s] = append(byScope[s], i)
		if k == guessedSoftmax {
			softmax[s] = true
		}
	}
	var out []int
	blocks := 0
	for _, s := range slices.Sorted(maps.Keys(softmax)) {
		rs := byScope[s]
		if !slices.ContainsFunc(rs, func(j int) bool { return recs[j].LayerType == guessedMatMul }) {
			continue
		}
		blocks++
		out = append(out, rs...)
	}
	return out, blocks
}
