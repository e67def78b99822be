package analysis

import (
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

func TestItemsPerSecond(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		name string
		row  contract.RunRow
		want *float64
	}{
		// 886 qps at 4.3 ms per batch of 4: 886 × 0.0043 ≈ 3.8 in flight,
		// near the batch, so trtexec already counted items.
		{"per item", contract.RunRow{Batch: s("4"), ThroughputQPS: f(886), GPUComputeMedianMs: f(4.3)}, f(886)},
		// 225 qps at 4.3 ms: one query at a time, each of 4 items.
		{"per query", contract.RunRow{Batch: s("4"), ThroughputQPS: f(225), GPUComputeMedianMs: f(4.3)}, f(900)},
		{"no latency", contract.RunRow{Batch: s("8"), ThroughputQPS: f(100)}, f(800)},
		{"no batch", contract.RunRow{ThroughputQPS: f(100), GPUComputeMedianMs: f(1)}, nil},
	} {
		got := itemsPerSecond(&tc.row)
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
