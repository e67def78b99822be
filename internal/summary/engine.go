package summary

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// Lines about the engine itself: TensorRT version, graph shape, memory
// and the roofline.

// trtVersion is the backend's TensorRT version, or the range its file
// formats fit ("7.0–8.2 (from file formats)"), "" when unknown.
func trtVersion(b *contract.Backend) string {
	if b.Build != nil && b.Build.TensorRTVersion != nil {
		return *b.Build.TensorRTVersion
	}
	if r := b.TensorRTRange; r != nil {
		if r.Max == nil {
			return r.Min + " or newer (from file formats)"
		}
		if *r.Max == r.Min {
			return r.Min + " (from file formats)"
		}
		return r.Min + "–" + *r.Max + " (from file formats)"
	}
	return ""
}

// graphState is "DAG", "ambiguous DAG", "cycle" or "" when the graph was not built (no
// layers, names-only layer info).
func graphState(b *contract.Backend) string {
	switch {
	case b.Graph.IsDAG && b.Graph.Ambiguous:
		return "ambiguous DAG"
	case b.Graph.IsDAG:
		return "DAG"
	case b.Graph.Cycle != nil:
		return "cycle"
	}
	return ""
}

// headerFacts are the backend header's TensorRT version and graph words.
func headerFacts(v view) string {
	var parts []string
	if v.TensorRT != "" {
		parts = append(parts, "TensorRT "+v.TensorRT)
	} else {
		parts = append(parts, "TensorRT version unknown")
	}
	switch v.Graph {
	case "DAG":
		parts = append(parts, "graph is a DAG")
	case "ambiguous DAG":
		parts = append(parts, "graph is a DAG read with ambiguous tensors (see the warning)")
	case "cycle":
		parts = append(parts, "graph has a cycle")
	default:
		if v.Layers > 0 {
			parts = append(parts, "graph unknown")
		}
	}
	return strings.Join(parts, ", ")
}

// bytesText is a byte count in binary units.
func bytesText(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

func dimsText(d []int64) string {
	s := make([]string, len(d))
	for i, x := range d {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, "x")
}

// memoryLine says what the weights and the largest activations take.
func memoryLine(m *contract.Memory, nameWidth int) string {
	if m == nil {
		return ""
	}
	s := "memory weights unknown (no layer lists its weights)"
	if m.WeightsListed() {
		s = fmt.Sprintf("memory weights %s in %d layers", bytesText(m.WeightsBytes), m.WeightLayers)
	}
	if m.WeightsUnknown > 0 {
		s += fmt.Sprintf(" (+%d blobs of unknown size)", m.WeightsUnknown)
	}
	if len(m.LargestActivations) > 0 {
		var acts []string
		for _, a := range m.LargestActivations[:min(3, len(m.LargestActivations))] {
			acts = append(acts, fmt.Sprintf("%s %s (%s %s)", Shorten(a.Name, nameWidth/2), bytesText(a.Bytes), dimsText(a.Dimensions), shortFormat(a.Format)))
		}
		s += "; largest activations " + strings.Join(acts, ", ")
	}
	for _, n := range m.Notes {
		if strings.Contains(n, "Myelin region") {
			s += "; " + n
		}
	}
	return s
}

// rooflineLine sums up the roofline: overall rate, bound counts and the
// layers that lose the most time below their roof.
func rooflineLine(b *contract.Backend, nameWidth int) string {
	rf := b.Roofline
	if rf == nil {
		return ""
	}
	s := fmt.Sprintf("roofline %d layers with FLOPs take %s ms", rf.Layers, ms(rf.TimeMs))
	if rf.TimeBasis == contract.RooflineAvgMsScaled {
		s += fmt.Sprintf(" (layer times × %.3g to the measured GPU compute)", rf.TimeScale)
	} else {
		s += " (profiled layer times)"
	}
	s += fmt.Sprintf(" at %.4g TFLOP/s overall", rf.AchievedTFLOPS)
	if rf.ComputeBound+rf.MemoryBound == 0 {
		return s + "; bound unknown without device peak and bandwidth"
	}
	s += fmt.Sprintf("; %d compute-bound, %d memory-bound", rf.ComputeBound, rf.MemoryBound)
	type lost struct {
		name  string
		pct   float64
		bound string
		ms    float64
	}
	var ls []lost
	for i := range b.Records {
		x := b.Records[i].Roofline
		if x == nil || x.PctOfAttainable == nil || x.Bound == nil {
			continue
		}
		ls = append(ls, lost{b.Records[i].Name, *x.PctOfAttainable, *x.Bound, x.TimeMs * (1 - min(1, *x.PctOfAttainable/100))})
	}
	slices.SortStableFunc(ls, func(a, b lost) int { return cmp.Compare(b.ms, a.ms) })
	var parts []string
	for _, l := range ls[:min(3, len(ls))] {
		parts = append(parts, fmt.Sprintf("%s %.3g%% of its %s roof", Shorten(l.name, nameWidth/2), l.pct, l.bound))
	}
	if len(parts) > 0 {
		s += "; furthest below the roof by time: " + strings.Join(parts, ", ")
	}
	return s
}

// shortFormat names a TensorRT format string the way trtexec's
// --inputIOFormats spells it ("Channel major FP16 format where channel %
// 8 == 0" is fp16:hwc8): layerfacts.FormatLabel, the report's labels too.
func shortFormat(f string) string { return layerfacts.FormatLabel(f) }

// maxRunRows caps the runs a summary lists: a sweep log can hold a
// million; the first runs, the analysed one and the last ones tell the
// story, and a line counts the rest.
const maxRunRows, lastRunRows = 20, 5

// shownRuns picks the runs to list: all up to maxRunRows, else the first
// ones, the analysed run and the last lastRunRows, in run order; omitted
// counts the others.
func shownRuns(rs []contract.RunRow) (shown []contract.RunRow, omitted int) {
	if len(rs) <= maxRunRows {
		return rs, 0
	}
	head := maxRunRows - lastRunRows
	shown = append(shown, rs[:head]...)
	for i := head; i < len(rs)-lastRunRows; i++ {
		if rs[i].Analysed { // in place of the last of the first ones
			shown = append(shown[:head-1], rs[i])
			break
		}
	}
	shown = append(shown, rs[len(rs)-lastRunRows:]...)
	return shown, len(rs) - len(shown)
}

// levelsOff says where throughput levels off over all runs of a batch
// sweep: the first run after which every larger run adds under 5 %
// items/s; "" when it does not or the runs are no batch sweep.
func levelsOff(rs []contract.RunRow) string {
	if len(rs) < 2 {
		return ""
	}
	best := 0.0
	var ips []float64
	for _, r := range rs {
		if r.ItemsPerSecond == nil || r.Batch == nil {
			return ""
		}
		ips = append(ips, *r.ItemsPerSecond)
		best = max(best, *r.ItemsPerSecond)
	}
	flat := len(ips) - 1
	for flat > 0 && ips[flat] < 1.05*ips[flat-1] {
		flat--
	}
	if flat == len(ips)-1 {
		return ""
	}
	last := rs[len(rs)-1]
	return fmt.Sprintf("throughput levels off at batch %s (%.0f items/s); each larger batch adds under 5%%, up to %.0f at batch %s (best %.0f)",
		*rs[flat].Batch, ips[flat], ips[len(ips)-1], *last.Batch, best)
}

// writeRuns prints a sweep's runs, one row each (capped, see shownRuns),
// and where throughput levels off.
func writeRuns(w io.Writer, v *view, dim func(string) string) {
	rs := v.Runs
	if len(rs) == 0 {
		return
	}
	opt := func(v *float64, f string) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf(f, *v)
	}
	fmt.Fprintf(w, "\n  runs (%d in one file)\n", len(rs)+v.RunsOmitted)
	g := grid{right: []bool{true, false, true, true, true, true, true}}
	g.add("run", "batch/shapes", "latency ms", "GPU ms", "items/s", "layer sum ms", "")
	for i, r := range rs {
		if i > 0 && r.Run > rs[i-1].Run+1 {
			g.add("…", fmt.Sprintf("%d runs not shown", r.Run-rs[i-1].Run-1), "", "", "", "", "")
		}
		bs := "-"
		if r.Batch != nil {
			bs = "batch " + *r.Batch
		} else if r.Shapes != nil {
			bs = *r.Shapes
		}
		mark := ""
		if r.Analysed {
			mark = "analysed"
		}
		g.add(strconv.Itoa(r.Run), bs, opt(r.LatencyMedianMs, "%.4g"), opt(r.GPUComputeMedianMs, "%.4g"), opt(r.ItemsPerSecond, "%.0f"), opt(r.LayerSumMs, "%.4g"), mark)
	}
	g.write(w, "  ", dim)
	if v.RunsOmitted > 0 {
		fmt.Fprintf(w, "  %d of %d runs not listed; all are in analyze-data.json (results[].runs)\n", v.RunsOmitted, len(rs)+v.RunsOmitted)
	}
	if v.RunsLevelsOff != "" {
		fmt.Fprintf(w, "  %s\n", v.RunsLevelsOff)
	}
}
