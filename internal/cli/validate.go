package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/fsutil"
	"github.com/trtperf/trtperf/internal/speed"
)

// maxListed caps the problems printed per check; the rest are counted.
const maxListed = 50

func init() {
	register("validate", func(*deps) *cobra.Command {
		var requirePassed, quiet bool
		var analyzeMD string
		c := &cobra.Command{
			Use:   "validate FILE",
			Short: "Check an analyze-data.json against the schema and the semantic rules",
			Long: `validate checks FILE (written by 'trtperf analyze') twice:

  SCHEMA    against the embedded JSON Schema (fields, types, enums)
  SEMANTIC  counts add up, statuses agree with messages, percentages and
            totals agree with records, every passed layer_profile backend
            has matched names and a DAG
  ANALYZE-MD  with --analyze-md MD: MD has exactly ## Summary and ## Details,
            cites (in backticks) only layer names that exist in FILE, and
            quotes no percentage or ms value that contradicts FILE; its
            problems are listed as "  line N: message"

Each check prints PASS or FAIL; a FAIL lists its problems as
"  /json/pointer: message". Exit status: 0 both pass, 1 a check failed,
2 the file cannot be read.`,
			Example: `  trtperf validate analyze-data.json
  trtperf validate analyze-data.json --require-passed
  trtperf validate analyze-data.json --analyze-md analyze.md`,
			Args: argCount(1, 1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return runValidate(cmd.OutOrStdout(), args[0], requirePassed, quiet, analyzeMD)
			},
		}
		c.Flags().BoolVar(&requirePassed, "require-passed", false, "also fail (exit 1) when any backend is not passed")
		c.Flags().BoolVar(&quiet, "quiet", false, "print only the PASS/FAIL lines, not the problems")
		c.Flags().StringVar(&analyzeMD, "analyze-md", "", "also check this AI-written analyze.md against FILE: exactly ## Summary and ## Details, only existing layer names, no contradicting numbers (prints ANALYZE-MD PASS|FAIL)")
		return c
	})
}

func runValidate(w io.Writer, path string, requirePassed, quiet bool, analyzeMD string) error {
	mdc, err := loadAnalyzeMD(analyzeMD)
	if err != nil {
		return err
	}
	speed.PrepareForJSON(path)
	data, err := fsutil.ReadRegularLimit(path, contract.MaxDataBytes)
	if err != nil {
		return cannotRun("read %s: %v; check the path", path, unwrapPath(err))
	}
	r := contract.Validate(data)
	ok := printCheck(w, "SCHEMA", r.Schema, quiet)
	ok = printCheck(w, "SEMANTIC", r.Semantic, quiet) && ok

	ok = mdc.run(w, r.Data, quiet) && ok

	if requirePassed {
		ok = printRequirePassed(w, r.Data) && ok
	}
	if !ok {
		return checkFailed()
	}
	return nil
}

func printCheck(w io.Writer, name string, problems []contract.Problem, quiet bool) bool {
	if len(problems) == 0 {
		fmt.Fprintf(w, "%s PASS\n", name)
		return true
	}
	fmt.Fprintf(w, "%s FAIL\n", name)
	if quiet {
		return false
	}
	for i, p := range problems {
		if i == maxListed {
			fmt.Fprintf(w, "  ... and %d more\n", len(problems)-maxListed)
			break
		}
		ptr := p.Pointer
		if ptr == "" {
			ptr = "(document)"
		}
		fmt.Fprintf(w, "  %s: %s\n", ptr, p.Message)
	}
	return false
}

// printRequirePassed reports every backend that is not passed; a document
// that did not decode cannot show that its backends passed.
func printRequirePassed(w io.Writer, d *contract.AnalyzeData) bool {
	if d == nil {
		fmt.Fprintln(w, "REQUIRE-PASSED FAIL: the file does not decode, so no backend can be shown to pass")
		return false
	}
	ok := len(d.Results) > 0
	if !ok {
		fmt.Fprintln(w, "REQUIRE-PASSED FAIL: the file has no backends")
	}
	for i := range d.Results {
		b := &d.Results[i]
		if b.Validation.Status == contract.StatusPassed {
			continue
		}
		ok = false
		why := "no error message"
		for _, m := range b.Validation.Messages {
			if m.Level == contract.LevelError {
				why = m.Message
				break
			}
		}
		fmt.Fprintf(w, "REQUIRE-PASSED FAIL: backend %s is %s: %s\n", b.Label, b.Validation.Status, why)
	}
	if ok {
		fmt.Fprintln(w, "REQUIRE-PASSED PASS")
	}
	return ok
}

// readValid reads an analyze-data.json for summary and compare: a file that
// fails validate is refused with exit 1 and its first problem, a file that
// cannot be read with exit 2.
func readValid(path string) (*contract.AnalyzeData, error) {
	speed.PrepareForJSON(path)
	d, err := contract.ReadValid(path)
	var ie *contract.InvalidError
	switch {
	case errors.As(err, &ie):
		return nil, &ExitError{Code: ExitCheck, Err: err}
	case err != nil:
		return nil, cannotRun("%v; give an analyze-data.json written by 'trtperf analyze', or a dump folder", err)
	}
	return d, nil
}
