package trtexecflags

import (
	"strings"
	"testing"
)

// TestLayerInfoAdvice: the advice re-exports from a loaded engine only if
// it was built detailed, else rebuilds; it names the first release with
// the options when the range may be older; each option it names is
// accepted by every release of the range it is given for.
func TestLayerInfoAdvice(t *testing.T) {
	for _, tc := range []struct {
		name   string
		r      Range
		prefix bool
	}{
		{"unknown", Range{}, true},
		{"7.0–8.2", Range{Lo: V(7, 0), Hi: V(8, 2)}, true},
		{"8.2 on", Range{Lo: V(8, 2)}, false},
		{"8.6–9.3", Range{Lo: V(8, 6), Hi: V(9, 3)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := LayerInfoAdvice("layers_a.json", "profile_a.json", tc.r)
			for _, want := range []string{"if the engine was built with --profilingVerbosity=detailed", "--loadEngine=ENGINE", "otherwise rebuild", "--exportProfile=profile_a.json"} {
				if !strings.Contains(s, want) {
					t.Errorf("%q lacks %q", s, want)
				}
			}
			if got := strings.HasPrefix(s, "with TensorRT 8.2 or newer"); got != tc.prefix {
				t.Errorf("%q: names 8.2 %v, want %v", s, got, tc.prefix)
			}
			if tc.prefix {
				return
			}
			for _, w := range strings.Fields(s) {
				w = strings.TrimRight(w, ";:,)")
				if !strings.HasPrefix(w, "--") {
					continue
				}
				if ok, why := SupportedIn(w, tc.r); !ok {
					t.Errorf("%s: %s", w, why)
				}
			}
		})
	}
	if s := LayerInfoAdvice("l.json", "", Range{Lo: V(10, 0)}); strings.Contains(s, "--exportProfile") {
		t.Errorf("no profile asked, got %q", s)
	}
}
