package summary

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/golden"
	"github.com/trtperf/trtperf/internal/load"
)

// TestIssueLeads runs the summary on every case of ../shared/issues (real
// trtexec pastes from issue threads) and records, beside what the case's
// RESOLUTION.md expects an expert tool to lead with, the first finding or
// first overview line of each backend. The golden is the review table of
// issue 22's acceptance 2; every backend of a case must lead with
// something (a finding, an overview item, or at least the message that
// says which evidence is missing).
func TestIssueLeads(t *testing.T) {
	dir := corpustest.IssuesDir(t, corpustest.Issues)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		caseDir := filepath.Join(dir, e.Name())
		res := corpustest.LoadResolution(t, caseDir)
		sc, err := discover.Folder(caseDir)
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
			continue
		}
		d, err := analysis.AnalyzeParsed(sc, load.Source(sc), analysis.Options{})
		if err != nil {
			t.Fatalf("analyze %s: %v", e.Name(), err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, d, Options{Format: "text", Top: 10}); err != nil {
			t.Fatal(err)
		}
		out.WriteString(e.Name() + "\n  expected (" + res.Kind + "): " + res.ExpectedFirstProblem + "\n")
		for _, block := range strings.Split(buf.String(), "\nbackend ")[1:] {
			label, _, _ := strings.Cut(block, ":")
			var finding, overview, msg string
			for line := range strings.SplitSeq(block, "\n") {
				switch {
				case finding == "" && strings.HasPrefix(line, "  1. "):
					finding = strings.TrimSpace(line)
				case overview == "" && strings.HasPrefix(line, "  · "):
					// The item's title, not its evidence.
					overview, _, _ = strings.Cut(strings.TrimSpace(line), ": ")
				case msg == "" && (strings.HasPrefix(line, "  error: ") || strings.HasPrefix(line, "  warning: ")):
					msg = strings.TrimSpace(line)
				}
			}
			if finding == "" && overview == "" && msg == "" {
				t.Errorf("%s backend %s leads with nothing", e.Name(), label)
			}
			if finding != "" {
				out.WriteString("  " + label + " first finding: " + finding + "\n")
			}
			if overview != "" {
				out.WriteString("  " + label + " first overview: " + overview + "\n")
			}
			if finding == "" && overview == "" {
				out.WriteString("  " + label + " (no finding or overview) " + msg + "\n")
			}
		}
	}
	golden.Check(t, filepath.Join("testdata", "issues-leads.golden"), out.Bytes())
}
