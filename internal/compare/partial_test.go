package compare

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/costmodel"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// profileOnly is a backend analysed from its profile alone: records
// without layers, kinds guessed from names (as the analysis makes them).
func profileOnly(label string, recs ...lay) *contract.Backend {
	b := &contract.Backend{
		Label:      label,
		Validation: contract.BackendValidation{Status: contract.StatusFailed, AnalysisMode: contract.ModeProfileOnly},
		Timing:     &contract.Timing{},
	}
	for _, r := range recs {
		b.Records = append(b.Records, contract.Record{Name: r.name, Layer: -1, LayerType: layerfacts.GuessKind(r.name), Precision: "unknown", AvgMs: r.ms, Tags: []string{layerfacts.TagGuessed}})
		b.Timing.AverageInferenceMs += r.ms
	}
	n := int64(100)
	b.Count = &n
	return b
}

// layerOnly is a backend with layer info and the cost model's predicted
// times, no profile.
func layerOnly(label string, ls ...lay) *contract.Backend {
	b := backend(label, ls...)
	b.Validation.AnalysisMode = contract.ModeLayerOnly
	b.Prediction = &contract.Prediction{Basis: "roofline_cost_model", ErrorPct: 20}
	for _, r := range b.Records {
		b.Prediction.LayerMs = append(b.Prediction.LayerMs, r.AvgMs)
		b.Prediction.TotalMs += r.AvgMs
	}
	b.Records, b.Timing = nil, nil
	return b
}

func TestCompareEveryUsablePair(t *testing.T) {
	net := []lay{{name: "Conv_0 + Relu_1", ms: 1}, {name: "MaxPool_2", ms: 0.2}, {name: "Gemm_5", ms: 0.3}}
	slow := []lay{{name: "Conv_0 + Relu_1", ms: 2.5}, {name: "MaxPool_2", ms: 0.2}, {name: "Gemm_5", ms: 0.6}}
	withTypes := func(ls []lay) []lay {
		out := append([]lay(nil), ls...)
		for i := range out {
			out[i].typ, out[i].prec = layerfacts.GuessKind(out[i].name), "FP16"
		}
		return out
	}
	for _, c := range []struct {
		name    string
		a, b    *contract.Backend
		measure string
		note    string
	}{
		{"profile_only pair", profileOnly("a", net...), profileOnly("b", slow...), contract.MeasureLayerSum, "kinds are guessed from names"},
		{"profile_only and layer_profile", backend("a", withTypes(net)...), profileOnly("b", slow...), contract.MeasureLayerSum, "kinds are guessed from names"},
		{"layer_only pair", layerOnly("a", withTypes(net)...), layerOnly("b", withTypes(slow)...), contract.MeasurePredicted, "PREDICTED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, s := range []*contract.Backend{c.a, c.b} {
				if why := Interpretable(s); why != "" {
					t.Fatalf("%s not comparable: %s", s.Label, why)
				}
			}
			p := pair(t, c.a, c.b)
			if p.Measure != c.measure || !strings.Contains(p.MeasureNote, c.note) {
				t.Errorf("measure %s (%q), want %s with a note saying %q", p.Measure, p.MeasureNote, c.measure, c.note)
			}
			// Two predictions differ beyond the cost model's error, not
			// beyond run-to-run noise.
			if pred := c.measure == contract.MeasurePredicted; strings.Contains(p.Summary, "the model's error") != pred || strings.Contains(p.Summary, "beyond noise") == pred {
				t.Errorf("summary %q: want \"the model's error\" exactly when predicted", p.Summary)
			}
			if p.Verdict != contract.VerdictBSlower || !near(p.BTimeRatio, 3.3/1.5) {
				t.Errorf("verdict %s ratio %v, want b_slower 2.2", p.Verdict, p.BTimeRatio)
			}
			// Without layer info how a layer was built is unknown; with
			// layer info alone (predicted) it is known, but a time
			// difference is the model's, never a measured one.
			rs := strings.Join(p.Reasons, " ")
			if p.SameEngine || (strings.Contains(rs, "built the same way") && (c.measure != contract.MeasurePredicted || !strings.Contains(rs, "predicted"))) {
				t.Errorf("claims build facts it cannot know: same_engine %v, reasons %q", p.SameEngine, p.Reasons)
			}
		})
	}
	// A profile and a prediction share no measure.
	if _, err := Pair(Side{Name: "a", Backend: profileOnly("a", net...)}, Side{Name: "b", Backend: layerOnly("b", withTypes(slow)...)}, 0); err == nil {
		t.Error("a measured profile compared with a prediction")
	}
}

// TestComparePlacements: a GPU build and a DLA build of one network are one
// model (the DLA record lists the GPU build's layers), the faster placement
// is named, and two DLA builds whose DLA records list the same layers are
// said to have placed them the same way (a split that did not take).
func TestComparePlacements(t *testing.T) {
	gpu := profileOnly("gpu", lay{name: "conv1", ms: 0.05}, lay{name: "pool1", ms: 0.01}, lay{name: "conv2", ms: 0.09}, lay{name: "ip1 + relu1", ms: 0.12}, lay{name: "prob", ms: 0.01})
	all := "{conv1,pool1,conv2,ip1,relu1}"
	dla := profileOnly("dla", lay{name: "data to nvm", ms: 0.02}, lay{name: all, ms: 0.02}, lay{name: all + " output reformatter 0", ms: 1.9}, lay{name: "relu1 from nvm", ms: 0.03}, lay{name: "prob", ms: 0.01})
	split := profileOnly("split", lay{name: "data to nvm", ms: 0.02}, lay{name: all, ms: 0.02}, lay{name: all + " output reformatter 0", ms: 1.95}, lay{name: "relu1 from nvm", ms: 0.03}, lay{name: "prob", ms: 0.01})
	p := pair(t, gpu, dla)
	if p.Verdict != contract.VerdictBSlower || strings.Contains(p.Summary, "not comparable") {
		t.Errorf("GPU vs DLA: %s", p.Summary)
	}
	if len(p.Reasons) == 0 || !strings.Contains(p.Reasons[0], "dla runs 5 layers on the DLA") || !strings.Contains(p.Reasons[0], "gpu runs every layer on the GPU") {
		t.Errorf("first reason %q does not say where the layers ran", p.Reasons)
	}
	p = pair(t, dla, split)
	if !strings.Contains(strings.Join(p.Reasons, " "), "split asked of one of them did not take") {
		t.Errorf("same DLA layers in both builds not said: %q", p.Reasons)
	}
	if p.SameEngine {
		t.Error("profile-only builds called the same engine")
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// Two builds predicted for the same assumed GPU share its error: each
// side's noise is the model's error on a known GPU, not the wider band of
// an assumed one; predictions for different GPUs keep their own bands.
func TestPredictedNoiseOnOneAssumedGPU(t *testing.T) {
	net := []lay{{name: "Conv_0 + Relu_1", ms: 1, typ: "Convolution", prec: "FP16"}, {name: "Gemm_5", ms: 0.3, typ: "Gemm", prec: "FP16"}}
	slow := []lay{{name: "Conv_0 + Relu_1", ms: 1.5, typ: "Convolution", prec: "FP16"}, {name: "Gemm_5", ms: 0.3, typ: "Gemm", prec: "FP16"}}
	assumed := func(b *contract.Backend, device, source string, errPct float64) *contract.Backend {
		b.Prediction.Device, b.Prediction.DeviceSource, b.Prediction.ErrorPct = device, source, errPct
		return b
	}
	p := pair(t, assumed(layerOnly("a", net...), "NVIDIA A10G", contract.PredictionDeviceDefault, 35), assumed(layerOnly("b", slow...), "NVIDIA A10G", contract.PredictionDeviceDefault, 35))
	if p.Noise.APct != costmodel.ErrorPct || p.Noise.BPct != costmodel.ErrorPct || !strings.Contains(strings.Join(p.Noise.Basis, " "), "same assumed NVIDIA A10G") {
		t.Errorf("same assumed GPU: noise %+v, want %g %% a side", p.Noise, costmodel.ErrorPct)
	}
	if p.Verdict != contract.VerdictBSlower {
		t.Errorf("a 38 %% slower prediction on one assumed GPU is %s, want b_slower", p.Verdict)
	}
	p = pair(t, assumed(layerOnly("a", net...), "NVIDIA A10G", contract.PredictionDeviceDefault, 35), assumed(layerOnly("b", slow...), "Tesla T4", contract.PredictionDeviceOwn, 8))
	if p.Noise.APct != 35 || p.Noise.BPct != 8 {
		t.Errorf("different GPUs: noise %+v, want each side's band (35, 8)", p.Noise)
	}
}
