package analysis

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/costmodel"
)

// TestCostModelUnseenArchitecture measures the model's error on a GPU
// architecture its fit never saw: each compute capability of the corpus is
// left out in turn, the model refitted on the others, and the held-out
// backends' predicted layer sums compared with their profiles. The worst
// median is costmodel.ErrorPctUnseenArch, the band of a GPU outside
// costmodel.CalibrationArchs (which this test also holds to the corpus).
func TestCostModelUnseenArchitecture(t *testing.T) {
	cs := analyzeCorpus(t)
	type held struct {
		dev    costmodel.Device
		layers []costmodel.Layer
		meas   float64
	}
	samples := map[string][]costmodel.Sample{}
	backends := map[string][]held{}
	for _, c := range cs {
		for i := range c.d.Results {
			b := &c.d.Results[i]
			if b.Validation.AnalysisMode != contract.ModeLayerProfile || c.ins[i].layers == nil || b.Diagnosis == nil {
				continue
			}
			dev, source, _ := predictionDevice(i, c.d.Results, c.ins)
			if source == contract.PredictionDeviceDefault {
				continue
			}
			arch := fmt.Sprintf("%d.%d", dev.CCMajor, dev.CCMinor)
			d := dev
			for _, r := range b.Records {
				if r.Layer < 0 || r.AvgMs <= 0 || c.ins[i].layers[r.Layer].Opaque {
					continue
				}
				samples[arch] = append(samples[arch], costmodel.Sample{Device: &d, Layer: c.ins[i].layers[r.Layer], Ms: r.AvgMs})
			}
			backends[arch] = append(backends[arch], held{dev, c.ins[i].layers, b.Diagnosis.LayerSumMs})
		}
	}
	archs := slices.Sorted(maps.Keys(samples))
	if !slices.Equal(archs, costmodel.CalibrationArchs) {
		t.Errorf("the fit sees compute capabilities %v; costmodel.CalibrationArchs says %v: update it", archs, costmodel.CalibrationArchs)
	}
	worst := 0.0
	for _, out := range archs {
		var train []costmodel.Sample
		for _, a := range archs {
			if a != out {
				train = append(train, samples[a]...)
			}
		}
		p := costmodel.Fit(train, costmodel.Calibrated)
		var errs []float64
		for _, h := range backends[out] {
			total := 0.0
			for j := range h.layers {
				total += p.Time(&h.dev, &h.layers[j]).Ms
			}
			errs = append(errs, math.Abs(total-h.meas)/h.meas*100)
		}
		m := medianOf(errs)
		t.Logf("compute capability %s left out of the fit: median layer-sum error %.0f %% over %d backends", out, m, len(errs))
		worst = max(worst, m)
	}
	t.Logf("worst held-out architecture: %.0f %%", worst)
	if math.Abs(worst-costmodel.ErrorPctUnseenArch) > 5 {
		t.Errorf("costmodel.ErrorPctUnseenArch is %g but the worst held-out architecture's median error is %.1f %%: update it", costmodel.ErrorPctUnseenArch, worst)
	}
}
