package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/findings"
	"github.com/trtperf/trtperf/internal/load"
)

// Perturbations of the corpus, generated at test time (symbolic links in a
// temporary folder named like the case, never stored): what the files are
// called must not change what the analysis concludes.

// analyzeDir discovers and analyses a folder.
func analyzeDir(t *testing.T, dir string) *contract.AnalyzeData {
	t.Helper()
	sc, err := discover.Folder(dir)
	if err != nil {
		t.Fatalf("discover %s: %v", dir, err)
	}
	d, err := AnalyzeParsed(sc, load.Source(sc), Options{})
	if err != nil {
		t.Fatalf("analyze %s: %v", dir, err)
	}
	return d
}

// corpusCases are the corpus folders (each with a PROVENANCE.md).
func corpusCases(t *testing.T) []string {
	t.Helper()
	cases, _ := filepath.Glob(filepath.Join(corpustest.Dir(t, corpustest.Verdicts), "*", "PROVENANCE.md"))
	for i := range cases {
		cases[i] = filepath.Dir(cases[i])
	}
	if len(cases) < 10 {
		t.Fatalf("only %d corpus cases", len(cases))
	}
	return cases
}

// neutral is the i-th neutral label: a, b, … z, a1, …
func neutral(prefix string, i int) string {
	s := prefix + string(rune('a'+i%26))
	if i >= 26 {
		s += fmt.Sprint(i / 26)
	}
	return s
}

// relabelled links a case's files into dst under new labels (labels[old] =
// new): the label in a file name is replaced (longest label first, as a
// whole word between separators); a file naming no label keeps its name.
// keep filters the files (nil: all).
func relabelled(t *testing.T, src, dst string, labels map[string]string, keep func(base string) bool) {
	t.Helper()
	olds := make([]string, 0, len(labels))
	for l := range labels {
		olds = append(olds, l)
	}
	slices.SortFunc(olds, func(a, b string) int { return len(b) - len(a) })
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		base := e.Name()
		if e.IsDir() || base == "PROVENANCE.md" || base == "RESOLUTION.md" || (keep != nil && !keep(base)) {
			continue
		}
		name := base
		for _, old := range olds {
			if n, ok := replaceLabel(base, old, labels[old]); ok {
				name = n
				break
			}
		}
		if _, err := os.Lstat(filepath.Join(dst, name)); err == nil {
			t.Fatalf("%s: two files named %s", dst, name)
		}
		if err := os.Symlink(filepath.Join(src, base), filepath.Join(dst, name)); err != nil {
			t.Fatal(err)
		}
	}
}

// replaceLabel replaces label in a file name where it stands between
// separators ("layers_fp16.json", "meta_fp16_build.json").
func replaceLabel(base, label, with string) (string, bool) {
	for i := 0; ; {
		j := strings.Index(base[i:], label)
		if j < 0 {
			return "", false
		}
		j += i
		end := j + len(label)
		sepBefore := j > 0 && strings.ContainsRune("_-", rune(base[j-1]))
		sepAfter := end < len(base) && strings.ContainsRune("_.", rune(base[end]))
		if sepBefore && sepAfter {
			return base[:j] + with + base[end:], true
		}
		i = j + 1
	}
}

// findingKey is what must not change under a perturbation: ids, owned
// layers, prices and confidence of every finding.
func findingKeys(b *contract.Backend) []string {
	out := []string{}
	for _, f := range b.Issues {
		out = append(out, fmt.Sprintf("%s layers=%v est=%.6f [%.6f, %.6f] %s basis=%s", f.ID, f.Layers, f.RecoverableMs, f.RecoverableLowMs, f.RecoverableHighMs, f.Confidence, f.PriceBasis))
	}
	return out
}

func overviewIDs(b *contract.Backend) []string {
	out := []string{}
	for _, o := range b.Overview {
		out = append(out, o.ID)
	}
	return out
}

func positiveIDs(b *contract.Backend) []string {
	out := []string{}
	for _, p := range b.Positives {
		out = append(out, p.ID)
	}
	return out
}

// Relabelling every backend to a neutral word (a, b, …) changes no finding:
// precision intent, QAT and INT8 come from the engine, never from a label.
// The corpus cases and the issue threads' trtexec logs ("log_qat-int8.txt")
// are both relabelled.
func TestCorpusNeutralLabelsSameFindings(t *testing.T) {
	dirs := corpusCases(t)
	issues, _ := filepath.Glob(filepath.Join(corpustest.IssuesDir(t, corpustest.Verdicts), "*", "PROVENANCE.md"))
	for _, p := range issues {
		dirs = append(dirs, filepath.Dir(p))
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			orig := analyzeDir(t, dir)
			labels := map[string]string{}
			for i, b := range orig.Results {
				labels[b.Label] = neutral("", i)
			}
			dst := filepath.Join(t.TempDir(), name)
			if err := os.Mkdir(dst, 0o755); err != nil {
				t.Fatal(err)
			}
			relabelled(t, dir, dst, labels, nil)
			got := analyzeDir(t, dst)
			if len(got.Results) != len(orig.Results) {
				t.Fatalf("%d backends relabelled, %d before", len(got.Results), len(orig.Results))
			}
			for i := range orig.Results {
				o, g := &orig.Results[i], &got.Results[i]
				if g.Label != labels[o.Label] {
					t.Fatalf("backend %d is %q, want %q (was %q)", i, g.Label, labels[o.Label], o.Label)
				}
				if g.Validation.Status != o.Validation.Status || g.Validation.AnalysisMode != o.Validation.AnalysisMode {
					t.Errorf("%s→%s: %s %s, was %s %s", o.Label, g.Label, g.Validation.Status, g.Validation.AnalysisMode, o.Validation.Status, o.Validation.AnalysisMode)
				}
				if w, h := findingKeys(o), findingKeys(g); !slices.Equal(w, h) {
					t.Errorf("%s→%s: findings\n  %s\nwere\n  %s", o.Label, g.Label, strings.Join(h, "\n  "), strings.Join(w, "\n  "))
				}
				if w, h := overviewIDs(o), overviewIDs(g); !slices.Equal(w, h) {
					t.Errorf("%s→%s: overview %v, was %v", o.Label, g.Label, h, w)
				}
				if w, h := positiveIDs(o), positiveIDs(g); !slices.Equal(w, h) {
					t.Errorf("%s→%s: positives %v, was %v", o.Label, g.Label, h, w)
				}
			}
		})
	}
}

// timedBackends are the passed layer_profile backends (those a sibling
// could price).
func timedBackends(d *contract.AnalyzeData) []*contract.Backend {
	var out []*contract.Backend
	for i := range d.Results {
		if b := &d.Results[i]; b.Validation.Status == contract.StatusPassed && b.Validation.AnalysisMode == contract.ModeLayerProfile {
			out = append(out, b)
		}
	}
	return out
}

// devices are the GPU names a case's timed backends ran on.
func devices(d *contract.AnalyzeData) []string {
	var out []string
	for _, b := range timedBackends(d) {
		if b.Device != nil && b.Device.Name != "" && !slices.Contains(out, b.Device.Name) {
			out = append(out, b.Device.Name)
		}
	}
	return out
}

// hardness ranks a candidate unrelated case: the same input shape and no
// GPU that tells them apart leave only the layer alignment to decide.
func hardness(x, y *contract.AnalyzeData) int {
	h := 0
	if firstInput(x) == firstInput(y) {
		h += 2
	}
	dx, dy := devices(x), devices(y)
	if len(dx) == 0 || len(dy) == 0 || slices.Equal(dx, dy) {
		h++
	}
	return h
}

func firstInput(d *contract.AnalyzeData) string {
	for _, b := range timedBackends(d) {
		if len(b.Model.InputShapes) > 0 {
			return fmt.Sprint(b.Model.InputShapes[0].Dimensions)
		}
	}
	return ""
}

// Another model's backends added to a case's folder (relabelled z…) price
// nothing there and are priced by nothing there: every backend keeps the
// findings it has alone, and each says why the newcomers are no siblings.
// The other model is another case whose model differs, with the same input
// shape and no telling GPU when one has them (the hard case: only the
// layer alignment tells the models apart).
func TestCorpusUnrelatedModelNoSiblingPrice(t *testing.T) {
	cases := corpusCases(t)
	alone := map[string]*contract.AnalyzeData{}
	for _, dir := range cases {
		alone[dir] = analyzeDir(t, dir)
	}
	for _, dir := range cases {
		name := filepath.Base(dir)
		x := alone[dir]
		if len(timedBackends(x)) == 0 {
			continue
		}
		// The unrelated case: another model, the same input shape if any.
		other := ""
		for _, c := range cases {
			y := alone[c]
			if c == dir || y.ModelName == x.ModelName || len(timedBackends(y)) == 0 {
				continue
			}
			if other == "" || hardness(x, y) > hardness(x, alone[other]) {
				other = c
			}
		}
		if other == "" {
			continue
		}
		t.Run(name+"+"+filepath.Base(other), func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), name)
			if err := os.Mkdir(dst, 0o755); err != nil {
				t.Fatal(err)
			}
			relabelled(t, dir, dst, map[string]string{}, nil)
			y := alone[other]
			labels := map[string]string{}
			for i, b := range timedBackends(y) {
				labels[b.Label] = neutral("z", i)
			}
			// Only the files of the other model's timed backends, each
			// naming its label (a shared meta_device.json is left out).
			relabelled(t, other, dst, labels, func(base string) bool {
				for l := range labels {
					if _, ok := replaceLabel(base, l, ""); ok {
						return true
					}
				}
				return false
			})
			mixed := analyzeDir(t, dst)
			byLabel := map[string]*contract.Backend{}
			for i := range mixed.Results {
				byLabel[mixed.Results[i].Label] = &mixed.Results[i]
			}
			check := func(want *contract.Backend, label string, strangers []string) {
				got := byLabel[label]
				if got == nil {
					t.Errorf("no backend %s in the mixed folder", label)
					return
				}
				if w, h := findingKeys(want), findingKeys(got); !slices.Equal(w, h) {
					t.Errorf("%s: findings beside another model\n  %s\nalone\n  %s", label, strings.Join(h, "\n  "), strings.Join(w, "\n  "))
				}
				if got.Diagnosis == nil {
					return
				}
				i := slices.IndexFunc(got.Overview, func(o contract.OverviewItem) bool { return o.ID == findings.OverviewNoSibling })
				if i < 0 {
					t.Errorf("%s: no %s overview item saying why %v are no siblings: %v", label, findings.OverviewNoSibling, strangers, overviewIDs(got))
					return
				}
				text := strings.Join(got.Overview[i].Evidence, " ")
				for _, s := range strangers {
					if !strings.Contains(text, fmt.Sprintf("%q", s)) {
						t.Errorf("%s: the %s item does not name %q: %s", label, findings.OverviewNoSibling, s, text)
					}
				}
				for _, f := range got.Issues {
					for _, s := range strangers {
						if strings.Contains(f.Title+f.Action+strings.Join(f.Evidence, " "), fmt.Sprintf("%q", s)) {
							t.Errorf("%s: finding %s cites the other model's %s", label, f.ID, s)
						}
					}
				}
			}
			var xLabels, zLabels []string
			for _, b := range timedBackends(x) {
				xLabels = append(xLabels, b.Label)
			}
			for _, b := range timedBackends(y) {
				zLabels = append(zLabels, labels[b.Label])
			}
			for _, b := range timedBackends(x) {
				check(b, b.Label, zLabels)
			}
			for _, b := range timedBackends(y) {
				check(b, labels[b.Label], xLabels)
			}
		})
	}
}
