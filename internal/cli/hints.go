package cli

import (
	"strings"

	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// A hint in an error message is a command that works on the same input,
// never a template to fill in: every argument is the user's own, quoted
// for a POSIX shell. TestErrorHintsRun runs each one.

// commandLine is a trtperf command a message offers, quoted so that a
// shell passes every argument unchanged.
func commandLine(args ...string) string {
	return "trtperf " + trtexecflags.QuoteCommand(args)
}

// usableLabels returns the labels of d's backends whose timing compare
// can use.
func usableLabels(d *contract.AnalyzeData) []string {
	var out []string
	for i := range d.Results {
		if compare.Interpretable(&d.Results[i]) == "" {
			out = append(out, d.Results[i].Label)
		}
	}
	return out
}

// unusableReasons says why each backend of d that compare cannot use is
// left out ("backend fp32 has no timing (analysis_mode layer_only)").
func unusableReasons(d *contract.AnalyzeData) string {
	var why []string
	for i := range d.Results {
		if w := compare.Interpretable(&d.Results[i]); w != "" {
			why = append(why, w)
		}
	}
	return strings.Join(why, "; ")
}

// compareWith lists the commands that compare each usable backend of the
// analysis at path, put in place of the argument at position at (0 or 1)
// of args, with the other argument as the user gave it.
func compareWith(d *contract.AnalyzeData, path string, args []string, at int) string {
	var cmds []string
	for _, l := range usableLabels(d) {
		argv := append([]string{"compare"}, args...)
		argv[1+at] = path + "#" + l
		cmds = append(cmds, commandLine(argv...))
	}
	return strings.Join(cmds, " or ")
}
