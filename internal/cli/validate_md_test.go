package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/report"
)

// exampleMD is the worked example shipped in the skill.
const exampleMD = "../../skill/trt-perf-analysis/examples/analyze.md"

// TestSkillExample is issue 5's acceptance 3, replayed: SKILL.md's steps on
// the corpus case the example was written for; the example passes
// validate --analyze-md and is packaged into the report.
func TestSkillExample(t *testing.T) {
	caseDir := filepath.Join(corpustest.Dir(t, corpustest.AgentChecks), "trex-resnet18-a100-qat")
	tmp := t.TempDir()
	data := filepath.Join(tmp, "analyze-data.json")
	if code, _, errs := run(t, "analyze", caseDir, "--output", data); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errs)
	}
	code, out, _ := run(t, "validate", data, "--analyze-md", exampleMD)
	if code != 0 || out != "SCHEMA PASS\nSEMANTIC PASS\nANALYZE-MD PASS\n" {
		t.Fatalf("validate --analyze-md on the example: exit %d\n%s", code, out)
	}
	code, out, errs := run(t, "package", caseDir, "--output-parent", filepath.Join(tmp, "reports"), "--analyze-md", exampleMD)
	if code != 0 {
		t.Fatalf("package: exit %d: %s", code, errs)
	}
	var dir string
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "report_dir: "); ok {
			dir = v
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, report.FileAnalyzeMD))
	want, _ := os.ReadFile(exampleMD)
	if err != nil || string(got) != string(want) {
		t.Errorf("the report does not carry the example analyze.md (%v)", err)
	}
}

func TestValidateAnalyzeMD(t *testing.T) {
	caseDir := filepath.Join(corpustest.Dir(t, corpustest.AgentChecks), "trex-resnet18-a100-qat")
	tmp := t.TempDir()
	data := filepath.Join(tmp, "analyze-data.json")
	if code, _, errs := run(t, "analyze", caseDir, "--output", data); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errs)
	}
	write := func(name, s string) string {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	cases := []struct {
		name string
		md   string
		args []string
		code int
		want string
	}{
		{"pass", "## Summary\n`int8-qat`: 1.096 ms per inference; `MaxPool_12` 8.7%.\n## Details\nok\n", nil, 0,
			"SCHEMA PASS\nSEMANTIC PASS\nANALYZE-MD PASS\n"},
		{"fail lists lines", "# T\n## Summary\nx\n## Findings\n`Conv_999` takes 5%.\n`MaxPool_12` takes 20%.\nThe total inference time is 9.9 ms.\n", nil, 1,
			"SCHEMA PASS\nSEMANTIC PASS\nANALYZE-MD FAIL\n" +
				"  document: no ## Details section; put the evidence, hypotheses and next experiments under ## Details\n" +
				"  line 4: section \"## Findings\" is not allowed: analyze.md has exactly two sections, ## Summary and ## Details; use ### for sub-sections inside ## Details\n" +
				"  line 5: `Conv_999` is not a layer name in the data; cite names exactly as results[].records[].name has them\n" +
				"  line 6: 20% after `MaxPool_12` matches none of their values (closest: `MaxPool_12` (layer) percentage 8.6916% in `int8-qat`) and is not a sum, difference, ratio or percent change of this sentence's numbers; quote the data's value rounded, or give a number about something else its own sentence — in: \"`MaxPool_12` takes 20%.\"\n" +
				"  line 7: 9.9 ms is quoted as a total/inference time but no backend has it (closest: `int8-qat` diagnosis.layer_sum_ms 1.0957 ms; int8-qat average_inference_ms 1.0957, int8-qat-residual average_inference_ms 0.73114, int8-qat-residual-qgap average_inference_ms 0.67277) — in: \"The total inference time is 9.9 ms.\"\n"},
		{"quiet", "## Summary\nx\n", []string{"--quiet"}, 1, "SCHEMA PASS\nSEMANTIC PASS\nANALYZE-MD FAIL\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			md := write(tc.name+".md", tc.md)
			code, out, errs := run(t, append([]string{"validate", data, "--analyze-md", md}, tc.args...)...)
			if code != tc.code || out != tc.want {
				t.Errorf("exit %d (want %d), stderr %q, output:\n%s\nwant:\n%s", code, tc.code, errs, out, tc.want)
			}
		})
	}

	// An unreadable analyze.md is a usage error with nothing printed.
	code, out, errs := run(t, "validate", data, "--analyze-md", filepath.Join(tmp, "missing.md"))
	wantError(t, code, errs, ExitCannotRun, "cannot read --analyze-md", "missing.md")
	if out != "" {
		t.Errorf("printed %q before refusing", out)
	}
	// A document that does not decode cannot be checked against.
	bad := write("bad.json", `{"results": 5}`)
	code, out, _ = run(t, "validate", bad, "--analyze-md", write("ok.md", "## Summary\nx\n## Details\ny\n"))
	if code != ExitCheck || !strings.Contains(out, "ANALYZE-MD FAIL\n") || !strings.Contains(out, "does not decode") {
		t.Errorf("undecodable data: exit %d\n%s", code, out)
	}
}
