package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/contract"
)

// WriteRows renders row comparisons of partial tables (the contract's
// row_comparisons): json as that array, or per comparison its sentence and
// a table of the shared rows (text, markdown) or one csv table. It never
// states an engine speed-up: the totals are of the shared rows only.
func WriteRows(w io.Writer, rcs []contract.RowComparison, format string) error {
	if format == "json" {
		if err := json.MarshalWrite(w, rcs, jsontext.WithIndent("  "), json.Deterministic(true)); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	}
	if format == "csv" {
		cw := csv.NewWriter(w)
		f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
		_ = cw.Write([]string{"a", "b", "kind", "a_name", "b_name", "match", "a_ms", "b_ms", "delta_ms", "b_time_ratio"})
		for _, rc := range rcs {
			_ = cw.Write([]string{rc.A, rc.B, "shared_rows_total", "", "", "", f(rc.AMs), f(rc.BMs), f(rc.DeltaMs), f(rc.BTimeRatio)})
			for _, r := range rc.Rows {
				_ = cw.Write([]string{rc.A, rc.B, "row", r.AName, r.BName, matchText(r), f(r.AMs), f(r.BMs), f(r.DeltaMs), f(r.BTimeRatio)})
			}
		}
		cw.Flush()
		return cw.Error()
	}
	tbl := textTable
	switch format {
	case "markdown":
		tbl = markdownTable
	case "text", "":
	default:
		return fmt.Errorf("unknown format %q: use one of text, markdown, csv, json", format)
	}
	for i, rc := range rcs {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "%s vs %s, rows both tables hold (partial tables: not an engine comparison)\n%s\n\n", rc.B, rc.A, rc.Summary); err != nil {
			return err
		}
		rows := make([][]string, 0, len(rc.Rows))
		for _, r := range rc.Rows {
			rows = append(rows, []string{ms(r.AMs), ms(r.BMs), signed(r.DeltaMs), strconv.FormatFloat(r.BTimeRatio, 'f', 2, 64) + "×", matchText(r), r.AName, r.BName})
		}
		title := fmt.Sprintf("%d shared rows: %s ms in %s, %s ms in %s", len(rc.Rows), ms(rc.AMs), rc.A, ms(rc.BMs), rc.B)
		if err := tbl(w, title, []string{"a ms", "b ms", "delta", "b/a", "match", "a row", "b row"}, rows); err != nil {
			return err
		}
	}
	return nil
}

func matchText(r contract.SharedRow) string {
	if r.Match == contract.RowMatchOp {
		return "op " + r.Op
	}
	return r.Match
}
