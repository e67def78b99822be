package analysis

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/inputs"
)

// OverviewLogMissing is the overview item of a log run whose command asked
// trtexec for evidence the folder does not hold.
const OverviewLogMissing = "log_requested_evidence_missing"

// missingItem: the command line says what trtexec printed or wrote
// (--dumpProfile prints the per-layer table, --exportProfile,
// --exportTimes and --exportLayerInfo write files); a paste that holds
// the command but not that output is missing exactly it. With no other
// build in the folder, a comparison the run was made for is missing the
// other build too, and a build without INT8 says how an INT8 build must be
// made to compare with it.
func missingItem(lr logRun, in inputs.Backend, others int) []contract.OverviewItem {
	flags, f, ok := commandFlags(lr.r.Log)
	if !ok {
		return nil
	}
	var missing []string
	_, dump := flags["--dumpProfile"]
	if dump && in.Profile == nil {
		missing = append(missing, "the per-layer table of --dumpProfile")
	}
	for _, o := range []struct {
		flag, what string
		have       bool
	}{
		{"--exportProfile", "the per-layer profile", in.Profile != nil},
		{"--exportTimes", "the per-inference times", in.Times != nil},
		{"--exportLayerInfo", "the layer information", in.LayerInfo != nil},
	} {
		if v, ok := flags[o.flag]; ok && v != "" && !o.have {
			missing = append(missing, fmt.Sprintf("%s of %s (%s)", filepath.Base(v), o.flag, o.what))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, fp16 := flags["--fp16"]
	_, int8 := flags["--int8"]
	_, best := flags["--best"]
	build := "This run"
	switch {
	case best:
		build = "This --best run"
	case int8 && fp16:
		build = "This INT8+FP16 run"
	case int8:
		build = "This INT8 run"
	case fp16:
		build = "This FP16 run"
	}
	verb := "is"
	if len(missing) > 1 {
		verb = "are"
	}
	title := fmt.Sprintf("%s, which %s's command asked for, %s not in the paste", joinAnd(missing), strings.ToLower(build[:1])+build[1:], verb)
	title = strings.ToUpper(title[:1]) + title[1:]
	ev := []string{
		fmt.Sprintf("%s line %d: %s.", lr.file, f.Line, strings.TrimSpace(f.Value)),
		"The command asked trtexec for this evidence; the paste holds the command and the summary but not it, so per-layer causes cannot be told: paste the whole console output and attach the files.",
	}
	if others == 0 {
		other := "Another build's log and table (another precision, version or option) are not here either, so no comparison is possible."
		if !int8 && !best {
			other += " An INT8 build to compare with must be built with --int8 --fp16 (or --best): with --int8 alone, every layer without an INT8 kernel falls back to FP32, not FP16, and INT8 can end up no faster than FP16."
		}
		ev = append(ev, other)
		title += "; nor is any other build's log"
		if !int8 && !best {
			title += " (an INT8 build to compare with needs --int8 --fp16, not --int8 alone)"
		}
	}
	return []contract.OverviewItem{{ID: OverviewLogMissing, Title: title, Evidence: ev,
		Metrics: map[string]float64{}, Layers: []int{}}}
}

// joinAnd joins "a", "b" and "c" as "a, b and c".
func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// commandFlags are the flags of a log run's trtexec command line (flag →
// value, "" for a switch) and the command's fact; false without one.
func commandFlags(l *engine.LogFacts) (map[string]string, engine.LogFact, bool) {
	f, ok := l.Fact(engine.FactCommand)
	if !ok {
		return nil, f, false
	}
	flags := map[string]string{}
	for _, w := range strings.Fields(f.Value) {
		k, v, _ := strings.Cut(w, "=")
		flags[k] = v
	}
	return flags, f, true
}
