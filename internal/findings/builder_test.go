package findings

import (
	"fmt"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// L describes one layer of a generated engine. Inputs come from the layers
// in From (by index) or from the graph input; facts are derived by
// layerfacts, as the analysis does.
type L struct {
	Name, Type, Tactic, Origin, Meta string
	In, Out                          string // formats; default FP16
	Params                           string // raw JSON object of extra keys
	From                             []int
	Ms                               float64
	InDims, OutDims                  []int64
	Subgraph                         string
}

const (
	f16  = "Channel major FP16 format where channel % 8 == 0"
	f32  = "Row major linear FP32"
	i8   = "Thirty-two wide channel vectorized row major Int8 format"
	tcF6 = "sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16"
	tcI8 = "sm80_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32_nchw_vect_c_32kcrs_vect_c_32_nchw_vect_c_32_tilesize128x128x64_stage4_warpsize2x2x1_g1_tensor16x8x32_t1r3s3"
	noTC = "sm70_xmma_gemm_as_conv1x1_f16f16_f16_f16_tn_n_simt_small_batch_bias_relu"
	f32T = "ampere_scudnn_128x64_relu_small_nn_v1"
)

func build(label string, ls []L) *contract.Backend {
	b := &contract.Backend{Label: label, Validation: contract.BackendValidation{Status: contract.StatusPassed, AnalysisMode: contract.ModeLayerProfile}}
	total := 0.0
	for _, l := range ls {
		total += l.Ms
	}
	for i, l := range ls {
		in, out := l.In, l.Out
		if in == "" {
			in = f16
		}
		if out == "" {
			out = f16
		}
		inDims, outDims := l.InDims, l.OutDims
		if inDims == nil {
			inDims = []int64{1, 64, 56, 56}
		}
		if outDims == nil {
			outDims = []int64{1, 64, 56, 56}
		}
		el := engine.Layer{Index: i, Name: l.Name, Type: l.Type, TacticName: l.Tactic, Origin: l.Origin, Metadata: l.Meta, Subgraph: l.Subgraph}
		cl := contract.Layer{Name: l.Name, LayerType: l.Type, TacticName: l.Tactic, Origin: l.Origin, Metadata: l.Meta, Subgraph: l.Subgraph}
		from := l.From
		if len(from) == 0 {
			el.Inputs = []engine.Tensor{{Name: "input", Dims: inDims, Format: in}}
		}
		for _, f := range from {
			el.Inputs = append(el.Inputs, engine.Tensor{Name: fmt.Sprintf("t%d", f), Dims: inDims, Format: in})
			b.Graph.Edges = append(b.Graph.Edges, [2]int{f, i})
		}
		el.Outputs = []engine.Tensor{{Name: fmt.Sprintf("t%d", i), Dims: outDims, Format: out}}
		for _, t := range el.Inputs {
			cl.Inputs = append(cl.Inputs, contract.Tensor{Name: t.Name, Dimensions: t.Dims, Format: t.Format})
		}
		for _, t := range el.Outputs {
			cl.Outputs = append(cl.Outputs, contract.Tensor{Name: t.Name, Dimensions: t.Dims, Format: t.Format})
		}
		if l.Params != "" {
			cl.Parameters = contract.RawObject(l.Params)
			el.Params = paramsOf(l.Params)
		}
		b.Layers = append(b.Layers, cl)
		f := layerfacts.Derive(&el)
		r := contract.Record{
			Name: l.Name, Layer: i, LayerType: f.DerivedType, RawLayerType: l.Type, Precision: f.Precision,
			InputTypes: f.InputTypes, OutputTypes: f.OutputTypes, Tactic: l.Tactic, TacticFamily: f.TacticFamily,
			TensorCore: f.TensorCore.Bool(), FusedOps: f.FusedOps, TimeMs: l.Ms, AvgMs: l.Ms, Tags: f.Tags,
		}
		if f.MyelinGraph >= 0 {
			g := f.MyelinGraph
			r.MyelinGraph = &g
		}
		if total > 0 {
			r.Percentage = l.Ms / total * 100
		}
		b.Records = append(b.Records, r)
	}
	b.Timing = &contract.Timing{TotalMs: total, AverageInferenceMs: total, PercentageSum: 100}
	b.LayerCount, b.ProfileCount = len(ls), len(ls)
	return b
}

// builtWith gives a generated backend the build facts a build log would:
// the precision flags of the run that built it.
func builtWith(b *contract.Backend, flags ...string) *contract.Backend {
	b.Build = &contract.Build{PrecisionFlags: flags, Options: []contract.Option{}, Warnings: []string{}, Sources: []string{"log_build.txt"}}
	return b
}

// paramsOf splits a flat JSON object of simple values into engine params
// (enough for the Weights {Type} the facts read).
func paramsOf(obj string) []engine.Param {
	// The generated objects put Weights first when present.
	const key = `"Weights":`
	for i := 0; i+len(key) <= len(obj); i++ {
		if obj[i:i+len(key)] == key {
			end := i + len(key)
			for end < len(obj) && obj[end] != '}' {
				end++
			}
			return []engine.Param{{Key: "Weights", Value: []byte(obj[i+len(key) : end+1])}}
		}
	}
	return nil
}
