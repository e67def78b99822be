// Package cli wires trtperf's commands to the packages that do the work. It
// owns flags, help text and exit codes, and computes nothing itself.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/report"
)

// Exit codes, as the contract fixes them.
const (
	ExitOK        = 0 // done
	ExitCheck     = 1 // the data or contract failed a check the user asked for
	ExitCannotRun = 2 // usage, missing folder, unreadable or unwritable path
)

// ExitError carries an exit code with the message printed as `error: ...`.
// A nil Err with Code ExitCheck means the command already printed its verdict.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// cannotRun marks err as "the command could not run" (exit 2).
func cannotRun(format string, args ...any) error {
	return &ExitError{Code: ExitCannotRun, Err: fmt.Errorf(format, args...)}
}

// checkFailed marks a failed user-requested check (exit 1) whose verdict
// the command has already printed.
func checkFailed() error { return &ExitError{Code: ExitCheck} }

// deps are what the commands reach beyond their arguments and flags: the
// report publisher, the analysis package runs, serve's interrupt and
// connection limits, the executable skill install copies. Main passes the
// real ones; a test builds its own and runs mainWith, so no test swaps a
// package variable and tests can run in parallel.
type deps struct {
	publisher      report.Publisher
	analyzePackage func(*discover.Scope, analysis.Options) (*contract.AnalyzeData, error)
	serveContext   func(context.Context) (context.Context, context.CancelFunc)
	serveTimeouts  serveTimeouts
	executable     func() (string, error)
}

func defaultDeps() *deps {
	return &deps{
		analyzePackage: analyzeScope,
		serveContext: func(parent context.Context) (context.Context, context.CancelFunc) {
			return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
		},
		serveTimeouts: defaultServeTimeouts,
		executable:    os.Executable,
	}
}

// defaultMaxInputBytes is --max-input-bytes when not given.
const defaultMaxInputBytes = 2 << 30

// commandFactories is filled by each command file's init, so commands live
// in their own files and the root needs no edit when one is added.
var commandFactories = map[string]func(*deps) *cobra.Command{}

func register(name string, f func(*deps) *cobra.Command) { commandFactories[name] = f }

func newRootCmd(stdout, stderr io.Writer, prof *profiling, d *deps) *cobra.Command {
	root := &cobra.Command{
		Use:   "trtperf",
		Short: "Analyse TensorRT layer-info and profile dumps",
		Long: `trtperf turns TensorRT performance dumps (trtexec --exportLayerInfo and
--exportProfile, IEngineInspector JSON, Torch-TensorRT dumps) into a validated
analysis (analyze-data.json), a terminal summary, and a browser report.

Typical use:
  trtperf analyze DUMP_FOLDER --output analyze-data.json
  trtperf validate analyze-data.json
  trtperf summary DUMP_FOLDER
  trtperf compare DUMP_FOLDER#fp16 DUMP_FOLDER#int8
  trtperf package DUMP_FOLDER --output-parent reports/
  trtperf serve reports/report_<model>_<timestamp>
  trtperf skill install ~/.claude/skills/trt-perf-analysis   # for AI agents

DUMP_FOLDER directly holds layers_<label>.json (trtexec --exportLayerInfo with
--profilingVerbosity=detailed) and profile_<label>.json (--exportProfile), or a
trtexec console log under any name (its --dumpProfile table, performance
summary or --verbose build lines, whole or pasted in part).
Exit codes: 0 done; 1 a check you asked for failed; 2 the command could not run.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.CompletionOptions.DisableDefaultCmd = true
	prof.add(root)
	// The limit is the dump package's; it is set only when the flag is
	// given (and put back by mainWith), so runs without it share nothing.
	var maxInput int64
	root.PersistentFlags().Int64Var(&maxInput, "max-input-bytes", defaultMaxInputBytes, "largest dump file read; larger files are refused with a message (raise it for a bigger dump)")
	pre := root.PersistentPreRunE
	root.PersistentPreRunE = func(c *cobra.Command, args []string) error {
		if c.Flags().Changed("max-input-bytes") {
			dump.MaxFileBytes = maxInput
		}
		return pre(c, args)
	}
	names := make([]string, 0, len(commandFactories))
	for n := range commandFactories {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		root.AddCommand(commandFactories[n](d))
	}
	// Usage errors from cobra/pflag (unknown flag, wrong arg count) exit 2.
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &ExitError{Code: ExitCannotRun, Err: fmt.Errorf("%w (see 'trtperf %s --help')", err, c.Name())}
	})
	return root
}

// Main runs trtperf with args and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	return mainWith(defaultDeps(), args, stdout, stderr)
}

// mainWith is Main with the commands' dependencies given.
func mainWith(d *deps, args []string, stdout, stderr io.Writer) (code int) {
	sw := &writeCheck{w: stdout}
	tout, terr := newTermWriter(sw), newTermWriter(stderr)
	defer terr.flushPending()
	defer func() {
		// A run whose output did not reach stdout (a full disk, a closed
		// file) failed, whatever it computed: say so and exit 2.
		tout.flushPending()
		if sw.err != nil && code != ExitCannotRun {
			printError(terr, fmt.Errorf("cannot write to stdout: %v; the output is incomplete (free space, or redirect it to a writable file)", sw.err))
			code = ExitCannotRun
		}
	}()
	stdout, stderr = tout, terr
	var prof profiling
	root := newRootCmd(stdout, stderr, &prof, d)
	args, err := expandDataArgs(args)
	if err != nil {
		printError(stderr, err)
		return ExitCannotRun
	}
	root.SetArgs(args)
	err = root.Execute()
	if dump.MaxFileBytes != defaultMaxInputBytes {
		dump.MaxFileBytes = defaultMaxInputBytes // --max-input-bytes was given
	}
	if perr := prof.stop(); perr != nil && err == nil {
		err = perr
	}
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			printError(stderr, ee.Err)
		}
		return ee.Code
	}
	// Anything cobra itself rejects (unknown command, bad args) is usage.
	printError(stderr, err)
	return ExitCannotRun
}

// writeCheck passes writes through and keeps the first error.
type writeCheck struct {
	w   io.Writer
	err error
}

func (c *writeCheck) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

func printError(w io.Writer, err error) {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(w, "error: %s\n", msg)
}

// argCount accepts between min and max positional arguments (max < 0: no
// limit). A wrong count is a usage error (exit 2) that says what the
// command expects, by the argument names of its usage line, and shows that
// line, instead of cobra's bare "accepts 1 arg(s)".
func argCount(min, max int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) >= min && (max < 0 || len(args) <= max) {
			return nil
		}
		var names []string // the argument words of the Use line
		for _, w := range strings.Fields(c.Use)[1:] {
			if !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "[flags") && strings.ToUpper(w) == w {
				names = append(names, w)
			}
		}
		var want string
		switch {
		case max == 0:
			want = "no arguments"
		case min == max:
			want = fmt.Sprintf("%s %s", countWord(min), plural(min, "argument"))
		case max < 0:
			want = fmt.Sprintf("at least %s %s", countWord(min), plural(min, "argument"))
		case min == 0:
			want = fmt.Sprintf("at most %s %s", countWord(max), plural(max, "argument"))
		default:
			want = fmt.Sprintf("%s to %s arguments", countWord(min), countWord(max))
			if max == min+1 {
				want = fmt.Sprintf("%s or %s arguments", countWord(min), countWord(max))
			}
		}
		if len(names) > 0 && max != 0 {
			want += " (" + strings.Join(names, " ") + ")"
		}
		got := "none"
		if len(args) > 0 {
			quoted := make([]string, len(args))
			for i, a := range args {
				quoted[i] = fmt.Sprintf("%q", a)
			}
			got = fmt.Sprintf("%d: %s", len(args), strings.Join(quoted, ", "))
		}
		return &ExitError{Code: ExitCannotRun, Err: fmt.Errorf("'trtperf %s' takes %s, got %s; usage: %s (see 'trtperf %s --help')",
			strings.TrimPrefix(c.CommandPath(), "trtperf "), want, got, c.UseLine(), strings.TrimPrefix(c.CommandPath(), "trtperf "))}
	}
}

func countWord(n int) string {
	if n >= 0 && n < 4 {
		return []string{"no", "one", "two", "three"}[n]
	}
	return fmt.Sprint(n)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
