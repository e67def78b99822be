package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
)

func init() { register("compare", newCompareCmd) }

func newCompareCmd() *cobra.Command {
	var top int
	var format string
	c := &cobra.Command{
		Use:   "compare A [B]",
		Short: "Compare two backends: totals, speed-up, type/precision and per-layer deltas",
		Long: `compare sets two analysed backends side by side. A and B are each a dump
folder or an analyze-data.json, optionally followed by #LABEL to pick one
backend (needed when the input holds several). With a single argument holding
exactly two backends, those two are compared.

Only backends that passed the integrity gate with timing (layer_profile) are
compared; layers are matched by name occurrence.`,
		Example: `  trtperf compare dumps#fp16 dumps#int8
  trtperf compare dumps               # a folder with exactly two backends
  trtperf compare before.json after.json --format markdown`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			if !slices.Contains(compare.Formats, format) {
				return cannotRun("unknown --format %q; use one of %s", format, strings.Join(compare.Formats, ", "))
			}
			var a, b compare.Side
			if len(args) == 1 {
				d, err := loadAnalysis(args[0])
				if err != nil {
					return err
				}
				if len(d.Results) != 2 {
					return cannotRun("%s holds %d backends (%s); name two: trtperf compare %s#LABEL %s#LABEL", args[0], len(d.Results), labelList(d), args[0], args[0])
				}
				a = compare.Side{Name: args[0] + "#" + d.Results[0].Label, Backend: &d.Results[0]}
				b = compare.Side{Name: args[0] + "#" + d.Results[1].Label, Backend: &d.Results[1]}
			} else {
				var err error
				if a, err = loadSide(args[0]); err != nil {
					return err
				}
				if b, err = loadSide(args[1]); err != nil {
					return err
				}
			}
			r, err := compare.Compare(a, b, top)
			if err != nil {
				return cannotRun("%v", err)
			}
			if err := compare.Write(c.OutOrStdout(), r, format); err != nil {
				return cannotRun("write comparison: %v", err)
			}
			return nil
		},
	}
	c.Flags().IntVar(&top, "top", 15, "layers to list per table")
	c.Flags().StringVar(&format, "format", "text", "output format: text, markdown or json")
	return c
}

// loadSide resolves PATH[#LABEL] to one backend.
func loadSide(arg string) (compare.Side, error) {
	path, label, _ := strings.Cut(arg, "#")
	d, err := loadAnalysis(path)
	if err != nil {
		return compare.Side{}, err
	}
	if label == "" {
		if len(d.Results) != 1 {
			return compare.Side{}, cannotRun("%s holds %d backends (%s); pick one with %s#LABEL", path, len(d.Results), labelList(d), path)
		}
		return compare.Side{Name: arg, Backend: &d.Results[0]}, nil
	}
	for i := range d.Results {
		if d.Results[i].Label == label {
			return compare.Side{Name: arg, Backend: &d.Results[i]}, nil
		}
	}
	return compare.Side{}, cannotRun("%s has no backend %q; its backends are %s", path, label, labelList(d))
}

// loadAnalysis reads an analyze-data.json, or analyses a dump folder.
func loadAnalysis(path string) (*contract.AnalyzeData, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, cannotRun("%s: %v; give a dump folder or an analyze-data.json", path, err)
	}
	if st.Mode().IsRegular() {
		d, err := readValid(path)
		if err != nil {
			return nil, err
		}
		return d, nil
	}
	sc, err := discover.Folder(path)
	if err != nil {
		return nil, &ExitError{Code: ExitCannotRun, Err: err}
	}
	d, err := analysis.Analyze(sc, analysis.Options{ToolVersion: ToolVersion()})
	if err != nil {
		return nil, cannotRun("analyze %s: %v", path, err)
	}
	return d, nil
}

func labelList(d *contract.AnalyzeData) string {
	ls := make([]string, len(d.Results))
	for i, r := range d.Results {
		ls[i] = r.Label
	}
	if len(ls) == 0 {
		return "none"
	}
	return fmt.Sprint(strings.Join(ls, ", "))
}
