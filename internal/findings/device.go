package findings

import (
	"fmt"
	"slices"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// deviceBandwidthGBs is the device's peak memory bandwidth when the folder
// told it (trtexec log or metadata), else 0.
func deviceBandwidthGBs(b *contract.Backend) float64 {
	if d := b.Device; d != nil && d.MemoryBandwidthGBs != nil && *d.MemoryBandwidthGBs > 0 {
		return *d.MemoryBandwidthGBs
	}
	return 0
}

// fastPath reports whether the backend's GPU computes precision p faster
// than FP32 (gpu.FastFP16, gpu.FastINT8; TF32 and BF16 from 8.0, FP8 from
// 8.9, on tensor cores). An unknown GPU keeps every path: the advice then
// says its condition.
func (c *evaluation) fastPath(p string) bool {
	cc := c.computeCapability()
	if cc == 0 {
		return true
	}
	switch p {
	case layerfacts.FP16:
		return gpu.FastFP16(cc/10, cc%10)
	case layerfacts.INT8:
		return gpu.FastINT8(cc/10, cc%10)
	case layerfacts.TF32, layerfacts.BF16:
		return cc >= 80
	case layerfacts.FP8:
		return cc >= 89
	}
	return true
}

// deviceOffers says what the backend's GPU computes faster than FP32, as
// "GTX 1080 (compute capability 6.1) offers INT8 by DP4A at 4× the FP32
// rate"; "" when the compute capability is unknown.
func (c *evaluation) deviceOffers() string {
	cc := c.computeCapability()
	if cc == 0 {
		return ""
	}
	what := gpu.Offers(cc/10, cc%10, c.b.Device.TensorCores)
	if what == "" {
		what = "no precision faster than FP32"
	}
	return fmt.Sprintf("%s (compute capability %d.%d) offers %s", c.b.Device.Name, cc/10, cc%10, what)
}

// hasTensorCores reports whether the backend's GPU runs precision p on
// tensor cores; true when its compute capability is unknown.
func (c *evaluation) hasTensorCores(p string) bool {
	if c.computeCapability() == 0 {
		return true
	}
	return slices.Contains(c.b.Device.TensorCores, p)
}
