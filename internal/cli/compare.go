package cli

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/compare/render"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
)

func init() { register("compare", newCompareCmd) }

func newCompareCmd(*deps) *cobra.Command {
	var top int
	var format string
	var failAbove float64
	var fullPaths bool
	c := &cobra.Command{
		Use:   "compare A [B]",
		Short: "Which build is faster and why: aligned layers, deltas on one measure, a noise-aware verdict",
		Long: `compare answers "which build is better, and why". A and B are each a dump
folder or an analyze-data.json, optionally followed by #LABEL to pick one
backend (needed when the input holds several). With a single argument, every
usable backend is compared against the fastest.

Layers are aligned across builds and exports: by name, then by source ops
(metadata, the parts of fused names, Torch-TensorRT scopes, weight names such
as features.5.conv.2.weight), then by type, shapes (batch aside) and place in
the graph. Every layer ends matched, split/merged, or only in A / only in B.
Totals use measured latency when both sides have it, else sums of layer
times (never one of each); per-layer times are scaled to that measure, so
the rows add up to the total difference. The verdict says whether the
difference is beyond run-to-run noise, and recognises the same engine
profiled twice.

Builds are named by their label when both come from the same input, else by
the input's base name and label ("before#fp16", "after#fp16"); --full-paths
prints the paths as given.

Exit codes: 0 done; 1 with --fail-above PCT when B is slower than A by more
than PCT percent beyond noise (for CI); 2 the comparison could not run.
Only backends that passed the integrity gate with timing (layer_profile)
are compared.`,
		Example: `  trtperf compare dumps#fp16 dumps#int8
  trtperf compare dumps                          # every backend against the fastest
  trtperf compare before.json after.json --format markdown
  trtperf compare main/analyze-data.json#fp16 pr/analyze-data.json#fp16 --fail-above 3`,
		Args: argCount(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			if !slices.Contains(render.Formats, format) {
				return cannotRun("unknown --format %q; use one of %s", format, strings.Join(render.Formats, ", "))
			}
			if math.IsNaN(failAbove) || math.IsInf(failAbove, 0) {
				return cannotRun("--fail-above %g is not a number a gate can compare with (the gate would never fire); give a finite percentage such as 3", failAbove)
			}
			if failAbove < 0 {
				return cannotRun("--fail-above %g is negative; give a percentage such as 3", failAbove)
			}
			var sec *contract.Comparison
			if len(args) == 1 {
				path, label, _ := strings.Cut(args[0], "#")
				d, err := loadAnalysis(path)
				if err != nil {
					return err
				}
				sec, err = compare.Section(d, label)
				if err != nil {
					if len(usableLabels(d)) >= 2 {
						err = withAdvice(err, advice{compare.ErrUnknownBaseline, commandLine("compare", path) + " against the fastest, or " + compareWith(d, path, args, 0)})
					}
					return cannotRun("%s: %w", path, err)
				}
				if sec == nil && len(d.RowComparisons) > 0 {
					// Partial tables: the rows they share are what can be
					// compared.
					if err := render.WriteRows(c.OutOrStdout(), d.RowComparisons, format); err != nil {
						return cannotRun("write comparison: %v", err)
					}
					return nil
				}
				if sec == nil {
					return cannotRun("%s holds fewer than two backends compare can use (%s): %s; compare it with another build's dumps or analysis as a second argument", path, labelList(d), unusableReasons(d))
				}
			} else {
				a, err := loadSide(args, 0)
				if err != nil {
					return err
				}
				b, err := loadSide(args, 1)
				if err != nil {
					return err
				}
				if !fullPaths {
					a.Name, b.Name = sideNames(args[0], args[1], a.Backend.Label, b.Backend.Label)
				}
				p, err := compare.Pair(a, b, max(top, compare.DefaultRows))
				if err != nil {
					if contract.WhyNoRowComparison(a.Backend, b.Backend) != "" {
						return cannotRun("%v", err)
					}
					// Partial tables: compare the rows both hold, named by
					// the sides' names.
					rc := compare.RowPairOf(a, b)
					if len(rc.Rows) == 0 {
						return cannotRun("%v; and the two tables share no named row (no same layer name, no operation named by one row of each) to compare row by row", err)
					}
					if err := render.WriteRows(c.OutOrStdout(), []contract.RowComparison{*rc}, format); err != nil {
						return cannotRun("write comparison: %v", err)
					}
					return nil
				}
				// The same shape as analyze-data.json's comparison: A, given
				// first, is the baseline.
				sec = &contract.Comparison{Baseline: p.A, BaselineReason: "chosen", Pairs: []contract.ComparisonPair{*p}}
			}
			if err := render.Write(c.OutOrStdout(), sec, format, top); err != nil {
				return cannotRun("write comparison: %v", err)
			}
			failed := []string{}
			for i := range sec.Pairs {
				p := &sec.Pairs[i]
				if c.Flags().Changed("fail-above") && compare.FailAbove(p, failAbove) {
					failed = append(failed, fmt.Sprintf("%s is %.1f %% slower than %s (noise ±%.1f %%, allowed %g %%)", p.B, p.DeltaPct, p.A, p.Noise.Pct, failAbove))
				}
			}
			if len(failed) > 0 {
				return &ExitError{Code: ExitCheck, Err: fmt.Errorf("%s", strings.Join(failed, "; "))}
			}
			return nil
		},
	}
	c.Flags().IntVar(&top, "top", 15, "rows to list per table")
	c.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(render.Formats, ", "))
	c.Flags().BoolVar(&fullPaths, "full-paths", false, "name A and B by the paths as given instead of their base names and labels")
	c.Flags().Float64Var(&failAbove, "fail-above", 0, "exit 1 when B is slower than A by more than PCT percent beyond noise")
	return c
}

// loadSide resolves args[at], PATH[#LABEL], to one backend. A refusal
// offers the commands that pick each usable backend of PATH instead.
func loadSide(args []string, at int) (compare.Side, error) {
	arg := args[at]
	path, label, _ := strings.Cut(arg, "#")
	d, err := loadAnalysis(path)
	if err != nil {
		return compare.Side{}, err
	}
	pick := func() string {
		if cmds := compareWith(d, path, args, at); cmds != "" {
			return "; pick one: " + cmds
		}
		return "; none of them can be compared: " + unusableReasons(d)
	}
	if label == "" {
		if len(d.Results) != 1 {
			return compare.Side{}, cannotRun("%s holds %d backends (%s)%s", path, len(d.Results), labelList(d), pick())
		}
		return compare.Side{Name: arg, Backend: &d.Results[0]}, nil
	}
	for i := range d.Results {
		if d.Results[i].Label == label {
			return compare.Side{Name: arg, Backend: &d.Results[i]}, nil
		}
	}
	return compare.Side{}, cannotRun("%s has no backend %q; its backends are %s%s", path, label, labelList(d), pick())
}

// sideNames are the short names of two compared backends, so that output
// quoted in a report names builds, not where the files lay: the labels when
// both come from the same input (or the labels differ and the inputs share
// a base name), else "base#label" with base the input's base name (an
// analyze-data.json is named by its folder), more of the path when the two
// bases are equal.
func sideNames(argA, argB, labelA, labelB string) (string, string) {
	pathA, _, _ := strings.Cut(argA, "#")
	pathB, _, _ := strings.Cut(argB, "#")
	if filepath.Clean(pathA) == filepath.Clean(pathB) && labelA != labelB {
		return labelA, labelB
	}
	partsA := pathParts(pathA)
	partsB := pathParts(pathB)
	for n := 1; n <= max(len(partsA), len(partsB)); n++ {
		if a, b := tail(partsA, n), tail(partsB, n); a != b {
			return a + "#" + labelA, b + "#" + labelB
		}
	}
	// One backend against itself (a re-profile): the short name twice.
	return tail(partsA, 1) + "#" + labelA, tail(partsB, 1) + "#" + labelB
}

// pathParts splits an input path into its elements, dropping a file name
// that only says what the file is (analyze-data.json).
func pathParts(p string) []string {
	abs, err := filepath.Abs(p)
	if err == nil {
		p = abs
	}
	parts := strings.FieldsFunc(filepath.ToSlash(p), func(r rune) bool { return r == '/' })
	if n := len(parts); n > 1 && strings.EqualFold(parts[n-1], "analyze-data.json") {
		parts = parts[:n-1]
	}
	return parts
}

func tail(parts []string, n int) string {
	return strings.Join(parts[max(0, len(parts)-n):], "/")
}

// loadAnalysis reads an analyze-data.json, or analyses a dump folder.
func loadAnalysis(path string) (*contract.AnalyzeData, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, cannotRun("%s: %v; give a dump folder or an analyze-data.json", path, err)
	}
	if !st.IsDir() { // a file, or a FIFO or device refused by readValid
		d, err := readValid(path)
		if err != nil {
			return nil, err
		}
		return d, nil
	}
	sc, err := discover.Folder(path)
	if err != nil {
		return nil, &ExitError{Code: ExitCannotRun, Err: componentsAdvice(err)}
	}
	d, err := analyzeScope(sc, analysis.Options{ToolVersion: ToolVersion()})
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
