package findings

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// gemvFacts are the shape facts of a GEMM/FC layer: rows (M, the output
// rows sharing one weight matrix) and weight bytes.
type gemvFacts struct {
	rows        int64
	weightBytes float64
}

// gemvOf returns a matmul layer's rows and weight bytes, ok false when they
// cannot be read from the dump.
func (c *evaluation) gemvOf(layer int) (gemvFacts, bool) {
	l := &c.b.Layers[layer]
	if len(l.Outputs) == 0 {
		return gemvFacts{}, false
	}
	out := l.Outputs[0].Dimensions
	var g gemvFacts
	// Rows: everything but the feature dimension. A conv-as-GEMM writes
	// [N, K, H, W]: rows N×H×W; a MatMul [.., M, N]: rows = product of all
	// but the last.
	if len(out) == 4 {
		g.rows = out[0] * out[2] * out[3]
	} else if len(out) >= 1 {
		g.rows = 1
		for _, d := range out[:len(out)-1] {
			g.rows *= d
		}
	}
	if g.rows <= 0 {
		return gemvFacts{}, false
	}
	// Weights: the layer's Weights parameter, else its second input (a
	// Myelin gemm reads the weight matrix as an input tensor).
	if w := weightsParam(l.Parameters); w > 0 {
		g.weightBytes = w
	} else if len(l.Inputs) >= 2 {
		t := l.Inputs[1]
		n := int64(1)
		for _, d := range t.Dimensions {
			if d <= 0 {
				return gemvFacts{}, false
			}
			n *= d
		}
		g.weightBytes = float64(n) * bytesPer(t.Format)
	}
	return g, g.weightBytes > 0
}

// weightsParam reads {"Weights": {"Type": "Float", "Count": N}} as bytes.
func weightsParam(raw []byte) float64 {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`"Weights"`)) {
		return 0
	}
	var p struct {
		Weights *struct {
			Type  string  `json:"Type"`
			Count float64 `json:"Count"`
		} `json:"Weights"`
	}
	if json.Unmarshal(raw, &p) != nil || p.Weights == nil || p.Weights.Count <= 0 {
		return 0
	}
	return p.Weights.Count * bytesPer(p.Weights.Type)
}

// bytesPer is the size of one element of a data type or format description.
func bytesPer(t string) float64 {
	switch d := dataTypeWord(t); d {
	case "FP32", "INT32":
		return 4
	case "FP16", "BF16":
		return 2
	case "INT8", "FP8", "UINT8":
		return 1
	case "FP4", "INT4":
		return 0.5
	}
	return 2
}

// dataTypeWord finds the data type word in a format description ("Row
// major linear FP32", "Half", "Float").
func dataTypeWord(t string) string {
	switch {
	case containsFold(t, "fp32") || containsFold(t, "float") && !containsFold(t, "float16"):
		return "FP32"
	case containsFold(t, "fp16") || containsFold(t, "half") || containsFold(t, "float16"):
		return "FP16"
	case containsFold(t, "bf16"):
		return "BF16"
	case containsFold(t, "int8"):
		return "INT8"
	case containsFold(t, "fp8"):
		return "FP8"
	case containsFold(t, "int32"):
		return "INT32"
	case containsFold(t, "int4"):
		return "INT4"
	case containsFold(t, "fp4"):
		return "FP4"
	}
	return ""
}

func evalGEMVBandwidth(c *evaluation) *contract.Finding {
	peak := deviceBandwidthGBs(c.b)
	type hit struct {
		r   *contract.Record
		gbs float64
		g   gemvFacts
	}
	var hits []hit
	for _, r := range c.selectTimed(func(_ *contract.Record, t *timedInfo) bool { return t.k.is(fMatmul) && !t.k.is(fKgenMHA) }) {
		g, ok := c.gemvOf(r.Layer)
		if !ok || g.rows > limits.gemvMaxRows {
			continue
		}
		gbs := g.weightBytes / (r.AvgMs * 1e-3) / 1e9
		bound := gbs >= limits.gemvMinGBs
		if peak > 0 {
			bound = gbs >= limits.gemvMinBandwidthShare*peak
		}
		if bound {
			hits = append(hits, hit{r, gbs, g})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	recs := make([]*contract.Record, len(hits))
	totalBytes := 0.0
	for i, h := range hits {
		recs[i] = h.r
		totalBytes += h.g.weightBytes
	}
	conf := contract.ConfidenceMedium
	if peak > 0 {
		conf = contract.ConfidenceHigh
	}
	f := c.newFinding("bandwidth_bound_gemv", conf, recs)
	b := priceFactors["gemv_bandwidth"]
	c.price(f, sumMs(recs), b, "weight bytes halved (INT8/FP8 or FP16 weights)")
	f.Metrics["weight_mb"] = round(totalBytes/1e6, 3)
	if peak > 0 {
		f.Metrics["peak_gbs"] = peak
	}
	f.Evidence = append(f.Evidence, fmt.Sprintf("%d matrix-vector products (at most %d rows per weight matrix) read %.1f MB of weights per inference: %.4f ms (%.2f%% of the profile).",
		len(hits), limits.gemvMaxRows, totalBytes/1e6, sumMs(recs), c.pct(sumMs(recs))))
	for i, h := range hits {
		if i == 3 {
			break
		}
		s := fmt.Sprintf("%s: %.1f MB of %s weights in %.4f ms = %.0f GB/s", short(h.r.Name), h.g.weightBytes/1e6, h.r.Precision, h.r.AvgMs, h.gbs)
		if peak > 0 {
			s += fmt.Sprintf(" (%.0f%% of the device's %.0f GB/s)", h.gbs/peak*100, peak)
		}
		f.Evidence = append(f.Evidence, s+".")
	}
	f.Evidence = append(f.Evidence, "These kernels are bound by memory bandwidth: tensor cores, channel padding or tactic choice do not change their time.")
	f.Metrics["achieved_gbs_max"] = round(hits[0].gbs, 1)
	narrower := c.narrowerWeights()
	switch {
	case narrower == "" && !(c.fp32Target() && c.fastPath(layerfacts.FP16)):
		f.Action = "Batch several requests so each weight read serves more than one input"
		if d := c.deviceOffers(); d != "" {
			f.Action += ": " + d + ", so no narrower weights would be computed faster"
		}
		f.Action += "."
		f.NextCheck = "Profile at a larger batch" + c.batchShapes(8) + " and compare the time per input."
	case c.fp32Target() && c.fastPath(layerfacts.FP16):
		f.Action = "Build with --fp16 first: FP16 weights halve the bytes read."
		if narrower != "" {
			f.Action += " For more, read fewer bytes still — " + narrower + " — or batch several requests so each weight read serves more than one input."
		} else {
			f.Action += " For more, batch several requests so each weight read serves more than one input."
		}
		f.NextCheck = "Rebuild with --fp16 and compare these layers' times."
	default:
		if !c.fastPath(layerfacts.FP16) {
			f.Evidence = append(f.Evidence, "FP16 weights are no option here: "+c.deviceOffers()+", and runs FP16 far slower than FP32.")
		}
		f.Action = "Read fewer weight bytes — " + narrower + " — or batch several requests so each weight read serves more than one input."
		f.NextCheck = "Quantize the fully connected weights in one of those ways, rebuild and compare these layers' times; or profile at a larger batch" + c.batchShapes(8) + "."
	}
	return f
}

// fp32Target: an FP32 or TF32 engine whose precision a builder flag sets
// (not a strongly typed network, whose precision comes from the model).
func (c *evaluation) fp32Target() bool {
	return (c.target == "FP32" || c.target == "TF32") && !c.stronglyTyped()
}

// narrowerWeights lists the ways to store GEMM weights in fewer bytes that
// this GPU and TensorRT release offer: INT8 (W8A8, calibrated or with
// Q/DQ) where the GPU computes INT8 fast (DP4A or tensor cores); FP8 only on GPUs with FP8 tensor cores (compute
// capability 8.9+); INT4 weight-only (W4A16) only from TensorRT 10 and
// where FP16 is fast. "" when none fits.
// Unknown facts keep an option with its condition said.
func (c *evaluation) narrowerWeights() string {
	var opts []string
	switch {
	case !c.fastPath(layerfacts.INT8):
		// No DP4A nor INT8 tensor cores: INT8 is no faster here.
	case c.has("--int8"):
		opts = append(opts, "INT8 weights and activations (W8A8: Q/DQ from NVIDIA ModelOpt or pytorch-quantization, or calibration with --int8)")
	default:
		opts = append(opts, "INT8 weights and activations (W8A8: Q/DQ from NVIDIA ModelOpt or pytorch-quantization)")
	}
	switch cc := c.computeCapability(); {
	case cc >= 89:
		opts = append(opts, "FP8 (Q/DQ; this GPU has FP8 tensor cores)")
	case cc == 0:
		opts = append(opts, "FP8 on a GPU with FP8 tensor cores (Ada, Hopper or newer)")
	}
	switch {
	case !c.fastPath(layerfacts.FP16):
		// W4A16 computes in FP16: no faster where FP16 is slow.
	case c.trt.IsZero():
		opts = append(opts, "INT4 weight-only (W4A16, e.g. ModelOpt INT4 AWQ; TensorRT 10 or newer)")
	case !c.trt.Lo.Less(trtexecflags.V(10, 0)):
		opts = append(opts, "INT4 weight-only (W4A16, e.g. ModelOpt INT4 AWQ)")
	}
	return strings.Join(opts, "; ")
}

// computeCapability is the device's compute capability as 86 for "8.6";
// 0 when the device is unknown.
func (c *evaluation) computeCapability() int {
	d := c.b.Device
	if d == nil || d.ComputeCapability == nil {
		return 0
	}
	var major, minor int
	if n, _ := fmt.Sscanf(*d.ComputeCapability, "%d.%d", &major, &minor); n == 0 {
		return 0
	}
	return major*10 + minor
}

// batchShapes is " (--shapes=in:8x3x224x224)" for the backend's inputs at
// batch n, when every input's dimensions are known; else "".
func (c *evaluation) batchShapes(n int64) string {
	var parts []string
	for _, in := range c.b.Model.InputShapes {
		if len(in.Dimensions) == 0 || strings.ContainsAny(in.Name, ",:' ") {
			return ""
		}
		dims := make([]string, len(in.Dimensions))
		for i, d := range in.Dimensions {
			if i == 0 {
				d = n
			}
			if d <= 0 {
				return ""
			}
			dims[i] = strconv.FormatInt(d, 10)
		}
		parts = append(parts, in.Name+":"+strings.Join(dims, "x"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (--shapes=" + strings.Join(parts, ",") + ", on an engine built for that batch)"
}
