package findings

import (
	"fmt"
	"testing"

	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// profileOnly is a backend analysed from its profile alone: records with
// kinds guessed from their names, as the analysis makes them.
func profileOnly(recs map[string]float64, order []string) *contract.Backend {
	b := &contract.Backend{Validation: contract.BackendValidation{Status: contract.StatusFailed, AnalysisMode: contract.ModeProfileOnly}}
	total := 0.0
	for _, n := range order {
		total += recs[n]
		b.Records = append(b.Records, contract.Record{Name: n, Layer: -1, AvgMs: recs[n], LayerType: layerfacts.GuessKind(n), Tags: []string{layerfacts.TagGuessed}})
	}
	b.Timing = &contract.Timing{AverageInferenceMs: total}
	return b
}

// EvaluateProfileOnly prices the causes the names show on the records'
// measured time; a cause worth under the finding threshold is no finding.
func TestEvaluateProfileOnly(t *testing.T) {
	attention := []string{"/enc/l0/attn/MatMul", "/enc/l0/attn/Softmax", "/enc/l0/attn/MatMul_1", "/enc/l0/attn/q_proj/MatMul"}
	for _, c := range []struct {
		name      string
		order     []string
		ms        map[string]float64
		wantIDs   []string
		wantOwned []float64 // share of the layer sum each owns
		wantPrice []float64 // recoverable share: owned × the rule's factor
	}{
		{"attention and reformats",
			append([]string{"/backbone/conv1/Conv", "Reformatting CopyNode for Input Tensor 0 to /enc/l0/attn/Softmax"}, attention...),
			map[string]float64{"/backbone/conv1/Conv": 5, "Reformatting CopyNode for Input Tensor 0 to /enc/l0/attn/Softmax": 1, "/enc/l0/attn/MatMul": 1, "/enc/l0/attn/Softmax": 1.5, "/enc/l0/attn/MatMul_1": 0.5, "/enc/l0/attn/q_proj/MatMul": 1},
			// q_proj/MatMul is a projection in a deeper scope, not the attention's own product.
			[]string{"attention_unfused", "reformat_overhead"}, []float64{30, 10}, []float64{30 * 0.5, 10 * 0.6}}, // largest first
		{"softmax without a matmul in its scope is a classifier",
			[]string{"/head/fc/MatMul", "/head/prob/Softmax", "/backbone/conv/Conv"},
			map[string]float64{"/head/fc/MatMul": 1, "/head/prob/Softmax": 1, "/backbone/conv/Conv": 8},
			nil, nil, nil},
		{"under the finding threshold",
			[]string{"/backbone/conv/Conv", "Reformatting CopyNode for Input Tensor 0 to /backbone/conv/Conv"},
			map[string]float64{"/backbone/conv/Conv": 99, "Reformatting CopyNode for Input Tensor 0 to /backbone/conv/Conv": 1},
			nil, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := profileOnly(c.ms, c.order)
			got, diag, _ := EvaluateProfileOnly(b)
			if len(got) != len(c.wantIDs) {
				t.Fatalf("findings %v, want ids %v", findingIDs(got), c.wantIDs)
			}
			for i, f := range got {
				if f.ID != c.wantIDs[i] || !near(f.Share, c.wantOwned[i], 1e-3) || !near(f.RecoverableShare, c.wantPrice[i], 1e-3) || f.PriceBasis != contract.PriceGuessedKinds {
					t.Errorf("finding %d: %s owns %v%%, recovers %v%% (%s), want %s owning %v%%, recovering %v%%", i, f.ID, f.Share, f.RecoverableShare, f.PriceBasis, c.wantIDs[i], c.wantOwned[i], c.wantPrice[i])
				}
			}
			b.Issues, b.Diagnosis = got, diag
			checkFindings(t, b, got, diag)
		})
	}
}

// A partial table (rows making 20 % of the engine's time) is priced on the
// layer sum its rows' shares imply, and its first row is not the graph
// input: a quantize there is a standalone Q/DQ, not the input's.
func TestEvaluateProfileOnlyPartialTable(t *testing.T) {
	order := []string{"QuantizeLinear_2_quantize_scale_node", "Conv_3 + Relu_4", "Reformatting CopyNode for Input Tensor 0 to Conv_5"}
	b := profileOnly(map[string]float64{order[0]: 0.5, order[1]: 0.9, order[2]: 0.6}, order)
	b.Timing.PercentageSum = 20
	got, diag, _ := EvaluateProfileOnly(b)
	if diag == nil || !near(diag.ReferenceMs, 10, 1e-9) || !near(diag.LayerSumMs, 10, 1e-9) || diag.ReferenceSource != RefLayerSum {
		t.Fatalf("diagnosis %+v, want the 10 ms layer sum the rows' 20 %% imply", diag)
	}
	want := map[string]float64{"qdq_placement": 0.5 * 0.9, "reformat_overhead": 0.6 * 0.6}
	if len(got) != len(want) {
		t.Fatalf("findings %v, want %v", findingIDs(got), want)
	}
	for _, f := range got {
		if ms, ok := want[f.ID]; !ok || !near(f.RecoverableMs, ms, 1e-9) || !near(f.RecoverableShare, ms/10*100, 1e-3) {
			t.Errorf("%s recovers %v ms (%v %%), want %v ms of 10 ms", f.ID, f.RecoverableMs, f.RecoverableShare, want[f.ID])
		}
	}
	b.Issues, b.Diagnosis = got, diag
	checkFindings(t, b, got, diag)
}

// A faster sibling bounds a profile_only Q/DQ placement estimate from
// above, as it does with layer info, and prices nothing else: the
// sibling's precision is unknown, so its gain is no sibling_delta.
func TestProfileOnlySiblingBound(t *testing.T) {
	var convs []string
	ms := map[string]float64{}
	for i := range 8 {
		n := fmt.Sprintf("/layer%d/conv/Conv", i)
		convs = append(convs, n)
		ms[n] = 0.1
	}
	own := append([]string{}, convs...)
	for i := range 4 {
		n := fmt.Sprintf("/layer%d/add/QuantizeLinear", i)
		own = append(own, n)
		ms[n] = 0.1
	}
	slower := map[string]float64{} // the sibling's convolutions run 0.1125 ms
	for _, n := range convs {
		slower[n] = 0.1125
	}
	a, b := profileOnly(ms, own), profileOnly(slower, convs) // 1.2 ms and 0.9 ms
	for _, x := range []*contract.Backend{a, b} {
		x.Issues, x.Diagnosis, _ = EvaluateProfileOnly(x)
	}
	if len(a.Issues) != 1 || a.Issues[0].ID != "qdq_placement" || !near(a.Issues[0].RecoverableMs, 0.36, 1e-9) {
		t.Fatalf("before the sibling: %v %+v, want qdq_placement at 0.4 × 0.9 ms", findingIDs(a.Issues), a.Issues)
	}
	EvaluateSiblings([]*contract.Backend{a, b}, nil, compare.SameWorkPct)
	if len(a.Issues) != 1 {
		t.Fatalf("findings %v, want qdq_placement alone (no sibling_delta)", findingIDs(a.Issues))
	}
	f := a.Issues[0]
	if bound := f.Metrics[MetricSiblingBound]; !near(bound, 0.3, 1e-9) || !near(f.RecoverableMs, 0.3, 1e-9) || !near(f.RecoverableHighMs, 0.3, 1e-9) {
		t.Errorf("recoverable %v (high %v), bound %v: want both at the sibling's measured 0.3 ms", f.RecoverableMs, f.RecoverableHighMs, bound)
	}
	if !near(a.Diagnosis.RecoverableMs, 0.3, 1e-9) {
		t.Errorf("diagnosis recoverable %v, want 0.3 ms", a.Diagnosis.RecoverableMs)
	}
	checkFindings(t, a, a.Issues, a.Diagnosis)
}

// A profile-only FP32 build (its build facts say Precision FP32) is priced
// for its device: the TF32 band where the GPU has TF32 tensor cores or is
// unknown, the CUDA-core band with FP16 tensor cores only, the CUDA-core
// FP16 band without tensor cores, and no finding where FP16 is slow
// (Pascal GP10x, compute capability 6.1). A --loadEngine run's defaults
// or a build that enables FP16 give none.
func TestProfileOnlyFP32Device(t *testing.T) {
	str := func(s string) *string { return &s }
	dev := func(cc string, tc ...string) *contract.Device {
		return &contract.Device{Name: "GPU sm" + cc, ComputeCapability: str(cc), TensorCores: tc}
	}
	fp32 := &contract.Build{Precision: str("FP32"), PrecisionFlags: []string{}, PrecisionEvidence: "meta_x_build.json: build options Precision FP32"}
	for _, c := range []struct {
		name   string
		build  *contract.Build
		device *contract.Device
		band   string // "" for no finding
	}{
		{"unknown GPU", fp32, nil, "fp32_engine_tf32"},
		{"Ampere", fp32, dev("8.0", "TF32", "FP16", "BF16", "INT8"), "fp32_engine_tf32"},
		{"Turing", fp32, dev("7.5", "FP16", "INT8"), "fp32_engine_matmul"},
		{"P100", fp32, dev("6.0"), "fp32_engine_fp16_cuda_cores"},
		{"GP10x", fp32, dev("6.1"), ""},
		{"--loadEngine run", &contract.Build{PrecisionFlags: []string{}, LoadedEngine: str("m.engine")}, nil, ""},
		{"FP16 build", &contract.Build{Precision: str("FP32+FP16"), PrecisionFlags: []string{"--fp16"}}, nil, ""},
		{"strongly typed", &contract.Build{Precision: str("Strongly Typed"), PrecisionFlags: []string{"--stronglyTyped"}}, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			order := []string{"/conv1/Conv", "/pool/MaxPool", "/conv2/Conv"}
			b := profileOnly(map[string]float64{"/conv1/Conv": 2, "/pool/MaxPool": 1, "/conv2/Conv": 1}, order)
			b.Build, b.Device = c.build, c.device
			got, diag, _ := EvaluateProfileOnly(b)
			if c.band == "" {
				if len(got) != 0 {
					t.Fatalf("findings %v, want none", findingIDs(got))
				}
				return
			}
			if len(got) != 1 || got[0].ID != "fp32_engine" {
				t.Fatalf("findings %v, want fp32_engine", findingIDs(got))
			}
			bo := priceFactors["fp32_engine_other"]
			if c.band == "fp32_engine_fp16_cuda_cores" {
				bo = priceFactors[c.band]
			}
			if want := 3*priceFactors[c.band].est + 1*bo.est; !near(got[0].RecoverableMs, want, 1e-9) {
				t.Errorf("recoverable %v ms, want %v (%s)", got[0].RecoverableMs, want, c.band)
			}
			b.Issues, b.Diagnosis = got, diag
			checkFindings(t, b, got, diag)
		})
	}
}
