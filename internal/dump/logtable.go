package dump

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
)

// The per-layer tables trtexec --dumpProfile prints (samples/common/
// sampleReporting.cpp, Profiler::print), by release:
//
//	7.0-8.2  "=== Profile (N iterations ) ===", then
//	         "Layer   Time (ms)   Avg. Time (ms)   Time %" with the name
//	         right-aligned (setw) first; rows total (2 decimals), average
//	         (2 decimals in 7.0/7.1, 4 from 7.2), percent (1 decimal); a
//	         "Total" row last.
//	8.4-8.5  the same with "   Median Time (ms)" (4 decimals) before Time %.
//	8.6-11   "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer":
//	         numbers first, "   " and the name last; "   Total" last.
//
// Layers with no time are left out from 8.4 on.

// tableLine reads text as part of a per-layer table; false when it is not.
func (p *logParser) tableLine(text string) bool {
	if rest, ok := strings.CutPrefix(text, "=== Profile ("); ok {
		p.endTable()
		n, _, _ := strings.Cut(rest, " ")
		if v, err := strconv.Atoi(n); err == nil && v > 0 {
			p.iters, p.itersAt = v, p.lineNo
		} else {
			p.iters, p.itersAt = 0, p.lineNo
		}
		return true
	}
	if layout, ok := tableHeader(text); ok {
		p.endTable()
		p.startTable(layout, true)
		return true
	}
	if text == "" || p.table == nil && !looksLikeRowEnd(text) {
		return false
	}
	layouts := [...]string{engine.LayoutNameFirst, engine.LayoutNameFirstMedian, engine.LayoutNumbersFirst}
	if p.table != nil {
		if rec, dec, ok := parseRow(text, p.table.Layout, !p.table.Header); ok {
			p.addRow(rec, dec)
			return true
		}
	}
	for _, l := range layouts {
		if p.table != nil && l == p.table.Layout {
			continue
		}
		if rec, dec, ok := parseRow(text, l, true); ok {
			p.endTable()
			p.startTable(l, false)
			p.addRow(rec, dec)
			return true
		}
	}
	if p.table != nil {
		p.endTable()
	}
	return false
}

// looksLikeRowEnd is a cheap test that text may be a table row: it ends or
// starts with a digit.
func looksLikeRowEnd(text string) bool {
	c, d := text[len(text)-1], text[0]
	return c >= '0' && c <= '9' || d >= '0' && d <= '9'
}

// tableHeader recognises a table's column header line.
func tableHeader(text string) (string, bool) {
	switch {
	case strings.HasPrefix(text, "Layer") && strings.Contains(text, "Time (ms)") && strings.Contains(text, "Avg. Time (ms)"):
		if strings.Contains(text, "Median Time (ms)") {
			return engine.LayoutNameFirstMedian, true
		}
		return engine.LayoutNameFirst, true
	case strings.HasPrefix(text, "Time(ms)") && strings.Contains(text, "Avg.(ms)") && strings.HasSuffix(text, "Layer"):
		return engine.LayoutNumbersFirst, true
	}
	return "", false
}

func (p *logParser) startTable(layout string, header bool) {
	r := p.run()
	// Several tables are several runs: a second table starts the next run.
	if len(r.Log.Tables) > 0 {
		iters, at := p.iters, p.itersAt
		p.flush()
		p.iters, p.itersAt = iters, at
		p.run() // opens the next run
	}
	line := p.lineNo
	if p.itersAt > 0 && p.itersAt == p.lineNo-1 {
		line = p.itersAt
	}
	p.table = &engine.ProfileTable{Layout: layout, Line: line, EndLine: p.lineNo, Header: header,
		Profile: engine.Profile{Kind: engine.ProfileTrtexec}}
	if p.itersAt == p.lineNo-1 && p.iters > 0 {
		p.table.Iterations = p.iters
		p.table.Profile.Count, p.table.Profile.HasCount = int64(p.iters), true
	}
	p.iters, p.itersAt = 0, 0
}

func (p *logParser) addRow(rec engine.ProfileRecord, avgDec int) {
	t := p.table
	t.EndLine = p.lineNo
	switch {
	case len(t.Profile.Records) == 0 && t.Total == nil:
		t.AvgDecimals = avgDec
	case t.AvgDecimals != avgDec:
		t.AvgDecimals = -1
	}
	if rec.Name == "Total" {
		r := rec
		t.Total, t.TotalLine = &r, p.lineNo
		p.endTable()
		return
	}
	t.Profile.Records = append(t.Profile.Records, rec)
	t.RowLines = append(t.RowLines, p.lineNo)
}

// endTable closes the current table: it says how it may be partial and
// adds it to the run.
func (p *logParser) endTable() {
	t := p.table
	if t == nil {
		return
	}
	p.table = nil
	if len(t.Profile.Records) == 0 && t.Total == nil {
		return
	}
	if !t.Header {
		t.Partial = append(t.Partial, "no column header (the start of the table may be cut)")
	}
	var pct, total float64
	for _, r := range t.Profile.Records {
		pct += r.Percentage
		total += r.TimeMs
	}
	n := float64(len(t.Profile.Records))
	if t.Total == nil {
		t.Partial = append(t.Partial, "no Total row (later rows may be cut)")
	}
	// Each percentage is rounded to 0.1: rows that together make clearly
	// less than 100% are not the whole table.
	if pct+0.05*n < 99.5 {
		t.Partial = append(t.Partial, fmt.Sprintf("the %d rows read make %.1f%% of the time", len(t.Profile.Records), pct))
	} else if t.Total != nil && t.Total.TimeMs > 0 && total < 0.99*t.Total.TimeMs {
		t.Partial = append(t.Partial, fmt.Sprintf("the %d rows read sum to %.2f of the Total row's %.2f ms", len(t.Profile.Records), total, t.Total.TimeMs))
	}
	if !t.Profile.HasCount {
		// Total over average is the iteration count; the largest average
		// has the fewest rounding digits lost.
		best := -1.0
		for _, r := range t.Profile.Records {
			if r.AverageMs > best && r.AverageMs > 0 {
				best = r.AverageMs
				if it := math.Round(r.TimeMs / r.AverageMs); it >= 1 && it < 1e12 {
					t.Profile.Count = int64(it)
				}
			}
		}
	}
	r := p.run()
	r.Log.Tables = append(r.Log.Tables, *t)
}

// parseRow reads one table row of layout and the decimals of its average;
// strict rows must have exactly the decimals trtexec prints (a fragment
// without its header is told from other text by them).
func parseRow(text, layout string, strict bool) (rec engine.ProfileRecord, avgDec int, ok bool) {
	switch layout {
	case engine.LayoutNumbersFirst:
		var nums [4]float64
		rest := text
		for i := range nums {
			rest = strings.TrimLeft(rest, " \t")
			end := strings.IndexAny(rest, " \t")
			if end < 0 {
				return rec, 0, false
			}
			v, dec, ok := fixed(rest[:end])
			if !ok || strict && dec != [4]int{2, 4, 4, 1}[i] {
				return rec, 0, false
			}
			if i == 1 {
				avgDec = dec
			}
			nums[i] = v
			rest = rest[end:]
		}
		name := strings.TrimSpace(rest)
		if name == "" || nums[3] > 100.05 {
			return rec, 0, false
		}
		rec = engine.ProfileRecord{Name: name, TimeMs: nums[0], AverageMs: nums[1], MedianMs: nums[2], HasMedian: true, Percentage: nums[3], HasPercent: true}
	default:
		k := 3
		if layout == engine.LayoutNameFirstMedian {
			k = 4
		}
		nums := make([]float64, k)
		rest := strings.TrimRight(text, " \t")
		for i := k - 1; i >= 0; i-- {
			start := strings.LastIndexAny(rest, " \t")
			if start < 0 {
				return rec, 0, false
			}
			v, dec, ok := fixed(rest[start+1:])
			if !ok {
				return rec, 0, false
			}
			if i == 1 {
				avgDec = dec
			}
			if strict {
				want := dec == 1
				switch {
				case i == 0:
					want = dec == 2
				case i == 1:
					want = dec == 4 || k == 3 && dec == 2
				case i == 2 && k == 4:
					want = dec == 4
				}
				if !want {
					return rec, 0, false
				}
			}
			nums[i] = v
			rest = strings.TrimRight(rest[:start], " \t")
		}
		name := strings.TrimSpace(rest)
		if name == "" || nums[k-1] > 100.05 {
			return rec, 0, false
		}
		rec = engine.ProfileRecord{Name: name, TimeMs: nums[0], AverageMs: nums[1], Percentage: nums[k-1], HasPercent: true}
		if k == 4 {
			rec.MedianMs, rec.HasMedian = nums[2], true
		}
	}
	return rec, avgDec, true
}

// fixed parses a non-negative fixed-point number ("12.34") and returns its
// count of decimals.
func fixed(s string) (float64, int, bool) {
	if s == "" || len(s) > 24 {
		return 0, 0, false
	}
	dot := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && dot < 0 && i > 0:
			dot = i
		default:
			return 0, 0, false
		}
	}
	if dot < 0 || dot == len(s)-1 {
		return 0, 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, 0, false
	}
	return v, len(s) - dot - 1, true
}
