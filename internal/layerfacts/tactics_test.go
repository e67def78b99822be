package layerfacts

import (
	"fmt"
	"github.com/trtperf/trtperf/internal/golden"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Issue 3 acceptance 4: every distinct tactic in the corpus, with its
// classification, in testdata/tactics.golden; no tactic is "unknown".
func TestCorpusTactics(t *testing.T) {
	seen := map[string]bool{}
	for _, layers := range corpusLayers(t) {
		for _, l := range layers {
			if l.TacticName != "" {
				seen[l.TacticName] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	fmt.Fprintf(&b, "# family\ttensor_core\tarch\tprecision\ttactic (%d distinct in the corpus)\n", len(names))
	for _, n := range names {
		c := ClassifyTactic(n)
		if c.Family == FamilyUnknown {
			t.Errorf("tactic %q: family unknown; add a row to tacticRules", n)
		}
		p := tacticPrecision(n)
		if p == "" {
			p = "-"
		}
		arch := c.Arch
		if arch == "" {
			arch = "-"
		}
		fmt.Fprintf(&b, "%s\t%v\t%s\t%s\t%s\n", c.Family, c.TensorCore, arch, p, n)
	}
	golden.Check(t, filepath.Join("testdata", "tactics.golden"), []byte(b.String()))
}
