package cli

import (
	"fmt"
	"io"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/fsutil"
	"github.com/trtperf/trtperf/internal/mdcheck"
	"github.com/trtperf/trtperf/internal/report"
)

// analyzeMDCheck is `validate --analyze-md`: it is read before the checks
// run, so an unreadable file is a usage error (exit 2) with nothing printed.
type analyzeMDCheck struct {
	path string
	md   []byte
}

func loadAnalyzeMD(path string) (*analyzeMDCheck, error) {
	if path == "" {
		return nil, nil
	}
	md, err := fsutil.ReadFileLimit(path, report.MaxAnalyzeMDBytes)
	if err != nil {
		return nil, cannotRun("cannot read --analyze-md %s: %v; give the path of the Markdown analysis", path, unwrapPath(err))
	}
	return &analyzeMDCheck{path: path, md: md}, nil
}

// run prints `ANALYZE-MD PASS|FAIL` and one "  line N: ..." per problem.
// The names and numbers are checked only against a document that decoded.
func (a *analyzeMDCheck) run(w io.Writer, d *contract.AnalyzeData, quiet bool) bool {
	if a == nil {
		return true
	}
	if d == nil {
		fmt.Fprintf(w, "ANALYZE-MD FAIL\n  %s: not checked: the analysis does not decode, so its layer names and numbers are unknown; fix the schema problems first\n", a.path)
		return false
	}
	ps := mdcheck.Check(a.md, d)
	if len(ps) == 0 {
		fmt.Fprintln(w, "ANALYZE-MD PASS")
		return true
	}
	fmt.Fprintln(w, "ANALYZE-MD FAIL")
	if quiet {
		return false
	}
	for i, p := range ps {
		if i == maxListed {
			fmt.Fprintf(w, "  ... and %d more\n", len(ps)-maxListed)
			break
		}
		fmt.Fprintf(w, "  %s\n", p)
	}
	return false
}
