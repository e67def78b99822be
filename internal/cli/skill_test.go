package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
)

// buildTrtperf builds this module's trtperf once per test into a temp dir:
// the skill must ship a real binary, and the test binary is not one.
func buildTrtperf(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no Go toolchain to build trtperf")
	}
	bin := filepath.Join(t.TempDir(), "trtperf")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command(goCmd, "build", "-o", bin, "./cmd/trtperf")
	cmd.Dir = corpustest.ModuleRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// skillDeps are the default dependencies with exe as the executable skill
// install copies.
func skillDeps(exe string) *deps {
	d := defaultDeps()
	d.executable = func() (string, error) { return exe, nil }
	return d
}

// TestSkillInstallAcceptance is issue 5's acceptance 1: in a clean HOME with
// only the installed skill, scripts/run.sh runs analyze with no Go on PATH,
// also with TRTPERF pointing elsewhere, and exit codes come through.
func TestSkillInstallAcceptance(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("run.sh needs sh; run.cmd is covered in internal/skill")
	}
	for _, d := range []string{"/usr/bin", "/bin"} {
		for _, tool := range []string{"go", "trtperf"} {
			if _, err := os.Stat(filepath.Join(d, tool)); err == nil {
				t.Skipf("%s/%s exists, so PATH=/usr/bin:/bin is not free of it", d, tool)
			}
		}
	}
	corpus := corpustest.Dir(t, corpustest.AgentChecks)
	bin := buildTrtperf(t)
	sd := skillDeps(bin)

	home := t.TempDir()
	dir := filepath.Join(home, "skills", "trt-perf-analysis")
	code, out, errs := runWith(t, sd, "skill", "install", dir, "--no-cross")
	if code != 0 {
		t.Fatalf("skill install: exit %d: %s", code, errs)
	}
	plat := runtime.GOOS + "-" + runtime.GOARCH
	if !strings.Contains(out, "skill_dir: "+dir) || !strings.Contains(out, plat+" ") || !strings.Contains(out, "written (this executable)") || !strings.Contains(out, "not written: not requested (--no-cross)") {
		t.Errorf("install output:\n%s", out)
	}
	script := filepath.Join(dir, "scripts", "run.sh")
	sh := func(env []string, args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command("/bin/sh", append([]string{script}, args...)...)
		cmd.Env = append([]string{"HOME=" + home, "PATH=/usr/bin:/bin"}, env...)
		cmd.Dir = home
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), o.String(), e.String()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, o.String(), e.String()
	}
	caseDir := filepath.Join(corpus, "trex-resnet18-a100-qat")
	code, _, errs = sh(nil, "analyze", caseDir, "--output", "x.json")
	if code != 0 {
		t.Fatalf("run.sh analyze: exit %d: %s", code, errs)
	}
	checkValid(t, filepath.Join(home, "x.json"))

	// TRTPERF pointing elsewhere wins over the shipped binary.
	elsewhere := filepath.Join(t.TempDir(), "other-trtperf")
	data, _ := os.ReadFile(bin)
	os.WriteFile(elsewhere, data, 0o755)
	code, _, errs = sh([]string{"TRTPERF=" + elsewhere}, "analyze", caseDir, "--output", "y.json")
	if code != 0 {
		t.Fatalf("TRTPERF run.sh analyze: exit %d: %s", code, errs)
	}
	checkValid(t, filepath.Join(home, "y.json"))
	fake := filepath.Join(t.TempDir(), "fake")
	os.WriteFile(fake, []byte("#!/bin/sh\necho fake \"$@\"\nexit 5\n"), 0o755)
	code, out, _ = sh([]string{"TRTPERF=" + fake}, "version")
	if code != 5 || out != "fake version\n" {
		t.Errorf("TRTPERF=fake: exit %d, out %q; want the fake's output and exit 5", code, out)
	}

	// Failing commands: their exit codes come through.
	code, _, errs = sh(nil, "analyze", filepath.Join(home, "missing"))
	if code != ExitCannotRun || !strings.HasPrefix(errs, "error: ") {
		t.Errorf("missing folder: exit %d (%q), want %d", code, errs, ExitCannotRun)
	}
	os.WriteFile(filepath.Join(home, "bad.json"), []byte(`{"schema_version":"1.0"}`), 0o644)
	code, out, _ = sh(nil, "validate", "bad.json")
	if code != ExitCheck || !strings.Contains(out, "SCHEMA FAIL") {
		t.Errorf("invalid file: exit %d, out %q; want %d", code, out, ExitCheck)
	}
}

func checkValid(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := contract.Validate(data)
	if !r.SchemaOK() || !r.SemanticOK() || r.Data.Validation.PassedCount != 3 {
		t.Errorf("%s: schema %v semantic %v", path, r.Schema, r.Semantic)
	}
}

func TestSkillInstallErrors(t *testing.T) {
	t.Parallel() // its dependencies are its own (deps), not swapped globals
	sd := skillDeps(filepath.Join(t.TempDir(), "missing-exe"))
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o644)
	code, _, errs := runWith(t, sd, "skill", "install", dir, "--no-cross")
	wantError(t, code, errs, ExitCannotRun, "not empty", "--force")
	code, _, errs = runWith(t, sd, "skill", "install", filepath.Join(t.TempDir(), "s"), "--cross", "--no-cross")
	wantError(t, code, errs, ExitCannotRun, "either --cross or --no-cross")
	code, _, errs = runWith(t, sd, "skill", "install", filepath.Join(t.TempDir(), "s"), "--cross", "--source", t.TempDir())
	wantError(t, code, errs, ExitCannotRun, "cannot cross-compile", "not a checkout", "drop --cross")
	code, _, errs = runWith(t, sd, "skill")
	wantError(t, code, errs, ExitCannotRun, "skill install DIR")
}
