package skill

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
)

// TestAgentEvalTasks: every task of scripts/agent-eval.sh names corpus
// cases (or ../shared/issues cases, as issues/NAME) that exist, the expert's verdict for each is found in DIAGNOSIS.md,
// and its prompt names the dump folder without giving the case away.
func TestAgentEvalTasks(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.AgentChecks)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("SKIP: bash not found; the evaluation script needs it")
	}
	root := corpustest.ModuleRoot(t)
	issues := filepath.Join(corpus, "..", "issues")
	script := filepath.Join(root, "scripts", "agent-eval.sh")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("bash", append([]string{script}, args...)...)
		cmd.Env = append(os.Environ(), "CORPUS="+corpus, "ISSUES="+issues)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("agent-eval.sh %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	list := strings.Split(strings.TrimSpace(run("list")), "\n")
	if len(list) < 5 {
		t.Fatalf("only %d tasks:\n%s", len(list), strings.Join(list, "\n"))
	}
	// A fake evaluation folder is enough for the prompt.
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "skill"), 0o755)
	os.MkdirAll(filepath.Join(dir, "tasks"), 0o755)
	for _, l := range list {
		f := strings.Split(l, "\t") // number, kind, cases
		if len(f) != 3 {
			t.Fatalf("list line %q: want number, kind and cases separated by tabs", l)
		}
		n, cases := f[0], strings.Fields(f[2])
		if len(cases) == 0 {
			t.Errorf("task %s names no case", n)
		}
		for i, c := range cases {
			where := filepath.Join(corpus, c)
			if name, ok := strings.CutPrefix(c, "issues/"); ok {
				where, cases[i] = filepath.Join(issues, name), name
			}
			if _, err := os.Stat(where); err != nil {
				t.Errorf("task %s: case %s: %v", n, c, err)
			}
		}
		expert := run("expert", n)
		if strings.Contains(expert, "(no row for") || !strings.Contains(expert, "grade: ") {
			t.Errorf("task %s: no expert verdict:\n%s", n, expert)
		}
		prompt := run("prompt", n, dir)
		if !strings.Contains(prompt, filepath.Join(dir, "skill", "SKILL.md")) || !strings.Contains(prompt, filepath.Join(dir, "tasks", n)) {
			t.Errorf("task %s: prompt lacks the skill or task paths:\n%s", n, prompt)
		}
		for _, c := range cases {
			if strings.Contains(prompt, c) {
				t.Errorf("task %s: the prompt names the corpus case %s", n, c)
			}
		}
	}
}
