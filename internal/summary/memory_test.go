package summary

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// TestMemoryLineWeights: weights are summed only when some layer lists
// them; layers that list none (a verbose build log's layer lines) leave
// them unknown rather than 0 B.
func TestMemoryLineWeights(t *testing.T) {
	for _, tc := range []struct {
		name      string
		m         contract.Memory
		want, not string
	}{
		{"none listed", contract.Memory{}, "weights unknown", "0 B"},
		{"listed", contract.Memory{WeightsBytes: 2048, WeightLayers: 1}, "weights 2.0 KiB in 1 layers", "unknown"},
		{"listed of unknown size", contract.Memory{WeightsUnknown: 1}, "weights 0 B in 0 layers (+1 blobs of unknown size)", "weights unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := memoryLine(&tc.m, 40)
			if !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
				t.Errorf("%q: want %q, not %q", got, tc.want, tc.not)
			}
		})
	}
}
