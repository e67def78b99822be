package analysis

import (
	"fmt"
	"math"
	"slices"

	"github.com/trtperf/trtperf/internal/engine"
)

// firstOptProfile keeps the layers of the first optimization profile
// present (0 in any normal dump). trtexec profiles profile 0 unless told
// otherwise (--profile), and the other profiles repeat the same kernels at
// other shapes; they are counted in an info message rather than reported as
// separate backends. It returns the kept layers, every profile seen, and
// the one kept.
func firstOptProfile(ls []engine.Layer, msgs *messages) ([]engine.Layer, []int, int) {
	seen := map[int]bool{}
	var profiles []int
	for i := range ls {
		if p := ls[i].OptProfile; !seen[p] {
			seen[p] = true
			profiles = append(profiles, p)
		}
	}
	slices.Sort(profiles)
	chosen := profiles[0]
	if len(profiles) == 1 {
		return ls, profiles, chosen
	}
	kept := make([]engine.Layer, 0, len(ls))
	for _, l := range ls {
		if l.OptProfile == chosen {
			l.Index = len(kept)
			kept = append(kept, l)
		}
	}
	msgs.info(CodeOptProfilesSetAside, fmt.Sprintf("the engine has %d optimization profiles; profile %d is analysed (trtexec profiles the first by default) and %d layers of profiles %v are set aside", len(profiles), chosen, len(ls)-len(kept), profiles[1:]))
	return kept, profiles, chosen
}

// firstOptProfileRecords keeps the records of optimization profile chosen.
// When records of other profiles were dropped, the dump percentages are
// shares of all profiles together, so they are recomputed as shares of the
// kept profile's time.
func firstOptProfileRecords(rs []engine.ProfileRecord, chosen int) []engine.ProfileRecord {
	mixed := false
	for _, r := range rs {
		if r.OptProfile != chosen {
			mixed = true
			break
		}
	}
	if !mixed {
		return rs
	}
	kept := make([]engine.ProfileRecord, 0, len(rs))
	for _, r := range rs {
		if r.OptProfile == chosen {
			r.HasPercent = false
			kept = append(kept, r)
		}
	}
	return kept
}

// badTimes describes profile values no engine can produce: negative times,
// or times so large that their sum is not a finite number.
func badTimes(recs []engine.ProfileRecord) string {
	var sumTime, sumAvg, sumMedian, sumPct float64
	for i, r := range recs {
		if r.TimeMs < 0 || r.AverageMs < 0 || r.MedianMs < 0 || r.Percentage < 0 {
			return fmt.Sprintf("record %d (%q) has a negative time or percentage", i, shorten(r.Name, 80))
		}
		sumTime += r.TimeMs
		sumAvg += r.AverageMs
		sumMedian += r.MedianMs
		sumPct += r.Percentage
	}
	if math.IsInf(sumTime, 0) || math.IsInf(sumAvg, 0) || math.IsInf(sumMedian, 0) || math.IsInf(sumPct, 0) {
		return "its times are too large to add up (the sum overflows)"
	}
	return ""
}
