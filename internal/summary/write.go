package summary

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/contract"
)

// Write renders d in opt.Format.
func Write(w io.Writer, d *contract.AnalyzeData, opt Options) error {
	if d == nil {
		return fmt.Errorf("summary: no analysis data")
	}
	if opt.Format == "" {
		opt.Format = "text"
	}
	if !slices.Contains(Formats, opt.Format) {
		return fmt.Errorf("summary: unknown format %q (use one of %s)", opt.Format, strings.Join(Formats, ", "))
	}
	if opt.By != "" && !slices.Contains(Breakdowns, opt.By) {
		return fmt.Errorf("summary: unknown breakdown %q (use one of %s)", opt.By, strings.Join(Breakdowns, ", "))
	}
	switch {
	case opt.NameWidth == FullNames:
		opt.NameWidth = math.MaxInt
	case opt.NameWidth <= 0:
		opt.NameWidth = 60
	}
	views := buildViews(d, opt)
	bw := bufio.NewWriter(w)
	var err error
	switch opt.Format {
	case "text":
		writeText(bw, d, views, opt)
	case "markdown":
		writeMarkdown(bw, d, views, opt)
	case "csv":
		err = writeCSV(bw, views)
	case "json":
		err = json.MarshalWrite(bw, struct {
			Model   string                   `json:"model_name"`
			Status  string                   `json:"status"`
			Results []view                   `json:"results"`
			Rows    []contract.RowComparison `json:"row_comparisons,omitempty"`
		}{d.ModelName, d.Validation.Status, views, d.RowComparisons}, jsontext.WithIndent("  "), json.Deterministic(true))
		if err == nil {
			err = bw.WriteByte('\n')
		}
	}
	if err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	return nil
}

// Shorten cuts s to at most n runes by replacing its middle with "…", so
// both the start (module path) and the end (op) of a layer name stay.
func Shorten(s string, n int) string {
	if n < 5 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

func ms(v float64) string  { return strconv.FormatFloat(v, 'f', 4, 64) }
func pct(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "%" }

// grid prints aligned columns: right-aligned for columns in right.
type grid struct {
	rows  [][]string
	right []bool
}

func (g *grid) add(cells ...string) { g.rows = append(g.rows, cells) }

func (g *grid) write(w io.Writer, indent string, header func(string) string) {
	widths := []int{}
	for _, r := range g.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for k, r := range g.rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i < len(g.right) && g.right[i] {
				b.WriteString(pad + c)
			} else if i == len(r)-1 {
				b.WriteString(c)
			} else {
				b.WriteString(c + pad)
			}
		}
		line := b.String()
		if k == 0 && header != nil {
			line = header(line)
		}
		fmt.Fprintln(w, line)
	}
}

type palette struct{ on bool }

func (p palette) wrap(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}
func (p palette) bold(s string) string { return p.wrap("1", s) }
func (p palette) dim(s string) string  { return p.wrap("2", s) }
func (p palette) status(s string) string {
	switch s {
	case contract.StatusPassed:
		return p.wrap("32", s)
	case contract.StatusFailed:
		return p.wrap("31", s)
	}
	return p.wrap("33", s)
}
func (p palette) confidence(s string) string {
	switch s {
	case contract.ConfidenceHigh:
		return p.wrap("31", s)
	case contract.ConfidenceMedium:
		return p.wrap("33", s)
	}
	return s
}

func countText(c *int64) string {
	switch {
	case c == nil:
		return "iterations unknown"
	case *c == 1:
		return "1 iteration (small layers may be misranked; re-profile with --iterations=100)"
	}
	return strconv.FormatInt(*c, 10) + " iterations"
}

func writeText(w io.Writer, d *contract.AnalyzeData, views []view, opt Options) {
	p := palette{opt.Color}
	name := d.ModelName
	if name == "" {
		name = "unknown model"
	}
	fmt.Fprintf(w, "%s  (%s: %d of %d backends passed)\n", p.bold(name), p.status(d.Validation.Status), d.Validation.PassedCount, d.Validation.BackendCount)
	if note := partialNote(views); note != "" {
		fmt.Fprintf(w, "  %s\n", note)
	}
	if un := unusedFiles(d); len(un) > 0 {
		fmt.Fprintf(w, "files not used (%d):\n", len(un))
		for _, f := range un {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	if rc := recastFiles(d); len(rc) > 0 {
		fmt.Fprintf(w, "files read for what they hold, not what their names say (%d):\n", len(rc))
		for _, f := range rc {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	writeComparisonText(w, d, p)
	writeRowComparisonsText(w, d, p)
	for _, v := range views {
		fmt.Fprintf(w, "\nbackend %s: %s %s, %s, %d layers, %d profile records, %s\n",
			p.bold(v.Label), p.status(statusWord(v.Status, v.Mode)), v.Mode, headerFacts(v), v.Layers, v.Records, countText(v.Count))
		for _, m := range v.Messages {
			fmt.Fprintf(w, "  %s\n", m)
		}
		for _, l := range []string{v.Device, v.Build, v.Memory} {
			if l != "" {
				fmt.Fprintf(w, "  %s\n", l)
			}
		}
		writeRuns(w, &v, p.dim)
		if inv := v.Inventory; inv != nil {
			fmt.Fprintf(w, "  layer types: %s\n", countsText(inv.Types, 40))
			if len(inv.Formats) > 0 {
				fmt.Fprintf(w, "  output formats: %s\n", countsText(inv.Formats, 40))
			}
			if len(inv.Tactics) > 0 {
				fmt.Fprintf(w, "  tactics: %s\n", countsText(inv.Tactics, 40))
			}
			fmt.Fprintf(w, "  Myelin layers: %d\n", inv.Myelin)
		}
		if pv := v.Predicted; pv != nil {
			writePredicted(w, v, pv, opt, p)
			continue
		}
		if !timed(v) {
			// A backend without per-layer timing may still have what its
			// log measured and says of the build.
			if m := measuredText(v.Measured); m != "" {
				fmt.Fprintf(w, "  measured %s\n", m)
			}
			writeOverview(w, v.Overview)
			continue
		}
		if v.Guessed {
			fmt.Fprintln(w, "  profile only: layer kinds below are guessed from layer names")
		}
		line := fmt.Sprintf("  total %s ms (sum of layer averages)", ms(v.TotalMs))
		if v.MedianMs != nil {
			line += fmt.Sprintf(", median-based %s ms", ms(*v.MedianMs))
		}
		if v.Category != "" {
			line += ", category " + v.Category
		}
		fmt.Fprintln(w, line)
		if m := measuredText(v.Measured); m != "" {
			fmt.Fprintf(w, "  measured %s\n", m)
		}
		if e := v.EndToEnd; e != nil {
			fmt.Fprintf(w, "  %s %s ms mean, %s median, %s p99 over %d inferences (%s); the layer sum is %.2f× that\n",
				contract.HostLatencyWords, ms(e.MeanMs), ms(e.MedianMs), ms(e.P99Ms), e.Iterations, e.Source, e.ProfileOverhead)
		}
		if v.Roofline != "" {
			fmt.Fprintf(w, "  %s\n", v.Roofline)
		}
		if v.Conc != nil {
			fmt.Fprintf(w, "  %d layers make 50%% of the time, %d make 80%%, %d make 90%%\n", v.Conc.Layers50, v.Conc.Layers80, v.Conc.Layers90)
		}
		fmt.Fprintf(w, "\n  top %d of %d layers\n", len(v.Top), v.TopOf)
		g := grid{right: []bool{true, true, true, true}}
		g.add("avg ms", "share", "cum", "#", "type", "precision", "name")
		for _, r := range v.Top {
			g.add(ms(r.AvgMs), pct(r.Share), pct(r.Cum), strconv.Itoa(r.Rank), r.Type, r.Precision, Shorten(r.Name, opt.NameWidth))
		}
		g.write(w, "  ", p.dim)
		if u := untimedLine(v.Untimed, opt.NameWidth); u != "" {
			fmt.Fprintf(w, "\n  %s\n", u)
		}
		for _, t := range v.Tables {
			if len(t.Rows) == 0 {
				continue
			}
			fmt.Fprintf(w, "\n  by %s\n", t.By)
			g := grid{right: []bool{true, true, true}}
			g.add("ms", "share", "count", t.By)
			for _, b := range t.Rows {
				g.add(ms(b.TimeMs), pct(b.Percentage), strconv.Itoa(b.Count), Shorten(b.Name, opt.NameWidth))
			}
			g.write(w, "  ", p.dim)
		}
		fmt.Fprintf(w, "\n  findings (%d)%s\n", len(v.Findings), diagnosisLine(v.Diagnosis, v.Findings, v.TotalMs))
		for i, f := range v.Findings {
			fmt.Fprintf(w, "  %d. %s  %s  recoverable %s  score %.4f  [%s]\n", i+1, p.bold(f.Title), f.ID, recoverable(f, v.Diagnosis), f.Score, p.confidence(f.Confidence))
			for _, e := range f.Evidence {
				fmt.Fprintf(w, "     - %s\n", e)
			}
			if f.Action != "" && f.Action != f.NextCheck {
				fmt.Fprintf(w, "     change: %s\n", f.Action)
			}
			fmt.Fprintf(w, "     next: %s\n", f.NextCheck)
			if v.DeviceNote != "" && i == firstModelPriced(v.Findings) {
				fmt.Fprintf(w, "     %s %s\n", p.bold("note:"), v.DeviceNote)
			}
		}
		writeOverview(w, v.Overview)
		if len(v.Positives) > 0 {
			fmt.Fprintf(w, "\n  positives (%d)\n", len(v.Positives))
			for _, ps := range v.Positives {
				fmt.Fprintf(w, "  + %s: %s\n", ps.Title, strings.Join(ps.Evidence, " "))
			}
		}
	}
}

// measuredText is what trtexec measured without per-layer profiling: the
// GPU compute median (else the latency median), its source and how much
// larger the layer sum is; "" when nothing was measured.
func measuredText(m *contract.Measured) string {
	if m == nil {
		return ""
	}
	what, st := "GPU compute", m.GPUComputeMs
	if st.Median == nil {
		what, st = "latency", m.LatencyMs
	}
	if st.Median == nil {
		return ""
	}
	s := fmt.Sprintf("%s ms %s median", ms(*st.Median), what)
	if m.Samples != nil {
		s += fmt.Sprintf(" over %d inferences", *m.Samples)
	}
	s += fmt.Sprintf(" (%s, %s)", m.Source.File, m.Source.Kind)
	if m.ProfileOverhead != nil {
		s += fmt.Sprintf("; the layer sum is %.2f× that", *m.ProfileOverhead)
	}
	if m.CV != nil {
		of := strings.ReplaceAll(m.CVOf, "_", " ")
		s += fmt.Sprintf("; %s varies %.1f%% (coefficient of variation)", of, *m.CV*100)
		if m.CVWarned {
			s += ", trtexec warned it is unstable"
		}
	}
	if m.FewSamples {
		s += "; few samples, noisy"
	}
	return s
}

// timed reports whether a backend has timing to print: a passed
// layer_profile backend, or a profile_only one.
func timed(v view) bool {
	return v.Status == contract.StatusPassed && v.Mode == contract.ModeLayerProfile || v.Mode == contract.ModeProfileOnly
}

// mdCell escapes a markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "`", "'").Replace(s)
}

func writeMarkdown(w io.Writer, d *contract.AnalyzeData, views []view, opt Options) {
	name := d.ModelName
	if name == "" {
		name = "unknown model"
	}
	fmt.Fprintf(w, "# %s\n\nValidation: **%s** (%d of %d backends passed)\n", mdCell(name), d.Validation.Status, d.Validation.PassedCount, d.Validation.BackendCount)
	if note := partialNote(views); note != "" {
		fmt.Fprintf(w, "\n%s.\n", mdCell(note))
	}
	if un := unusedFiles(d); len(un) > 0 {
		fmt.Fprintf(w, "\nFiles not used:\n\n")
		for _, f := range un {
			fmt.Fprintf(w, "- %s\n", mdCell(f))
		}
	}
	if rc := recastFiles(d); len(rc) > 0 {
		fmt.Fprintf(w, "\nFiles read for what they hold, not what their names say:\n\n")
		for _, f := range rc {
			fmt.Fprintf(w, "- %s\n", mdCell(f))
		}
	}
	writeComparisonMarkdown(w, d)
	writeRowComparisonsMarkdown(w, d)
	for _, v := range views {
		fmt.Fprintf(w, "\n## Backend `%s`: %s %s\n\n", v.Label, statusWord(v.Status, v.Mode), v.Mode)
		fmt.Fprintf(w, "%s, %d layers, %d profile records, %s", headerFacts(v), v.Layers, v.Records, countText(v.Count))
		if v.Status == contract.StatusPassed && v.Mode == contract.ModeLayerProfile {
			fmt.Fprintf(w, ", total %s ms (sum of layer averages)", ms(v.TotalMs))
			if m := measuredText(v.Measured); m != "" {
				fmt.Fprintf(w, ", measured %s", mdCell(m))
			}
			if e := v.EndToEnd; e != nil {
				fmt.Fprintf(w, ", %s %s ms mean over %d inferences (%s)", contract.HostLatencyWords, ms(e.MeanMs), e.Iterations, mdCell(e.Source))
			}
			if v.Category != "" {
				fmt.Fprintf(w, ", category %s", v.Category)
			}
		}
		fmt.Fprintln(w, ".")
		for _, m := range v.Messages {
			fmt.Fprintf(w, "\n> %s\n", mdCell(m))
		}
		for _, l := range []string{v.Device, v.Build, v.Memory} {
			if l != "" {
				fmt.Fprintf(w, "\n- %s\n", mdCell(l))
			}
		}
		if inv := v.Inventory; inv != nil {
			fmt.Fprintf(w, "\n- Layer types: %s\n- Output formats: %s\n", mdCell(countsText(inv.Types, 40)), mdCell(countsText(inv.Formats, 40)))
			if len(inv.Tactics) > 0 {
				fmt.Fprintf(w, "- Tactics: %s\n", mdCell(countsText(inv.Tactics, 40)))
			}
			fmt.Fprintf(w, "- Myelin layers: %d\n", inv.Myelin)
		}
		if pv := v.Predicted; pv != nil {
			writePredictedMD(w, v, pv, opt.NameWidth)
			continue
		}
		if !timed(v) {
			// A backend without per-layer timing may still have what its
			// log measured and says of the build.
			if m := measuredText(v.Measured); m != "" {
				fmt.Fprintf(w, "\n- Measured %s\n", mdCell(m))
			}
			writeOverviewMD(w, v.Overview)
			continue
		}
		if v.Guessed {
			fmt.Fprintln(w, "\nProfile only: layer kinds are guessed from layer names.")
		}
		if v.Roofline != "" {
			fmt.Fprintf(w, "\n- %s\n", mdCell(v.Roofline))
		}
		fmt.Fprintf(w, "\n### Top %d of %d layers\n\n| # | avg ms | share | cum | type | precision | name |\n|---:|---:|---:|---:|---|---|---|\n", len(v.Top), v.TopOf)
		for _, r := range v.Top {
			fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s |\n", r.Rank, ms(r.AvgMs), pct(r.Share), pct(r.Cum), mdCell(r.Type), r.Precision, mdCell(Shorten(r.Name, opt.NameWidth)))
		}
		if u := untimedLine(v.Untimed, opt.NameWidth); u != "" {
			fmt.Fprintf(w, "\n%s\n", mdCell(u))
		}
		for _, t := range v.Tables {
			if len(t.Rows) == 0 {
				continue
			}
			fmt.Fprintf(w, "\n### By %s\n\n| %s | count | ms | share |\n|---|---:|---:|---:|\n", t.By, t.By)
			for _, b := range t.Rows {
				fmt.Fprintf(w, "| %s | %d | %s | %s |\n", mdCell(b.Name), b.Count, ms(b.TimeMs), pct(b.Percentage))
			}
		}
		fmt.Fprintf(w, "\n### Findings\n\n")
		if len(v.Findings) == 0 {
			fmt.Fprintln(w, "None.")
		}
		for i, f := range v.Findings {
			fmt.Fprintf(w, "%d. **%s** (`%s`, recoverable %s, score %.4f, %s confidence)\n", i+1, mdCell(f.Title), f.ID, recoverable(f, v.Diagnosis), f.Score, f.Confidence)
			if f.Action != "" && f.Action != f.NextCheck {
				fmt.Fprintf(w, "   - Change: %s\n", mdCell(f.Action))
			}
			for _, e := range f.Evidence {
				fmt.Fprintf(w, "   - %s\n", mdCell(e))
			}
			fmt.Fprintf(w, "   - Next check: %s\n", mdCell(f.NextCheck))
			if v.DeviceNote != "" && i == firstModelPriced(v.Findings) {
				fmt.Fprintf(w, "   - **Note:** %s\n", mdCell(v.DeviceNote))
			}
		}
		if len(v.Positives) > 0 {
			fmt.Fprintf(w, "\n### Positives\n\n")
			for _, ps := range v.Positives {
				fmt.Fprintf(w, "- **%s**: %s\n", mdCell(ps.Title), mdCell(strings.Join(ps.Evidence, " ")))
			}
		}
		writeOverviewMD(w, v.Overview)
	}
}

// writeCSV writes one table: a row per top layer, breakdown row and finding,
// with a section column, so spreadsheets and scripts can filter.
func writeCSV(w io.Writer, views []view) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"label", "section", "rank", "name", "layer_type", "precision", "count", "avg_ms", "share_pct", "cum_pct", "score", "confidence"})
	f4 := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	for _, v := range views {
		if v.Status != contract.StatusPassed || v.Mode != contract.ModeLayerProfile {
			_ = cw.Write([]string{v.Label, "status", "", v.Status + " " + v.Mode, "", "", "", "", "", "", "", ""})
			if len(v.Top) == 0 {
				continue
			}
			// A profile_only backend's rows: timed, with guessed kinds
			// (the status row says so).
		}
		for _, r := range v.Top {
			_ = cw.Write([]string{v.Label, "top", strconv.Itoa(r.Rank), r.Name, r.Type, r.Precision, "", f4(r.AvgMs), f4(r.Share), f4(r.Cum), "", ""})
		}
		for _, t := range v.Tables {
			for i, b := range t.Rows {
				_ = cw.Write([]string{v.Label, "by_" + t.By, strconv.Itoa(i + 1), b.Name, "", "", strconv.Itoa(b.Count), f4(b.TimeMs), f4(b.Percentage), "", "", ""})
			}
		}
		for i, f := range v.Findings {
			owned := len(f.Layers)
			if len(f.Records) > 0 { // a profile_only finding owns records
				owned = len(f.Records)
			}
			_ = cw.Write([]string{v.Label, "finding", strconv.Itoa(i + 1), f.ID, "", "", strconv.Itoa(owned), f4(f.Metrics["time_ms"]), f4(f.Share), "", f4(f.Score), f.Confidence})
		}
	}
	cw.Flush()
	return cw.Error()
}

// writePredicted prints a layer_only backend: its PREDICTED times and the
// findings priced on them.
func writePredicted(w io.Writer, v view, pv *predicted, opt Options, p palette) {
	fmt.Fprintf(w, "  PREDICTED total %s ms (cost model from the layer info; no profile, nothing here is measured) for %s (%s); the model's median error for such a GPU is %.0f%%\n",
		ms(pv.TotalMs), pv.Device, strings.ReplaceAll(pv.DeviceSource, "_", " "), pv.ErrorPct)
	fmt.Fprintf(w, "\n  top %d layers by PREDICTED time\n", len(pv.Top))
	g := grid{right: []bool{true, true, true, true}}
	g.add("pred ms", "share", "cum", "#", "type", "bound", "name")
	for _, r := range pv.Top {
		g.add(ms(r.AvgMs), pct(r.Share), pct(r.Cum), strconv.Itoa(r.Rank), r.Type, r.Precision, Shorten(r.Name, opt.NameWidth))
	}
	g.write(w, "  ", p.dim)
	fmt.Fprintf(w, "\n  findings (%d)%s\n", len(v.Findings), diagnosisLine(v.Diagnosis, v.Findings, v.TotalMs))
	for i, f := range v.Findings {
		fmt.Fprintf(w, "  %d. %s  %s  recoverable %s  score %.4f  [%s]\n", i+1, p.bold(f.Title), f.ID, recoverable(f, v.Diagnosis), f.Score, p.confidence(f.Confidence))
		for _, e := range f.Evidence {
			fmt.Fprintf(w, "     - %s\n", e)
		}
		if f.Action != "" {
			fmt.Fprintf(w, "     change: %s\n", f.Action)
		}
		if v.DeviceNote != "" && i == firstModelPriced(v.Findings) {
			fmt.Fprintf(w, "     %s %s\n", p.bold("note:"), v.DeviceNote)
		}
	}
	writeOverview(w, v.Overview)
}

// writePredictedMD is writePredicted in markdown.
func writePredictedMD(w io.Writer, v view, pv *predicted, nameWidth int) {
	fmt.Fprintf(w, "\n**PREDICTED** total %s ms (cost model from the layer info; no profile, nothing here is measured) for %s (%s); the model's median error for such a GPU is %.0f%%.\n",
		ms(pv.TotalMs), mdCell(pv.Device), strings.ReplaceAll(pv.DeviceSource, "_", " "), pv.ErrorPct)
	fmt.Fprintf(w, "\n### Top %d layers by PREDICTED time\n\n| # | pred ms | share | cum | type | bound | name |\n|---:|---:|---:|---:|---|---|---|\n", len(pv.Top))
	for _, r := range pv.Top {
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s |\n", r.Rank, ms(r.AvgMs), pct(r.Share), pct(r.Cum), mdCell(r.Type), r.Precision, mdCell(Shorten(r.Name, nameWidth)))
	}
	fmt.Fprintf(w, "\n#### Findings (%d)%s\n\n", len(v.Findings), diagnosisLine(v.Diagnosis, v.Findings, v.TotalMs))
	for i, f := range v.Findings {
		fmt.Fprintf(w, "%d. **%s** (`%s`, recoverable %s, score %.4f, %s confidence)\n", i+1, mdCell(f.Title), f.ID, recoverable(f, v.Diagnosis), f.Score, f.Confidence)
		if v.DeviceNote != "" && i == firstModelPriced(v.Findings) {
			fmt.Fprintf(w, "   - **Note:** %s\n", mdCell(v.DeviceNote))
		}
	}
	writeOverviewMD(w, v.Overview)
}

// writeOverviewMD is writeOverview in markdown.
func writeOverviewMD(w io.Writer, items []contract.OverviewItem) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Where the time goes (not findings)\n\n")
	for _, o := range items {
		fmt.Fprintf(w, "- **%s**: %s\n", mdCell(o.Title), mdCell(strings.Join(o.Evidence, " ")))
	}
}

// recoverable says what a finding gives back: ms with its range and the
// share of the reference latency, and the owned share of the layer sum.
func recoverable(f contract.Finding, d *contract.Diagnosis) string {
	if d == nil || d.ReferenceMs <= 0 {
		return "share " + pct(f.Share)
	}
	basis := "est."
	switch f.PriceBasis {
	case "sibling_measured":
		basis = "measured on a sibling build"
	case "model":
		basis = "cost model"
	case contract.PriceGuessedKinds:
		basis = "est. on measured records, kinds guessed from names"
	}
	owns := "owns " + pct(f.Share) + " of the layer sum"
	if len(f.Layers) == 0 && len(f.Records) == 0 {
		owns = "owns no layers"
	}
	return fmt.Sprintf("%.4f ms (%.4f–%.4f, %s of %.4f ms, %s; %s)",
		f.RecoverableMs, f.RecoverableLowMs, f.RecoverableHighMs, pct(f.RecoverableShare), d.ReferenceMs, basis, owns)
}

// diagnosisLine names the latency findings are priced against; rowsMs is
// the sum of the backend's records, which a partial table's layer sum
// (implied by the rows' shares) exceeds.
func diagnosisLine(d *contract.Diagnosis, fs []contract.Finding, rowsMs float64) string {
	if d == nil {
		return ""
	}
	src := map[string]string{"gpu_compute_median": "measured GPU compute median", "latency_median": "measured latency median", "layer_sum": "profiled layer sum", "predicted": "PREDICTED layer sum, no profile"}[d.ReferenceSource]
	if d.ReferenceSource == "layer_sum" && rowsMs > 0 && d.LayerSumMs > rowsMs*1.01 {
		src = fmt.Sprintf("the layer sum the rows' shares imply: the %.4f ms read are a partial table", rowsMs)
	}
	line := fmt.Sprintf(", priced on %.4f ms (%s): %.4f ms recoverable in all (%s)", d.ReferenceMs, src, d.RecoverableMs, pct(d.RecoverableShare))
	tradeoff := 0.0
	for _, f := range fs {
		if f.Metrics[contract.MetricAccuracyTradeoff] > 0 {
			tradeoff += f.RecoverableMs
		}
	}
	if tradeoff > 0 && d.ReferenceMs > 0 {
		line += fmt.Sprintf(", %.4f ms (%s) of it only by an accuracy trade-off", tradeoff, pct(tradeoff/d.ReferenceMs*100))
	}
	return line
}

// writeOverview prints the unscored descriptions of where the time goes.
func writeOverview(w io.Writer, items []contract.OverviewItem) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(w, "\n  where the time goes (not findings)\n")
	for _, o := range items {
		fmt.Fprintf(w, "  · %s: %s\n", o.Title, strings.Join(o.Evidence, " "))
	}
}
