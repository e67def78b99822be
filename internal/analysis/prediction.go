package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/costmodel"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/findings"
	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// modelInput is what the cost model reads of one backend: every layer's
// facts in the model's terms and the highest architecture its kernels are
// built for. nil layers without detailed layer info.
type modelInput struct {
	layers []costmodel.Layer
	arch   int // e.g. 86 for sm86 kernels; 0 when no tactic names one
	// archFrom is the tactic whose name gave arch (a lower bound on the
	// GPU's compute capability: kernels for sm_XY need X.Y or newer).
	archFrom string
	flops    float64 // the convolutions' and GEMMs' arithmetic, summed
	// shadow are a layer_only backend's records, one per layer, for the
	// rules to read with predicted times; never stored.
	shadow []contract.Record
}

func newModelInput(ls []engine.Layer, facts []layerfacts.Facts) modelInput {
	mi := modelInput{layers: make([]costmodel.Layer, len(ls))}
	for i := range ls {
		mi.layers[i] = costmodel.FromLayer(&ls[i], &facts[i])
		if v := layerfacts.SMVersion(ls[i].TacticName); v > mi.arch {
			mi.arch, mi.archFrom = v, ls[i].TacticName
		}
		mi.flops += mi.layers[i].FLOPs
	}
	// Kernel names also spell the architecture as a word ("ampere_…",
	// "turing_…", "volta_…").
	for i := range facts {
		if v := archWord(facts[i].GPUArch); v > mi.arch {
			mi.arch, mi.archFrom = v, ls[i].TacticName
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
// Ampere when no kernel names one). A folder sibling must do the same
// arithmetic (its convolutions and GEMMs sum to the same FLOPs within 1 %:
// another build of the same network), so an unrelated model's GPU is
// never borrowed.
func predictionDevice(i int, results []contract.Backend, ins []modelInput) (costmodel.Device, string, string) {
	if md, src, note, ok := ownDevice(results[i].Device); ok {
		return md, src, note
	}
	if ins[i].arch > 0 {
		for j := range results {
			if j == i || ins[j].arch != ins[i].arch || results[j].Device == nil || !sameWork(ins[i].flops, ins[j].flops) {
				continue
			}
			if md, ok := modelDevice(results[j].Device); ok {
				return md, contract.PredictionDeviceFolder, fmt.Sprintf("this backend names no GPU: times are predicted for %s, the device of backend %s of the folder, another build of the same network (same convolution/GEMM arithmetic) with kernels for the same architecture (sm%d)", md.Name, results[j].Label, ins[i].arch)
			}
		}
	}
	return defaultDevice(ins[i].arch)
}

// sameWork reports whether two networks' convolution/GEMM arithmetic
// agrees within 1 %.
func sameWork(a, b float64) bool {
	return a > 0 && b > 0 && math.Abs(a-b) <= 0.01*math.Max(a, b)
}

// ownDevice is the model's device of a backend's own device facts.
func ownDevice(d *contract.Device) (costmodel.Device, string, string, bool) {
	if d == nil {
		return costmodel.Device{}, "", "", false
	}
	md, ok := modelDevice(d)
	if !ok {
		return costmodel.Device{}, "", "", false
	}
	return md, contract.PredictionDeviceOwn, fmt.Sprintf("times are predicted for %s, the device of this backend", md.Name), true
}

// defaultDevice is the stated default class of a kernel architecture.
func defaultDevice(arch int) (costmodel.Device, string, string) {
	maj, min, why := 8, 0, "no kernel names its architecture: the default is an Ampere-generation GPU"
	if arch >= 70 {
		maj, min = arch/10, arch%10
		why = fmt.Sprintf("the kernels are built for sm%d and later", arch)
	}
	f, ok := gpu.DefaultFor(maj, min)
	if !ok {
		f, _ = gpu.DefaultFor(8, 0)
	}
	md, _ := costmodel.FromFacts(f)
	return md, contract.PredictionDeviceDefault, fmt.Sprintf("the GPU is unknown and %s: times are predicted for the default class %s (the median memory bandwidth of the table's GPUs of that generation); give the device (a trtexec log or device metadata beside the dumps, or name the GPU for the analysis) for times of the real GPU", why, md.Name)
}

// findingsModel is the cost model the findings of a backend are priced
// with.
func findingsModel(dev costmodel.Device, source string, mi *modelInput, predicted bool) *findings.Model {
	note := "the backend's device"
	switch source {
	case contract.PredictionDeviceFolder:
		note = "the device of a folder sibling built for the same architecture"
	case contract.PredictionDeviceDefault:
		note = "the default class of the kernels' architecture: the GPU is unknown"
	}
	return &findings.Model{Device: dev, DeviceNote: note, Layers: mi.layers, Params: &costmodel.Calibrated, Predicted: predicted,
		ErrorPct: costmodel.ErrorFor(&dev, source == contract.PredictionDeviceDefault)}
}

// evaluateLayerProfile runs the findings of a layer_profile backend,
// priced with the cost model on its own device (or the default class;
// fillPredictions re-runs them when a folder sibling names the device).
func evaluateLayerProfile(out *contract.Backend, mi *modelInput) {
	var m *findings.Model
	if mi.layers != nil {
		dev, src, _, ok := ownDevice(out.Device)
		if !ok {
			dev, src, _ = defaultDevice(mi.arch)
		}
		m = findingsModel(dev, src, mi, false)
	}
	setFindings(out, m)
}

func setFindings(out *contract.Backend, m *findings.Model) {
	out.Issues, out.Positives, out.Diagnosis, out.Overview = findings.EvaluateWith(out, m)
	if out.Issues == nil {
		out.Issues = []contract.Finding{}
	}
	if out.Positives == nil {
		out.Positives = []contract.Positive{}
	}
	fillRoofline(out)
}

// fillPredictions predicts every detailed backend's layer times.
func fillPredictions(results []contract.Backend, ins []modelInput) {
	for i := range results {
		if ins[i].layers == nil {
			continue
		}
		b := &results[i]
		dev, source, note := predictionDevice(i, results, ins)
		b.Prediction = predict(&dev, ins[i].layers, source, note)
		switch {
		case b.Validation.AnalysisMode == contract.ModeLayerProfile && source == contract.PredictionDeviceFolder:
			setFindings(b, findingsModel(dev, source, &ins[i], false))
		case b.Validation.AnalysisMode == contract.ModeLayerOnly && ins[i].shadow != nil:
			evaluatePredicted(b, dev, source, &ins[i])
		}
	}
}

// evaluatePredicted diagnoses a layer_only backend on the model's
// predicted layer times: the rules run over records whose times are the
// predictions (never stored: a layer_only backend has no records), the
// findings the model has a change for are priced by it, and the
// diagnosis' reference is the predicted total.
func evaluatePredicted(b *contract.Backend, dev costmodel.Device, source string, mi *modelInput) {
	p := b.Prediction
	recs := mi.shadow
	for i := range recs {
		if l := recs[i].Layer; l >= 0 && l < len(p.LayerMs) {
			recs[i].AvgMs, recs[i].TimeMs = p.LayerMs[l], p.LayerMs[l]
			if p.TotalMs > 0 {
				recs[i].Percentage = p.LayerMs[l] / p.TotalMs * 100
			}
		}
	}
	shadow := *b
	shadow.Records = recs
	issues, _, diag, _ := findings.EvaluateWith(&shadow, findingsModel(dev, source, mi, true))
	if diag == nil {
		return
	}
	diag.ReferenceSource = findings.RefPredicted
	diag.ReferenceMs = p.TotalMs
	b.Diagnosis = diag
	for i := range issues {
		issues[i].Evidence = append([]string{fmt.Sprintf("Layer info only, no profile: the times here are PREDICTED by the cost model for %s, not measured.", dev.Name)}, issues[i].Evidence...)
	}
	b.Issues = issues
}

// predict is the prediction section of one backend.
func predict(dev *costmodel.Device, ls []costmodel.Layer, source, note string) *contract.Prediction {
	p := &contract.Prediction{
		Basis: "roofline_cost_model", Device: dev.Name, DeviceSource: source,
		LayerMs: make([]float64, len(ls)), LayerBound: make([]string, len(ls)),
		ErrorPct: costmodel.ErrorFor(dev, source == contract.PredictionDeviceDefault),
		Notes: []string{note, fmt.Sprintf("PREDICTED, not measured: each layer's time is a %.1f µs per-kernel floor plus its arithmetic at the achieved share of the device's peak for its math path (less when its outputs are too few to fill every SM) plus its bytes at %.0f %% of peak memory bandwidth, calibrated on a measured corpus as a whole (median error of layer sums %.0f %% where the files name the GPU)",
			costmodel.Calibrated.FloorMs*1000, costmodel.Calibrated.MemEff*100, costmodel.ErrorPct)},
	}
	if n := costmodel.UnseenNote(dev); n != "" {
		p.Notes = append(p.Notes, n)
	} else if source == contract.PredictionDeviceDefault {
		p.Notes = append(p.Notes, fmt.Sprintf("on a GPU the files do not name, the model's median error is %.0f %%: the times span ± that", costmodel.ErrorPctDefaultGPU))
	}
	total, opaque, opaqueMs := 0.0, 0, 0.0
	for i := range ls {
		e := costmodel.Calibrated.Time(dev, &ls[i])
		p.LayerMs[i] = sig6(e.Ms)
		p.LayerBound[i] = e.Bound
		total += p.LayerMs[i]
		if ls[i].Opaque {
			opaque++
			opaqueMs += p.LayerMs[i]
		}
	}
	p.TotalMs = total
	if opaque > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d Myelin region(s) or plugin(s) (%.4g ms predicted) do arithmetic the layer info does not give: only their bytes are priced, so their times, and the total, are lower bounds", opaque, opaqueMs))
	}
	return p
}
