package findings

import "github.com/trtperf/trtperf/internal/contract"

// deviceBandwidthGBs is the device's peak memory bandwidth when the folder
// told it (trtexec log or metadata), else 0.
func deviceBandwidthGBs(b *contract.Backend) float64 {
	if d := b.Device; d != nil && d.MemoryBandwidthGBs != nil && *d.MemoryBandwidthGBs > 0 {
		return *d.MemoryBandwidthGBs
	}
	return 0
}
