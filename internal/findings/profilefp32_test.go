package findings_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/findings"
)

// fp32Case is the corpus case of an FP32 and an FP16 build of one model
// whose build metadata states each build's precision.
const fp32Case = "trex-resnet18-a100-fp32-fp16"

// copyRenamed copies the files of a corpus case that keep (keep) into a
// temporary folder, renaming each by rename. Generated at test time,
// never stored.
func copyRenamed(t *testing.T, name string, keep func(string) bool, rename func(string) string) string {
	t.Helper()
	src := filepath.Join(corpustest.Dir(t, corpustest.Verdicts), name)
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() || !keep(e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, rename(e.Name())), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func backendOf(t *testing.T, d *contract.AnalyzeData, label string) *contract.Backend {
	t.Helper()
	for i := range d.Results {
		if d.Results[i].Label == label {
			return &d.Results[i]
		}
	}
	t.Fatalf("no backend %q", label)
	return nil
}

// Issue 21 items 5 and 8: a profile-only FP32 build is diagnosed from its
// build facts (TREx build metadata's Precision FP32), not from its label:
// with the layer info dropped, the FP32 backend's first finding is
// fp32_engine priced on the measured FP16 sibling, the comparison says
// how each was built, and neutral labels change nothing.
func TestProfileOnlyFP32FromBuildFacts(t *testing.T) {
	noLayers := func(f string) bool { return !strings.HasPrefix(f, "layers_") && !strings.HasSuffix(f, ".md") }
	type got struct {
		id, basis, title string
		ms               float64
		reason           string
	}
	run := func(rename func(string) string, fp32, fp16 string) got {
		d := analyzeFolder(t, copyRenamed(t, fp32Case, noLayers, rename))
		b := backendOf(t, d, fp32)
		if b.Validation.AnalysisMode != contract.ModeProfileOnly {
			t.Fatalf("%s: mode %s", fp32, b.Validation.AnalysisMode)
		}
		findings.CheckFindings(t, b, b.Issues, b.Diagnosis)
		o := backendOf(t, d, fp16)
		findings.CheckFindings(t, o, o.Issues, o.Diagnosis)
		for _, f := range o.Issues {
			if f.ID == "fp32_engine" {
				t.Errorf("%s (an FP16 build) gets fp32_engine", fp16)
			}
		}
		if len(b.Issues) == 0 {
			t.Fatalf("%s: no finding", fp32)
		}
		f := b.Issues[0]
		g := got{id: f.ID, basis: f.PriceBasis, title: f.Title, ms: f.RecoverableMs}
		if d.Comparison != nil && len(d.Comparison.Pairs) > 0 {
			g.reason = strings.Join(d.Comparison.Pairs[0].Reasons, "; ")
		}
		t.Logf("%s: %s %s %.4f ms (%s); comparison: %s", fp32, f.ID, f.PriceBasis, f.RecoverableMs, f.Title, g.reason)
		// Both builds' precisions are cited from their build metadata.
		for _, l := range []string{fp32, fp16} {
			if !strings.Contains(strings.Join(f.Evidence, " "), "meta_"+l+"_build.json") {
				t.Errorf("evidence does not name %s's build metadata: %q", l, f.Evidence)
			}
		}
		return g
	}
	want := run(func(s string) string { return s }, "fp32", "fp16")
	if want.id != "fp32_engine" || want.basis != "sibling_measured" || !strings.Contains(want.title, "fp16 build in this folder is 57% faster") {
		t.Errorf("first finding %+v, want fp32_engine priced on the measured fp16 sibling (57%% faster)", want)
	}
	if !strings.Contains(want.reason, "fp32 is an FP32 build, fp16 an FP16 build (from build metadata)") || strings.Contains(want.reason, "build unknown") {
		t.Errorf("comparison reasons %q do not say how each was built", want.reason)
	}
	// Neutral labels: a for fp32, b for fp16.
	neutral := strings.NewReplacer("fp32", "a", "fp16", "b")
	n := run(neutral.Replace, "a", "b")
	if n.id != want.id || n.basis != want.basis || n.ms != want.ms || n.title != neutral.Replace(want.title) || n.reason != neutral.Replace(want.reason) {
		t.Errorf("neutral labels: %+v, want %+v relabelled", n, want)
	}
}

// A --loadEngine run prints trtexec's default build options: its
// "Precision: FP32" is not how the engine was built, so a profile-only
// backend with only such a log gets no fp32_engine; the same line in a
// build run's log does give it, citing the line.
func TestProfileOnlyFP32NotFromLoadEngine(t *testing.T) {
	const head = `&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec %s
[12/01/2026-10:00:00] [I] === Build Options ===
[12/01/2026-10:00:00] [I] Max batch: explicit batch
[12/01/2026-10:00:00] [I] Precision: FP32
`
	for _, c := range []struct {
		name, cmd string
		want      bool
	}{
		{"--loadEngine run", "--loadEngine=model.engine --iterations=100", false},
		{"build run", "--onnx=model.onnx --saveEngine=model.engine", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyRenamed(t, fp32Case, func(f string) bool { return f == "profile_fp32.json" }, func(s string) string { return s })
			log := strings.Replace(head, "%s", c.cmd, 1)
			if err := os.WriteFile(filepath.Join(dir, "log_fp32.txt"), []byte(log), 0o644); err != nil {
				t.Fatal(err)
			}
			b := backendOf(t, analyzeFolder(t, dir), "fp32")
			findings.CheckFindings(t, b, b.Issues, b.Diagnosis)
			has := false
			for _, f := range b.Issues {
				if f.ID == "fp32_engine" {
					has = true
					if !strings.Contains(strings.Join(f.Evidence, " "), "log_fp32.txt line 4: Precision: FP32") {
						t.Errorf("evidence does not cite the log line: %q", f.Evidence)
					}
					if f.PriceBasis != contract.PriceGuessedKinds {
						t.Errorf("price basis %q without a sibling", f.PriceBasis)
					}
				}
			}
			if has != c.want {
				t.Errorf("fp32_engine %v, want %v (build %+v)", has, c.want, b.Build)
			}
		})
	}
}

// An FP32 build with layer info whose only faster sibling has no layer
// info: the sibling's build facts (FP16) let its measured time price
// fp32_engine, and the comparison reads no precision, tactic or tensor
// core change off the side whose layers are unknown.
func TestFP32PricedOnProfileOnlySibling(t *testing.T) {
	d := analyzeFolder(t, copyRenamed(t, fp32Case, func(f string) bool { return f != "layers_fp16.json" && !strings.HasSuffix(f, ".md") }, func(s string) string { return s }))
	b := backendOf(t, d, "fp32")
	if b.Validation.AnalysisMode != contract.ModeLayerProfile || backendOf(t, d, "fp16").Validation.AnalysisMode != contract.ModeProfileOnly {
		t.Fatalf("modes %s, %s", b.Validation.AnalysisMode, backendOf(t, d, "fp16").Validation.AnalysisMode)
	}
	findings.CheckFindings(t, b, b.Issues, b.Diagnosis)
	if len(b.Issues) == 0 || b.Issues[0].ID != "fp32_engine" || b.Issues[0].PriceBasis != "sibling_measured" {
		t.Fatalf("findings %+v, want fp32_engine priced on the fp16 sibling", b.Issues)
	}
	for _, f := range b.Issues {
		if f.ID == "sibling_delta" {
			t.Errorf("sibling_delta from a sibling whose precisions are unknown: %s", f.Title)
		}
	}
	r := strings.Join(d.Comparison.Pairs[0].Reasons, "; ")
	if !strings.Contains(r, "fp32 is an FP32 build, fp16 an FP16 build (from build metadata)") || strings.Contains(r, "unknown") {
		t.Errorf("comparison reasons %q", r)
	}
}
