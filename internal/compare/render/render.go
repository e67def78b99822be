// Package render writes a comparison for people and scripts: text,
// markdown, csv or json. It is apart from package compare so that the
// analysis (which fills the comparison section) does not depend on the
// renderers.
package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/summary"
)

// Formats are the output formats Write accepts.
var Formats = []string{"text", "markdown", "csv", "json"}

// Write renders a comparison as json (the contract's comparison section,
// the same shape as analyze-data.json's "comparison": a baseline and its
// pairs), or each pair in turn as text (aligned columns), markdown or csv
// (one table with a section column). top caps the rows of each table (0:
// all a pair holds).
func Write(w io.Writer, c *contract.Comparison, format string, top int) error {
	if format == "json" {
		if err := json.MarshalWrite(w, c, jsontext.WithIndent("  "), json.Deterministic(true)); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	}
	for i := range c.Pairs {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := writePair(w, &c.Pairs[i], format, top); err != nil {
			return err
		}
	}
	return nil
}

// writePair renders one pair in a table format.
func writePair(w io.Writer, p *contract.ComparisonPair, format string, top int) error {
	switch format {
	case "csv":
		return writeCSV(w, p, top)
	case "markdown":
		return writeTables(w, p, markdownTable, top)
	case "text", "":
		return writeTables(w, p, textTable, top)
	}
	return fmt.Errorf("unknown format %q: use one of %s", format, strings.Join(Formats, ", "))
}

type table func(w io.Writer, title string, header []string, rows [][]string) error

func capN[T any](xs []T, n int) []T {
	if n > 0 && len(xs) > n {
		return xs[:n]
	}
	return xs
}

func writeTables(w io.Writer, p *contract.ComparisonPair, t table, top int) error {
	if _, err := fmt.Fprintf(w, "%s\n\n", p.Summary); err != nil {
		return err
	}
	if p.MeasureNote != "" {
		fmt.Fprintf(w, "Note: %s.\n\n", p.MeasureNote)
	}
	al := p.Alignment
	noise := "noise"
	if p.Measure == contract.MeasurePredicted {
		noise = "model error" // what Noise holds for two predictions
	}
	totals := [][]string{
		{"A", p.A, ms(p.AMs), strconv.Itoa(al.ALayers), strconv.Itoa(al.AComputeLayers)},
		{"B", p.B, ms(p.BMs), strconv.Itoa(al.BLayers), strconv.Itoa(al.BComputeLayers)},
		{"Δ", "B − A", signed(p.DeltaMs), fmt.Sprintf("%+.1f %%", p.DeltaPct), fmt.Sprintf("%s ±%.1f %%", noise, p.Noise.Pct)},
	}
	if err := t(w, fmt.Sprintf("Totals (%s, ms)", p.Measure), []string{"", "backend", "ms", "layers", "compute layers"}, totals); err != nil {
		return err
	}
	if len(p.Reasons) > 0 {
		rows := make([][]string, len(p.Reasons))
		for i, r := range p.Reasons {
			rows[i] = []string{strconv.Itoa(i + 1), r}
		}
		if err := t(w, "Where the difference comes from", []string{"#", "reason"}, rows); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "Alignment: %d matched, %d split, %d merged, %d regrouped, %d only in A, %d only in B; by name %d, by source op %d, by structure %d; %.1f %% of compute layers aligned.\n",
		al.Matched, al.Split, al.Merged, al.Regrouped, al.OnlyA, al.OnlyB, al.ByName, al.BySourceOp, al.ByStructure, al.ComputeAlignedPct)
	if !compare.LayerByLayer(p) {
		return nil // two models: the summary and the totals are all there is
	}
	c := p.Changes
	fmt.Fprintf(w, "Matched layers that changed: tactic %d, tensor cores %d, precision %d, output format %d.\n\n", c.Tactic, c.TensorCore, c.Precision, c.Format)
	for _, g := range []struct {
		title string
		rows  []contract.GroupDelta
	}{{"By layer type", p.ByType}, {"By precision", p.ByPrec}, {"By region", p.ByRegion}} {
		if err := t(w, g.title, []string{"name", "A n", "A ms", "B n", "B ms", "Δ ms"}, groupRows(capN(g.rows, top))); err != nil {
			return err
		}
	}
	if len(p.OneSided) > 0 {
		rows := make([][]string, len(p.OneSided))
		for i, o := range p.OneSided {
			rows[i] = []string{strings.ToUpper(o.Side), o.Kind, strconv.Itoa(o.Count), ms(o.Ms)}
		}
		if err := t(w, "Reformats and Q/DQ on one side only", []string{"side", "kind", "layers", "ms"}, rows); err != nil {
			return err
		}
	}
	rows := [][]string{}
	for _, r := range capN(p.Rows, top) {
		rows = append(rows, []string{r.Kind, summary.Shorten(r.AName, 50), summary.Shorten(r.BName, 50), ms(r.AMs), ms(r.BMs), signed(r.DeltaMs), strings.Join(r.Changes, ", ")})
	}
	title := "Aligned layers, largest change first"
	if n := len(p.Rows) - len(rows) + p.RowsOmitted; n > 0 {
		title += fmt.Sprintf(" (%d more not listed)", n)
	}
	return t(w, title, []string{"kind", "A layer", "B layer", "A ms", "B ms", "Δ ms", "changes"}, rows)
}

func groupRows(ds []contract.GroupDelta) [][]string {
	rows := make([][]string, len(ds))
	for i, d := range ds {
		rows[i] = []string{d.Name, strconv.Itoa(d.ACount), ms(d.AMs), strconv.Itoa(d.BCount), ms(d.BMs), signed(d.DeltaMs)}
	}
	return rows
}

// writeCSV writes one table: a total row, the breakdowns, then the aligned
// rows, told apart by the section column.
func writeCSV(w io.Writer, p *contract.ComparisonPair, top int) error {
	cw := csv.NewWriter(w)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	write := func(rec ...string) { _ = cw.Write(rec) }
	write("section", "kind", "a_name", "b_name", "a_count", "b_count", "a_ms", "b_ms", "delta_ms", "detail")
	write("total", p.Verdict, p.A, p.B, strconv.Itoa(p.Alignment.ALayers), strconv.Itoa(p.Alignment.BLayers), f(p.AMs), f(p.BMs), f(p.DeltaMs),
		fmt.Sprintf("measure %s; delta %+.2f %%; noise ±%.2f %%", p.Measure, p.DeltaPct, p.Noise.Pct))
	for _, g := range []struct {
		name string
		rows []contract.GroupDelta
	}{{"type", p.ByType}, {"precision", p.ByPrec}, {"region", p.ByRegion}} {
		for _, d := range capN(g.rows, top) {
			write(g.name, "", d.Name, d.Name, strconv.Itoa(d.ACount), strconv.Itoa(d.BCount), f(d.AMs), f(d.BMs), f(d.DeltaMs), "")
		}
	}
	for _, r := range capN(p.Rows, top) {
		write("layer", r.Kind, r.AName, r.BName, strconv.Itoa(len(r.ALayers)), strconv.Itoa(len(r.BLayers)), f(r.AMs), f(r.BMs), f(r.DeltaMs),
			strings.Join(append([]string{r.Reason}, r.Changes...), "; "))
	}
	cw.Flush()
	return cw.Error()
}

func ms(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }
func signed(v float64) string {
	if v > 0 {
		return "+" + ms(v)
	}
	return ms(v)
}

func textTable(w io.Writer, title string, header []string, rows [][]string) error {
	fmt.Fprintf(w, "%s\n", title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t\n", strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t\n", strings.Join(r, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

func markdownTable(w io.Writer, title string, header []string, rows [][]string) error {
	fmt.Fprintf(w, "### %s\n\n| %s |\n|%s\n", title, strings.Join(header, " | "), strings.Repeat(" --- |", len(header)))
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = strings.ReplaceAll(strings.ReplaceAll(c, "|", `\|`), "\n", " ")
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	_, err := fmt.Fprintln(w)
	return err
}
