package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// OverviewRowsCompared is the overview item of a backend whose partial
// table shares rows with another backend's table (row_comparisons).
const OverviewRowsCompared = "rows_compared"

// rowsOverview gives each side of a row comparison an item saying what
// its shared rows take against the other table's: the one comparison two
// pasted fragments allow, stated as rows, never as engine times. Inserted
// where compareLogMeasured inserts its item: after any problem item,
// before the descriptive ones.
func rowsOverview(results []contract.Backend, rcs []contract.RowComparison) {
	idx := map[string]int{}
	for i := range results {
		idx[results[i].Label] = i
	}
	compared := map[string]bool{}
	for _, rc := range rcs {
		compared[rc.A], compared[rc.B] = true, true
	}
	for i := range results {
		if item, ok := noSharedRows(results, i, compared); ok {
			// Last: it says what cannot be compared, not where time goes.
			results[i].Overview = append(results[i].Overview, item)
		}
	}
	for _, rc := range rcs {
		for _, self := range []string{rc.A, rc.B} {
			i, ok := idx[self]
			if !ok {
				continue
			}
			results[i].Overview = insertDescriptive(results[i].Overview, rowsItem(rc, self == rc.B, &results[idx[rc.A]], &results[idx[rc.B]]))
		}
	}
}

func rowsItem(rc contract.RowComparison, selfIsB bool, a, b *contract.Backend) contract.OverviewItem {
	other, ratio, mine, theirs := rc.A, rc.BTimeRatio, rc.BMs, rc.AMs
	onlyMine, onlyMs, self := rc.OnlyB, rc.OnlyBMs, b
	if !selfIsB {
		other, ratio, mine, theirs = rc.B, ratio1(rc.AMs, rc.BMs), rc.AMs, rc.BMs
		onlyMine, onlyMs, self = rc.OnlyA, rc.OnlyAMs, a
	}
	var title string
	if len(rc.Rows) == 1 {
		r := rc.Rows[0]
		mineName, theirName := r.BName, r.AName
		if !selfIsB {
			mineName, theirName = r.AName, r.BName
		}
		how := "the same layer"
		if r.Match == contract.RowMatchOp {
			how = r.Op
		}
		title = fmt.Sprintf("Row %s (%s) takes %.2f× %s's %s (%.4f vs %.4f ms per iteration)", shortName(mineName), how, ratio, other, shortName(theirName), mine, theirs)
	} else {
		title = fmt.Sprintf("The %d rows this table shares with %s's take %.2f× their time there (%.4f vs %.4f ms per iteration)", len(rc.Rows), other, ratio, mine, theirs)
	}
	if len(onlyMine) > 0 {
		title += fmt.Sprintf("; this table also has %s (%.4f ms)", shortName(self.Records[onlyMine[0]].Name), self.Records[onlyMine[0]].AvgMs)
		if len(onlyMine) > 1 {
			title += fmt.Sprintf(" and %d more row(s), %.4f ms in all,", len(onlyMine)-1, onlyMs)
		}
		title += fmt.Sprintf(" with no counterpart among %s's rows", other)
	}
	title += " — rows of partial tables, not engine times"
	ev := make([]string, 0, len(rc.Rows)+1)
	for _, r := range rc.Rows[:min(len(rc.Rows), 10)] {
		ev = append(ev, compare.RowLine(r, rc.A, rc.B)+".")
	}
	if len(rc.Rows) > 10 {
		ev = append(ev, fmt.Sprintf("%d more shared rows in row_comparisons.", len(rc.Rows)-10))
	}
	ev = append(ev, "A pasted table holds part of its engine, so only the rows both tables hold are compared, one by one: "+rc.Why+". A row of one table with no counterpart may be missing from the other paste rather than from its engine; the whole per-layer tables (--dumpProfile with --exportProfile) of both builds would compare the engines.")
	return contract.OverviewItem{ID: OverviewRowsCompared, Title: title, Evidence: ev,
		Metrics: map[string]float64{"shared_rows": float64(len(rc.Rows)), "rows_ms": roundTo(mine, 6), "other_rows_ms": roundTo(theirs, 6)},
		Layers:  []int{}}
}

func ratio1(b, a float64) float64 {
	if a <= 0 {
		return 0
	}
	return b / a
}

// shortName cuts a long layer name for a title.
func shortName(n string) string {
	r := []rune(n)
	if len(r) <= 60 {
		return n
	}
	return string(r[:29]) + "…" + string(r[len(r)-30:])
}

// insertDescriptive inserts item after any problem item, before the first
// descriptive one (what the log measured, its table).
func insertDescriptive(ov []contract.OverviewItem, item contract.OverviewItem) []contract.OverviewItem {
	at := len(ov)
	for k, o := range ov {
		if o.ID == OverviewLogMeasured || o.ID == OverviewLogTable {
			at = k
			break
		}
	}
	return slices.Insert(ov, at, item)
}

// noSharedRows is the item of a partial table whose rows could be compared
// with other tables' (contract.WhyNoRowComparison) but share no name and no
// operation with any of them: what is missing to compare it.
func noSharedRows(results []contract.Backend, i int, compared map[string]bool) (contract.OverviewItem, bool) {
	b := &results[i]
	if compared[b.Label] || contract.WhyNotComparable(b) == "" {
		return contract.OverviewItem{}, false
	}
	var others []string
	for j := range results {
		if j != i && contract.WhyNoRowComparison(b, &results[j]) == "" {
			others = append(others, results[j].Label)
		}
	}
	if len(others) == 0 {
		return contract.OverviewItem{}, false
	}
	var rows, ops []string
	for _, r := range b.Records {
		if r.AvgMs > 0 && len(rows) < 3 {
			rows = append(rows, shortName(r.Name))
			for _, w := range layerfacts.OpWords(r.Name) {
				if !slices.Contains(ops, w) && len(ops) < 4 {
					ops = append(ops, w)
				}
			}
		}
	}
	named := "no operation word"
	if len(ops) > 0 {
		named = "operations " + strings.Join(ops, ", ")
	}
	return contract.OverviewItem{ID: OverviewRowsCompared,
		Title: fmt.Sprintf("This partial table shares no row with %s's — its rows (%s) name %s, none of which one row of the other tables names", strings.Join(others, "'s or "), strings.Join(rows, ", "), named),
		Evidence: []string{
			"A pasted table holds part of its engine, so it compares with another only on the rows both hold: the same layer name, or the one row of each naming an operation. " + contract.WhyNotComparable(b) + ".",
			"A fused or decomposed kernel may do the same work under other names (a Myelin kernel named after its first ops); the whole per-layer tables of both builds, with their layer information (--profilingVerbosity=detailed --exportLayerInfo), would align them by source ops.",
		},
		Metrics: map[string]float64{"shared_rows": 0}, Layers: []int{}}, true
}
