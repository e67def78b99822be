package analysis

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/load"
)

// TestCorpusMatchesExpected is issue 2's first acceptance check: every real
// dump in the shared corpus gives the outcome expected.json records.
func TestCorpusMatchesExpected(t *testing.T) {
	dir := corpustest.Dir(t, corpustest.Parsing)
	exp := corpustest.LoadExpected(t, dir)
	cases := make([]string, 0, len(exp))
	for c := range exp {
		cases = append(cases, c)
	}
	slices.Sort(cases)
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			sc, err := discover.Folder(filepath.Join(dir, name))
			if err != nil {
				t.Fatalf("discover: %v", err)
			}
			d, err := AnalyzeParsed(sc, load.Source(sc), Options{ToolVersion: "test"})
			if err != nil {
				t.Fatalf("analyze: %v", err)
			}
			// Issue 2, acceptance 2: every corpus output passes the contract.
			keepsContract(t, d)
			got := map[string]*contract.Backend{}
			for i := range d.Results {
				got[d.Results[i].Label] = &d.Results[i]
			}
			for label, want := range exp[name] {
				b := got[label]
				if b == nil {
					t.Errorf("label %s: missing (got labels %v)", label, labels(d))
					continue
				}
				checkBackend(t, label, b, want)
			}
			if len(got) != len(exp[name]) {
				t.Errorf("got %d backends %v, want %d", len(got), labels(d), len(exp[name]))
			}
		})
	}
}

func labels(d *contract.AnalyzeData) []string {
	var out []string
	for _, r := range d.Results {
		out = append(out, r.Label)
	}
	return out
}

func checkBackend(t *testing.T, label string, b *contract.Backend, want corpustest.Expected) {
	t.Helper()
	v := b.Validation
	status := v.Status + " " + v.AnalysisMode
	if strings.HasPrefix(want.Expect, "failed") {
		if v.Status != contract.StatusFailed {
			t.Errorf("%s: status %s, want failed (%s)", label, status, want.Expect)
		}
		if len(v.Messages) == 0 || v.Messages[0].Level != contract.LevelError {
			t.Errorf("%s: first message must be the error that says what to do, got %+v", label, v.Messages)
		}
		first := strings.ToLower(v.Messages[0].Message)
		switch {
		case strings.Contains(want.Expect, "names-only"):
			if v.Messages[0].Code != CodeNamesOnly || !strings.Contains(first, "--profilingverbosity=detailed") {
				t.Errorf("%s: first message must ask to rebuild with --profilingVerbosity=detailed, got %q", label, v.Messages[0].Message)
			}
		case strings.Contains(want.Expect, "no layer info"):
			if v.Messages[0].Code != CodeMissingLayerInfo {
				t.Errorf("%s: first message code %s, want %s", label, v.Messages[0].Code, CodeMissingLayerInfo)
			}
			if strings.Contains(want.Expect, "concatenated") && !hasCode(v.Messages, "profile_json_concatenated") {
				t.Errorf("%s: want a profile_json_concatenated message, got %+v", label, v.Messages)
			}
		}
	} else if status != want.Expect {
		t.Errorf("%s: status %q, want %q; messages %+v", label, status, want.Expect, v.Messages)
	}
	if want.Layers != nil && b.LayerCount != *want.Layers {
		t.Errorf("%s: layer_count %d, want %d", label, b.LayerCount, *want.Layers)
	}
	if want.Profile != nil && b.ProfileCount != *want.Profile {
		t.Errorf("%s: profile_count %d, want %d", label, b.ProfileCount, *want.Profile)
	}
	if want.ProfileKind != "" && b.ProfileKind != want.ProfileKind {
		t.Errorf("%s: profile_kind %q, want %q", label, b.ProfileKind, want.ProfileKind)
	}
	if want.Count != nil && (b.Count == nil || *b.Count != *want.Count) {
		t.Errorf("%s: count %v, want %d", label, b.Count, *want.Count)
	}
	if want.SumAvgMs != nil {
		if b.Timing == nil {
			t.Errorf("%s: no timing, want sum of averages %g", label, *want.SumAvgMs)
		} else if rel := math.Abs(b.Timing.AverageInferenceMs-*want.SumAvgMs) / *want.SumAvgMs; rel > 1e-6 {
			t.Errorf("%s: sum of averages %.9g, want %.9g (relative error %.2g)", label, b.Timing.AverageInferenceMs, *want.SumAvgMs, rel)
		}
	}
	if want.DAG != nil && b.Graph.IsDAG != *want.DAG {
		t.Errorf("%s: is_dag %v, want %v", label, b.Graph.IsDAG, *want.DAG)
	}
	if want.DupProducers != nil {
		if len(b.Graph.DuplicateProducers) != *want.DupProducers || b.Graph.Ambiguous != (*want.DupProducers > 0) {
			t.Errorf("%s: %d duplicate producers (ambiguous %v), want %d", label, len(b.Graph.DuplicateProducers), b.Graph.Ambiguous, *want.DupProducers)
		}
		if *want.DupProducers > 0 && !hasCode(b.Validation.Messages, CodeAmbiguousTensor) {
			t.Errorf("%s: ambiguous graph without an %s warning", label, CodeAmbiguousTensor)
		}
	}
	if want.Top != "" {
		top := slowest(b)
		if !strings.HasPrefix(top, want.Top) && !strings.HasPrefix(want.Top, top) {
			t.Errorf("%s: slowest layer %q, want prefix %q", label, top, want.Top)
		}
	}
}

func hasCode(ms []contract.Message, code string) bool {
	for _, m := range ms {
		if m.Code == code {
			return true
		}
	}
	return false
}

func slowest(b *contract.Backend) string {
	best, name := -1.0, ""
	for _, r := range b.Records {
		if r.AvgMs > best {
			best, name = r.AvgMs, r.Name
		}
	}
	return name
}
