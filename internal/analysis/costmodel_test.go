package analysis

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/costmodel"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/load"
)

// corpusCase is one analysed corpus folder with the cost model's inputs.
type corpusCase struct {
	name string
	d    *contract.AnalyzeData
	ins  []modelInput
}

func analyzeCorpus(t *testing.T) []corpusCase {
	t.Helper()
	dir := corpustest.Dir(t, corpustest.CostModel)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sc, err := discover.Folder(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatalf("%s: discover: %v", e.Name(), err)
		}
		d, ins, err := analyzeScope(sc, load.Source(sc), Options{ToolVersion: "test"})
		if err != nil {
			t.Fatalf("%s: analyze: %v", e.Name(), err)
		}
		out = append(out, corpusCase{e.Name(), d, ins})
	}
	return out
}

// calibrationSamples are every timed layer of every layer_profile backend
// of the corpus, on the device its prediction uses.
func calibrationSamples(cs []corpusCase) []costmodel.Sample {
	var out []costmodel.Sample
	for _, c := range cs {
		for i := range c.d.Results {
			b := &c.d.Results[i]
			if b.Validation.AnalysisMode != contract.ModeLayerProfile || c.ins[i].layers == nil {
				continue
			}
			dev, source, _ := predictionDevice(i, c.d.Results, c.ins)
			if source == contract.PredictionDeviceDefault {
				continue // the GPU is a guess: nothing to calibrate against
			}
			for _, r := range b.Records {
				if r.Layer < 0 || r.AvgMs <= 0 || c.ins[i].layers[r.Layer].Opaque {
					continue
				}
				out = append(out, costmodel.Sample{Device: &dev, Layer: c.ins[i].layers[r.Layer], Ms: r.AvgMs})
			}
		}
	}
	return out
}

// TestCostModelCalibration refits the cost model on the whole measured
// corpus and fails when the shipped constants (costmodel.Calibrated) are
// not what the fit gives: they are fitted once, on every timed layer of
// every layer_profile backend together, never per case.
func TestCostModelCalibration(t *testing.T) {
	cs := analyzeCorpus(t)
	samples := calibrationSamples(cs)
	if len(samples) < 500 {
		t.Fatalf("only %d calibration samples", len(samples))
	}
	fit := costmodel.Fit(samples, costmodel.Calibrated)
	var b strings.Builder
	fmt.Fprintf(&b, "fit on %d layers: floor %.4g ms, fill %.4g output elements per SM, memory efficiency %.3g, reformat efficiency %.3g", len(samples), fit.FloorMs, fit.FillElems, fit.MemEff, fit.ReformatEff)
	for _, p := range costmodel.Paths {
		fmt.Fprintf(&b, ", %s %.3g", p, fit.Compute[p])
	}
	t.Log(b.String())
	near := func(name string, shipped, fitted float64) {
		if math.Abs(shipped-fitted) > 0.15*fitted {
			t.Errorf("%s: shipped %.4g, the corpus fit gives %.4g: update costmodel.Calibrated (and ErrorPct)", name, shipped, fitted)
		}
	}
	cal := costmodel.Calibrated
	near("floor", cal.FloorMs, fit.FloorMs)
	near("fill", cal.FillElems, fit.FillElems)
	near("memory efficiency", cal.MemEff, fit.MemEff)
	near("reformat efficiency", cal.ReformatEff, fit.ReformatEff)
	for _, p := range costmodel.Paths {
		near(string(p), cal.Compute[p], fit.Compute[p])
	}
}

// siblingPair is a measured pair of builds of one model in one corpus
// folder (DIAGNOSIS.md: fp32→fp16, QAT placements, export paths).
type siblingPair struct{ folder, a, b, kind string }

var siblingPairs = []siblingPair{
	{"trex-resnet18-a100-fp32-fp16", "fp32", "fp16", "precision"},
	{"trex-tf-resnet50-rtx3090", "fp32", "fp16", "precision"},
	{"trex-tf-resnet50-rtx3090", "fp16", "int8-qat", "precision"},
	{"trex-resnet18-a100-qat", "int8-qat", "int8-qat-residual-qgap", "QAT placement"},
	{"trex-resnet18-a100-qat", "int8-qat", "int8-qat-residual", "QAT placement"},
	{"trex-mobilenetv2-qat-titanrtx", "int8-qat", "int8-qat-residuals", "QAT placement"},
	{"fuzzy-resnet18-rtx3060-three-paths", "onnx-trt", "trtexec", "export path"},
	{"fuzzy-mobilenetv2-torch-trt-rtx3060", "torch-trt", "trtexec", "export path"},
}

// TestCostModelValidation is issue 21's acceptance 1: for every measured
// sibling pair the model's predicted gain (each side predicted from its
// own layer info) against the measured gain (profiled layer sums), and the
// predicted layer sum of every layer_profile backend against its profile.
func TestCostModelValidation(t *testing.T) {
	cs := analyzeCorpus(t)
	byFolder := map[string]*contract.AnalyzeData{}
	var sumErrs, namedErrs, defaultErrs []float64
	var table strings.Builder
	table.WriteString("\n| case / backend | device (source) | predicted layer sum ms | profiled layer sum ms | error |\n|---|---|---|---|---|\n")
	for _, c := range cs {
		byFolder[c.name] = c.d
		for _, b := range c.d.Results {
			if b.Validation.AnalysisMode != contract.ModeLayerProfile || b.Prediction == nil {
				continue
			}
			meas := b.Diagnosis.LayerSumMs
			e := math.Abs(b.Prediction.TotalMs-meas) / meas * 100
			sumErrs = append(sumErrs, e)
			if b.Prediction.DeviceSource == contract.PredictionDeviceDefault {
				defaultErrs = append(defaultErrs, e)
			} else {
				namedErrs = append(namedErrs, e)
			}
			fmt.Fprintf(&table, "| %s / %s | %s (%s) | %.3f | %.3f | %.0f %% |\n", c.name, b.Label, b.Prediction.Device, b.Prediction.DeviceSource, b.Prediction.TotalMs, meas, e)
		}
	}
	table.WriteString("\n| pair | kind | predicted gain ms | measured gain ms | error (% of measured) |\n|---|---|---|---|---|\n")
	var gainErrs []float64
	for _, p := range siblingPairs {
		d := byFolder[p.folder]
		if d == nil {
			t.Errorf("%s: not in the corpus", p.folder)
			continue
		}
		var a, b *contract.Backend
		for i := range d.Results {
			switch d.Results[i].Label {
			case p.a:
				a = &d.Results[i]
			case p.b:
				b = &d.Results[i]
			}
		}
		if a == nil || b == nil || a.Prediction == nil || b.Prediction == nil || a.Diagnosis == nil || b.Diagnosis == nil {
			t.Errorf("%s: %s or %s has no prediction or profile", p.folder, p.a, p.b)
			continue
		}
		pred := a.Prediction.TotalMs - b.Prediction.TotalMs
		meas := a.Diagnosis.LayerSumMs - b.Diagnosis.LayerSumMs
		e := math.Abs(pred-meas) / math.Abs(meas) * 100
		gainErrs = append(gainErrs, e)
		fmt.Fprintf(&table, "| %s: %s → %s | %s | %.3f | %.3f | %.0f %% |\n", p.folder, p.a, p.b, p.kind, pred, meas, e)
	}
	medSum, medGain := medianOf(sumErrs), medianOf(gainErrs)
	worstGain := slices.Max(gainErrs)
	fmt.Fprintf(&table, "\nlayer sums: median error %.0f %% over %d backends; gains: median error %.0f %%, worst %.0f %% over %d pairs\n", medSum, len(sumErrs), medGain, worstGain, len(gainErrs))
	t.Log(table.String())
	if medSum > 35 {
		t.Errorf("median layer-sum error %.1f %% > 35 %%", medSum)
	}
	if medGain > 20 || worstGain > 40 {
		t.Errorf("gain errors above the target: median %.1f %% (≤ 20 %%), worst %.1f %% (≤ 40 %%)", medGain, worstGain)
	}
	// The error bands model-priced findings span: where the files name
	// the GPU, and where the model assumes the default of the kernels'
	// generation.
	medNamed, medDefault := medianOf(namedErrs), medianOf(defaultErrs)
	t.Logf("layer sums on a named GPU: median error %.0f %% over %d backends; on the default GPU: %.0f %% over %d", medNamed, len(namedErrs), medDefault, len(defaultErrs))
	if math.Abs(medNamed-costmodel.ErrorPct) > 5 {
		t.Errorf("costmodel.ErrorPct is %g but the measured median layer-sum error on named GPUs is %.1f %%: update it", costmodel.ErrorPct, medNamed)
	}
	if math.Abs(medDefault-costmodel.ErrorPctDefaultGPU) > 10 {
		t.Errorf("costmodel.ErrorPctDefaultGPU is %g but the measured median layer-sum error on the default GPU is %.1f %%: update it", costmodel.ErrorPctDefaultGPU, medDefault)
	}
}

func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return median(s)
}
