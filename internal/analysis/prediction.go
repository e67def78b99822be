package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/costmodel"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// modelInput is what the cost model reads of one backend: every layer's
// facts in the model's terms and the highest architecture its kernels are
// built for. nil layers without detailed layer info.
type modelInput struct {
	layers []costmodel.Layer
	arch   int // e.g. 86 for sm86 kernels; 0 when no tactic names one
}

func newModelInput(ls []engine.Layer, facts []layerfacts.Facts) modelInput {
	mi := modelInput{layers: make([]costmodel.Layer, len(ls))}
	for i := range ls {
		mi.layers[i] = costmodel.FromLayer(&ls[i], &facts[i])
		mi.arch = max(mi.arch, layerfacts.SMVersion(ls[i].TacticName))
	}
	// Kernel names also spell the architecture as a word ("ampere_…",
	// "turing_…", "volta_…").
	for i := range facts {
		if v := archWord(facts[i].GPUArch); v > mi.arch {
			mi.arch = v
		}
	}
	return mi
}

// archWord is the lowest compute capability (×10) of an architecture word.
func archWord(a string) int {
	switch a {
	case "volta":
		return 70
	case "turing":
		return 75
	case "ampere":
		return 80
	case "hopper":
		return 90
	}
	return 0
}

// modelDevice is the cost model's device of the backend's device facts.
func modelDevice(d *contract.Device) (costmodel.Device, bool) {
	g := gpu.Device{Name: d.Name, CCMajor: -1}
	if d.ComputeCapability != nil {
		maj, min, ok := strings.Cut(*d.ComputeCapability, ".")
		a, err1 := strconv.Atoi(maj)
		b, err2 := strconv.Atoi(min)
		if ok && err1 == nil && err2 == nil {
			g.CCMajor, g.CCMinor = a, b
		}
	}
	if d.SMCount != nil {
		g.SMs = *d.SMCount
	}
	if d.ClockGHz != nil {
		g.ClockGHz = *d.ClockGHz
	}
	f, ok := gpu.Derive(g)
	if !ok {
		return costmodel.Device{}, false
	}
	if d.MemoryBandwidthGBs != nil {
		f.MemoryBandwidthGBs = d.MemoryBandwidthGBs
	}
	if v := d.PeakTFLOPS.FP32; v != nil {
		f.Peaks.FP32 = v
	}
	if v := d.PeakTFLOPS.TF32; v != nil {
		f.Peaks.TF32 = v
	}
	if v := d.PeakTFLOPS.FP16; v != nil {
		f.Peaks.FP16 = v
	}
	if v := d.PeakTFLOPS.INT8; v != nil {
		f.Peaks.INT8 = v
	}
	return costmodel.FromFacts(f)
}

// predictionDevice chooses the device a backend's times are predicted for:
// its own device facts; else those of another backend of the folder whose
// kernels are built for the same architecture (one machine built them);
// else the stated default of the kernels' architecture generation (of
// Ampere when no kernel names one).
func predictionDevice(i int, results []contract.Backend, ins []modelInput) (costmodel.Device, string, string) {
	if d := results[i].Device; d != nil {
		if md, ok := modelDevice(d); ok {
			return md, contract.PredictionDeviceOwn, fmt.Sprintf("times are predicted for %s, the device of this backend", md.Name)
		}
	}
	if ins[i].arch > 0 {
		for j := range results {
			if j == i || ins[j].arch != ins[i].arch || results[j].Device == nil {
				continue
			}
			if md, ok := modelDevice(results[j].Device); ok {
				return md, contract.PredictionDeviceFolder, fmt.Sprintf("this backend names no GPU: times are predicted for %s, the device of backend %s of the folder, whose kernels are built for the same architecture (sm%d)", md.Name, results[j].Label, ins[i].arch)
			}
		}
	}
	maj, min, why := 8, 0, "no kernel names its architecture: the default is an Ampere-generation GPU"
	if a := ins[i].arch; a >= 70 {
		maj, min = a/10, a%10
		why = fmt.Sprintf("the kernels are built for sm%d and later", a)
	}
	f, ok := gpu.DefaultFor(maj, min)
	if !ok {
		f, _ = gpu.DefaultFor(8, 0)
	}
	md, _ := costmodel.FromFacts(f)
	return md, contract.PredictionDeviceDefault, fmt.Sprintf("the GPU is unknown and %s: times are predicted for the default class %s (the median memory bandwidth of the table's GPUs of that generation); give the device (a trtexec log or device metadata beside the dumps) for times of the real GPU", why, md.Name)
}

// fillPredictions predicts every detailed backend's layer times.
func fillPredictions(results []contract.Backend, ins []modelInput) {
	for i := range results {
		if ins[i].layers == nil {
			continue
		}
		dev, source, note := predictionDevice(i, results, ins)
		results[i].Prediction = predict(&dev, ins[i].layers, source, note)
	}
}

// predict is the prediction section of one backend.
func predict(dev *costmodel.Device, ls []costmodel.Layer, source, note string) *contract.Prediction {
	p := &contract.Prediction{
		Basis: "roofline_cost_model", Device: dev.Name, DeviceSource: source,
		LayerMs: make([]float64, len(ls)), LayerBound: make([]string, len(ls)),
		ErrorPct: costmodel.ErrorPct,
		Notes: []string{note, fmt.Sprintf("PREDICTED, not measured: each layer's time is a roofline (arithmetic at the achieved share of the device's peak for its math path, bytes at %.0f %% of peak memory bandwidth) plus a %.1f µs per-kernel floor, calibrated on a measured corpus as a whole (median error of layer sums %.0f %%)",
			costmodel.Calibrated.MemEff*100, costmodel.Calibrated.FloorMs*1000, costmodel.ErrorPct)},
	}
	total := 0.0
	for i := range ls {
		e := costmodel.Calibrated.Time(dev, &ls[i])
		p.LayerMs[i] = sig6(e.Ms)
		p.LayerBound[i] = e.Bound
		total += p.LayerMs[i]
	}
	p.TotalMs = total
	return p
}
