package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/fsutil"
	"github.com/trtperf/trtperf/internal/mdcheck"
	"github.com/trtperf/trtperf/internal/report"
	"github.com/trtperf/trtperf/internal/speed"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

func init() { register("package", newPackageCmd) }

type packageFlags struct {
	reportDir, outputParent, modelName, timestamp, analyzeMD, analyzeData, baseline string
	suite                                                                           string // --suite PARENT (package_suite.go)
	fullPaths                                                                       bool   // keep absolute input paths in the report
}

func newPackageCmd(d *deps) *cobra.Command {
	var f packageFlags
	c := &cobra.Command{
		Use:   "package FOLDER | --analyze-data F",
		Short: "Build the offline browser report of a dump folder",
		Long: `package analyses FOLDER (as 'trtperf analyze' does) and writes a self-contained
report folder: index.html (open it from disk, or with 'trtperf serve'), the web
app, analyze-data.json, the data inlined for file:// (data.js), the AI analysis
when --analyze-md is given, and the licences of bundled libraries.

The report is built in a staging folder beside the target and renamed into
place only after analyze-data.json passed the contract's schema and semantic
checks, so a failed run leaves nothing behind. It never writes into a
non-empty folder: --report-dir must be new or empty; with --output-parent (default:
the current folder) the folder is named report_<model>_<timestamp>, with _2, _3...
when that name is taken.

With --analyze-data, package an existing analyze-data.json as it is: nothing
is analysed again, so what 'trtperf analyze' recorded (the model name given
with --model-name, the backends, the findings) is what the report shows, and
flags given to analyze need not be repeated. The folder is named from the
data's model_name (--output-parent, default the current folder) or given with
--report-dir. Run on an existing report with its own analyze-data.json and
--analyze-md, it replaces only analyze.md and its rendered HTML.

Given a FOLDER, package says on stderr that it analyses it (the same analysis
as 'trtperf analyze FOLDER').

Exit codes: 0 published; 1 the analysis failed the contract (nothing
published); 2 could not run.`,
		Example: `  trtperf package dumps/resnet50 --output-parent reports/
  trtperf package dumps/resnet50 --report-dir reports/resnet50 --analyze-md analyze.md
  trtperf analyze dumps/resnet50 --model-name resnet50 --output analyze-data.json
  trtperf package --analyze-data analyze-data.json --output-parent reports/ --analyze-md analyze.md
  trtperf package --analyze-data R/analyze-data.json --report-dir R --analyze-md analyze.md`,
		RunE: func(c *cobra.Command, args []string) error { return runPackage(c, args, &f, d) },
	}
	fl := c.Flags()
	fl.StringVar(&f.reportDir, "report-dir", "", "write the report to this folder (must be new or empty)")
	fl.StringVar(&f.outputParent, "output-parent", "", "create an auto-named report_<model>_<timestamp> folder here (default: current folder)")
	fl.StringVar(&f.modelName, "model-name", "", "model name to record and use in the folder name (FOLDER mode; with --analyze-data the data's model_name is used)")
	fl.StringVar(&f.baseline, "baseline", "", "label every backend is compared against in the comparison section (FOLDER mode; default: the fastest)")
	fl.StringVar(&f.timestamp, "timestamp", "", "timestamp for the auto-named folder, YYYYMMDD_HHMMSS (default: now)")
	fl.StringVar(&f.analyzeMD, "analyze-md", "", "AI-written Markdown analysis to include (shown sanitised)")
	fl.StringVar(&f.analyzeData, "analyze-data", "", "package this analyze-data.json as it is, without analysing anything again")
	fl.StringVar(&f.suite, "suite", "", suiteHelp)
	fl.BoolVar(&f.fullPaths, "full-paths", false, "keep the input folder's full path in the report (default: its base name only, so a shared report does not reveal where the dumps lay; with --analyze-data the file is packaged as it is)")
	return c
}

func runPackage(c *cobra.Command, args []string, f *packageFlags, dp *deps) error {
	if f.suite != "" {
		return runPackageSuite(c, args, f, f.suite, dp)
	}
	if f.reportDir != "" && f.outputParent != "" {
		return cannotRun("give either --report-dir (an exact folder) or --output-parent (a folder to create an auto-named report in), not both")
	}
	if f.timestamp != "" {
		if err := report.CheckTimestamp(f.timestamp); err != nil {
			return cannotRun("--timestamp: %v", err)
		}
	}
	var md []byte
	if f.analyzeMD != "" {
		b, err := fsutil.ReadFileLimit(f.analyzeMD, report.MaxAnalyzeMDBytes)
		if err != nil {
			return cannotRun("cannot read --analyze-md %s: %v; give the path of the Markdown analysis", f.analyzeMD, unwrapPath(err))
		}
		md = b
	}
	if f.analyzeData != "" {
		return packageAnalyzeData(c, args, f, md, dp)
	}
	if len(args) != 1 {
		return cannotRun("give one FOLDER holding the dumps (layers_<label>.json, profile_<label>.json), or --analyze-data F (an analyze-data.json from 'trtperf analyze')")
	}
	dir := args[0]
	if st, err := os.Stat(dir); err != nil {
		return cannotRun("folder %s does not exist or cannot be read (%v); give the folder holding layers_<label>.json / profile_<label>.json", dir, unwrapPath(err))
	} else if !st.IsDir() {
		return cannotRun("%s is a file; give the folder that holds it: %s", dir, commandLine("package", filepath.Dir(dir)))
	}
	sc, err := discover.Folder(dir)
	if err != nil {
		var ce *discover.ComponentsError
		if errors.As(err, &ce) {
			return componentsRefusal(dir, ce)
		}
		return &ExitError{Code: ExitCannotRun, Err: err}
	}
	prepareForScopes(sc)
	fmt.Fprintf(c.ErrOrStderr(), "package: analysing %s (as 'trtperf analyze' does); to package an analysis you already have, use --analyze-data F\n", dir)
	d, err := dp.analyzePackage(sc, analysis.Options{ModelName: f.modelName, ModelNameFrom: modelNameFlag, ToolVersion: ToolVersion(), Baseline: f.baseline})
	if err != nil {
		return &ExitError{Code: ExitCannotRun, Err: fmt.Errorf("analyse %s: %w", dir, withAdvice(err, baselineAdvice))}
	}
	printAdvice(c.ErrOrStderr(), d)
	if !f.fullPaths {
		report.ShareablePaths(d)
	}
	defer speed.ReportPhase()()
	// The encoding goes straight into the report's analyze-data.json and
	// is read back from there (the page cache), not held in the heap.
	encode := func(w io.Writer) (*contract.Index, error) {
		idx, err := contract.EncodeIndexed(w, d)
		if err != nil {
			return nil, fmt.Errorf("encode the analysis of %s: %w", dir, err)
		}
		return idx, nil
	}
	target := report.Target{ReportDir: f.reportDir, OutputParent: f.outputParent, ModelName: f.modelName, Timestamp: f.timestamp}
	return publish(c, md, func() (string, *contract.AnalyzeData, error) {
		dir, err := dp.publisher.PublishEncoding(d, encode, md, target)
		return dir, d, err
	})
}

// encodeIndexed encodes d in memory with the index of its layers and
// records, which the report reuses for its detail files (package --suite;
// a single report is encoded into its folder, see runPackage). hint is the
// expected size of the encoding (0 when unknown): see speed.NewBuffer.
func encodeIndexed(d *contract.AnalyzeData, hint int64) ([]byte, *contract.Index, error) {
	w := speed.NewBuffer(hint)
	idx, err := contract.EncodeIndexed(w, d)
	if err != nil {
		return nil, nil, err
	}
	return w.Bytes(), idx, nil
}

// encodedSizeHint guesses how big the analysis of sc encodes: about the
// size of its dumps (1.16× on LLM dumps), so half as much again plus 1 MiB
// covers it. Reserving too much costs nothing resident (untouched pages);
// too little costs one copy at the end.
func encodedSizeHint(sc *discover.Scope) int64 {
	n := inputBytes(sc)
	return n + n/2 + 1<<20
}

// inputBytes is the size of sc's layer info and profile files.
func inputBytes(sc *discover.Scope) int64 {
	var n int64
	for _, b := range sc.Backends {
		for _, p := range []string{b.LayerPath, b.ProfilePath} {
			if st, err := os.Stat(p); p != "" && err == nil {
				n += st.Size()
			}
		}
	}
	return n
}

// prepareForScopes readies the process for analysing scopes: their dump
// bytes size the heap the run grows to.
func prepareForScopes(scopes ...*discover.Scope) {
	var n int64
	for _, sc := range scopes {
		n += inputBytes(sc)
	}
	speed.PrepareForDumps(n)
}

func packageAnalyzeData(c *cobra.Command, args []string, f *packageFlags, md []byte, dp *deps) error {
	if len(args) > 0 {
		return cannotRun("give either a FOLDER or --analyze-data, not both (got folder %s)", args[0])
	}
	cannotRead := func(err error) error {
		return cannotRun("cannot read --analyze-data %s: %v; give the path of an analyze-data.json ('trtperf analyze FOLDER --output F' writes one)", f.analyzeData, unwrapPath(err))
	}
	in, st, err := fsutil.OpenRegular(f.analyzeData)
	if err != nil {
		return cannotRead(err)
	}
	defer in.Close()
	if st.Size() > contract.MaxDataBytes {
		return cannotRead(fmt.Errorf("it is %d bytes: %w of %d bytes", st.Size(), fsutil.ErrTooLarge, contract.MaxDataBytes))
	}
	if f.reportDir != "" && report.IsReport(f.reportDir) {
		data, err := fsutil.ReadRegularLimit(f.analyzeData, contract.MaxDataBytes)
		if err != nil {
			return cannotRead(err)
		}
		if f.modelName != "" || f.timestamp != "" {
			return cannotRun("--model-name and --timestamp name a new report folder; %s is an existing report, so pass only --analyze-md to replace its analysis", f.reportDir)
		}
		same, err := sameFileOrBytes(f.analyzeData, data, filepath.Join(f.reportDir, report.FileAnalyzeData))
		if err != nil {
			return cannotRun("%v", err)
		}
		switch {
		case same && md != nil:
			if err := report.UpdateAnalysis(f.reportDir, md); err != nil {
				return &ExitError{Code: ExitCannotRun, Err: err}
			}
			printPackaged(c, f.reportDir, true)
			if d, err := contract.Decode(data); err == nil {
				warnAnalyzeMD(c, md, d, filepath.Join(f.reportDir, report.FileAnalyzeData))
			}
			return nil
		case same:
			return cannotRun("%s is already the report of %s; to add or replace its AI analysis pass --analyze-md F, to re-package choose a new --report-dir", f.reportDir, f.analyzeData)
		default:
			return cannotRun("%s is a report of another analysis; trtperf never writes into a non-empty folder, so choose a new --report-dir", f.reportDir)
		}
	}
	// The file is copied into the report as it is and decoded from that
	// copy (mapped, not read into the heap).
	decode := func(data []byte) (*contract.AnalyzeData, *contract.Index, error) {
		d, idx, err := contract.DecodeIndexed(data)
		if err != nil {
			return nil, nil, &ExitError{Code: ExitCheck, Err: fmt.Errorf("%s is not a valid analyze-data.json (%v), so no report was published; for details run: %s", f.analyzeData, err, commandLine("validate", f.analyzeData))}
		}
		// The model name is recorded once, by analyze: repeating the same
		// name is harmless, a different one would make the folder name
		// disagree with the report it holds.
		if f.modelName != "" && f.modelName != d.ModelName {
			recorded := "no model_name"
			if d.ModelName != "" {
				recorded = fmt.Sprintf("model_name %q", d.ModelName)
			}
			return nil, nil, cannotRun("%s records %s and package does not change the analysis; to name the model, package the file written by: trtperf analyze FOLDER --model-name %s --output %s", f.analyzeData, recorded, trtexecflags.ShellQuote(f.modelName), trtexecflags.ShellQuote(f.analyzeData))
		}
		return d, idx, nil
	}
	t := report.Target{ReportDir: f.reportDir, OutputParent: f.outputParent, Timestamp: f.timestamp}
	var d *contract.AnalyzeData
	return publish(c, md, func() (string, *contract.AnalyzeData, error) {
		dir, err := dp.publisher.PublishFile(in, func(data []byte) (*contract.AnalyzeData, *contract.Index, error) {
			var idx *contract.Index
			var err error
			d, idx, err = decode(data)
			return d, idx, err
		}, md, t)
		return dir, d, err
	})
}

// publish runs the publisher's call, which publishes an analysis (the d it
// returns) with md as its analyze.md, and reports the result.
func publish(c *cobra.Command, md []byte, call func() (string, *contract.AnalyzeData, error)) error {
	dir, d, err := call()
	if err != nil {
		var ee *ExitError
		if errors.As(err, &ee) {
			return ee
		}
		var ve *report.ValidationError
		if errors.As(err, &ve) {
			return &ExitError{Code: ExitCheck, Err: err}
		}
		return &ExitError{Code: ExitCannotRun, Err: withAdvice(err, reportDirAdvice...)}
	}
	printPackaged(c, dir, md != nil)
	if md != nil {
		warnAnalyzeMD(c, md, d, filepath.Join(dir, report.FileAnalyzeData))
	}
	return nil
}

// warnAnalyzeMD tells on stderr when the packaged analyze.md fails the
// check 'validate --analyze-md' makes: the report includes it as it is, but
// its reader should not meet a number the data contradicts unawares.
func warnAnalyzeMD(c *cobra.Command, md []byte, d *contract.AnalyzeData, dataPath string) {
	ps := mdcheck.Check(md, d)
	if len(ps) == 0 {
		return
	}
	w := c.ErrOrStderr()
	fmt.Fprintf(w, "warning: the packaged analyze.md has %d problem(s) against the data; fix them and package it again (check with: trtperf validate %s --analyze-md analyze.md):\n", len(ps), dataPath)
	for i, p := range ps {
		if i == 3 {
			fmt.Fprintf(w, "  ... and %d more\n", len(ps)-3)
			break
		}
		fmt.Fprintf(w, "  %s\n", p)
	}
}

func printPackaged(c *cobra.Command, dir string, withMD bool) {
	w := c.OutOrStdout()
	fmt.Fprintf(w, "report_dir: %s\n", dir)
	fmt.Fprintf(w, "analyze_data: %s\n", filepath.Join(dir, report.FileAnalyzeData))
	if withMD {
		fmt.Fprintf(w, "analyze_md: %s\n", filepath.Join(dir, report.FileAnalyzeMD))
		return
	}
	// stdout keeps the contract's lines for scripts; a person reads how to
	// add the AI analysis the report has a panel for.
	fmt.Fprintf(c.ErrOrStderr(), "analyze_md: none yet; write one (see 'trtperf skill install') and add it with: %s\n",
		commandLine("package", "--analyze-data", filepath.Join(dir, report.FileAnalyzeData), "--report-dir", dir, "--analyze-md", "analyze.md"))
}

// sameFileOrBytes reports whether path (already read as data) is the
// report's own analyze-data.json, by identity or by content.
func sameFileOrBytes(path string, data []byte, reportData string) (bool, error) {
	a, errA := os.Stat(path)
	b, errB := os.Stat(reportData)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return true, nil
	}
	other, err := os.ReadFile(reportData)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", reportData, err)
	}
	return bytes.Equal(data, other), nil
}

// unwrapPath drops the *fs.PathError wrapper whose path the message
// already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
