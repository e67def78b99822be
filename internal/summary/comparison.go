package summary

import (
	"fmt"
	"io"
	"slices"

	"github.com/trtperf/trtperf/internal/compare"

	"github.com/trtperf/trtperf/internal/contract"
)

// comparisonLines are the summary's answer to "which build is faster":
// the comparison section's one-sentence verdicts, one per pair; each
// sentence names both builds and the measure compared. A folder of one usable backend has none.
func comparisonLines(c *contract.Comparison) []string {
	if c == nil || len(c.Pairs) == 0 {
		return nil
	}
	why := "the fastest"
	if c.BaselineReason != "fastest" {
		why = "chosen"
	}
	lines := []string{fmt.Sprintf("baseline %s (%s)", c.Baseline, why)}
	for _, p := range c.Pairs {
		lines = append(lines, p.Summary) // names both builds and the measure
	}
	return lines
}

func writeComparisonText(w io.Writer, d *contract.AnalyzeData, p palette) {
	lines := comparisonLines(d.Comparison)
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "%s, %s\n", p.bold("comparison"), lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "  %s\n", l)
	}
	if slices.ContainsFunc(d.Comparison.Pairs, func(p contract.ComparisonPair) bool { return compare.LayerByLayer(&p) }) {
		fmt.Fprintf(w, "  %s\n", p.dim("(trtperf compare gives the layer-by-layer breakdown)"))
	}
}

func writeComparisonMarkdown(w io.Writer, d *contract.AnalyzeData) {
	lines := comparisonLines(d.Comparison)
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "\nComparison, %s:\n\n", mdCell(lines[0]))
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "- %s\n", mdCell(l))
	}
}

// writeRowComparisonsText prints the row comparisons of partial tables
// after the engine comparison: one sentence each, which says it compares
// those rows only.
func writeRowComparisonsText(w io.Writer, d *contract.AnalyzeData, p palette) {
	if len(d.RowComparisons) == 0 {
		return
	}
	fmt.Fprintf(w, "%s (partial tables: the rows both hold, not the engines)\n", p.bold("rows compared"))
	for _, rc := range d.RowComparisons {
		fmt.Fprintf(w, "  %s vs %s: %s\n", rc.B, rc.A, rc.Summary)
	}
}

func writeRowComparisonsMarkdown(w io.Writer, d *contract.AnalyzeData) {
	if len(d.RowComparisons) == 0 {
		return
	}
	fmt.Fprintf(w, "\nRows compared (partial tables: the rows both hold, not the engines):\n\n")
	for _, rc := range d.RowComparisons {
		fmt.Fprintf(w, "- %s vs %s: %s\n", mdCell(rc.B), mdCell(rc.A), mdCell(rc.Summary))
	}
}
