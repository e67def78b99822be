package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// RowSection compares, row by row, the rows each pair of backends' tables
// share when at least one of the two is partial (contract.
// WhyNoRowComparison): pasted fragments whose sums are not the engines'
// times, so the engines are not compared but the rows present in both are.
// Pairs in label order; only pairs sharing a row are kept. Nil when none.
func RowSection(d *contract.AnalyzeData) []contract.RowComparison {
	var out []contract.RowComparison
	for i := range d.Results {
		for j := i + 1; j < len(d.Results); j++ {
			a, b := &d.Results[i], &d.Results[j]
			if contract.WhyNoRowComparison(a, b) != "" {
				continue
			}
			if rc := RowPair(a, b); len(rc.Rows) > 0 {
				out = append(out, *rc)
			}
		}
	}
	return out
}

// RowPair compares the rows two tables share; the side whose shared rows
// take less time is a. The caller has checked contract.WhyNoRowComparison.
//
// Rows pair in two stages over the timed records (avg_ms > 0; a record of
// no time runs no kernel): the same name, Myelin kernel numbering aside,
// k-th occurrence with k-th; then the same operation — an operation word
// (layerfacts.OpWords) that exactly one unpaired row of each table names,
// so a pairing is never a guess between candidates.
func RowPair(x, y *contract.Backend) *contract.RowComparison {
	return RowPairOf(Side{Name: x.Label, Backend: x}, Side{Name: y.Label, Backend: y})
}

// RowPairOf is RowPair naming each backend by its side's name (compare of
// two inputs: "before#fp16").
func RowPairOf(sx, sy Side) *contract.RowComparison {
	x, y := sx.Backend, sy.Backend
	timed := func(b *contract.Backend) []int {
		var out []int
		for i := range b.Records {
			if b.Records[i].AvgMs > 0 {
				out = append(out, i)
			}
		}
		return out
	}
	tx, ty := timed(x), timed(y)
	pairedX, pairedY := map[int]bool{}, map[int]bool{}
	type match struct {
		i, j int
		op   string
	}
	var ms []match
	// Stage 1: names.
	byName := map[string][]int{}
	for _, j := range ty {
		n := stripMyelinSuffix(y.Records[j].Name)
		byName[n] = append(byName[n], j)
	}
	for _, i := range tx {
		n := stripMyelinSuffix(x.Records[i].Name)
		if js := byName[n]; len(js) > 0 {
			ms = append(ms, match{i: i, j: js[0]})
			byName[n] = js[1:]
			pairedX[i], pairedY[js[0]] = true, true
		}
	}
	// Stage 2: an operation word one unpaired row of each side names.
	holders := func(b *contract.Backend, idx []int, paired map[int]bool) map[string][]int {
		h := map[string][]int{}
		for _, i := range idx {
			if paired[i] {
				continue
			}
			for _, w := range layerfacts.OpWords(b.Records[i].Name) {
				h[w] = append(h[w], i)
			}
		}
		return h
	}
	hx, hy := holders(x, tx, pairedX), holders(y, ty, pairedY)
	for _, i := range tx {
		if pairedX[i] {
			continue
		}
		for _, w := range layerfacts.OpWords(x.Records[i].Name) {
			if len(hx[w]) != 1 || len(hy[w]) != 1 || pairedY[hy[w][0]] {
				continue
			}
			j := hy[w][0]
			ms = append(ms, match{i: i, j: j, op: w})
			pairedX[i], pairedY[j] = true, true
			break
		}
	}
	slices.SortFunc(ms, func(p, q match) int { return cmp.Compare(p.i, q.i) })
	var sumX, sumY float64
	for _, m := range ms {
		sumX += x.Records[m.i].AvgMs
		sumY += y.Records[m.j].AvgMs
	}
	a, b := x, y
	na, nb := sx.Name, sy.Name
	pairedA, pairedB, ta, tb := pairedX, pairedY, tx, ty
	swap := sumY < sumX
	if swap {
		a, b, pairedA, pairedB, ta, tb = y, x, pairedY, pairedX, ty, tx
		na, nb = nb, na
	}
	rc := &contract.RowComparison{A: na, B: nb, Rows: []contract.SharedRow{}, OnlyA: []int{}, OnlyB: []int{}}
	rc.Why = contract.WhyNotComparable(a)
	if rc.Why == "" {
		rc.Why = contract.WhyNotComparable(b)
	}
	for _, m := range ms {
		i, j := m.i, m.j
		if swap {
			i, j = j, i
		}
		r := contract.SharedRow{ARecord: i, BRecord: j, AName: a.Records[i].Name, BName: b.Records[j].Name,
			Match: contract.RowMatchName, Op: m.op, AMs: a.Records[i].AvgMs, BMs: b.Records[j].AvgMs}
		if m.op != "" {
			r.Match = contract.RowMatchOp
		}
		r.DeltaMs = r.BMs - r.AMs
		r.BTimeRatio = ratio(r.BMs, r.AMs)
		rc.Rows = append(rc.Rows, r)
	}
	slices.SortFunc(rc.Rows, func(p, q contract.SharedRow) int { return cmp.Compare(p.ARecord, q.ARecord) })
	for _, r := range rc.Rows {
		rc.AMs += r.AMs
		rc.BMs += r.BMs
	}
	rc.DeltaMs = rc.BMs - rc.AMs
	rc.BTimeRatio = ratio(rc.BMs, rc.AMs)
	only := func(s *contract.Backend, idx []int, paired map[int]bool) ([]int, float64) {
		out, sum := []int{}, 0.0
		for _, i := range idx {
			if !paired[i] {
				out = append(out, i)
			}
		}
		slices.SortStableFunc(out, func(p, q int) int { return cmp.Compare(s.Records[q].AvgMs, s.Records[p].AvgMs) })
		for _, i := range out {
			sum += s.Records[i].AvgMs
		}
		return out, sum
	}
	rc.OnlyA, rc.OnlyAMs = only(a, ta, pairedA)
	rc.OnlyB, rc.OnlyBMs = only(b, tb, pairedB)
	rc.Summary = rowSummary(rc, a, b)
	return rc
}

func ratio(b, a float64) float64 {
	if a <= 0 {
		return 0
	}
	return b / a
}

// RowLine says what one shared row shows: b's row against a's, and how
// they were paired.
func RowLine(r contract.SharedRow, a, b string) string {
	how := "same name"
	if r.Match == contract.RowMatchOp {
		how = "both name " + r.Op
	}
	return fmt.Sprintf("%s %.4f ms in %s vs %s %.4f ms in %s (%.2f×; %s)", short(r.BName), r.BMs, b, short(r.AName), r.AMs, a, r.BTimeRatio, how)
}

// rowSummary is the one sentence of a row comparison: the shared rows, the
// rows of one paste only, and that it compares these rows only.
func rowSummary(rc *contract.RowComparison, a, b *contract.Backend) string {
	var s strings.Builder
	if len(rc.Rows) == 1 {
		s.WriteString("Of the rows both tables hold, " + RowLine(rc.Rows[0], rc.A, rc.B))
	} else {
		fmt.Fprintf(&s, "The %d rows both tables hold take %.4f ms in %s vs %.4f ms in %s (%.2f×)", len(rc.Rows), rc.BMs, rc.B, rc.AMs, rc.A, rc.BTimeRatio)
	}
	for _, o := range []struct {
		label string
		b     *contract.Backend
		idx   []int
		ms    float64
		other string
	}{{rc.B, b, rc.OnlyB, rc.OnlyBMs, rc.A}, {rc.A, a, rc.OnlyA, rc.OnlyAMs, rc.B}} {
		if len(o.idx) == 0 {
			continue
		}
		names := make([]string, 0, 3)
		for _, i := range o.idx[:min(3, len(o.idx))] {
			names = append(names, fmt.Sprintf("%s %.4f ms", short(o.b.Records[i].Name), o.b.Records[i].AvgMs))
		}
		more := ""
		if len(o.idx) > len(names) {
			more = fmt.Sprintf(" and %d more", len(o.idx)-len(names))
		}
		fmt.Fprintf(&s, "; %s's table also has %d row(s) with no counterpart in %s's (%s%s)", o.label, len(o.idx), o.other, strings.Join(names, ", "), more)
	}
	fmt.Fprintf(&s, ". These rows only, not the engines: %s", rc.Why)
	return s.String()
}

// short cuts a long layer name for a sentence.
func short(n string) string {
	const width = 48
	r := []rune(n)
	if len(r) <= width {
		return n
	}
	return string(r[:width/2-1]) + "…" + string(r[len(r)-width/2:])
}
