package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/load"
)

// TestQuickStartAgrees: what README.md says the shipped example finds is
// what trtperf finds on it — the first finding of every build, and the
// possible change (priced under the findings' threshold) only the INT8
// build lists.
func TestQuickStartAgrees(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile("the first\\s+finding of both builds is `([a-z0-9_]+)`").FindSubmatch(b)
	added := regexp.MustCompile("The INT8 build lists `([a-z0-9_]+)` among\\s+its possible changes").FindSubmatch(b)
	if first == nil || added == nil {
		t.Fatal("README.md no longer says what the example finds (\"the first finding of both builds is `ID`\", \"The INT8 build lists `ID` among its possible changes\"); keep the quick start's lesson stated and tested")
	}
	sc, err := discover.Folder(filepath.Join(root, "examples", "bert-base"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := analysis.AnalyzeParsed(sc, load.Source(sc), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Results) != 2 {
		t.Fatalf("the example has %d backends, README.md speaks of two", len(d.Results))
	}
	for _, r := range d.Results {
		if len(r.Issues) == 0 || r.Issues[0].ID != string(first[1]) {
			t.Errorf("backend %s: first finding %v, README.md says %s", r.Label, ids(r.Issues), first[1])
		}
		has := false
		for _, o := range r.Overview {
			if o.ID != "minor_items" {
				continue
			}
			for _, e := range o.Evidence {
				has = has || strings.Contains(e, "("+string(added[1])+")")
			}
		}
		if want := r.Label == "int8"; has != want {
			t.Errorf("backend %s: possible changes list %s: %v; README.md says only the INT8 build does", r.Label, added[1], has)
		}
		for _, f := range r.Issues {
			if f.ID == string(added[1]) {
				t.Errorf("backend %s: %s is a finding; README.md says it is priced under the threshold", r.Label, f.ID)
			}
		}
	}
}

func ids(fs []contract.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	return out
}
