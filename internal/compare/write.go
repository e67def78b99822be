package compare

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/summary"
)

// Formats are the output formats Write accepts.
var Formats = []string{"text", "markdown", "json"}

// Write renders r as text (aligned columns), markdown or json.
func Write(w io.Writer, r *Result, format string) error {
	switch format {
	case "json":
		return json.MarshalWrite(w, r, jsontext.WithIndent("  "), json.Deterministic(true))
	case "markdown":
		return writeTables(w, r, markdownTable)
	case "text", "":
		return writeTables(w, r, textTable)
	}
	return fmt.Errorf("unknown format %q: use one of %s", format, strings.Join(Formats, ", "))
}

type table func(w io.Writer, title string, header []string, rows [][]string) error

func writeTables(w io.Writer, r *Result, t table) error {
	verdict := "same speed"
	switch {
	case r.Speedup > 1.0005:
		verdict = fmt.Sprintf("B is %.2f× faster", r.Speedup)
	case r.Speedup > 0 && r.Speedup < 0.9995:
		verdict = fmt.Sprintf("B is %.2f× slower", 1/r.Speedup)
	}
	totals := [][]string{
		{"A", r.A, ms(r.ATotalMs), strconv.Itoa(r.ALayers)},
		{"B", r.B, ms(r.BTotalMs), strconv.Itoa(r.BLayers)},
	}
	if err := t(w, fmt.Sprintf("Average inference (sum of layer averages): %s; %d layers matched by name", verdict, r.Matched),
		[]string{"", "backend", "total ms", "layers"}, totals); err != nil {
		return err
	}
	for _, g := range []struct {
		title string
		rows  []Delta
	}{{"By layer type", r.Types}, {"By precision", r.Precisions}} {
		if err := t(w, g.title, []string{"name", "A n", "A ms", "B n", "B ms", "Δ ms"}, groupRows(g.rows)); err != nil {
			return err
		}
	}
	for _, g := range []struct {
		title string
		rows  []Delta
	}{{"Layers in both, largest change first", r.Layers}, {"Layers only in A", r.OnlyA}, {"Layers only in B", r.OnlyB}} {
		if len(g.rows) == 0 {
			continue
		}
		rows := make([][]string, len(g.rows))
		for i, d := range g.rows {
			rows[i] = []string{summary.Shorten(d.Name, 70), ms(d.AMs), ms(d.BMs), signed(d.DeltaMs)}
		}
		if err := t(w, g.title, []string{"layer", "A ms", "B ms", "Δ ms"}, rows); err != nil {
			return err
		}
	}
	return nil
}

func groupRows(ds []Delta) [][]string {
	rows := make([][]string, len(ds))
	for i, d := range ds {
		rows[i] = []string{d.Name, strconv.Itoa(d.ACount), ms(d.AMs), strconv.Itoa(d.BCount), ms(d.BMs), signed(d.DeltaMs)}
	}
	return rows
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
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
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
