package analysis

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/inputs"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// logSourceMessages says which lines of a log stand for a backend's
// profile and layer info, and how a pasted table may be partial.
func logSourceMessages(b discover.Backend, in inputs.Backend, msgs *messages) {
	if t := in.ProfileTable; t != nil && in.ProfileLog != "" {
		text := fmt.Sprintf("the profile is the per-layer table of %s, lines %d-%d (%s layout, %d rows read",
			filepath.Base(in.ProfileLog), t.Line, t.EndLine, t.Layout, len(t.Profile.Records))
		if t.Iterations > 0 {
			text += fmt.Sprintf(", %d iterations", t.Iterations)
		} else if t.Profile.Count > 0 {
			text += fmt.Sprintf(", about %d iterations from total over average time", t.Profile.Count)
		}
		text += ")"
		if len(t.Partial) > 0 {
			text += "; the table may be partial: " + strings.Join(t.Partial, "; ") + "; shares and rankings below are of the rows read"
		}
		if n := tablesIn(in, in.ProfileLog); n > 1 {
			text += fmt.Sprintf("; the log holds %d tables (one run each): %s is analysed, the runs table lists them all", n, tableChoice(in))
			text += otherEngines(in)
		}
		if len(t.Partial) > 0 {
			msgs.warning(CodeProfileFromLog, text)
		} else {
			msgs.info(CodeProfileFromLog, text)
		}
	}
	if in.LayerInfoLog != "" && in.LayerInfo != nil {
		first, last := 0, 0
		for _, c := range in.Logs {
			if c.Path != in.LayerInfoLog {
				continue
			}
			for _, r := range c.Runs {
				if r.Log != nil && len(r.Log.Layers) > 0 && first == 0 {
					first, last = r.Log.Layers[0].Line, r.Log.Layers[len(r.Log.Layers)-1].Line
				}
			}
		}
		msgs.info(CodeLayerInfoFromLog, fmt.Sprintf("the layer info is the engine layer information of the verbose build log %s, lines %d-%d (%d layers: type, tactic and tensor formats; no graph edges beyond tensor names)",
			filepath.Base(in.LayerInfoLog), first, last, len(in.LayerInfo.Layers)))
	}
}

// tablesIn counts the per-layer tables of one log.
func tablesIn(in inputs.Backend, path string) int {
	n := 0
	for _, c := range in.Logs {
		if c.Path == path {
			for _, r := range c.Runs {
				if r.Log != nil {
					n += len(r.Log.Tables)
				}
			}
		}
	}
	return n
}

// logWithoutLayersText is the message of a log backend with neither a
// per-layer table nor layer information: what the log holds, and what to
// add for a per-layer analysis.
func logWithoutLayersText(b discover.Backend, in inputs.Backend) string {
	name := "its log"
	if len(b.LogPaths) > 0 {
		name = filepath.Base(b.LogPaths[0])
	}
	var has []string
	for _, c := range in.Logs {
		if c.Err != nil {
			continue
		}
		for _, r := range c.Runs {
			has = append(has, logHolds(r)...)
		}
	}
	held := "nothing trtperf reads"
	if len(has) > 0 {
		held = strings.Join(dedupe(has), ", ")
	}
	advice := rerunAdvice(b.Label, releaseOf(runsOf(in, 0), &in)) + ", and keep the whole console output"
	for _, c := range in.Logs {
		for _, r := range c.Runs {
			if flags, f, ok := commandFlags(r.Log); ok {
				if _, dumped := flags["--dumpProfile"]; dumped {
					// The table was printed; the paste lost it.
					advice = fmt.Sprintf("the command (line %d) already asked for --dumpProfile, so trtexec printed a per-layer table the paste does not hold: paste the whole console output; to get layer information too, %s", f.Line, rerunAdvice(b.Label, releaseOf(runsOf(in, 0), &in)))
				}
			}
		}
	}
	return fmt.Sprintf("backend %q is the trtexec log %s alone, which holds %s but no per-layer table and no engine layer information, so where the time goes per layer is unknown; %s",
		b.Label, name, held, advice)
}

// logHolds names what one log run holds, with its lines.
func logHolds(r engine.Run) []string {
	var out []string
	l := r.Log
	if l == nil {
		return nil
	}
	if f, ok := l.Fact(engine.FactGPUCompute); ok {
		out = append(out, fmt.Sprintf("the measured GPU compute time (line %d)", f.Line))
	} else if l.Trace != nil {
		out = append(out, fmt.Sprintf("%d trace averages (lines %d-%d)", l.Trace.Lines, l.Trace.Line, l.Trace.EndLine))
	}
	if f, ok := l.Fact(engine.FactCommand); ok {
		out = append(out, fmt.Sprintf("the command (line %d)", f.Line))
	}
	if fs := l.All(engine.FactInputShape); len(fs) > 0 {
		out = append(out, fmt.Sprintf("%d input shapes (lines %d-%d)", len(fs), fs[0].Line, fs[len(fs)-1].Line))
	}
	if len(l.Timings) > 0 {
		out = append(out, fmt.Sprintf("autotuning of %d layers", len(l.Timings)))
	} else if f, ok := l.Fact(engine.FactTimingFormat); ok {
		out = append(out, fmt.Sprintf("autotuning format combinations (line %d)", f.Line))
	}
	if f, ok := l.Fact(engine.FactInstanceNorm); ok {
		out = append(out, fmt.Sprintf("the ONNX parser's InstanceNormalization import (line %d)", f.Line))
	}
	if fs := l.All(engine.FactPlugin); len(fs) > 0 {
		out = append(out, fmt.Sprintf("plugin %s (line %d)", fs[0].Value, fs[0].Line))
	}
	return out
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// rerunAdvice is the trtexec flags that give per-layer data, those of them
// the log's release has (an unknown release gets them all).
func rerunAdvice(label string, rel release) string {
	want := []string{"--dumpProfile", "--separateProfileRun", "--profilingVerbosity=detailed", "--exportLayerInfo=layers_" + label + ".json", "--exportProfile=profile_" + label + ".json"}
	var flags, missing []string
	for _, f := range want {
		name, _, _ := strings.Cut(f, "=")
		if !rel.r.IsZero() {
			if ok, _ := trtexecflags.SupportedIn(name, rel.r); !ok {
				missing = append(missing, name)
				continue
			}
		}
		flags = append(flags, f)
	}
	text := "rerun trtexec with " + strings.Join(flags, " ")
	if len(missing) > 0 {
		text += fmt.Sprintf(" (TensorRT %s's trtexec has no %s; --verbose makes its build log list each layer with its tactic and formats)", rel.text, strings.Join(missing, ", "))
	}
	return text
}

// markLogRun fills, in the runs table of a log holding several runs, the
// layer sum of each run that printed a per-layer table, and marks the run
// whose table is the backend's profile.
func markLogRun(rows []contract.RunRow, in inputs.Backend) {
	if in.ProfileLog == "" || in.ProfileRun < 1 || in.ProfileRun > len(rows) {
		return
	}
	for _, c := range in.Logs {
		if c.Err != nil || len(c.Runs) < 2 {
			continue
		}
		if c.Path != in.ProfileLog || len(c.Runs) != len(rows) {
			return // the table lists another log's runs
		}
		for i, r := range c.Runs {
			if r.Log == nil || len(r.Log.Tables) == 0 {
				continue
			}
			sum := 0.0
			for _, rec := range r.Log.Tables[0].Profile.Records {
				sum += rec.AverageMs
			}
			sum = sig6(sum)
			k := len(r.Log.Tables[0].Profile.Records)
			rows[i].LayerSumMs, rows[i].ProfileRecords = &sum, &k
		}
		rows[in.ProfileRun-1].Analysed = true
		return
	}
}

// logTables are the per-layer tables of one log with the 1-based run each
// belongs to, in log order.
func logTables(in inputs.Backend, path string) (tables []*engine.ProfileTable, runs []int) {
	for _, c := range in.Logs {
		if c.Path != path || c.Err != nil {
			continue
		}
		for k := range c.Runs {
			r := &c.Runs[k]
			if r.Log == nil {
				continue
			}
			for i := range r.Log.Tables {
				if len(r.Log.Tables[i].Profile.Records) > 0 {
					tables, runs = append(tables, &r.Log.Tables[i]), append(runs, k+1)
				}
			}
		}
	}
	return tables, runs
}

// pickLogTable makes a backend's profile the table of its log whose layer
// names match the most of its layer info's (the first on a tie), as
// matchingRun does for a profile of several runs.
func pickLogTable(in *inputs.Backend) {
	tables, runs := logTables(*in, in.ProfileLog)
	if len(tables) < 2 {
		return
	}
	profs := make([]*engine.Profile, len(tables))
	for i, t := range tables {
		profs[i] = &t.Profile
	}
	if k, n := matchingRun(profs, in.LayerInfo.Layers); n > 0 {
		in.Profile, in.ProfileTable, in.ProfileRun = profs[k-1], tables[k-1], runs[k-1]
	}
}

// tableChoice says which table of a log of several is the profile.
func tableChoice(in inputs.Backend) string {
	tables, _ := logTables(in, in.ProfileLog)
	k := slices.Index(tables, in.ProfileTable) + 1
	if in.LayerInfo != nil && len(in.LayerInfo.Layers) > 0 {
		profs := make([]*engine.Profile, len(tables))
		for i, t := range tables {
			profs[i] = &t.Profile
		}
		if _, n := matchingRun(profs, in.LayerInfo.Layers); n > 0 {
			return fmt.Sprintf("table %d (lines %d-%d), whose layer names match %d of the layer info's %d,", k, in.ProfileTable.Line, in.ProfileTable.EndLine, n, len(in.LayerInfo.Layers))
		}
	}
	return fmt.Sprintf("table %d (lines %d-%d; without layer info the first)", k, in.ProfileTable.Line, in.ProfileTable.EndLine)
}

// otherEngines names the tables of a log of several that time other layers
// than the analysed one (under half of their names shared): runs of
// another engine, not of this one's sweep, which a file of their own would
// analyse as a backend. "" when every table times the same layers.
func otherEngines(in inputs.Backend) string {
	tables, _ := logTables(in, in.ProfileLog)
	mine := map[string]bool{}
	for _, r := range in.ProfileTable.Profile.Records {
		mine[r.Name] = true
	}
	var other []string
	for k, t := range tables {
		if t == in.ProfileTable {
			continue
		}
		shared := 0
		for _, r := range t.Profile.Records {
			if mine[r.Name] {
				shared++
			}
		}
		if n := len(t.Profile.Records); shared*2 < n {
			other = append(other, fmt.Sprintf("table %d (lines %d-%d, %d of its %d layer names in the analysed table)", k+1, t.Line, t.EndLine, shared, n))
		}
	}
	if len(other) == 0 {
		return ""
	}
	return "; " + strings.Join(other, ", ") + " times other layers: another engine's run, not part of this one's; put each engine's output in its own log file to analyse it as its own backend"
}
