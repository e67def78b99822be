package findings

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/contract"
)

// convParams are the convolution parameters the channel rules read.
type convParams struct {
	OutMaps     *int64 `json:"OutMaps"`
	ConvOutMaps *int64 `json:"ConvOutMaps"`
	Groups      *int64 `json:"Groups"`
	ConvGroups  *int64 `json:"ConvGroups"`
}

func (c *ctx) convParams(l *contract.Layer) convParams {
	var p convParams
	if len(l.Parameters) > 0 {
		_ = json.Unmarshal(l.Parameters, &p) // absent or odd parameters: no channel facts
	}
	if p.OutMaps == nil {
		p.OutMaps = p.ConvOutMaps
	}
	if p.Groups == nil {
		p.Groups = p.ConvGroups
	}
	return p
}

// isDepthwise: grouped convolutions run on CUDA cores by design.
func (c *ctx) isDepthwise(r *contract.Record) bool {
	if strings.Contains(r.RawLayerType, "Depthwise") {
		return true
	}
	p := c.convParams(c.layer(r))
	return p.Groups != nil && *p.Groups > 1
}

func evalNoTensorCore(c *ctx) *contract.Finding {
	if precisionRank(c.target) == 0 || precisionRank(c.target) >= 4 {
		return nil // FP32/TF32 engines: see fp32_engine
	}
	recs := c.selectTimed(func(r *contract.Record) bool {
		return isMatmulLayer(r) && r.Tactic != "" && r.TacticFamily != "myelin" && !r.TensorCore &&
			precisionRank(r.Precision) <= precisionRank(c.target) && !c.isDepthwise(r)
	})
	if len(recs) == 0 || c.pct(sumMs(recs)) < 1 {
		return nil
	}
	f := c.newFinding("no_tensor_core", contract.ConfidenceMedium, recs)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("%d %s convolution/GEMM layers use CUDA-core tactics: %.4f ms (%.2f%%).", len(recs), c.target, sumMs(recs), c.pct(sumMs(recs))))
	for i, r := range recs {
		if i == 5 {
			break
		}
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s (%.2f%%): %s", short(r.Name), c.pct(r.AvgMs), short(r.Tactic)))
	}
	gemv := countIf(recs, func(r *contract.Record) bool {
		t := strings.ToLower(r.Tactic)
		return strings.Contains(t, "gemv") || strings.Contains(t, "simt")
	})
	if gemv == len(recs) {
		// Batch-1 GEMV/SIMT kernels are memory-bound: tensor cores would
		// not help much, so this is a weak lead.
		f.Confidence = contract.ConfidenceLow
		f.Score = round(f.Share/100*weight(f.Confidence), 4)
	}
	if gemv > 0 {
		f.Metrics["gemv_or_simt_layers"] = float64(gemv)
		f.Evidence = append(f.Evidence, fmt.Sprintf("%d of them are GEMV/SIMT kernels, usual for batch 1: a larger batch would let tensor cores help.", gemv))
	}
	f.NextCheck = "Check channel alignment (multiples of 8 for FP16, 16 for INT8), try a larger batch, and rebuild with --builderOptimizationLevel=5; if tensor-core tactics still lose, they were timed slower for these shapes."
	return f
}

// evalFP32Engine says, for FP32 engines, that tensor cores are out of reach
// of FP32 math (TF32 aside), instead of complaining about them.
func evalFP32Engine(c *ctx) *contract.Finding {
	if c.target != "FP32" && c.target != "TF32" {
		return nil
	}
	mm := c.selectTimed(isMatmulLayer)
	if len(mm) == 0 {
		return nil
	}
	cuda := make([]*contract.Record, 0, len(mm))
	tf32 := 0.0
	for _, r := range mm {
		if r.TensorCore {
			tf32 += r.AvgMs
		} else {
			cuda = append(cuda, r)
		}
	}
	f := c.newFinding("fp32_engine", contract.ConfidenceLow, cuda)
	f.Metrics["matmul_ms"] = round(sumMs(mm), 6)
	f.Metrics["tf32_tensor_core_ms"] = round(tf32, 6)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("This engine computes in FP32 (%s): FP32 math cannot use FP16/INT8 tensor cores, so CUDA-core convolution/GEMM tactics are expected, not a fault.", c.targetEvidence()),
		fmt.Sprintf("Convolution/GEMM: %.4f ms (%.2f%%); %.2f%% of the time runs on TF32 tensor cores, %.2f%% on CUDA cores.",
			sumMs(mm), c.pct(sumMs(mm)), c.pct(tf32), c.pct(sumMs(cuda))))
	return f
}

// alignment is the channel multiple tensor-core kernels want per precision.
func alignment(p string) int64 {
	switch p {
	case "FP16", "BF16":
		return 8
	case "INT8":
		return 16
	case "FP8":
		return 32
	}
	return 0
}

// channels returns a conv/GEMM layer's input and output channels: C of the
// first input and OutMaps for convolutions; K (last input dim) and N (last
// output dim) for GEMMs. 0 when unknown.
func (c *ctx) channels(r *contract.Record) (in, out int64) {
	l := c.layer(r)
	p := c.convParams(l)
	if p.OutMaps != nil {
		out = *p.OutMaps
		if len(l.Inputs) > 0 && len(l.Inputs[0].Dimensions) >= 3 {
			in = l.Inputs[0].Dimensions[1]
		}
		return in, out
	}
	if len(l.Inputs) > 0 && len(l.Outputs) > 0 {
		di, do := l.Inputs[0].Dimensions, l.Outputs[0].Dimensions
		if len(di) > 0 && len(do) > 0 {
			return di[len(di)-1], do[len(do)-1]
		}
	}
	return 0, 0
}

func evalChannelAlignment(c *ctx) *contract.Finding {
	type bad struct {
		r       *contract.Record
		in, out int64
		align   int64
	}
	var bads []bad
	recs := c.selectTimed(func(r *contract.Record) bool {
		a := alignment(r.Precision)
		if a == 0 || !isMatmulLayer(r) || r.LayerType == "kgen_mha" || r.RawLayerType == "Myelin" || c.isDepthwise(r) {
			return false
		}
		in, out := c.channels(r)
		// Inputs of 4 channels or fewer are image inputs: TensorRT pads
		// them and a first-layer kernel handles them.
		if in > 0 && (in%a != 0 && in > 4) || out > 0 && out%a != 0 {
			bads = append(bads, bad{r, in, out, a})
			return true
		}
		return false
	})
	if len(recs) == 0 || c.pct(sumMs(recs)) < 0.5 {
		return nil
	}
	f := c.newFinding("channel_alignment", contract.ConfidenceMedium, recs)
	f.Evidence = append(f.Evidence, fmt.Sprintf("%d convolution/GEMM layers have channel counts that are not multiples of 8 (FP16), 16 (INT8) or 32 (FP8): %.4f ms (%.2f%%).",
		len(recs), sumMs(recs), c.pct(sumMs(recs))))
	for i, b := range bads {
		if i == 5 {
			break
		}
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s (%.2f%%, %s): %d input / %d output channels, want multiples of %d.",
			short(b.r.Name), c.pct(b.r.AvgMs), b.r.Precision, b.in, b.out, b.align))
	}
	f.NextCheck = "Pad the channel counts of these layers to the next multiple (8 for FP16, 16 for INT8, 32 for FP8) in the model (zero-padded weights), rebuild and compare these layers' times."
	return f
}
