package analysis

import (
	"math"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/inputs"
)

// sweepRows is the table of a file holding several trtexec runs (a batch
// or shape sweep appended to one file): one row per run, from the trtexec
// log's runs and the profile's documents, joined by position when both
// hold the same number of runs. analysed is the 1-based run the analysis
// uses (0: none). Empty when no file holds several runs.
func sweepRows(in inputs.Backend, analysed int) []contract.RunRow {
	var logRuns []engine.Run
	for _, c := range in.Logs {
		if c.Err == nil && len(c.Runs) > 1 {
			logRuns = c.Runs
			break
		}
	}
	profs := in.ProfileRuns
	if len(profs) < 2 {
		profs = nil
	}
	n := max(len(logRuns), len(profs))
	if n < 2 {
		return []contract.RunRow{}
	}
	if len(logRuns) > 0 && len(profs) > 0 && len(logRuns) != len(profs) {
		// Not the same sweep, or one file is cut: the profile's runs are
		// the ones the analysis reads.
		logRuns, n = nil, len(profs)
	}
	rows := make([]contract.RunRow, n)
	for i := range rows {
		r := &rows[i]
		r.Run, r.Analysed = i+1, i+1 == analysed
		if i < len(logRuns) {
			lr := &logRuns[i]
			r.Batch, r.Shapes = runBatch(lr), runShapes(lr)
			if p := lr.Perf; p != nil {
				r.LatencyMedianMs, r.GPUComputeMedianMs, r.ThroughputQPS = p.Latency.Median, p.GPUCompute.Median, p.ThroughputQPS
				if r.LatencyMedianMs == nil {
					r.LatencyMedianMs = p.EndToEnd.Median
				}
				r.ItemsPerSecond = itemsPerSecond(r)
			}
		}
		if i < len(profs) {
			sum := 0.0
			for _, rec := range profs[i].Records {
				sum += rec.AverageMs
			}
			sum = sig6(sum)
			k := len(profs[i].Records)
			r.LayerSumMs, r.ProfileRecords = &sum, &k
		}
	}
	return rows
}

// runBatch is a run's implicit batch (TensorRT 7 "Max batch" / --batch);
// nil for explicit-batch engines, whose shapes say it.
func runBatch(r *engine.Run) *string {
	for _, o := range [][]engine.Option{r.Infer, r.Build} {
		for _, k := range []string{"Batch", "Max batch"} {
			if v, ok := engine.Opt(o, k); ok && v != "" && !strings.Contains(strings.ToLower(v), "explicit") {
				return &v
			}
		}
	}
	return nil
}

func runShapes(r *engine.Run) *string {
	if v := shapes(r.Infer, "Input inference shape"); v != "" {
		return &v
	}
	if v := shapes(r.Build, "Input build shape"); v != "" {
		return &v
	}
	return nil
}

// itemsPerSecond is a run's throughput in batch items per second. Some
// trtexec versions print implicit-batch throughput already per item, others
// per query of a whole batch: the measured latency tells which (one query
// at a time takes about the latency, so qps × latency is near 1 per query
// and near the batch per item).
func itemsPerSecond(r *contract.RunRow) *float64 {
	b, err := strconv.ParseFloat(deref(r.Batch), 64)
	if err != nil || b <= 0 || r.ThroughputQPS == nil {
		return nil
	}
	v := *r.ThroughputQPS
	lat := r.GPUComputeMedianMs
	if lat == nil {
		lat = r.LatencyMedianMs
	}
	if lat != nil && *lat > 0 {
		perLatency := v * *lat / 1000 // queries in flight if v counts queries
		if math.Abs(math.Log(perLatency/b)) < math.Abs(math.Log(perLatency)) {
			return &v // already per item
		}
	}
	v *= b
	return &v
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// matchingRun is the profile document whose layer names match the most
// layer names (1-based; the first on a tie), with the count matched.
func matchingRun(profs []*engine.Profile, layers []engine.Layer) (int, int) {
	names := make(map[string]bool, len(layers))
	for i := range layers {
		names[layers[i].Name] = true
	}
	best, bestN := 0, -1
	for i, p := range profs {
		n := 0
		for _, r := range p.Records {
			if names[r.Name] {
				n++
			}
		}
		if n > bestN {
			best, bestN = i+1, n
		}
	}
	return best, bestN
}
