package dump

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trtperf/trtperf/internal/engine"
)

// CSV/TSV tables of per-layer times, as a spreadsheet, pandas or a script
// writes them:
//
//   - the header is the first line (of the first maxHeaderLines, after
//     blank and '#' lines) that names a layer column and a time column
//     (timeField: "Layer", "name", "Avg (ms)", "mean_us", "Time (ms)"); an
//     empty first header is the layer column when no other is (pandas
//     writes an index so);
//   - the delimiter is the first of tab, ',', ';', '|' that splits the
//     header so; fields may be quoted ("conv1, fused"), with "" for a quote;
//   - units come from the header only; a header without one is ms, and
//     the profile says it was assumed;
//   - a row named Total/Sum/Overall is a total row and left out; percent,
//     min/max/percentile and other columns are ignored;
//   - a header with a per-run column (throughput, qps, fps, batch) is an
//     end-to-end summary, not per-layer times, and is refused;
//   - a UTF-8 BOM and CRLF line ends are read.

// maxHeaderLines is how many leading lines may precede the header (a
// title, a note) before a file is no table.
const maxHeaderLines = 10

// tableDelims are the delimiters tried, in order.
var tableDelims = []rune{'\t', ',', ';', '|'}

// csvHeader is a table's header: the columns of each field and the
// delimiter.
type csvHeader struct {
	delim   rune
	line    int // 1-based line of the header
	offset  int // byte offset of the line after the header
	names   []string
	nameCol int
	cols    []csvCol
}

type csvCol struct {
	index int
	f     field
}

// findHeader looks for the header of a per-layer time table in data.
// reason says why data is no such table when ok is false ("" when it is
// not delimited text at all).
func findHeader(data []byte) (h csvHeader, reason string, ok bool) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data[:max(0, len(data)-utf8.UTFMax)]) {
		return h, "", false
	}
	off, best := 0, 0
	for n := 1; n <= maxHeaderLines && off < len(data); n++ {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			next = off + end + 1
		}
		line := strings.TrimRight(string(data[off:next]), "\r\n")
		start := off
		off = next
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, d := range tableDelims {
			if !strings.ContainsRune(line, d) {
				continue
			}
			r := csv.NewReader(strings.NewReader(line))
			r.Comma, r.FieldsPerRecord, r.TrimLeadingSpace = d, -1, true
			fields, err := r.Read()
			if err != nil || len(fields) < 2 {
				continue
			}
			hh, why, weight := headerOf(fields)
			if why != "" {
				if weight > best {
					reason, best = why, weight
				}
				continue
			}
			hh.delim, hh.line, hh.offset = d, n, start
			return hh, "", true
		}
	}
	return h, reason, false
}

// headerOf classifies a header's fields; why says what it lacks, and
// weight how telling that is (a per-run column says most, a header with
// no column it knows least).
func headerOf(fields []string) (h csvHeader, why string, weight int) {
	h.nameCol = -1
	h.names = make([]string, len(fields))
	var perRun string
	for i, name := range fields {
		name = strings.TrimSpace(name)
		h.names[i] = name
		f := timeField(name)
		switch f.stat {
		case fieldName:
			if h.nameCol < 0 {
				h.nameCol = i
			}
		case fieldAvg, fieldMedian, fieldTotal, fieldTime, fieldCount:
			h.cols = append(h.cols, csvCol{i, f})
		}
		for _, w := range fieldWords(name) {
			switch w {
			case "throughput", "qps", "fps", "batch":
				if perRun == "" {
					perRun = name
				}
			}
		}
	}
	if h.nameCol < 0 && h.names[0] == "" {
		h.nameCol = 0 // pandas' unnamed index column
	}
	times := 0
	for _, c := range h.cols {
		if c.f.stat != fieldCount {
			times++
		}
	}
	switch {
	case perRun != "":
		return h, fmt.Sprintf("its header has the column %q, so it is a table of end-to-end numbers per run, not per-layer times", perRun), 3
	case h.nameCol < 0 && times == 0:
		return h, "its header (" + quoteList(h.names) + ") names no layer column and no time column", 1
	case h.nameCol < 0:
		return h, "its header (" + quoteList(h.names) + ") names no layer column (\"Layer\", \"name\")", 2
	case times == 0:
		return h, "its header (" + quoteList(h.names) + ") names no time column (\"Avg (ms)\", \"time_us\", \"median_ms\")", 2
	}
	return h, "", 0
}

func quoteList(names []string) string {
	q := make([]string, 0, min(len(names), 8))
	for _, n := range names[:min(len(names), 8)] {
		q = append(q, strconv.Quote(n))
	}
	if len(names) > 8 {
		q = append(q, "…")
	}
	return strings.Join(q, ", ")
}

// fixNotCSVTable says how to write a table trtperf reads.
const fixNotCSVTable = "a CSV/TSV table of per-layer times has a header with a layer column and a time column with its unit (Layer,Avg (ms),Median (ms)) and one row per layer"

// DescribeTable says what a delimited text file that is no per-layer
// table is (the reason findHeader gives), "" when it is no delimited text
// or it is such a table.
func DescribeTable(head []byte) string {
	if _, reason, ok := findHeader(head); !ok && reason != "" {
		return "a CSV/TSV table, but " + reason
	}
	return ""
}

// isTimeTableText reports whether head (cut anywhere when it is SniffSize
// long) is a CSV/TSV table of per-layer times with at least one row.
func isTimeTableText(head []byte) bool {
	if _, _, ok := findHeader(head); !ok {
		return false
	}
	if len(head) >= SniffSize {
		i := bytes.LastIndexByte(head, '\n')
		if i < 0 {
			return false
		}
		head = head[:i+1]
	}
	p, err := parseCSVTable(head)
	return err == nil && len(p.Records) > 0
}

// isTimeTableHead reports whether a file's head starts a CSV/TSV table of
// per-layer times (its header; the rows are read with the file).
func isTimeTableHead(head []byte) bool {
	_, _, ok := findHeader(head)
	return ok
}

// parseCSVTable reads a CSV/TSV table of per-layer times. Errors are
// *FormatError with the line of the problem.
func parseCSVTable(data []byte) (*engine.Profile, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	h, reason, ok := findHeader(data)
	if !ok {
		if reason == "" {
			reason = "it has no header line naming a layer column and a time column"
		}
		return nil, errPlain(CodeNotProfile, "the file is text, not JSON, and not a per-layer table: "+reason+"; "+fixNotCSVTable)
	}
	r := csv.NewReader(bytes.NewReader(data[h.offset:]))
	r.Comma, r.FieldsPerRecord, r.TrimLeadingSpace, r.ReuseRecord = h.delim, -1, true, true
	if _, err := r.Read(); err != nil { // the header
		return nil, errPlain(CodeMalformed, fmt.Sprintf("line %d: %v", h.line, err))
	}
	p := &engine.Profile{Kind: engine.ProfileTrtexec}
	t := tableRead{user: true, shape: fmt.Sprintf("a %s table (layer column %q)", delimName(h.delim), h.names[h.nameCol])}
	var counts []float64
	s := newScanner(data)
	for {
		start := h.offset + int(r.InputOffset())
		row, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			line := h.line
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine + h.line - 1
				err = pe.Err
			}
			return nil, errPlain(CodeMalformed, fmt.Sprintf("line %d: %v; %s", line, err, fixNotCSVTable))
		}
		line, _ := r.FieldPos(0)
		line += h.line - 1
		if len(row) == 1 && strings.TrimSpace(row[0]) == "" {
			continue
		}
		if h.nameCol >= len(row) {
			return nil, errPlain(CodeMissingField, fmt.Sprintf("line %d has %d fields, no layer name (column %d, %q); %s", line, len(row), h.nameCol+1, h.names[h.nameCol], fixNotCSVTable))
		}
		name := strings.TrimSpace(row[h.nameCol])
		if name == "" {
			return nil, errPlain(CodeMissingField, fmt.Sprintf("line %d has an empty layer name; %s", line, fixNotCSVTable))
		}
		if _, total := keyRole(name); total || strings.EqualFold(strings.TrimSuffix(name, ":"), "all layers") {
			if t.totalRow == "" {
				t.totalRow = name
			}
			continue
		}
		if len(p.Records) >= engine.MaxLayers {
			return nil, errPlain(CodeTooManyLayers, fmt.Sprintf("the table holds more than %d rows; %s", engine.MaxLayers, fixTooManyLayers))
		}
		e := entry{name: strings.Clone(name), seen: hasName, index: len(p.Records), start: start}
		for _, c := range h.cols {
			if c.index >= len(row) || strings.TrimSpace(row[c.index]) == "" {
				continue
			}
			cell := strings.TrimSpace(row[c.index])
			v, err := strconv.ParseFloat(cell, 64)
			switch {
			case err != nil && !errors.Is(err, strconv.ErrRange):
				return nil, errPlain(CodeNotProfile, fmt.Sprintf("line %d: %q in column %q is not a number; %s", line, shortCell(cell), h.names[c.index], fixNotCSVTable))
			case err != nil || math.IsInf(v, 0) || math.IsNaN(v):
				return nil, errPlain(CodeNonFinite, fmt.Sprintf("line %d: %q in column %q is not a finite number; %s", line, shortCell(cell), h.names[c.index], fixNonFinite))
			case v < 0:
				return nil, errPlain(CodeNotProfile, fmt.Sprintf("line %d: %q in column %q is negative; a time or count never is", line, cell, h.names[c.index]))
			}
			if c.f.stat == fieldCount {
				e.count, e.seen = v, e.seen|hasCount
				continue
			}
			if e.seen&statBit(c.f.stat) == 0 { // the first column of a kind wins
				e.timeValue(c.f, v, noHint, &t)
			}
		}
		if e.seen&(hasAvg|hasMedian|hasTime|hasGeneric) == 0 {
			return nil, errPlain(CodeMissingField, fmt.Sprintf("line %d (%q) has no time; %s", line, shortCell(name), fixNotCSVTable))
		}
		switch {
		case e.seen&(hasAvg|hasTime|hasGeneric) == 0:
			// Medians only: the median is the layer's time.
			e.avg, e.seen = e.median, e.seen|hasAvg
		case e.seen&(hasAvg|hasGeneric) == 0 && e.seen&hasCount == 0:
			return nil, errPlain(CodeMissingField, fmt.Sprintf("line %d (%q) has a total time but no average and no count to divide it by; %s", line, shortCell(name), fixNotCSVTable))
		}
		var rec engine.ProfileRecord
		if err := func() (err error) {
			defer recoverInto(&err)
			rec = s.resolve(&e, p, entryRef{kind: "line", index: line})
			return nil
		}(); err != nil {
			return nil, err
		}
		if e.seen&hasCount != 0 {
			counts = append(counts, e.count)
		}
		p.Records = append(p.Records, rec)
	}
	if len(p.Records) == 0 {
		return nil, errPlain(CodeEmpty, "the table has a header but no layer rows; "+fixNotCSVTable)
	}
	finishTable(p, counts, &t)
	return p, nil
}

// statBit is the entry bit of a time stat.
func statBit(st fieldStat) int {
	switch st {
	case fieldAvg:
		return hasAvg
	case fieldMedian:
		return hasMedian
	case fieldTotal:
		return hasTime
	}
	return hasGeneric
}

func delimName(d rune) string {
	switch d {
	case '\t':
		return "tab-separated"
	case ',':
		return "CSV"
	}
	return fmt.Sprintf("%q-separated", d)
}

func shortCell(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
