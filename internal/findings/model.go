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
	// ErrorPct is the model's error band on this device, percent
	// (costmodel.ErrorFor); 0 means costmodel.ErrorPct.
	ErrorPct float64
}

// modelChange is the change a rule proposes for one owned layer.
type modelChange func(c *evaluation, l int, ml *costmodel.Layer) costmodel.Change

func always(ch costmodel.Change) modelChange {
	return func(*evaluation, int, *costmodel.Layer) costmodel.Change { return ch }
}

// deviceRules are the rules whose gain depends on the device: the model
// prices them with a profile too.
var deviceRules = map[string]modelChange{
	// Where FP16 is slower than FP32 (Pascal GP10x) the rule advises INT8.
	"fp32_engine": func(c *evaluation, _ int, _ *costmodel.Layer) costmodel.Change {
		if !c.fastPath(layerfacts.FP16) {
			return costmodel.ToINT8
		}
		return costmodel.ToFP16
	},
	"no_tensor_core":       always(costmodel.OnTensorCores),
	"int8_gemm_fp16":       always(costmodel.ToINT8),
	"bandwidth_bound_gemv": always(costmodel.INT8Weights),
	"precision_fallback": func(c *evaluation, _ int, _ *costmodel.Layer) costmodel.Change {
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
	"attention_unfused": func(_ *evaluation, _ int, ml *costmodel.Layer) costmodel.Change {
		if ml.Op == costmodel.OpMatmul {
			return costmodel.AsIs
		}
		return costmodel.Removed
	},
	// Q/DQ placement: standalone Q/DQ and reformats go, CUDA-core INT8
	// convolutions move to tensor cores, INT8 convolutions write INT8,
	// float neighbours run INT8.
	"qdq_placement": func(_ *evaluation, _ int, ml *costmodel.Layer) costmodel.Change {
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

// removalBand is the factor band of a rule that removes or fuses layers:
// the model gives the layers' own time, the band how much of it such a fix
// takes away (a reformat the producer cannot absorb, a normalisation that
// keeps one kernel) — the same bands as the estimates, on the model's time.
var removalBand = map[string]string{
	"input_quantize": "input_quantize", "input_prologue": "input_prologue", "reformat_overhead": "reformat_overhead",
	"unfused_epilogue": "unfused_epilogue", "gelu_unfused": "gelu_unfused", "residual_unfused": "residual_unfused",
	"decomposed_norm": "decomposed_norm", "norm_unfused": "norm_unfused", "attention_unfused": "attention_unfused",
	"qdq_placement": "qdq_standalone",
}

// modelPrice prices f with the cost model when the model has a change for
// its rule: the gain of each owned layer (its time as built minus under
// the change) as a fraction of its predicted time, applied to its time on
// the profile's clock, × the profile scale; the range is ± the model's
// corpus error. Nothing happens without a model, for a rule the model has
// no change for, or for a sibling-measured price.
func (c *evaluation) modelPrice(id string, f *contract.Finding) {
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
	owned, gain, low, high, predicted := 0.0, 0.0, 0.0, 0.0, 0.0
	rb, hasBand := priceFactors[removalBand[id]]
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
		if (ch == costmodel.Removed || ch == costmodel.Fused) && hasBand {
			gain += g * rb.est
			low += g * rb.low
			high += g * rb.high
			continue
		}
		gain += g
		low += g
		high += g
	}
	_, device := deviceRules[id]
	if device && gain == 0 && predicted > 0 {
		// The GPU cannot run the change faster at all (FP16 without fast
		// FP16, TF32 or tensor cores the architecture lacks): nothing to
		// recover, however far the model is from the profile.
		f.PriceBasis = ""
		c.priceMs(f, 0, 0, 0, fmt.Sprintf("cost model on %s (%s): the change gives these layers nothing on this GPU", m.Device.Name, m.DeviceNote))
		f.PriceBasis = "model"
		f.Metrics["model_gain_ms"] = 0
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s cannot run this change faster (%s): the cost model gives back nothing.", m.Device.Name, deviceLacks(&m.Device)))
		return
	}
	if !m.Predicted && (predicted < owned/maxModelMiss || predicted > owned*maxModelMiss) {
		// The model does not explain these layers' measured time: its
		// fraction would transfer a wrong physics onto it.
		f.PriceFactor += fmt.Sprintf("; the cost model predicts %.4f ms for these layers against %.4f ms profiled (more than %gx apart), so the rule's factor is kept", predicted, owned, maxModelMiss)
		return
	}
	errPct := m.ErrorPct
	if errPct <= 0 {
		errPct = costmodel.ErrorPct
	}
	err := errPct / 100
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
	how := fmt.Sprintf("cost model on %s (%s): owned %s time %.4f ms, of which the model gives back %.4f ms with %s, × profile scale %.3f; range ± the model's %.0f %% error on this GPU",
		m.Device.Name, m.DeviceNote, clock, owned, gain, strings.Join(parts, ", "), c.scale, errPct)
	if hasBand && (counts[costmodel.Removed] > 0 || counts[costmodel.Fused] > 0) {
		how += fmt.Sprintf("; removed or fused layers count × %.2f (range %.2f–%.2f) of their time: what such a fix takes away", rb.est, rb.low, rb.high)
	}
	f.PriceBasis = ""
	c.priceMs(f, low*c.scale*(1-err), est, min(high*c.scale*(1+err), owned*c.scale), how)
	f.PriceBasis = "model"
	f.Metrics["model_gain_ms"] = round(gain, 6)
	if (id == "fp32_engine" || id == "precision_fallback") && !m.Device.HasTC(layerfacts.FP16) {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s has %s: the model prices FP16 without a tensor-core speed-up.", m.Device.Name, deviceLacks(&m.Device)))
	}
}

// deviceLacks says what a GPU lacks for reduced precision.
func deviceLacks(d *costmodel.Device) string {
	switch {
	case !d.FastFP16():
		return "no fast FP16 at all (Pascal GP10x runs FP16 at 1/64 of FP32, so TensorRT keeps FP32 kernels) and no tensor cores"
	case !d.HasTC(layerfacts.FP16):
		return "no FP16 tensor cores (FP16 runs on CUDA cores at twice the FP32 rate)"
	case !d.HasTC(layerfacts.TF32):
		return "no TF32 tensor cores (before Ampere)"
	case !d.HasTC(layerfacts.INT8):
		return "no INT8 tensor cores"
	}
	return "tensor cores for every precision it uses already"
}
