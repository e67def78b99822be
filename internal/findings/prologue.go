package findings

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// evalInputPrologue: data-movement layers fed by the graph input (directly
// or through other such layers) up to the first compute layer, and explicit
// Padding layers in front of a convolution or pooling, which the conv/pool
// could do through its own padding.
func evalInputPrologue(c *evaluation) *contract.Finding {
	n := len(c.b.Layers)
	inPrologue := make([]bool, n)
	// Walk in topological order when known, else layer order.
	order := c.b.Graph.TopoOrder
	if len(order) != n {
		order = make([]int, n)
		for i := range order {
			order[i] = i
		}
	}
	isMove := func(layer int) bool {
		r := c.record(layer)
		if r == nil {
			return false
		}
		k := c.class(r)
		if k.is(fNoOp) {
			return true // a 0-ms NoOp passes the prologue through
		}
		return k.is(fReformat) || k.is(fStandaloneQDQ) || k.is(fShape) && !k.is(fCompute) ||
			r.RawLayerType == "Shuffle" || r.RawLayerType == "Padding" || r.RawLayerType == "Slice"
	}
	for _, l := range order {
		if !isMove(l) || len(c.b.Layers[l].Inputs) == 0 {
			continue // a layer without inputs (a Myelin shape call) is no prologue
		}
		ps := c.preds(l)
		ok := true
		for _, p := range ps {
			if !inPrologue[p] {
				ok = false
				break
			}
		}
		inPrologue[l] = ok
	}
	recs := c.selectTimed(func(r *contract.Record, t *timedInfo) bool {
		if inPrologue[r.Layer] {
			return c.feedable(r)
		}
		// An explicit pad in front of a conv/pool.
		if r.RawLayerType == "Padding" || r.RawLayerType == "Slice" && padLike(c, r) {
			for _, s := range c.succs(r.Layer) {
				if sr := c.record(int(s)); sr != nil && (c.class(sr).is(fMatmul) || c.class(sr).has(tgPooling)) {
					return true
				}
			}
		}
		return false
	})
	if len(recs) == 0 {
		return nil
	}
	f := c.newFinding("input_prologue", contract.ConfidenceHigh, recs)
	var kinds []string
	var transposes, pads, converts int
	var atInput []*contract.Record // conversions reading the graph input itself
	for _, r := range recs {
		switch {
		case r.RawLayerType == "Shuffle":
			transposes++
		case r.RawLayerType == "Padding" || r.RawLayerType == "Slice":
			pads++
		default:
			converts++
			if len(c.preds(r.Layer)) == 0 {
				atInput = append(atInput, r)
			}
		}
	}
	if transposes > 0 {
		kinds = append(kinds, fmt.Sprintf("%d transpose/shuffle", transposes))
	}
	if pads > 0 {
		kinds = append(kinds, fmt.Sprintf("%d explicit pad", pads))
	}
	if converts > 0 {
		kinds = append(kinds, fmt.Sprintf("%d type/layout conversion", converts))
	}
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%s layer(s) at the graph input or in front of a convolution/pooling: %.4f ms (%.2f%% of the profile): %s.",
			strings.Join(kinds, ", "), sumMs(recs), c.pct(sumMs(recs)), c.topNames(recs, 5)))
	var acts []string
	if transposes > 0 {
		acts = append(acts, "export the model with NCHW input (e.g. tf2onnx --inputs-as-nchw) so no transpose runs on the GPU")
	}
	if pads > 0 {
		acts = append(acts, "fold explicit Pad ops into the following convolution/pooling (its pads attribute) in the model")
	}
	// An I/O format removes only a conversion of the graph input itself; one
	// behind a pad or transpose goes with them when the prologue is folded.
	spec, rawSpec, exact := "", "", false
	if len(atInput) > 0 {
		rawSpec, exact = c.inputFormatSpec(atInput)
		spec = c.inputFormat(rawSpec)
		if exact {
			acts = append(acts, fmt.Sprintf("feed the input in the type and layout the first layer reads (%s)", spec))
		} else {
			acts = append(acts, fmt.Sprintf("feed the input in the type the first layer reads (%s; its channel-vectorized layout has no I/O format)", spec))
		}
	}
	f.Action = strings.ToUpper(acts[0][:1]) + acts[0][1:]
	if len(acts) > 1 {
		f.Action += "; " + strings.Join(acts[1:], "; ")
	}
	f.Action += "."
	if spec != "" {
		f.Action += c.inputFormatCaveat(rawSpec)
	}
	switch {
	case transposes+pads > 0 && spec != "":
		f.NextCheck = fmt.Sprintf("Re-export the model with the prologue folded (NCHW input, pads folded into the next conv/pool), rebuild with %s (and feed that input), and check these layers are gone.", spec)
	case spec != "" && !exact:
		f.NextCheck = fmt.Sprintf("Rebuild with %s (and feed that input), then check the input reformat: the type conversion goes; if the first layer's kernel keeps a channel-vectorized layout no I/O format offers, a cheaper layout-only reformat remains.", spec)
	case spec != "":
		f.NextCheck = fmt.Sprintf("Rebuild with %s (and feed that input), then check that the input reformat layers are gone.", spec)
	default:
		f.NextCheck = "Re-export the model with the prologue folded (NCHW input, pads folded into the next conv/pool), rebuild and check these layers are gone."
	}
	return f
}

// padLike: a Slice that grows its input (TensorRT runs some Pad ops as Slice).
func padLike(c *evaluation, r *contract.Record) bool {
	l := c.layer(r)
	if len(l.Inputs) == 0 || len(l.Outputs) == 0 {
		return false
	}
	in, out := l.Inputs[0].Dimensions, l.Outputs[0].Dimensions
	if len(in) != len(out) {
		return false
	}
	grows := false
	for i := range in {
		if out[i] < in[i] {
			return false
		}
		if out[i] > in[i] {
			grows = true
		}
	}
	return grows || strings.Contains(strings.ToLower(r.Name), "pad")
}

// feedable: a prologue layer the caller can remove. A layout-only
// reformat into a vectorized layout no I/O format offers (a first-layer
// kernel's "channel % 4" layout) is the engine's own business: nothing to
// feed, nothing to fix.
func (c *evaluation) feedable(r *contract.Record) bool {
	if !c.class(r).is(fReformat) || conversion(r) != "layout-only" {
		return true
	}
	l := c.layer(r)
	return len(l.Outputs) > 0 && formatSpec(l.Outputs[0].Format) != ""
}

// inputFormatSpec is the trtexec I/O format spec (type:layout) that the
// first type/layout conversion of the prologue produces, e.g. "fp16:hwc8",
// exact; when its layout has no I/O format, the type with a linear layout,
// not exact.
func (c *evaluation) inputFormatSpec(recs []*contract.Record) (spec string, exact bool) {
	best, bestExact, bestPos := "", false, -1
	pos := make(map[int]int, len(c.b.Graph.TopoOrder))
	for i, l := range c.b.Graph.TopoOrder {
		pos[l] = i
	}
	for _, r := range recs {
		if !c.class(r).is(fReformat) {
			continue
		}
		l := c.layer(r)
		if len(l.Outputs) == 0 || (bestPos >= 0 && pos[r.Layer] >= bestPos) {
			continue
		}
		spec := formatSpec(l.Outputs[0].Format)
		exact := spec != ""
		if spec == "" {
			if t := strings.ToLower(dataTypeWord(l.Outputs[0].Format)); t != "" {
				spec = t + ":chw"
			}
		}
		if spec != "" {
			best, bestExact, bestPos = spec, exact, pos[r.Layer]
		}
	}
	if best == "" {
		return "fp16:chw", false
	}
	return best, bestExact
}

// formatSpec maps TensorRT's format description ("Channel major FP16 format
// where channel % 8 == 0") to trtexec's I/O format spec ("fp16:hwc8").
func formatSpec(desc string) string {
	d := strings.ToLower(desc)
	typ := ""
	switch {
	case strings.Contains(d, "fp16") || strings.Contains(d, "half"):
		typ = "fp16"
	case strings.Contains(d, "int8"):
		typ = "int8"
	case strings.Contains(d, "fp32") || strings.Contains(d, "float"):
		typ = "fp32"
	case strings.Contains(d, "bf16"):
		typ = "bf16"
	default:
		return ""
	}
	layout := "chw"
	switch {
	case strings.Contains(d, "channel major") && strings.Contains(d, "% 8"):
		layout = "hwc8"
	case strings.Contains(d, "channel major") && strings.Contains(d, "% 16"):
		layout = "hwc16"
	case strings.Contains(d, "channel major") && strings.Contains(d, "%"):
		return "" // a vectorized channel-last layout no I/O format offers (e.g. % 4)
	case strings.Contains(d, "channel major"):
		layout = "hwc"
	case strings.Contains(d, "thirty-two wide"):
		layout = "chw32"
	case strings.Contains(d, "sixteen wide"):
		layout = "chw16"
	case strings.Contains(d, "four wide"):
		layout = "chw4"
	case strings.Contains(d, "two wide"):
		layout = "chw2"
	}
	return typ + ":" + layout
}
