package findings

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/costmodel"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// profileFP32Engine is the fp32_engine finding of a profile_only backend
// whose build facts (a build log's "Precision:" line or the build's flags,
// TREx build metadata; never a --loadEngine run's defaults, never a label)
// state an FP32 build. It owns the compute records no other cause holds
// (held; kinds guessed from names), priced on their measured time with
// the layer rule's band for the device; no finding where the GPU has no
// fast FP16 (Pascal GP10x: TensorRT keeps FP32 kernels). A faster measured
// sibling whose build allows FP16 or INT8 replaces the estimate
// (EvaluateSiblings). nil when none of this applies.
func (c *evaluation) profileFP32Engine(held []bool) *contract.Finding {
	bp, ok := layerfacts.BuildPrecision(c.b.Build)
	if !ok || bp.Narrowest != layerfacts.FP32 {
		return nil
	}
	band, device, ok := fp32ProfileBand(c.b.Device)
	if !ok {
		return nil
	}
	recs := c.b.Records
	var own []int
	for i := range recs {
		k := recs[i].LayerType
		if !held[i] && recs[i].AvgMs > 0 && computeKinds[k] && k != layerfacts.KindDLA {
			own = append(own, i)
		}
	}
	if len(own) == 0 {
		return nil
	}
	i := slices.IndexFunc(rules, func(r rule) bool { return r.ID == "fp32_engine" })
	f := c.recordFinding(profileCause{id: "fp32_engine", recs: own,
		why: "The build enabled no reduced precision, so every convolution and GEMM computes in FP32 (TF32 at most) and every tensor moves twice the bytes FP16 would."})
	f.Title = strings.TrimSuffix(rules[i].Title, ")") + ", from the build facts)"
	f.Confidence = contract.ConfidenceHigh // the precision is a build fact; only the kinds are guessed
	f.Evidence = slices.Insert(f.Evidence, 0, fmt.Sprintf("This engine was built in FP32 (%s): no --fp16, --bf16, --int8 or --best, so its convolutions/GEMMs cannot use FP16/INT8 tensor cores.", bp.Evidence), device)
	f.Places = nil // the whole build changes, not named layers
	f.NextCheck = rules[i].NextCheck
	c.fp32Action(f)
	// The layer rule's bands by guessed kind: convolution/GEMM records
	// (TF32 or CUDA-core FP32, per the device) and the other compute.
	var mm, other float64
	for _, j := range own {
		if recs[j].LayerType == "Pooling" {
			other += recs[j].AvgMs
		} else {
			mm += recs[j].AvgMs
		}
	}
	bm, bo, s := priceFactors[band], priceFactors["fp32_engine_other"], c.scale
	if band == "fp32_engine_fp16_cuda_cores" {
		bo = bm
	}
	c.priceMs(f, s*(mm*bm.low+other*bo.low), s*(mm*bm.est+other*bo.est), s*(mm*bm.high+other*bo.high),
		fmt.Sprintf("%s: convolution/GEMM record time %.4f ms × %.2f + other compute %.4f ms × %.2f (measured, kinds guessed from names), × profile scale %.3f", band, mm, bm.est, other, bo.est, s))
	f.PriceBasis = PriceGuessedKinds
	f.Metrics["matmul_ms"] = round(mm, 6)
	return f
}

// fp32ProfileBand is the priceFactors band of FP32 → FP16 for a profile's
// convolution/GEMM records on a device, with the sentence that says why;
// ok is false on a GPU without fast FP16. A profile does not say whether
// an FP32 convolution ran on TF32 tensor cores, so on a GPU that has them
// (or an unknown GPU) the TF32 band, the smaller gain, prices it.
func fp32ProfileBand(d *contract.Device) (band, why string, ok bool) {
	if d == nil {
		return "fp32_engine_tf32", "The GPU is unknown: the price assumes FP16 tensor cores and that the FP32 convolutions/GEMMs ran on TF32 tensor cores (the smaller gain).", true
	}
	tc := func(p string) bool { return slices.Contains(d.TensorCores, p) }
	cc := costmodel.Device{CCMajor: -1}
	if d.ComputeCapability != nil {
		maj, mn, _ := strings.Cut(*d.ComputeCapability, ".")
		a, e1 := strconv.Atoi(maj)
		b, e2 := strconv.Atoi(mn)
		if e1 == nil && e2 == nil {
			cc.CCMajor, cc.CCMinor = a, b
		}
	}
	switch {
	case tc(layerfacts.TF32):
		return "fp32_engine_tf32", fmt.Sprintf("%s has FP16 tensor cores; a profile does not say whether the FP32 convolutions/GEMMs ran on its TF32 tensor cores, so the smaller gain, from TF32, prices them.", d.Name), true
	case tc(layerfacts.FP16):
		return "fp32_engine_matmul", fmt.Sprintf("%s has FP16 tensor cores and no TF32 ones: the FP32 convolutions/GEMMs ran on CUDA cores.", d.Name), true
	case cc.CCMajor < 0:
		return "fp32_engine_tf32", fmt.Sprintf("The tensor cores of %s are unknown: the price assumes FP16 tensor cores and that the FP32 convolutions/GEMMs ran on TF32 tensor cores (the smaller gain).", d.Name), true
	case !cc.FastFP16():
		return "", "", false
	}
	return "fp32_engine_fp16_cuda_cores", fmt.Sprintf("%s has no FP16 tensor cores: FP16 runs on its CUDA cores at twice the FP32 rate, so the gain is at most half the time.", d.Name), true
}

// reducedSibling: o's facts say it computes in reduced precision — its
// layers' precisions when it has layer info, else its build facts allow
// FP16/BF16 or INT8 — with the words that say so.
func reducedSibling(o *contract.Backend) (p, why string, ok bool) {
	if d := dominant(o); d != "" {
		return d, fmt.Sprintf("most of its compute time runs in %s", d), precisionRank(d) > 0 && precisionRank(d) <= 3
	}
	bp, ok := layerfacts.BuildPrecision(o.Build)
	if !ok || bp.Narrowest == layerfacts.FP32 {
		return "", "", false
	}
	p = bp.Narrowest
	if bp.Half {
		p = "FP16"
	}
	return p, fmt.Sprintf("its build allows %s (%s)", p, bp.Evidence), true
}

// priceFP32BySibling prices a profile_only backend's fp32_engine finding
// on the measured difference to its fastest sibling build of the same
// work whose facts allow reduced precision (reducedSibling), preferring
// one that allows FP16 (the step --fp16 takes, without calibration).
//
// It serves a layer-info FP32 build too whose only reduced-precision
// sibling is profile_only (halfOnly: then only an FP16/BF16 sibling, as
// applySibling asks of a sibling with layer info). It reports whether it
// priced the finding.
func priceFP32BySibling(b *contract.Backend, bs []*contract.Backend, k *kin, halfOnly bool) bool {
	i := slices.IndexFunc(b.Issues, func(f contract.Finding) bool { return f.ID == "fp32_engine" })
	if i < 0 {
		return false
	}
	var cands []*contract.Backend
	for _, o := range bs {
		if _, _, ok := reducedSibling(o); ok && (!halfOnly || half(o)) || o == b {
			cands = append(cands, o)
		}
	}
	s, ok := bestSibling(b, cands, k)
	if !ok {
		return false
	}
	p, why, _ := reducedSibling(s.b)
	f := &b.Issues[i]
	if f.PriceBasis == PriceGuessedKinds {
		// The device's band priced the estimate; the measured sibling
		// replaces it, so its sentence gives way to the estimate's figure.
		band, devSay, _ := fp32ProfileBand(b.Device)
		f.Evidence = slices.DeleteFunc(f.Evidence, func(e string) bool { return e == devSay })
		f.Evidence = append(f.Evidence, fmt.Sprintf("From the records alone (band %s) the estimate was %.4f ms; the measured sibling replaces it.", band, f.RecoverableMs))
	}
	fp32BySibling(f, b, s)
	f.Evidence = slices.Insert(f.Evidence, 1, fmt.Sprintf("The %q build does the same work (its records align with these; inputs and GPU agree where known) and %s.", s.b.Label, why))
	if p != "FP16" && p != "BF16" {
		f.Evidence = append(f.Evidence, fmt.Sprintf("%q computes in %s, not FP16: part of its gain needs calibration or quantization-aware training; --fp16 alone gives less.", s.b.Label, p))
		f.Confidence = contract.ConfidenceMedium
	}
	return true
}
