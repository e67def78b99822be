package layerfacts

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

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
	golden(t, "tactics.golden", b.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v (run go test -update to create it)", path, err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the output; run go test -update and review the diff", path)
	}
}
