package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/report"
	"github.com/trtperf/trtperf/internal/skill"
)

// Flag advice. Library packages (everything under internal/ but cli) never
// name trtperf's flags: they are called by tests, fuzzers and other tools
// too, and what analyze-data.json records must read the same whoever made
// it. They say what is wrong and how to fix it in their own terms, and mark
// a problem a flag fixes with an exported sentinel error (or, in
// analyze-data.json, a stable message code). This file is the one place
// that turns those into advice naming the flag; TestLibraryNamesNoFlag
// holds the libraries to it.

// advice is the flag advice for errors that wrap kind.
type advice struct {
	kind error
	text string
}

// withAdvice returns err with the text of the first advice whose kind it
// wraps appended in parentheses, or err itself. It keeps err's chain.
// Library messages end with the fix in their own terms ("choose a new or
// empty folder, or let trtperf name one"), so the advice only maps that
// fix to flags: "… (--report-dir DIR, or --output-parent P …)".
func withAdvice(err error, advices ...advice) error {
	for _, a := range advices {
		if errors.Is(err, a.kind) {
			return fmt.Errorf("%w (%s)", err, a.text)
		}
	}
	return err
}

// Advice by the input a command takes.
var (
	// folderAdvice: a FOLDER argument that is a file.
	folderAdvice = advice{discover.ErrNotFolder, "FOLDER, or the files with --data LAYERS [PROFILE]"}
	// dataAdvice: a --data path that is a folder.
	dataAdvice = advice{discover.ErrFolderGiven, "files with --data, the folder as FOLDER without --data"}
	// baselineAdvice: --baseline names no usable backend.
	baselineAdvice = advice{compare.ErrUnknownBaseline, "with --baseline LABEL, or without --baseline"}
	// gpuAdvice: --gpu names a GPU the backends' files prove wrong.
	gpuAdvice = advice{analysis.ErrGPUContradicted, "omit --gpu, or give --gpu NAME of the GPU the engines were built on"}
	// reportDirAdvice: package's --report-dir is taken, or the report's
	// parent folder is not writable.
	reportDirAdvice = []advice{
		{report.ErrNotEmpty, "--report-dir DIR, or --output-parent P for an auto-named folder in P"},
		{report.ErrNotWritable, "--output-parent P, or --report-dir DIR for an exact folder"},
	}
	// skillAdvice: skill install's folder is taken.
	skillAdvice = advice{skill.ErrNotEmpty, "--force"}
	// skillSkipAdvice: why a platform's binary was not cross-compiled.
	skillSkipAdvice = []advice{
		{skill.ErrCrossOff, "--no-cross"},
		{skill.ErrNoSource, "--source DIR"},
	}
)

// componentsAdvice turns discovery's refusal of a pipeline's parent folder
// into the commands that handle it.
func componentsAdvice(err error) error {
	var ce *discover.ComponentsError
	if errors.As(err, &ce) {
		return fmt.Errorf("%w (%s)", err, commandLine("package", "--suite", ce.Parent))
	}
	return err
}

// messageAdvice is the flag advice for analyze-data.json message codes, by
// code or code suffix (the side prefixes layer_info_, profile_, ...). The
// messages stay free of flags: analyze-data.json is read by the report, by
// agents and by tools that never ran this command line, and the same dumps
// analysed through the library must give the same file.
var messageAdvice = []struct{ code, text string }{
	// Only the dumps' limit is the flag's; companions (logs, metadata,
	// times) have fixed limits far above any real file.
	{"layer_info_" + dump.CodeTooLarge, "if it is a dump and the memory is there, raise the limit with --max-input-bytes BYTES"},
	{"profile_" + dump.CodeTooLarge, "if it is a dump and the memory is there, raise the limit with --max-input-bytes BYTES"},
	{analysis.CodeMissingLayerInfo, "if its layer info lies under another name, give both files: --data LAYERS PROFILE"},
	{"profile_" + dump.CodeConcatenated, "to analyse another of its runs layer by layer, add --run N (1-based, as the runs table numbers them)"},
}

// adviceForCode returns the flag advice for a message code, "" for none.
func adviceForCode(code string) string {
	for _, a := range messageAdvice {
		if code == a.code || (strings.HasPrefix(a.code, "_") && strings.HasSuffix(code, a.code)) {
			return a.text
		}
	}
	return ""
}

// printAdvice writes to w (stderr) one "hint:" line per backend message
// that a flag fixes, so a person at the terminal learns the flag that the
// message in analyze-data.json does not name.
func printAdvice(w io.Writer, d *contract.AnalyzeData) {
	for _, r := range d.Results {
		seen := map[string]bool{}
		for _, m := range r.Validation.Messages {
			if text := adviceForCode(m.Code); text != "" && !seen[m.Code] {
				seen[m.Code] = true
				fmt.Fprintf(w, "hint: %s (%s): %s\n", r.Label, m.Code, text)
			}
		}
	}
}
