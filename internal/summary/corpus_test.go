package summary

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/golden"
	"github.com/trtperf/trtperf/internal/load"
)

// Issue 3, acceptance 3: golden text, markdown and csv summaries of corpus
// cases (a QAT engine with several backends, a Myelin diffusion model, and a
// folder with a names-only backend that fails, and FP32/FP16 builds with
// trtexec --exportTimes files, whose end-to-end latency is shown).
func TestCorpusGolden(t *testing.T) {
	root := corpustest.Dir(t, corpustest.Summary)
	for _, name := range []string{"trex-resnet18-a100-qat", "controlnet-sd15-trt86-fp16", "detr-resnet50-int8-layer-names-only", "trex-resnet18-a100-fp32-fp16"} {
		sc, err := discover.Folder(filepath.Join(root, name))
		if err != nil {
			t.Fatalf("discover %s: %v", name, err)
		}
		d, err := analysis.AnalyzeParsed(sc, load.Source(sc), analysis.Options{})
		if err != nil {
			t.Fatalf("analyze %s: %v", name, err)
		}
		for _, format := range []string{"text", "markdown", "csv"} {
			var buf bytes.Buffer
			if err := Write(&buf, d, Options{Format: format, Top: 10}); err != nil {
				t.Fatalf("%s %s: %v", name, format, err)
			}
			golden.Check(t, filepath.Join("testdata", name+"."+format+".golden"), buf.Bytes())
		}
	}
}
