package contract

import "strconv"

// Semantic rules of row_comparisons:
//   - a and b are different backend labels of results whose rows may be
//     compared (WhyNoRowComparison), each unordered pair once;
//   - every row references a record of each side, no record twice (in
//     rows or the only lists), its a_ms/b_ms are those records' avg_ms,
//     delta_ms and b_time_ratio agree; a_ms, b_ms, only_a_ms and only_b_ms
//     are the sums of their rows and records, delta_ms and b_time_ratio
//     agree with them.
func (c *checker) rowComparisons(d *AnalyzeData, labels map[string]int) {
	seen := map[[2]string]bool{}
	for i := range d.RowComparisons {
		rc := &d.RowComparisons[i]
		ptr := "/row_comparisons/" + strconv.Itoa(i)
		side := func(label, field string) *Backend {
			k, ok := labels[label]
			if !ok {
				c.add(ptr+"/"+field, "%q is not a backend label of results", label)
				return nil
			}
			return &d.Results[k]
		}
		a, b := side(rc.A, "a"), side(rc.B, "b")
		key := [2]string{min(rc.A, rc.B), max(rc.A, rc.B)}
		if rc.A == rc.B || seen[key] {
			c.add(ptr, "the pair %s, %s repeats a side or another row comparison", rc.A, rc.B)
		}
		seen[key] = true
		if a == nil || b == nil {
			continue
		}
		if why := WhyNoRowComparison(a, b); why != "" {
			c.add(ptr, "rows of %s and %s cannot be compared: %s", rc.A, rc.B, why)
			continue
		}
		usedA, usedB := map[int]bool{}, map[int]bool{}
		use := func(p string, b *Backend, used map[int]bool, k int) float64 {
			if k < 0 || k >= len(b.Records) {
				c.add(p, "record %d is out of range (%d records)", k, len(b.Records))
				return 0
			}
			if used[k] {
				c.add(p, "record %d of %s is used twice", k, b.Label)
			}
			used[k] = true
			return b.Records[k].AvgMs
		}
		var am, bm float64
		for k := range rc.Rows {
			r := &rc.Rows[k]
			rp := ptr + "/rows/" + strconv.Itoa(k)
			ra, rb := use(rp+"/a_record", a, usedA, r.ARecord), use(rp+"/b_record", b, usedB, r.BRecord)
			if !near(r.AMs, ra, relTol) || !near(r.BMs, rb, relTol) {
				c.add(rp, "a_ms/b_ms %g/%g are not the records' avg_ms %g/%g", r.AMs, r.BMs, ra, rb)
			}
			if !nearAbs(r.DeltaMs, r.BMs-r.AMs) {
				c.add(rp+"/delta_ms", "delta_ms %g is not b_ms − a_ms", r.DeltaMs)
			}
			if r.AMs > 0 && !near(r.BTimeRatio, r.BMs/r.AMs, relTol) {
				c.add(rp+"/b_time_ratio", "b_time_ratio %g is not b_ms / a_ms (%g)", r.BTimeRatio, r.BMs/r.AMs)
			}
			if (r.Match == RowMatchOp) != (r.Op != "") {
				c.add(rp+"/op", "op %q does not fit match %q", r.Op, r.Match)
			}
			am, bm = am+r.AMs, bm+r.BMs
		}
		if !nearAbs(rc.AMs, am) || !nearAbs(rc.BMs, bm) {
			c.add(ptr+"/a_ms", "a_ms/b_ms %g/%g are not the rows' sums %g/%g", rc.AMs, rc.BMs, am, bm)
		}
		if !nearAbs(rc.DeltaMs, rc.BMs-rc.AMs) {
			c.add(ptr+"/delta_ms", "delta_ms %g is not b_ms − a_ms", rc.DeltaMs)
		}
		if rc.AMs > 0 && !near(rc.BTimeRatio, rc.BMs/rc.AMs, relTol) {
			c.add(ptr+"/b_time_ratio", "b_time_ratio %g is not b_ms / a_ms (%g)", rc.BTimeRatio, rc.BMs/rc.AMs)
		}
		for _, o := range []struct {
			field string
			idx   []int
			ms    float64
			b     *Backend
			used  map[int]bool
		}{{"only_a", rc.OnlyA, rc.OnlyAMs, a, usedA}, {"only_b", rc.OnlyB, rc.OnlyBMs, b, usedB}} {
			sum := 0.0
			for k, r := range o.idx {
				sum += use(ptr+"/"+o.field+"/"+strconv.Itoa(k), o.b, o.used, r)
			}
			if !nearAbs(sum, o.ms) {
				c.add(ptr+"/"+o.field+"_ms", "%g is not the sum of the %s records' avg_ms (%g)", o.ms, o.field, sum)
			}
		}
	}
}
