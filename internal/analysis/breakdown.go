package analysis

import (
	"cmp"
	"slices"

	"github.com/trtperf/trtperf/internal/contract"
)

// breakdown groups records by key (a record may belong to several groups,
// as with tags) and sorts the groups by time, largest first, then by name.
func breakdown(recs []contract.Record, total float64, keys func(*contract.Record) []string) []contract.Breakdown {
	idx := map[string]int{}
	var rows []contract.Breakdown
	for i := range recs {
		r := &recs[i]
		for _, k := range keys(r) {
			j, ok := idx[k]
			if !ok {
				j = len(rows)
				idx[k] = j
				rows = append(rows, contract.Breakdown{Name: k})
			}
			rows[j].Count++
			rows[j].TimeMs += r.AvgMs
		}
	}
	for i := range rows {
		rows[i].Percentage = share(rows[i].TimeMs, total)
	}
	slices.SortFunc(rows, func(a, b contract.Breakdown) int {
		if c := cmp.Compare(b.TimeMs, a.TimeMs); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	if rows == nil {
		return []contract.Breakdown{}
	}
	return rows
}

func share(part, total float64) float64 {
	if total <= 0 {
		return 0
	}
	return part / total * 100
}

// concentration counts how few layers make 50, 80 and 90 % of the time.
func concentration(recs []contract.Record, total float64) *contract.Concentration {
	if total <= 0 {
		return &contract.Concentration{}
	}
	avgs := make([]float64, len(recs))
	for i := range recs {
		avgs[i] = recs[i].AvgMs
	}
	slices.SortFunc(avgs, func(a, b float64) int { return cmp.Compare(b, a) })
	c := &contract.Concentration{}
	var acc float64
	for i, a := range avgs {
		acc += a
		s := acc / total
		if c.Layers50 == 0 && s >= 0.5 {
			c.Layers50 = i + 1
		}
		if c.Layers80 == 0 && s >= 0.8 {
			c.Layers80 = i + 1
		}
		if c.Layers90 == 0 && s >= 0.9 {
			c.Layers90 = i + 1
			break
		}
	}
	return c
}
