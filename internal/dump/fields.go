package dump

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The one vocabulary of per-layer time fields: the keys of a user's JSON
// table and the column headers of a CSV/TSV table are both read through
// timeField, so "avg_ms", "averageMs", "Avg. Time (us)" and "mean [ns]"
// mean the same wherever they appear.

// fieldStat is what a per-layer field holds.
type fieldStat uint8

const (
	fieldOther   fieldStat = iota // not a time (a type, a shape, a tactic ...): ignored
	fieldName                     // the layer's name
	fieldAvg                      // the average time of one run
	fieldMedian                   // the median time of one run
	fieldTotal                    // the time summed over every run
	fieldTime                     // a time not said to be average or total (time, latency, a bare unit)
	fieldSamples                  // a list of per-run times (JSON only)
	fieldCount                    // how many runs were timed
	fieldPercent                  // a share of the total: not a time
	fieldSpread                   // min, max, a percentile, a deviation: a time that is not the layer's cost
)

// field is a classified key or header: what it holds and, for a time, the
// factor from its unit to ms (unit "" when none is named, then scale 1).
type field struct {
	stat  fieldStat
	unit  string
	scale float64
}

// unitScales are the time units named in keys and headers, to ms.
var unitScales = map[string]struct {
	unit  string
	scale float64
}{
	"ms": {"ms", 1}, "msec": {"ms", 1}, "msecs": {"ms", 1}, "millisecond": {"ms", 1}, "milliseconds": {"ms", 1},
	"us": {"µs", 1e-3}, "µs": {"µs", 1e-3}, "μs": {"µs", 1e-3}, "usec": {"µs", 1e-3}, "usecs": {"µs", 1e-3},
	"microsecond": {"µs", 1e-3}, "microseconds": {"µs", 1e-3},
	"ns": {"ns", 1e-6}, "nsec": {"ns", 1e-6}, "nsecs": {"ns", 1e-6}, "nanosecond": {"ns", 1e-6}, "nanoseconds": {"ns", 1e-6},
	"s": {"s", 1e3}, "sec": {"s", 1e3}, "secs": {"s", 1e3}, "second": {"s", 1e3}, "seconds": {"s", 1e3},
}

// statWords name what a field holds; the strongest word of a field wins
// (statRank), so "Time %" is a percent and "Avg. Time (ms)" an average.
var statWords = map[string]fieldStat{
	"name": fieldName, "layer": fieldName, "layers": fieldName, "op": fieldName, "node": fieldName, "operation": fieldName,
	"avg": fieldAvg, "average": fieldAvg, "mean": fieldAvg, "averaged": fieldAvg,
	"median": fieldMedian, "med": fieldMedian, "p50": fieldMedian,
	"total": fieldTotal, "sum": fieldTotal, "cumulative": fieldTotal, "accumulated": fieldTotal,
	"time": fieldTime, "latency": fieldTime, "duration": fieldTime, "elapsed": fieldTime, "runtime": fieldTime,
	"times": fieldSamples, "samples": fieldSamples, "latencies": fieldSamples, "durations": fieldSamples,
	"measurements": fieldSamples, "values": fieldSamples,
	"count": fieldCount, "calls": fieldCount, "iterations": fieldCount, "iters": fieldCount, "runs": fieldCount, "n": fieldCount,
	"%": fieldPercent, "percent": fieldPercent, "percentage": fieldPercent, "pct": fieldPercent, "share": fieldPercent,
	"ratio": fieldPercent, "fraction": fieldPercent,
	"min": fieldSpread, "minimum": fieldSpread, "max": fieldSpread, "maximum": fieldSpread, "std": fieldSpread,
	"stddev": fieldSpread, "stdev": fieldSpread, "sd": fieldSpread, "var": fieldSpread, "variance": fieldSpread,
	"p90": fieldSpread, "p95": fieldSpread, "p99": fieldSpread, "p999": fieldSpread, "percentile": fieldSpread,
	"first": fieldSpread, "last": fieldSpread, "best": fieldSpread, "worst": fieldSpread,
}

// notName are words that make a field about a layer something other than
// its name ("LayerType", "layer_id").
var notName = map[string]bool{
	"type": true, "kind": true, "precision": true, "format": true, "shape": true, "tactic": true, "id": true,
	"idx": true, "index": true, "dims": true, "dimensions": true, "dtype": true, "datatype": true, "inputs": true,
	"outputs": true, "metadata": true, "origin": true, "stream": true, "number": true, "num": true,
}

// statRank orders the words of one field: a percent or spread word makes
// the field not a cost whatever else it says; an average or median word
// beats the generic "time".
var statRank = [...]int{
	fieldOther: 0, fieldName: 1, fieldSamples: 2, fieldTime: 3, fieldCount: 4, fieldTotal: 5,
	fieldAvg: 6, fieldMedian: 7, fieldSpread: 8, fieldPercent: 9,
}

// maxFieldBytes bounds the keys and headers classified (longer ones are
// no field name a profiler writes).
const maxFieldBytes = 128

// timeField classifies a JSON key or a table header. A bare unit ("ms",
// "Time (us)") is a time; a name field names no unit.
func timeField(key string) field {
	if len(key) > maxFieldBytes {
		return field{}
	}
	var f field
	sawWord, other := false, false
	for _, w := range fieldWords(key) {
		if u, ok := unitScales[w]; ok {
			if f.unit == "" {
				f.unit, f.scale = u.unit, u.scale
			}
			continue
		}
		if _, ok := statWords[w]; !ok {
			// A unit glued to a word: "timems", "latencyus", "totalms".
			for _, suf := range [...]string{"ms", "us", "µs", "ns"} {
				if base := strings.TrimSuffix(w, suf); base != w && statWords[base] != fieldOther {
					if u := unitScales[suf]; f.unit == "" {
						f.unit, f.scale = u.unit, u.scale
					}
					w = base
					break
				}
			}
		}
		if notName[w] {
			other = true
			continue
		}
		st, ok := statWords[w]
		if !ok {
			// An unknown word ("gpu", "kernel", "type") leaves the field
			// what its other words say; a field of unknown words only is
			// fieldOther.
			continue
		}
		sawWord = true
		if statRank[st] > statRank[f.stat] {
			f.stat = st
		}
	}
	switch {
	case other && f.stat == fieldName:
		f.stat = fieldOther // "LayerType", "layer_index"
	case !sawWord && f.unit != "":
		f.stat = fieldTime // "ms", "(us)"
	case f.stat == fieldName && f.unit != "":
		f.stat = fieldTime // "layer_ms": a layer's time
	case f.stat == fieldName || f.stat == fieldOther || f.stat == fieldPercent:
		f.unit = ""
	}
	if f.scale == 0 {
		f.scale = 1
	}
	return f
}

// fieldWords splits a key or header into lower-case words: at separators
// (space, '_', '-', '.', '/', brackets), at a lower-to-upper case change
// ("averageMs" → average, ms) and around '%'.
func fieldWords(key string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for i := 0; i < len(key); {
		r, size := utf8.DecodeRuneInString(key[i:])
		i += size
		switch {
		case r == '%':
			flush()
			words = append(words, "%")
			prevLower = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && prevLower {
				flush()
			}
			cur = append(cur, r)
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return words
}
