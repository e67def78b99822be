package analysis

import (
	"fmt"
	"github.com/trtperf/trtperf/internal/trtexecflags"
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/namehash"
)

// matchResult pairs profile records with layers by name occurrence: the
// k-th profile record named N goes with the k-th layer named N.
type matchResult struct {
	layerOf       []int    // per profile record: layer index, -1 when unmatched
	unmatchedRecs []int    // profile record indexes without a layer
	unmatchedLays []int    // layer indexes without a profile record
	repeated      []string // names that occur more than once in the layer info
}

func matchNames(layers []engine.Layer, recs []engine.ProfileRecord) matchResult {
	// Layer info and profile from one build list the same names in the same
	// order: check that first, in one pass without a map.
	if m, ok := matchInOrder(layers, recs); ok {
		return m
	}
	// byName holds, per name, the layer indexes in dump order; next tracks
	// how many of them the profile has consumed. Linear in layers + records.
	type slot struct {
		first int
		more  []int
		next  int
	}
	byName := make(map[string]*slot, len(layers))
	slots := make([]slot, len(layers))
	var repeated []string
	for i := range layers {
		n := layers[i].Name
		if s, ok := byName[n]; ok {
			if s.more == nil {
				repeated = append(repeated, n)
			}
			s.more = append(s.more, i)
			continue
		}
		s := &slots[i]
		s.first = i
		byName[n] = s
	}
	m := matchResult{layerOf: make([]int, len(recs)), repeated: repeated}
	matched := make([]bool, len(layers))
	for r := range recs {
		s, ok := byName[recs[r].Name]
		idx := -1
		if ok {
			switch {
			case s.next == 0:
				idx = s.first
			case s.next-1 < len(s.more):
				idx = s.more[s.next-1]
			}
			s.next++
		}
		m.layerOf[r] = idx
		if idx < 0 {
			m.unmatchedRecs = append(m.unmatchedRecs, r)
		} else {
			matched[idx] = true
		}
	}
	for i, ok := range matched {
		if !ok {
			m.unmatchedLays = append(m.unmatchedLays, i)
		}
	}
	return m
}

// matchInOrder pairs record i with layer i when every name agrees. Names
// that repeat are still reported, as the occurrence rule matches them the
// same way.
func matchInOrder(layers []engine.Layer, recs []engine.ProfileRecord) (matchResult, bool) {
	if len(layers) != len(recs) {
		return matchResult{}, false
	}
	for i := range recs {
		if recs[i].Name != layers[i].Name {
			return matchResult{}, false
		}
	}
	m := matchResult{layerOf: make([]int, len(recs))}
	for i := range m.layerOf {
		m.layerOf[i] = i
	}
	m.repeated = repeatedNames(layers)
	return m, true
}

// repeatedNames lists names that occur more than once, in order of their
// second occurrence. Most engines have none, which their names' hashes
// prove cheaply (see namehash).
func repeatedNames(layers []engine.Layer) []string {
	names := func(yield func(string) bool) {
		for i := range layers {
			if !yield(layers[i].Name) {
				return
			}
		}
	}
	if namehash.Of(names, len(layers)).Distinct() {
		return nil
	}
	// A repeated name, or (rarely) two names with one hash: list them.
	reported := make(map[string]bool, len(layers)) // false: seen once
	var out []string
	for i := range layers {
		n := layers[i].Name
		done, ok := reported[n]
		if ok && !done {
			out = append(out, n)
		}
		reported[n] = ok
	}
	return out
}

// ok reports whether every record and every layer found its partner.
func (m matchResult) ok() bool { return len(m.unmatchedRecs) == 0 && len(m.unmatchedLays) == 0 }

// describe writes the name-mismatch message: counts, then a few examples
// with the closest name on the other side so the user sees what differs.
func (m matchResult) describe(layers []engine.Layer, recs []engine.ProfileRecord) string {
	const examples = 3
	var b strings.Builder
	fmt.Fprintf(&b, "layer and profile names do not match: %d of %d profile records have no layer of that name, %d of %d layers have no profile record",
		len(m.unmatchedRecs), len(recs), len(m.unmatchedLays), len(layers))
	layerNames := make([]string, len(m.unmatchedLays))
	for i, li := range m.unmatchedLays {
		layerNames[i] = layers[li].Name
	}
	recNames := make([]string, len(m.unmatchedRecs))
	for i, ri := range m.unmatchedRecs {
		recNames[i] = recs[ri].Name
	}
	for i, n := range recNames {
		if i == examples {
			break
		}
		fmt.Fprintf(&b, "; profile %q", shorten(n, 120))
		if c := closest(n, layerNames); c != "" {
			fmt.Fprintf(&b, " (closest layer: %q)", shorten(c, 120))
		}
	}
	for i, n := range layerNames {
		if i == examples {
			break
		}
		fmt.Fprintf(&b, "; layer %q", shorten(n, 120))
		if c := closest(n, recNames); c != "" {
			fmt.Fprintf(&b, " (closest profile record: %q)", shorten(c, 120))
		}
	}
	b.WriteString(". Export the layer info and the profile from the same engine build: " + trtexecflags.LayerInfoAdvice("L", "P", withLayerInfo))
	return b.String()
}

// closest returns the candidate sharing the longest common prefix plus
// suffix with name. Candidates are capped so a dump with 10^5 mismatches
// stays linear.
func closest(name string, candidates []string) string {
	const maxCandidates = 5000
	best, bestScore := "", 0
	for i, c := range candidates {
		if i == maxCandidates {
			break
		}
		if s := affinity(name, c); s > bestScore {
			best, bestScore = c, s
		}
	}
	return best
}

func affinity(a, b string) int {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return p + s
}

// shorten cuts long names in the middle so messages stay readable.
func shorten(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	half := (max - 1) / 2
	return string(r[:half]) + "…" + string(r[len(r)-half:])
}
