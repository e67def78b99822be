package cli

import (
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/summary"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

func init() { register("summary", newSummaryCmd) }

func newSummaryCmd(*deps) *cobra.Command {
	var sf scopeFlags
	var opt summary.Options
	var nameWidth int
	c := &cobra.Command{
		Use:   "summary FOLDER|FILE",
		Short: "Print where the time goes and the ranked findings (like pprof -top)",
		Long: `summary prints backend status lines, totals, the top layers with share and
cumulative share, type and precision tables, and the ranked findings.

FILE is an analyze-data.json written by 'trtperf analyze'; FOLDER is a dump
folder, analysed on the fly (as 'trtperf analyze FOLDER' would).`,
		Example: `  trtperf summary dumps/resnet18
  trtperf summary analyze-data.json --top 10 --by precision
  trtperf summary dumps/resnet18 --format markdown > summary.md`,
		Args: argCount(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			if !slices.Contains(summary.Formats, opt.Format) {
				return cannotRun("unknown --format %q; use one of %s", opt.Format, strings.Join(summary.Formats, ", "))
			}
			if opt.By != "" && !slices.Contains(summary.Breakdowns, opt.By) {
				return cannotRun("unknown --by %q; use one of %s", opt.By, strings.Join(summary.Breakdowns, ", "))
			}
			if opt.Top <= 0 {
				return cannotRun("--top must be at least 1 (got %d)", opt.Top)
			}
			switch {
			case nameWidth == 0:
				opt.NameWidth = summary.FullNames
			case nameWidth < 5:
				return cannotRun("--name-width must be 0 (full names) or at least 5 (got %d)", nameWidth)
			default:
				opt.NameWidth = nameWidth
			}
			d, err := summaryData(&sf, args)
			if err != nil {
				return err
			}
			opt.DeviceHint = gpuHint
			out := c.OutOrStdout()
			opt.Color = opt.Format == "text" && isTerminal(out)
			if tw, ok := out.(*termWriter); ok {
				tw.color = opt.Color // the palette's colours pass, nothing else
			}
			if err := summary.Write(out, d, opt); err != nil {
				return cannotRun("%v", err)
			}
			printAdvice(c.ErrOrStderr(), d)
			return nil
		},
	}
	sf.add(c)
	c.Flags().IntVar(&opt.Top, "top", 20, "number of layers in the top table")
	c.Flags().IntVar(&nameWidth, "name-width", 60, "longest layer name printed before its middle is elided (0: full names)")
	c.Flags().StringVar(&opt.By, "by", "", "breakdown table to print: type, precision or tag (default: type and precision)")
	c.Flags().StringVar(&opt.Format, "format", "text", "output format: text, markdown, csv or json")
	return c
}

// summaryData reads an analyze-data.json FILE, or analyses a FOLDER / --data.
func summaryData(sf *scopeFlags, args []string) (*contract.AnalyzeData, error) {
	if len(args) == 1 && len(sf.data.pairs) == 0 {
		if st, err := os.Stat(args[0]); err == nil && !st.IsDir() { // a file, or a FIFO or device refused by readValid
			if sf.gpu != "" {
				return nil, cannotRun("--gpu names the GPU for an analysis of dumps, and %s is an analysis already made; analyse the dumps again with it: trtperf analyze FOLDER --gpu %s --output %s", args[0], trtexecflags.ShellQuote(sf.gpu), trtexecflags.ShellQuote(args[0]))
			}
			if sf.run != 0 {
				return nil, cannotRun("--run picks a run of a profile file of several runs when dumps are analysed, and %s is an analysis already made; analyse the dumps again with it: trtperf analyze FOLDER --run %d --output run%d.json", args[0], sf.run, sf.run)
			}
			d, err := readValid(args[0])
			if err != nil {
				return nil, err
			}
			return d, nil
		}
	}
	sc, err := sf.scope(args)
	if err != nil {
		return nil, err
	}
	d, err := analyzeScope(sc, sf.options())
	if err != nil {
		return nil, cannotRun("analyze: %w", withAdvice(err, baselineAdvice, gpuAdvice))
	}
	return d, nil
}

// isTerminal reports whether w is a character device (a terminal) and the
// user has not asked for no colour (NO_COLOR).
func isTerminal(w io.Writer) bool {
	f, ok := rawWriter(w).(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
