package contract

import (
	"fmt"
	"math"
	"strconv"
)

// Semantic rules of analyze-data.json (contract.md), checked on the typed
// document. Decisions the contract leaves open, fixed here:
//   - records[].percentage is the dump's own percentage when the profile has
//     one (trtexec), else the avg_ms share. So a record is not required to
//     equal its avg_ms share; instead timing.percentage_sum must equal the
//     sum over records, and when it does not, the record furthest from its
//     avg_ms share is named as the likely culprit.
//   - type and precision breakdowns partition the records (by layer_type and
//     precision): their counts sum to the record count and their times to
//     average_inference_ms. Tags overlap, so tag rows are only checked one by
//     one. Every row's percentage is its time_ms share of
//     average_inference_ms within 0.01, rows are largest first, and a row's
//     count and time equal those of the records carrying its name.
//   - Breakdowns, percentages and totals are checked only when timing is
//     not null.

const (
	relTol      = 1e-6 // sums of ms
	pctTol      = 1e-6 // sums of percentages, relative
	shareTol    = 0.01 // breakdown percentage vs its time share, points
	culpritTol  = 0.05 // record percentage vs its avg_ms share, points
	maxRecordPc = 100.5
)

type checker struct {
	problems []Problem
}

func (c *checker) add(ptr, format string, args ...any) {
	if len(c.problems) < maxProblems {
		c.problems = append(c.problems, Problem{Pointer: ptr, Message: fmt.Sprintf(format, args...)})
	} else if len(c.problems) == maxProblems {
		c.problems = append(c.problems, Problem{Message: "more problems not listed"})
	}
}

func near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))+1e-9
}

func checkSemantics(d *AnalyzeData) []Problem {
	c := &checker{}
	if major(d.SchemaVersion) != major(SchemaVersion) {
		c.add("/schema_version", "schema_version %q, this trtperf checks %s.x", d.SchemaVersion, major(SchemaVersion))
	}
	c.topLevel(d)
	labels := map[string]int{}
	for i := range d.Results {
		b := &d.Results[i]
		p := "/results/" + strconv.Itoa(i)
		if j, dup := labels[b.Label]; dup {
			c.add(p+"/label", "label %q repeats results/%d's", b.Label, j)
		}
		labels[b.Label] = i
		c.backend(p, b)
	}
	if d.Comparison != nil {
		c.comparison(d, labels)
	}
	c.rowComparisons(d, labels)
	return c.problems
}

func (c *checker) topLevel(d *AnalyzeData) {
	v := &d.Validation
	passed, failed := 0, 0
	for i := range d.Results {
		switch d.Results[i].Validation.Status {
		case StatusPassed:
			passed++
		case StatusFailed:
			failed++
		}
	}
	if v.BackendCount != len(d.Results) {
		c.add("/validation/backend_count", "backend_count is %d but results has %d entries", v.BackendCount, len(d.Results))
	}
	if v.PassedCount != passed {
		c.add("/validation/passed_count", "passed_count is %d but %d backends passed", v.PassedCount, passed)
	}
	if v.FailedCount != failed {
		c.add("/validation/failed_count", "failed_count is %d but %d backends failed", v.FailedCount, failed)
	}
	want := StatusPartial
	switch {
	case passed == len(d.Results) && passed > 0:
		want = StatusPassed
	case passed == 0:
		want = StatusFailed
	}
	if v.Status != want {
		c.add("/validation/status", "status is %q but %d of %d backends passed, so it must be %q", v.Status, passed, len(d.Results), want)
	}
}

func (c *checker) backend(p string, b *Backend) {
	v := &b.Validation
	firstError := ""
	for _, m := range v.Messages {
		if m.Level == LevelError {
			firstError = m.Code
			break
		}
	}
	switch {
	case v.Status == StatusPassed && firstError != "":
		c.add(p+"/validation/status", "status is passed but there is an error message (%s)", firstError)
	case v.Status == StatusFailed && firstError == "":
		c.add(p+"/validation/status", "status is failed but no message has level error; add the error that explains it")
	}
	if (v.Status == StatusFailed) != (v.AnalysisMode == ModeUnusable || v.AnalysisMode == ModeProfileOnly || v.AnalysisMode == ModeMeasuredOnly) {
		c.add(p+"/validation/analysis_mode", "analysis_mode is %q with status %q: a backend is failed exactly when it is unusable, profile_only or measured_only", v.AnalysisMode, v.Status)
	}
	n := len(b.Layers)
	if b.LayerCount != n {
		c.add(p+"/layer_count", "layer_count is %d but layers has %d entries", b.LayerCount, n)
	}
	switch v.AnalysisMode {
	case ModeLayerProfile:
		if b.ProfileCount != len(b.Records) {
			c.add(p+"/profile_count", "profile_count is %d but records has %d entries", b.ProfileCount, len(b.Records))
		}
		if b.ProfileCount != b.LayerCount {
			c.add(p+"/profile_count", "layer_profile needs one profile record per layer: profile_count %d, layer_count %d", b.ProfileCount, b.LayerCount)
		}
		if !b.Graph.IsDAG {
			c.add(p+"/graph/is_dag", "layer_profile needs a DAG")
		}
		if b.Timing == nil {
			c.add(p+"/timing", "layer_profile needs timing")
		}
	case ModeProfileOnly:
		if b.Timing == nil {
			c.add(p+"/timing", "profile_only needs timing")
		}
		if b.ProfileCount != len(b.Records) {
			c.add(p+"/profile_count", "profile_count is %d but records has %d entries", b.ProfileCount, len(b.Records))
		}
		if v.ReportAvailable {
			c.add(p+"/validation/report_available", "a profile_only backend has no report")
		}
	case ModeMeasuredOnly:
		if b.Timing == nil || b.Timing.Measured == nil {
			c.add(p+"/timing/measured", "measured_only needs timing.measured")
		}
		if len(b.Records) != 0 || len(b.Layers) != 0 {
			c.add(p+"/records", "measured_only has no layers and no records, found %d and %d", len(b.Layers), len(b.Records))
		}
		if v.ReportAvailable {
			c.add(p+"/validation/report_available", "a measured_only backend has no report")
		}
	case ModeLayerOnly:
		if len(b.Records) != 0 {
			c.add(p+"/records", "layer_only has no records, found %d", len(b.Records))
		}
		if b.Timing != nil {
			c.add(p+"/timing", "layer_only has null timing")
		}
	}
	c.records(p, b)
	c.roofline(p, b)
	c.prediction(p, b)
	c.memory(p, b)
	c.graph(p, b)
	c.device(p, b.Device)
	if b.Timing != nil {
		c.timing(p, b)
		c.measured(p, b.Timing)
		c.breakdowns(p+"/type_breakdown", b, b.TypeBreakdown, func(r *Record) []string { return []string{r.LayerType} }, true)
		c.breakdowns(p+"/precision_breakdown", b, b.PrecisionBreakdown, func(r *Record) []string { return []string{r.Precision} }, true)
		c.breakdowns(p+"/tag_breakdown", b, b.TagBreakdown, func(r *Record) []string { return r.Tags }, false)
		if k := b.Concentration; k != nil && !(k.Layers50 <= k.Layers80 && k.Layers80 <= k.Layers90 && k.Layers90 <= len(b.Records)) {
			c.add(p+"/concentration", "need layers_50 <= layers_80 <= layers_90 <= %d records, got %d, %d, %d", len(b.Records), k.Layers50, k.Layers80, k.Layers90)
		}
	}
	owner, recOwner := map[int]int{}, map[int]int{}
	recSum := 0.0
	for i := range b.Issues {
		f := &b.Issues[i]
		q := p + "/issues/" + strconv.Itoa(i)
		if i > 0 && f.Score > b.Issues[i-1].Score {
			c.add(q+"/score", "issues must be sorted by score, descending: %v after %v", f.Score, b.Issues[i-1].Score)
		}
		if !(f.RecoverableLowMs <= f.RecoverableMs && f.RecoverableMs <= f.RecoverableHighMs) {
			c.add(q+"/recoverable_ms", "need recoverable_low_ms <= recoverable_ms <= recoverable_high_ms, got %v, %v, %v", f.RecoverableLowMs, f.RecoverableMs, f.RecoverableHighMs)
		}
		if d := b.Diagnosis; d != nil && d.ReferenceMs > 0 && math.Abs(f.RecoverableShare-f.RecoverableMs/d.ReferenceMs*100) > 0.01 {
			c.add(q+"/recoverable_share", "recoverable_share %v is not recoverable_ms / diagnosis.reference_ms × 100 (%v)", f.RecoverableShare, f.RecoverableMs/d.ReferenceMs*100)
		}
		recSum += f.RecoverableMs
		for j, l := range f.Layers {
			if l < 0 || l >= n {
				c.add(q+"/layers/"+strconv.Itoa(j), "layer index %d out of range [0, %d)", l, n)
				continue
			}
			if o, ok := owner[l]; ok {
				c.add(q+"/layers/"+strconv.Itoa(j), "layer %d is owned by issues %d and %d: every layer belongs to at most one finding", l, o, i)
			}
			owner[l] = i
		}
		for j, r := range f.Records {
			if r < 0 || r >= len(b.Records) {
				c.add(q+"/records/"+strconv.Itoa(j), "record index %d out of range [0, %d)", r, len(b.Records))
				continue
			}
			if o, ok := recOwner[r]; ok {
				c.add(q+"/records/"+strconv.Itoa(j), "record %d is owned by issues %d and %d: every record belongs to at most one finding", r, o, i)
			}
			recOwner[r] = i
		}
	}
	if d := b.Diagnosis; d != nil && recSum > d.ReferenceMs*(1+1e-6)+1e-9 {
		c.add(p+"/issues", "recoverable times sum to %v ms, more than diagnosis.reference_ms %v", recSum, d.ReferenceMs)
	}
}

func (c *checker) records(p string, b *Backend) {
	n := len(b.Layers)
	profile := b.Validation.AnalysisMode == ModeLayerProfile
	var used []bool
	if profile {
		used = make([]bool, n)
	}
	for i := range b.Records {
		r := &b.Records[i]
		if r.Layer < -1 || r.Layer >= n {
			c.add(recPtr(p, i, "layer"), "layer index %d out of range [-1, %d)", r.Layer, n)
			continue
		}
		if !profile {
			continue
		}
		if r.Layer == -1 {
			c.add(recPtr(p, i, "layer"), "record %q is unmatched (-1) in a layer_profile backend", r.Name)
			continue
		}
		if name := b.Layers[r.Layer].Name; name != r.Name {
			c.add(recPtr(p, i, "name"), "record name %q differs from layers/%d's name %q", r.Name, r.Layer, name)
		}
		if used[r.Layer] {
			c.add(recPtr(p, i, "layer"), "layer %d is matched by two records; matching must be one to one", r.Layer)
		}
		used[r.Layer] = true
	}
}

func recPtr(p string, i int, field string) string {
	return p + "/records/" + strconv.Itoa(i) + "/" + field
}

func (c *checker) timing(p string, b *Backend) {
	t := b.Timing
	var sumTime, sumAvg, sumMed, sumPct float64
	medians := 0
	for i := range b.Records {
		r := &b.Records[i]
		sumTime += r.TimeMs
		sumAvg += r.AvgMs
		sumPct += r.Percentage
		if r.MedianMs != nil {
			sumMed += *r.MedianMs
			medians++
		}
	}
	tp := p + "/timing"
	if !near(t.AverageInferenceMs, sumAvg, relTol) {
		c.add(tp+"/average_inference_ms", "average_inference_ms is %v but the records' avg_ms sum to %v", t.AverageInferenceMs, sumAvg)
	}
	if !near(t.TotalMs, sumTime, relTol) {
		c.add(tp+"/total_ms", "total_ms is %v but the records' time_ms sum to %v", t.TotalMs, sumTime)
	}
	switch {
	case t.MedianInferenceMs == nil && medians == len(b.Records) && medians > 0:
		c.add(tp+"/median_inference_ms", "median_inference_ms is null but every record has median_ms (sum %v)", sumMed)
	case t.MedianInferenceMs != nil && medians < len(b.Records):
		c.add(tp+"/median_inference_ms", "median_inference_ms is set but %d records have no median_ms", len(b.Records)-medians)
	case t.MedianInferenceMs != nil && !near(*t.MedianInferenceMs, sumMed, relTol):
		c.add(tp+"/median_inference_ms", "median_inference_ms is %v but the records' median_ms sum to %v", *t.MedianInferenceMs, sumMed)
	}
	if t.ZeroTimeRecords > len(b.Records) {
		c.add(tp+"/zero_time_records", "zero_time_records %d exceeds the %d records", t.ZeroTimeRecords, len(b.Records))
	}
	if !near(t.PercentageSum, sumPct, pctTol) {
		c.add(tp+"/percentage_sum", "percentage_sum is %v but the records' percentages sum to %v", t.PercentageSum, sumPct)
		if i, dev := furthestFromShare(b.Records, sumAvg); i >= 0 && dev > culpritTol {
			r := &b.Records[i]
			c.add(recPtr(p, i, "percentage"), "percentage %v is %.3g points off its avg_ms share %.6g; it does not add up with percentage_sum", r.Percentage, dev, 100*r.AvgMs/sumAvg)
		}
	}
	for i := range b.Records {
		if pc := b.Records[i].Percentage; pc < 0 || pc > maxRecordPc || math.IsNaN(pc) {
			c.add(recPtr(p, i, "percentage"), "percentage %v outside [0, %v]", pc, maxRecordPc)
		}
	}
}

func furthestFromShare(rs []Record, sumAvg float64) (int, float64) {
	if sumAvg <= 0 {
		return -1, 0
	}
	best, dev := -1, 0.0
	for i := range rs {
		if d := math.Abs(rs[i].Percentage - 100*rs[i].AvgMs/sumAvg); d > dev {
			best, dev = i, d
		}
	}
	return best, dev
}

type group struct {
	count int
	ms    float64
}

func (c *checker) breakdowns(p string, b *Backend, rows []Breakdown, keys func(*Record) []string, partition bool) {
	groups := map[string]*group{}
	for i := range b.Records {
		r := &b.Records[i]
		for _, k := range keys(r) {
			g := groups[k]
			if g == nil {
				g = &group{}
				groups[k] = g
			}
			g.count++
			g.ms += r.AvgMs
		}
	}
	total := b.Timing.AverageInferenceMs
	count, ms := 0, 0.0
	seen := map[string]bool{}
	for i := range rows {
		row := &rows[i]
		q := p + "/" + strconv.Itoa(i)
		count += row.Count
		ms += row.TimeMs
		if seen[row.Name] {
			c.add(q+"/name", "row %q repeats", row.Name)
		}
		seen[row.Name] = true
		if i > 0 && row.TimeMs > rows[i-1].TimeMs {
			c.add(q+"/time_ms", "rows must be largest first: %v after %v", row.TimeMs, rows[i-1].TimeMs)
		}
		if g := groups[row.Name]; g == nil {
			c.add(q+"/name", "no record has %q", row.Name)
		} else {
			if g.count != row.Count {
				c.add(q+"/count", "count is %d but %d records have %q", row.Count, g.count, row.Name)
			}
			if !near(g.ms, row.TimeMs, relTol) {
				c.add(q+"/time_ms", "time_ms is %v but the avg_ms of records with %q sum to %v", row.TimeMs, row.Name, g.ms)
			}
		}
		if total > 0 {
			if want := 100 * row.TimeMs / total; math.Abs(row.Percentage-want) > shareTol {
				c.add(q+"/percentage", "percentage is %v but time_ms is %.6g%% of average_inference_ms", row.Percentage, want)
			}
		}
	}
	if partition && len(rows) > 0 {
		if count != len(b.Records) {
			c.add(p, "counts sum to %d but there are %d records", count, len(b.Records))
		}
		if !near(ms, total, relTol) {
			c.add(p, "time_ms sum to %v but average_inference_ms is %v", ms, total)
		}
	}
	if partition && len(rows) == 0 && len(b.Records) > 0 {
		c.add(p, "empty, but there are %d records", len(b.Records))
	}
}

func (c *checker) graph(p string, b *Backend) {
	g := &b.Graph
	gp := p + "/graph"
	n := len(b.Layers)
	if !g.IsDAG {
		// A graph that could not be built (names-only or unreadable layer
		// info) is not a DAG either, but has no cycle to show: allowed only
		// for a failed backend with no edges.
		unbuilt := g.EdgeCount == 0 && b.Validation.Status == StatusFailed
		if len(g.Cycle) == 0 && !unbuilt {
			c.add(gp+"/cycle", "is_dag is false, so cycle must list the cycle")
		}
		if b.Validation.Status != StatusFailed {
			c.add(p+"/validation/status", "the graph is not a DAG, so the backend must be failed")
		}
		if g.TopoOrder != nil {
			c.add(gp+"/topo_order", "is_dag is false, so topo_order must be null")
		}
	} else if g.Cycle != nil {
		c.add(gp+"/cycle", "is_dag is true, so cycle must be null")
	}
	if len(g.Cycle) > 0 {
		if g.Cycle[0] != g.Cycle[len(g.Cycle)-1] || len(g.Cycle) < 2 {
			c.add(gp+"/cycle", "a cycle repeats its first name at the end")
		}
		names := make(map[string]bool, n)
		for i := range b.Layers {
			names[b.Layers[i].Name] = true
		}
		for i, name := range g.Cycle {
			if !names[name] {
				c.add(gp+"/cycle/"+strconv.Itoa(i), "%q is not a layer name", name)
			}
		}
	}
	if g.Ambiguous != (len(g.DuplicateProducers) > 0) {
		c.add(gp+"/ambiguous", "ambiguous is %v with %d duplicate_producers; it is true exactly when some tensor has several producers", g.Ambiguous, len(g.DuplicateProducers))
	}
	for i, dp := range g.DuplicateProducers {
		for j, l := range dp.Producers {
			if l < 0 || l >= n {
				c.add(gp+"/duplicate_producers/"+strconv.Itoa(i)+"/producers/"+strconv.Itoa(j), "layer index %d out of range [0, %d)", l, n)
			}
		}
	}
	if g.EdgeCount != len(g.Edges) {
		c.add(gp+"/edge_count", "edge_count is %d but edges has %d entries", g.EdgeCount, len(g.Edges))
	}
	edgesOK := true
	for i, e := range g.Edges {
		if e[0] < 0 || e[0] >= n || e[1] < 0 || e[1] >= n {
			c.add(gp+"/edges/"+strconv.Itoa(i), "edge %v references a layer out of range [0, %d)", e, n)
			edgesOK = false
			continue
		}
		if i > 0 {
			if prev := g.Edges[i-1]; prev[0] > e[0] || prev[0] == e[0] && prev[1] >= e[1] {
				c.add(gp+"/edges/"+strconv.Itoa(i), "edges must be sorted and without duplicates: %v after %v", e, prev)
			}
		}
	}
	if !g.IsDAG {
		return
	}
	if g.TopoOrder == nil {
		c.add(gp+"/topo_order", "is_dag is true, so topo_order must list the layers in topological order")
		return
	}
	if len(g.TopoOrder) != n {
		c.add(gp+"/topo_order", "topo_order has %d entries for %d layers", len(g.TopoOrder), n)
		return
	}
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	for i, l := range g.TopoOrder {
		if l < 0 || l >= n || pos[l] >= 0 {
			c.add(gp+"/topo_order/"+strconv.Itoa(i), "topo_order must be a permutation of the layer indexes; %d is out of range or repeated", l)
			return
		}
		pos[l] = i
	}
	if !edgesOK {
		return
	}
	for i, e := range g.Edges {
		if pos[e[0]] >= pos[e[1]] {
			c.add(gp+"/edges/"+strconv.Itoa(i), "edge %d→%d runs against topo_order", e[0], e[1])
		}
	}
}

// prediction checks that the predicted times cover the layers one to one
// and sum to total_ms, and that a predicted reference is that total.
func (c *checker) prediction(p string, b *Backend) {
	pr := b.Prediction
	if pr == nil {
		if d := b.Diagnosis; d != nil && d.ReferenceSource == "predicted" {
			c.add(p+"/diagnosis/reference_source", "reference_source predicted needs a prediction")
		}
		return
	}
	q := p + "/prediction"
	if len(pr.LayerMs) != len(b.Layers) || len(pr.LayerBound) != len(b.Layers) {
		c.add(q+"/layer_ms", "layer_ms has %d and layer_bound %d entries for %d layers: one per layer", len(pr.LayerMs), len(pr.LayerBound), len(b.Layers))
	}
	sum := 0.0
	for _, v := range pr.LayerMs {
		sum += v
	}
	if !near(pr.TotalMs, sum, relTol) {
		c.add(q+"/total_ms", "total_ms is %v but layer_ms sums to %v", pr.TotalMs, sum)
	}
	if d := b.Diagnosis; d != nil && d.ReferenceSource == "predicted" && !near(d.ReferenceMs, pr.TotalMs, relTol) {
		c.add(p+"/diagnosis/reference_ms", "a predicted reference_ms %v must be prediction.total_ms %v", d.ReferenceMs, pr.TotalMs)
	}
}
