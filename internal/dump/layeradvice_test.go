package dump

import (
	"strings"
	"testing"
)

// TestLayerInfoErrorsAdviseByBuild: layer-info errors that ask for a new
// export tell a detailed build (re-export with --loadEngine) from a
// default one (rebuild), since verbosity is fixed at build.
func TestLayerInfoErrorsAdviseByBuild(t *testing.T) {
	for _, in := range []string{``, `{"Layers": []}`, `{"Layers": [{"Inputs": []}]}`} {
		_, err := ParseLayerInfo([]byte(in))
		if err == nil {
			t.Fatalf("%q accepted", in)
		}
		if m := err.Error(); !strings.Contains(m, "if the engine was built with --profilingVerbosity=detailed") || !strings.Contains(m, "otherwise rebuild") {
			t.Errorf("%q: %s", in, m)
		}
	}
}
