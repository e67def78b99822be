// Package costmodel predicts how long each layer of a TensorRT engine takes
// on a GPU, from the layer's facts (arithmetic, bytes moved, precision,
// tactic family, tensor-core use) and the device's facts (peak throughput
// per precision, which precisions have tensor cores, memory bandwidth), and
// how long it would take under a change a finding proposes (FP16, INT8 or
// TF32 instead of FP32, a tensor-core tactic, a fused epilogue, INT8
// outputs, a reformat removed). It reads no files: internal/analysis gives
// it the layers and the device.
//
// # The model
//
// A layer's time is a per-kernel floor plus its arithmetic plus its bytes:
//
//	ms = floor + flops / (peak[path] × eff[path] × fill) + bytes / (bandwidth × effMem)
//	fill = min(1, output elements / (SMs × fillElems))
//
// floor is what a kernel costs however little it does, as a per-layer
// profile records it: launch, the GPU's ramp-up and drain, and the
// profiler's events around the layer. The arithmetic and the bytes add
// rather than overlap: at inference sizes a kernel's tiles load, then
// multiply, and the small kernels that dominate batch-1 networks overlap
// little. The exception is a matrix–vector product (fewer than gemvRows
// output rows: batch-1 fully connected layers), whose one multiply-add per
// streamed weight hides under the stream: there the larger term counts.
//
// path is the kernel's math path: tensor cores or CUDA cores, by precision
// (tc_fp16, tc_int8, tc_tf32, tc_fp8, cuda_fp32, cuda_fp16, cuda_int8, and
// unknown for tactics the tactic table gives no tensor-core verdict). peak
// is the device's dense peak of that path: a tensor-core path needs the
// device to have tensor cores for the precision (gpu.TensorCorePrecisions);
// CUDA-core FP16 runs at twice the FP32 rate where the GPU has fast FP16
// (every GPU but Pascal GP10x, compute capability 6.1) and INT8 by DP4A at
// four times it (6.1 and later). fill is the share of the SMs a
// convolution's or GEMM's outputs keep busy: a layer with few outputs
// (late, small feature maps on a GPU with many SMs) has too few output
// tiles for every SM, and its arithmetic runs at that share of the peak
// (a matrix–vector product spreads its weights instead: fill 1).
//
// bytes are the layer's input and output activations at their formats'
// element sizes (vectorized formats such as chw4, chw32 and hwc8 padded to
// whole vectors) plus its weights. Layers without arithmetic the layer
// info determines (pointwise, reformats, pooling, normalisation, Myelin
// regions, plugins) are memory passes; layout and type conversions
// (reformats, Q/DQ) at their own achieved bandwidth. NoOp and Constant
// layers run no kernel and take no time.
//
// # Calibration
//
// floor, fillElems and the efficiencies are fitted once, on the measured
// corpus as a whole (../shared/corpus: every timed layer of every
// layer_profile backend whose GPU the files name — 543 layers of 14
// backends on A100, RTX 3090, TITAN RTX and RTX 3060 Laptop GPUs; Myelin
// regions and plugins, whose arithmetic the layer info does not give, are
// left out). Fit minimises Σ √ms × |ln(predicted / profiled)| over all
// layers at once (coordinate descent on logarithmic grids, then
// Nelder–Mead). The result is Calibrated; internal/analysis's
// TestCostModelCalibration refits it from the corpus and fails when the
// shipped values drift from the fit, and TestCostModelValidation holds
// the model to issue 21's targets (BENCHMARKS.md has both tables). Nothing
// is fitted per case, per model or per label: one set of numbers for
// every engine, and the model's error on the corpus (ErrorPct) is stated
// with every prediction and spans every model-priced finding.
package costmodel

import (
	"math"
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// Op is what a layer's time is made of.
type Op uint8

const (
	OpNone   Op = iota // no kernel (NoOp): no time
	OpMatmul           // convolution, deconvolution, GEMM: arithmetic and bytes
	OpMemory           // everything else: bytes
)

// Bytes are tensor bytes by element size: 4-byte floats, 2-byte floats,
// 1-byte types (INT8, FP8), and the rest (INT32 shape tensors, INT64, BOOL,
// 4-bit types), which no precision change touches.
type Bytes struct{ F32, F16, I8, Other float64 }

// Sum is all of b.
func (b Bytes) Sum() float64 { return b.F32 + b.F16 + b.I8 + b.Other }

// Layer is what the model reads of one layer.
type Layer struct {
	Op         Op
	Precision  string // layerfacts precision (FP32, TF32, FP16, BF16, INT8, FP8, ...)
	TensorCore layerfacts.TensorCoreUse
	FLOPs      float64
	In, Out, W Bytes
	// Quantize is true for Q/DQ and reformat layers (removable when the
	// producer writes the consumer's format).
	Quantize bool
	// Opaque is true for Myelin regions and plugins whose arithmetic the
	// layer info does not give: the model sees only their bytes, so their
	// prediction is a lower bound and they are left out of the fit.
	Opaque bool
	// OutElems is the number of elements of the layer's first output
	// (0 when unknown): the parallel work a kernel spreads over the SMs.
	OutElems float64
	// Positions is OutElems over the output's channel dimension (index
	// 1): the rows of the GEMM a convolution or fully connected layer
	// computes (batch × output pixels); 0 when unknown.
	Positions float64
}

// FromLayer builds the model's view of one layer from its layer info and
// facts. Integer tensors (shape tensors) and tensors of dynamic shape
// count as Other / are left out.
func FromLayer(l *engine.Layer, f *layerfacts.Facts) Layer {
	m := Layer{Op: OpMemory, Precision: f.Precision, TensorCore: f.TensorCore}
	if strings.EqualFold(l.Type, "Constant") {
		// A Constant layer's output is stored in the engine and bound
		// as it is: no kernel runs (profiles record 0 ms for it).
		m.Op = OpNone
	}
	for _, t := range f.Tags {
		if t == layerfacts.TagNoop {
			m.Op = OpNone
		}
		if t == layerfacts.TagQuantize || t == layerfacts.TagReformat {
			m.Quantize = true
		}
		if t == layerfacts.TagMyelin || t == layerfacts.TagPlugin {
			m.Opaque = true
		}
	}
	if w, ok := layerfacts.LayerWork(l); ok && w.FLOPs > 0 {
		m.Op, m.FLOPs, m.Opaque = OpMatmul, w.FLOPs, false
	}
	for i := range l.Inputs {
		addTensor(&m.In, &l.Inputs[i])
	}
	for i := range l.Outputs {
		addTensor(&m.Out, &l.Outputs[i])
	}
	if len(l.Outputs) > 0 {
		d := l.Outputs[0].Dims
		m.OutElems = elements(d)
		if len(d) >= 2 && d[1] > 0 {
			m.Positions = m.OutElems / float64(d[1])
		}
	}
	wb, _, _ := layerfacts.WeightBytes(l)
	switch m.Precision {
	case layerfacts.INT8, layerfacts.FP8:
		m.W.I8 = wb
	case layerfacts.FP16, layerfacts.BF16:
		m.W.F16 = wb
	case layerfacts.FP32, layerfacts.TF32:
		m.W.F32 = wb
	default:
		m.W.Other = wb
	}
	return m
}

// elements is the element count of dims, 0 when a dimension is unknown.
func elements(dims []int64) float64 {
	if len(dims) == 0 {
		return 0
	}
	n := 1.0
	for _, d := range dims {
		if d < 0 {
			return 0
		}
		n *= float64(d)
	}
	return n
}

func addTensor(b *Bytes, t *engine.Tensor) {
	by, ok := layerfacts.TensorBytes(t)
	if !ok {
		return
	}
	switch layerfacts.DataType(t.Format) {
	case layerfacts.FP32:
		b.F32 += by
	case layerfacts.FP16, layerfacts.BF16:
		b.F16 += by
	case layerfacts.INT8, layerfacts.UINT8, layerfacts.FP8:
		b.I8 += by
	default:
		b.Other += by
	}
}

// Device is what the model reads of a GPU: dense peaks in TFLOP/s (TOP/s),
// 0 where the GPU has no such path, and memory bandwidth in GB/s.
type Device struct {
	Name             string
	CCMajor, CCMinor int
	SMs              int     // streaming multiprocessors; 0 when unknown
	FP32             float64 // CUDA cores
	TC               map[string]float64
	BandwidthGBs     float64
}

// FromFacts is the model's device of derived GPU facts; ok is false when
// the FP32 peak or the memory bandwidth is unknown.
func FromFacts(f gpu.Facts) (Device, bool) {
	d := Device{Name: f.Name, CCMajor: f.CCMajor, CCMinor: f.CCMinor, SMs: f.SMs, TC: map[string]float64{}}
	if f.Peaks.FP32 == nil || f.MemoryBandwidthGBs == nil {
		return d, false
	}
	d.FP32, d.BandwidthGBs = *f.Peaks.FP32, *f.MemoryBandwidthGBs
	for _, p := range f.TensorCores {
		var v *float64
		switch p {
		case "FP16":
			v = f.Peaks.FP16
		case "BF16":
			v = f.Peaks.BF16
		case "TF32":
			v = f.Peaks.TF32
		case "INT8":
			v = f.Peaks.INT8
		case "FP8":
			v = f.Peaks.FP8
		}
		if v != nil && *v > 0 {
			d.TC[p] = *v
		}
	}
	return d, true
}

// HasTC reports whether the device runs precision p on tensor cores.
func (d *Device) HasTC(p string) bool { return d.TC[tcKey(p)] > 0 }

// FastFP16 reports whether the device computes FP16 at least at the FP32
// rate (every GPU but Pascal GP10x, compute capability 6.1, where FP16 runs
// at 1/64 of FP32 and TensorRT keeps FP32 kernels).
// An unknown compute capability counts as fast (gpu.FastFP16).
func (d *Device) FastFP16() bool { return d.CCMajor < 0 || gpu.FastFP16(d.CCMajor, d.CCMinor) }

// dp4a reports whether the device has fast INT8 on CUDA cores
// (gpu.FastINT8).
func (d *Device) dp4a() bool { return gpu.FastINT8(d.CCMajor, d.CCMinor) }

func tcKey(p string) string {
	if p == layerfacts.BF16 {
		return "BF16"
	}
	return p
}

// Path is a kernel's math path, the key of the compute efficiencies.
type Path string

const (
	PathTCFP16   Path = "tc_fp16"
	PathTCINT8   Path = "tc_int8"
	PathTCTF32   Path = "tc_tf32"
	PathTCFP8    Path = "tc_fp8"
	PathCUDAFP32 Path = "cuda_fp32"
	PathCUDAFP16 Path = "cuda_fp16"
	PathCUDAINT8 Path = "cuda_int8"
	PathUnknown  Path = "unknown"
)

// Paths lists every path, in a fixed order.
var Paths = []Path{PathTCFP16, PathTCINT8, PathTCTF32, PathTCFP8, PathCUDAFP32, PathCUDAFP16, PathCUDAINT8, PathUnknown}

// path is the math path of a matmul layer on d and its peak (TFLOP/s).
func (d *Device) path(l *Layer) (Path, float64) {
	p := l.Precision
	tc := l.TensorCore
	if tc == layerfacts.TensorCoreYes && p == layerfacts.FP32 && d.HasTC(layerfacts.TF32) {
		p = layerfacts.TF32 // an FP32 layer on tensor cores runs TF32
	}
	if tc != layerfacts.TensorCoreNo && d.HasTC(p) {
		v := d.TC[tcKey(p)]
		if tc == layerfacts.TensorCoreUnknown {
			return PathUnknown, v
		}
		switch p {
		case layerfacts.FP16, layerfacts.BF16:
			return PathTCFP16, v
		case layerfacts.INT8:
			return PathTCINT8, v
		case layerfacts.TF32:
			return PathTCTF32, v
		case layerfacts.FP8:
			return PathTCFP8, v
		}
	}
	switch p {
	case layerfacts.FP16, layerfacts.BF16, layerfacts.FP8:
		if d.FastFP16() {
			return PathCUDAFP16, 2 * d.FP32
		}
		return PathCUDAFP32, d.FP32
	case layerfacts.INT8:
		if d.dp4a() {
			return PathCUDAINT8, 4 * d.FP32
		}
	}
	// No tensor-core verdict and no tensor cores for the precision (FP32
	// without a tensor-core tactic named): a CUDA-core kernel. The unknown
	// path's efficiency is a share of a tensor-core peak and would price
	// it several times too slow.
	return PathCUDAFP32, d.FP32
}

// Params are the model's calibrated constants.
type Params struct {
	// FloorMs is what a kernel costs however little it does, as a
	// per-layer profile records it: launch, the GPU's ramp-up and drain,
	// and the profiler's events around the layer.
	FloorMs float64
	// FillElems is how many output elements per SM a convolution or GEMM
	// needs to keep every SM busy: a kernel with fewer outputs than
	// SMs × FillElems leaves SMs idle (too few output tiles), and its
	// arithmetic runs at that fraction of the peak.
	FillElems float64
	MemEff    float64 // achieved fraction of peak memory bandwidth
	// ReformatEff is the fraction of peak bandwidth a layout or type
	// conversion achieves (reformats, Q/DQ): strided reads and channel
	// padding make them slower than a streaming pass.
	ReformatEff float64
	Compute     map[Path]float64 // achieved fraction of the path's peak
}

// Estimate is one layer's predicted time and what sets it.
type Estimate struct {
	Ms, ComputeMs, MemoryMs float64
	Path                    Path // "" for memory-only layers
	Bound                   string
	// Fill is the fraction of the SMs the layer's outputs keep busy (1
	// for memory passes, matrix–vector products and unknown shapes).
	Fill float64
}

// Bounds of an estimate (the contract's prediction.layer_bound values).
const (
	BoundCompute = "compute"
	BoundMemory  = "memory"
	BoundLaunch  = "launch"
	BoundNone    = "none"
)

// gemvRows is the largest number of GEMM rows (batch × output positions)
// of a matrix–vector product: below the smallest tensor-core tile's M (8),
// TensorRT runs GEMV or split-K kernels that spread the weight matrix, not
// the outputs, over the SMs.
const gemvRows = 8

// GEMV reports whether l is a matrix–vector product (a convolution or
// GEMM of fewer than gemvRows rows): its kernel streams the weights once,
// one multiply-add per weight, so the arithmetic hides under the loads.
func (l *Layer) GEMV() bool {
	return l.Op == OpMatmul && l.Positions > 0 && l.Positions < gemvRows
}

// fill is the fraction of d's SMs the outputs of l keep busy.
func (p *Params) fill(d *Device, l *Layer) float64 {
	if l.Op != OpMatmul || p.FillElems <= 0 || d.SMs <= 0 || l.OutElems <= 0 || l.GEMV() {
		return 1
	}
	return min(1, l.OutElems/(float64(d.SMs)*p.FillElems))
}

// Time predicts a layer's time on d with params p: the floor, plus the
// arithmetic at the achieved share of the path's peak (scaled down when
// the outputs cannot fill the SMs), plus the bytes at the achieved share
// of the memory bandwidth. The terms add (a convolution's tiles load,
// then multiply; at inference sizes the two overlap little), except in a
// matrix–vector product, whose one multiply-add per streamed weight hides
// under the stream: there the larger term counts.
func (p *Params) Time(d *Device, l *Layer) Estimate {
	if l.Op == OpNone {
		return Estimate{Bound: BoundNone}
	}
	e := Estimate{Fill: p.fill(d, l)}
	bytes := l.In.Sum() + l.Out.Sum() + l.W.Sum()
	if d.BandwidthGBs > 0 {
		eff := p.MemEff
		if l.Quantize && l.Op == OpMemory && p.ReformatEff > 0 {
			eff = p.ReformatEff
		}
		e.MemoryMs = bytes / (d.BandwidthGBs * 1e9 * eff) * 1e3
	}
	if l.Op == OpMatmul {
		path, peak := d.path(l)
		e.Path = path
		if peak > 0 {
			eff := p.Compute[path]
			if eff <= 0 {
				eff = p.Compute[PathUnknown]
			}
			e.ComputeMs = l.FLOPs / (peak * 1e12 * eff * e.Fill) * 1e3
		}
	}
	body := e.ComputeMs + e.MemoryMs
	if l.GEMV() {
		body = max(e.ComputeMs, e.MemoryMs)
	}
	e.Ms = body + p.FloorMs
	switch {
	case body < p.FloorMs:
		e.Bound = BoundLaunch
	case e.ComputeMs >= e.MemoryMs:
		e.Bound = BoundCompute
	default:
		e.Bound = BoundMemory
	}
	return e
}

// Change is what a finding proposes for a layer.
type Change uint8

const (
	AsIs          Change = iota
	ToFP16               // compute and store in FP16 (tensor cores where the GPU has them)
	ToINT8               // compute and store in INT8
	ToTF32               // FP32 convolutions/GEMMs on TF32 tensor cores
	OnTensorCores        // the same precision on a tensor-core tactic
	Removed              // the layer is gone (a reformat or Q/DQ the producer absorbs, a shape op folded)
	Fused                // fused into its producer's epilogue: no pass of its own
	INT8Output           // the layer writes INT8 instead of floats
	INT8Weights          // weights stored in INT8/FP8
)

var changeNames = [...]string{"as built", "FP16", "INT8", "TF32", "tensor-core tactic", "removed", "fused into the producer", "INT8 output", "INT8 weights"}

func (c Change) String() string {
	if int(c) < len(changeNames) {
		return changeNames[c]
	}
	return "unknown change"
}

// Apply returns the layer under change c on d, and false when the layer
// no longer runs. A change the device cannot carry out (FP16 on a GPU
// without fast FP16, INT8 without DP4A or INT8 tensor cores, TF32 without
// TF32 tensor cores) leaves the layer as it is.
func Apply(d *Device, l Layer, c Change) (Layer, bool) {
	half := func(b *Bytes) { b.F16 += b.F32 / 2; b.F32 = 0 }
	quarter := func(b *Bytes) { b.I8 += b.F32/4 + b.F16/2; b.F32, b.F16 = 0, 0 }
	switch c {
	case Removed, Fused:
		return l, l.Op == OpNone
	case ToFP16:
		if (l.Precision != layerfacts.FP32 && l.Precision != layerfacts.TF32) || !d.FastFP16() {
			return l, true
		}
		l.Precision = layerfacts.FP16
		half(&l.In)
		half(&l.Out)
		half(&l.W)
		if l.Op == OpMatmul {
			l.TensorCore = layerfacts.TensorCoreNo
			if d.HasTC(layerfacts.FP16) {
				l.TensorCore = layerfacts.TensorCoreYes
			}
		}
	case ToINT8:
		if l.Precision == layerfacts.INT8 || !(d.HasTC(layerfacts.INT8) || d.dp4a()) {
			return l, true
		}
		l.Precision = layerfacts.INT8
		quarter(&l.In)
		quarter(&l.Out)
		quarter(&l.W)
		if l.Op == OpMatmul {
			l.TensorCore = layerfacts.TensorCoreNo
			if d.HasTC(layerfacts.INT8) {
				l.TensorCore = layerfacts.TensorCoreYes
			}
		}
	case ToTF32:
		if l.Op == OpMatmul && l.Precision == layerfacts.FP32 && d.HasTC(layerfacts.TF32) {
			l.Precision, l.TensorCore = layerfacts.TF32, layerfacts.TensorCoreYes
		}
	case OnTensorCores:
		p := l.Precision
		if p == layerfacts.FP32 {
			p = layerfacts.TF32
		}
		if l.Op == OpMatmul && d.HasTC(p) {
			l.Precision, l.TensorCore = p, layerfacts.TensorCoreYes
		}
	case INT8Output:
		quarter(&l.Out)
	case INT8Weights:
		if l.W.Sum() > 0 {
			quarter(&l.W)
		} else {
			// The weights arrive as an input tensor (a Myelin GEMM's
			// constant operand): of a matrix-vector product they are
			// nearly all of its input bytes.
			quarter(&l.In)
		}
	}
	return l, true
}

// Gain is the time a change gives back on one layer: its time as built
// minus its time under the change (never negative: TensorRT keeps the
// faster kernel).
func (p *Params) Gain(d *Device, l *Layer, c Change) float64 {
	before := p.Time(d, l).Ms
	after := 0.0
	if nl, runs := Apply(d, *l, c); runs {
		after = p.Time(d, &nl).Ms
	}
	return math.Max(0, before-after)
}
