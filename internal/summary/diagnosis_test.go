package summary

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// The findings line says which part of the recoverable total only an
// accuracy trade-off gives back.
func TestDiagnosisLineNamesTheTradeoff(t *testing.T) {
	d := &contract.Diagnosis{ReferenceMs: 4, ReferenceSource: "gpu_compute_median", RecoverableMs: 2, RecoverableShare: 50}
	fix := contract.Finding{RecoverableMs: 0.4, Metrics: map[string]float64{}}
	tradeoff := contract.Finding{RecoverableMs: 1.6, Metrics: map[string]float64{contract.MetricAccuracyTradeoff: 1}}
	if got := diagnosisLine(d, []contract.Finding{fix}, 0); strings.Contains(got, "trade-off") {
		t.Errorf("no trade-off, but %q", got)
	}
	got := diagnosisLine(d, []contract.Finding{fix, tradeoff}, 0)
	if !strings.Contains(got, "2.0000 ms recoverable in all") || !strings.Contains(got, "1.6000 ms (40.00%) of it only by an accuracy trade-off") {
		t.Errorf("diagnosisLine = %q", got)
	}
}
