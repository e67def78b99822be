package namehash

import (
	"fmt"
	"slices"
	"testing"
)

func TestSet(t *testing.T) {
	for _, c := range []struct {
		names    []string
		distinct bool
	}{
		{nil, true},
		{[]string{"a"}, true},
		{[]string{"conv1", "relu1", "conv2"}, true},
		{[]string{"conv1", "relu1", "conv1"}, false},
		{[]string{"", ""}, false},
	} {
		s := Of(slices.Values(c.names), len(c.names))
		if got := s.Distinct(); got != c.distinct {
			t.Errorf("%q: Distinct() = %v, want %v", c.names, got, c.distinct)
		}
		for _, n := range c.names {
			if !s.MayContain(n) {
				t.Errorf("%q: MayContain(%q) = false for one of the names", c.names, n)
			}
		}
	}
	// Absent names: false for (nearly) all of 10^4 others.
	var names []string
	for i := range 1000 {
		names = append(names, fmt.Sprintf("layer.%d", i))
	}
	s := Of(slices.Values(names), len(names))
	hits := 0
	for i := range 10000 {
		if s.MayContain(fmt.Sprintf("other.%d", i)) {
			hits++
		}
	}
	if hits > 0 {
		t.Errorf("%d of 10000 absent names may be present (a 64-bit collision is ~1e-12)", hits)
	}
}
