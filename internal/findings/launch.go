package findings

import (
	"fmt"

	"github.com/trtperf/trtperf/internal/contract"
)

// evalLaunchBound fires only on evidence that the host is the bottleneck:
// a measured enqueue time close to or above the GPU compute time. Many
// small kernels alone are not a cause when enqueue is far below GPU time
// (then the GPU, not the CPU, sets the pace).
func evalLaunchBound(c *evaluation) *contract.Finding {
	m := c.meas
	if m.enqueueMedian <= 0 || m.gpuMedian <= 0 || m.enqueueMedian < limits.launchEnqueueRatio*m.gpuMedian {
		return nil
	}
	recs := c.selectTimed(func(_ *contract.Record, t *timedInfo) bool { return t.avg < limits.tinyMs })
	if len(recs) == 0 {
		return nil
	}
	f := c.newFinding("launch_bound", contract.ConfidenceMedium, recs)
	f.Metrics["enqueue_median_ms"] = round(m.enqueueMedian, 6)
	f.Metrics["gpu_compute_median_ms"] = round(m.gpuMedian, 6)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("Measured enqueue time %.4f ms is %.0f%% of the GPU compute time %.4f ms (%s): the CPU launching kernels sets the pace.",
			m.enqueueMedian, m.enqueueMedian/m.gpuMedian*100, m.gpuMedian, m.source),
		fmt.Sprintf("%d kernels run under %.0f µs each: %.4f ms of the profile.", len(recs), limits.tinyMs*1000, sumMs(recs)))
	f.Action = "Launch the engine through a CUDA graph (capture enqueueV3 once, replay it), and reduce the number of tiny kernels."
	f.NextCheck = "Run trtexec with --useCudaGraph and compare the measured latency and enqueue time with this run."
	return f
}
