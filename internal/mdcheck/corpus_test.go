package mdcheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/load"
	"github.com/trtperf/trtperf/internal/mdcheck"
)

func analyse(t *testing.T, dir string) *contract.AnalyzeData {
	t.Helper()
	sc, err := discover.Folder(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := analysis.AnalyzeParsed(sc, load.Source(sc), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAgentAnalysesPass: analyses written the way an agent following
// SKILL.md writes them (a two-build comparison, a clean engine among three
// builds, a failed names-only folder, a QAT build pair, and the worked
// example) pass with no false failure. Each file is named after its corpus
// case.
func TestAgentAnalysesPass(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.AgentChecks)
	files, _ := filepath.Glob("testdata/analyses/*.md")
	files = append(files, "../../skill/trt-perf-analysis/examples/analyze.md")
	if len(files) < 5 {
		t.Fatalf("only %d analyses found", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		if name == "analyze" {
			name = "trex-resnet18-a100-qat" // the worked example's case
		}
		t.Run(name, func(t *testing.T) {
			md, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range mdcheck.Check(md, analyse(t, filepath.Join(corpus, name))) {
				t.Errorf("false failure: %s", p)
			}
		})
	}
}

// TestInventedNumbersFail: the same analyses with one number changed to a
// value the data does not have, or a name made up, are rejected with the
// sentence, the number and the closest fact.
func TestInventedNumbersFail(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.AgentChecks)
	cases := []struct {
		file, from, to string
		want           []string
		n              int // problems expected when not 1: a changed number can break a sum written after it
	}{
		{"trex-resnet18-a100-fp32-fp16", "`fp32` takes 1.998 ms", "`fp32` takes 1.5 ms",
			[]string{"1.5 ms after `fp32` matches none", "closest: `fp32` ", "in: \"Measured end to end"}, 0},
		{"trex-resnet18-a100-fp32-fp16", "0.522 ms in `fp32`", "0.622 ms in `fp32`",
			[]string{"0.622 ms after `Conv_0 + Relu_1` matches none", "closest: `Conv_0 + Relu_1` (layer) avg_ms 0.52224 ms in `fp32`"}, 0},
		{"trex-resnet18-a100-fp32-fp16", "0.411 ms more", "0.451 ms more",
			[]string{"0.451 ms after `fp16` matches none"}, 0},
		{"trex-resnet18-a100-fp32-fp16", "`Conv_0 + Relu_1` (10.98%)", "`Conv_0 + Relu_1` (12.98%)",
			[]string{"12.98% after `Conv_0 + Relu_1` matches none", "18.9% is not a number of any backend"}, 2}, // the sum it made is wrong too
		{"trex-mobilenetv2-qat-titanrtx", "18 `Reformat` layers take 17.55%", "18 `Reformat` layers take 19.55%",
			[]string{"19.55% after `qdq_placement` / `Reformat` matches none", "closest: `Reformat` (layer type) percentage 17.547% in `int8-qat`"}, 0},
		{"trex-mobilenetv2-qat-titanrtx", "take 2.27% together", "take 3.27% together",
			[]string{"3.27% after `QuantizeLinear_98` / `QuantizeLinear_147` matches none"}, 0},
		{"trex-mobilenetv2-qat-titanrtx", "`QuantizeLinear_98` and", "`QuantizeLinear_99` and",
			[]string{"`QuantizeLinear_99` is not a layer name"}, 0},
		{"trex-mobilenetv2-qat-titanrtx", "`int8-qat` 0.351 ms", "`int8-qat` 0.331 ms",
			[]string{"0.331 ms after `int8-qat` matches none", "closest: `int8-qat` timing.measured."}, 0},
		{"trex-mobilenetv2-qat-titanrtx", "prices 0.0833 ms.", "prices 0.0733 ms.",
			[]string{"0.0733 ms after `qdq_placement`", "matches none"}, 0},
		{"trex-resnet18-a100-fp32-fp16", "1.129 ms recoverable (56.69%)", "1.329 ms recoverable (56.69%)",
			[]string{"1.329 ms after `fp32_engine` matches none", "closest: `fp32_engine` (finding) recoverable_high_ms 1.2414 ms in `fp32`"}, 0},
		{"fuzzy-resnet18-rtx3060-three-paths", "it takes 1.188 ms", "it takes 1.288 ms",
			[]string{"1.288 ms is not a number of `onnx-trt` / `trtexec` in the data"}, 0}, // "it": bound to no name, still checked
		{"fuzzy-resnet18-rtx3060-three-paths", "`trtexec`: total 0.3635 ms", "`trtexec`: total 0.3935 ms",
			[]string{"0.3935 ms is quoted as a total/inference time but no backend has it (closest: "}, 0},
		{"detr-resnet50-int8-layer-names-only", "`Reformat` layers take 12.8%", "`Reformat` layers take 14.8%",
			[]string{"14.8% after `Reformat` matches none", "closest: `Reformat` (layer type) percentage 12.786% in `int8`"}, 0},
		{"detr-resnet50-int8-layer-names-only", "together are 37.7%", "together are 42.8%",
			[]string{"42.8% after `SoftMax` / `MatrixMultiply` matches none"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.file+"/"+tc.to, func(t *testing.T) {
			md, err := os.ReadFile(filepath.Join("testdata", "analyses", tc.file+".md"))
			if err != nil {
				t.Fatal(err)
			}
			changed := strings.Replace(string(md), tc.from, tc.to, 1)
			if changed == string(md) {
				t.Fatalf("%q not in %s", tc.from, tc.file)
			}
			ps := mdcheck.Check([]byte(changed), analyse(t, filepath.Join(corpus, tc.file)))
			if len(tc.want) == 0 {
				if len(ps) != 0 {
					t.Errorf("problems %v, want none", ps)
				}
				return
			}
			all := ""
			for _, p := range ps {
				all += p.String() + "\n"
			}
			if n := max(tc.n, 1); len(ps) != n {
				t.Fatalf("problems %v, want %d", ps, n)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("%s\nwant it to contain %q", all, w)
				}
			}
		})
	}
}
