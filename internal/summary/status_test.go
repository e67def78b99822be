package summary

import (
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

func TestStatusWord(t *testing.T) {
	for _, c := range []struct{ status, mode, want string }{
		{contract.StatusPassed, contract.ModeLayerProfile, "passed"},
		{contract.StatusPassed, contract.ModeLayerOnly, "passed"},
		{contract.StatusFailed, contract.ModeProfileOnly, "partial"},
		{contract.StatusFailed, contract.ModeMeasuredOnly, "partial"},
		{contract.StatusFailed, contract.ModeUnusable, "failed"},
	} {
		if got := statusWord(c.status, c.mode); got != c.want {
			t.Errorf("statusWord(%s, %s) = %s, want %s", c.status, c.mode, got, c.want)
		}
	}
}
