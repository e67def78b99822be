package findings_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
)

// perturbedCase analyses a perturbed copy of a corpus case (see
// perturbedCopy) that leaves out the files drop names.
func perturbedCase(t *testing.T, name string, drop func(file string) bool) *contract.AnalyzeData {
	t.Helper()
	return analyzeFolder(t, perturbedCopy(t, name, drop, nil))
}

// corpusCases are the corpus case folders.
func corpusCases(t *testing.T) []string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(corpustest.Dir(t, corpustest.Verdicts), "*", "PROVENANCE.md"))
	var out []string
	for _, p := range paths {
		out = append(out, filepath.Base(filepath.Dir(p)))
	}
	return out
}

// versionFact is a file that can name the TensorRT version: a trtexec log
// or TREx metadata.
func versionFact(file string) bool {
	return strings.HasPrefix(file, "log_") || strings.HasPrefix(file, "meta_") || strings.HasSuffix(file, ".txt") || strings.HasSuffix(file, ".log")
}

// TestAdviceWithoutVersionFacts is issue 21's perturbation "version facts
// removed": every corpus case without its logs and metadata still gets
// advice whose every flag runs on every TensorRT release its file formats
// fit (the inferred tensorrt_range), and the TensorRT 7 case is dated as
// such from its profile and times alone, so it is never told to export
// layer info with its own trtexec.
func TestAdviceWithoutVersionFacts(t *testing.T) {
	for _, name := range corpusCases(t) {
		d := perturbedCase(t, name, versionFact)
		for i := range d.Results {
			b := &d.Results[i]
			if b.Build != nil && b.Build.TensorRTVersion != nil {
				t.Errorf("%s/%s: version %q without logs or metadata", name, b.Label, *b.Build.TensorRTVersion)
			}
			r := "unknown"
			if b.TensorRTRange != nil {
				r = b.TensorRTRange.Min + ".." + strOr(b.TensorRTRange.Max, "")
			}
			t.Logf("%s/%s: TensorRT %s, %d findings", name, b.Label, r, len(b.Issues))
			checkAdvice(t, name+"/"+b.Label+" (no version facts)", b)
		}
	}
	d := perturbedCase(t, "jetson-trt7-googlenet-int8-batch-sweep-concat", versionFact)
	b := &d.Results[0]
	if r := b.TensorRTRange; r == nil || r.Min != "7.0" || r.Max == nil || *r.Max != "7.2" {
		t.Fatalf("TensorRT 7 profile and times dated %+v, want 7.0..7.2", r)
	}
	if m := b.Validation.Messages[0].Message; !strings.Contains(m, "cannot export layer information") || strings.Contains(m, "--loadEngine=ENGINE --profilingVerbosity") {
		t.Errorf("first message tells a TensorRT 7 user to export layer info with their trtexec: %q", m)
	}
}

func strOr(s *string, def string) string {
	if s == nil {
		return def
	}
	return *s
}
