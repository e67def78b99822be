package findings

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/costmodel"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// Model is the cost model of one backend: the device, every layer in the
// model's terms (indexed like the backend's layers) and the calibrated
// parameters. Predicted is true when the backend's records are the model's
// own predictions (a layer_only backend): then every rule the model has a
// change for is priced by it; with a profile, only the rules whose gain
// depends on the device (precision and tensor-core changes) are, on the
// measured time of the owned layers.
type Model struct {
	Device     costmodel.Device
	DeviceNote string // where the device comes from, one clause
	Layers     []costmodel.Layer
	Params     *costmodel.Params
	Predicted  bool
}

// modelChange is the change a rule proposes for one owned layer.
type modelChange func(c *ctx, l int, ml *costmodel.Layer) costmodel.Change

func always(ch costmodel.Change) modelChange {
	return func(*ctx, int, *costmodel.Layer) costmodel.Change { return ch }
}

// deviceRules are the rules whose gain depends on the device: the model
// prices them with a profile too.
var deviceRules = map[string]modelChange{
	"fp32_engine":          always(costmodel.ToFP16),
	"no_tensor_core":       always(costmodel.OnTensorCores),
	"int8_gemm_fp16":       always(costmodel.ToINT8),
	"bandwidth_bound_gemv": always(costmodel.INT8Weights),
	"precision_fallback": func(c *ctx, _ int, _ *costmodel.Layer) costmodel.Change {
		if c.target == layerfacts.INT8 || c.target == layerfacts.FP8 {
			return costmodel.ToINT8
		}
		return costmodel.ToFP16
	},
}

// structureRules are the rules that remove or fuse layers: the model
// prices them on layer_only backends, where no measured time exists.
var structureRules = map[string]modelChange{
	"input_quantize":    always(costmodel.Removed),
	"input_prologue":    always(costmodel.Removed),
	"reformat_overhead": always(costmodel.Removed),
	"unfused_epilogue":  always(costmodel.Fused),
	"gelu_unfused":      always(costmodel.Fused),
	"residual_unfused":  always(costmodel.Fused),
	"decomposed_norm":   always(costmodel.Fused),
	"norm_unfused":      always(costmodel.Fused),
	// A fused attention kernel keeps the matrix products' arithmetic and
	// drops the passes between them (softmax, scale, mask, reformats).
	"attention_unfused": func(_ *ctx, _ int, ml *costmodel.Layer) costmodel.Change {
		if ml.Op == costmodel.OpMatmul {
			return costmodel.AsIs
		}
		return costmodel.Removed
	},
	// Q/DQ placement: standalone Q/DQ and reformats go, CUDA-core INT8
	// convolutions move to tensor cores, INT8 convolutions write INT8,
	// float neighbours run INT8.
	"qdq_placement": func(_ *ctx, _ int, ml *costmodel.Layer) costmodel.Change {
		switch {
		case ml.Quantize:
			return costmodel.Removed
		case ml.Op == costmodel.OpMatmul && ml.Precision == layerfacts.INT8 && ml.TensorCore == layerfacts.TensorCoreNo:
			return costmodel.OnTensorCores
		case ml.Precision == layerfacts.INT8:
			return costmodel.INT8Output
		}
		return costmodel.ToINT8
	},
}

// maxModelMiss is how far (×) the model's time of a finding's layers may
// be from their profiled time for the model to price them: beyond it the
// model does not explain the layers (a kernel far from its roofline, a
// layer whose work the layer info does not give).
const maxModelMiss = 2.0

// onePassRemains are the rules whose fix leaves one kernel of the group
// (one normalisation kernel instead of several).
var onePassRemains = map[string]bool{"decomposed_norm": true, "norm_unfused": true}

// modelPrice prices f with the cost model when the model has a change for
// its rule: the gain of each owned layer (its time as built minus under
// the change) as a fraction of its predicted time, applied to its time on
// the profile's clock, × the profile scale; the range is ± the model's
// corpus error. Nothing happens without a model, for a rule the model has
// no change for, or for a sibling-measured price.
func (c *ctx) modelPrice(id string, f *contract.Finding) {
	m := c.model
	if m == nil || f == nil || len(f.Layers) == 0 || f.PriceBasis == "sibling_measured" {
		return
	}
	change, ok := deviceRules[id]
	if !ok && m.Predicted {
		change, ok = structureRules[id]
	}
	if !ok {
		if m.Predicted {
			f.PriceFactor += " (on predicted layer times: the model has no change for this rule)"
		}
		return
	}
	p := m.Params
	if p == nil {
		p = &costmodel.Calibrated
	}
	owned, gain, largest, predicted := 0.0, 0.0, 0.0, 0.0
	counts := map[costmodel.Change]int{}
	for _, l := range f.Layers {
		r := c.record(l)
		if r == nil || l >= len(m.Layers) {
			continue
		}
		ml := &m.Layers[l]
		ch := change(c, l, ml)
		counts[ch]++
		asIs := p.Time(&m.Device, ml).Ms
		owned += r.AvgMs
		predicted += asIs
		if asIs <= 0 {
			continue
		}
		g := p.Gain(&m.Device, ml, ch) / asIs * r.AvgMs
		gain += g
		largest = max(largest, r.AvgMs)
	}
	if onePassRemains[id] {
		gain = max(0, gain-largest)
	}
	if !m.Predicted && (predicted < owned/maxModelMiss || predicted > owned*maxModelMiss) {
		// The model does not explain these layers' measured time: its
		// fraction would transfer a wrong physics onto it.
		f.PriceFactor += fmt.Sprintf("; the cost model predicts %.4f ms for these layers against %.4f ms profiled (more than %gx apart), so the rule's factor is kept", predicted, owned, maxModelMiss)
		return
	}
	err := costmodel.ErrorPct / 100
	est := gain * c.scale
	var parts []string
	for ch := costmodel.AsIs; ch <= costmodel.INT8Weights; ch++ {
		if n := counts[ch]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d layer(s) %s", n, ch))
		}
	}
	clock := "profiled"
	if m.Predicted {
		clock = "PREDICTED"
	}
	how := fmt.Sprintf("cost model on %s (%s): owned %s time %.4f ms, of which the model gives back %.4f ms with %s, × profile scale %.3f; range ± the model's %.0f %% corpus error",
		m.Device.Name, m.DeviceNote, clock, owned, gain, strings.Join(parts, ", "), c.scale, costmodel.ErrorPct)
	if onePassRemains[id] {
		how += "; one kernel of the group remains"
	}
	f.PriceBasis = ""
	c.priceMs(f, est*(1-err), est, min(est*(1+err), owned*c.scale), how)
	f.PriceBasis = "model"
	f.Metrics["model_gain_ms"] = round(gain, 6)
	if id == "fp32_engine" || id == "precision_fallback" {
		if !m.Device.HasTC(layerfacts.FP16) {
			what := "no FP16 tensor cores"
			if !m.Device.FastFP16() {
				what = "no fast FP16 at all (Pascal GP10x: FP16 at 1/64 of FP32; TensorRT keeps FP32 kernels)"
			}
			f.Evidence = append(f.Evidence, fmt.Sprintf("%s has %s: the model prices FP16 without a tensor-core speed-up.", m.Device.Name, what))
		}
	}
}
