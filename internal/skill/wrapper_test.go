package skill

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// fakeTool writes an executable shell script that prints its name and
// arguments (one per line) and exits with $FAKE_EXIT.
func fakeTool(t *testing.T, path, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho " + name + "\nfor a in \"$@\"; do echo \"[$a]\"; done\nexit ${FAKE_EXIT:-0}\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

type shRun struct {
	code           int
	stdout, stderr string
}

func runSh(t *testing.T, script string, env []string, args ...string) shRun {
	t.Helper()
	cmd := exec.Command("/bin/sh", append([]string{script}, args...)...)
	cmd.Env = env
	cmd.Dir = t.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return shRun{code, out.String(), errb.String()}
}

// TestRunShLookupOrder runs scripts/run.sh through each step of its lookup
// with fake tools: TRTPERF, the shipped binary, PATH, a source build, and
// the error when there is nothing.
func TestRunShLookupOrder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("run.sh needs a POSIX sh; run.cmd is checked by TestRunCmd*")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	for _, d := range []string{"/usr/bin", "/bin"} {
		for _, tool := range []string{"go", "trtperf"} {
			if _, err := os.Stat(filepath.Join(d, tool)); err == nil {
				t.Skipf("%s/%s exists; the lookup cannot be isolated", d, tool)
			}
		}
	}
	// A fake source checkout holding the skill, as in the repository.
	src := fakeModule(t)
	dir := filepath.Join(src, "skill", "trt-perf-analysis")
	if _, err := Install(dir, Options{Cross: CrossOff}); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "scripts", "run.sh")
	home := t.TempDir()
	sysPath := "/usr/bin:/bin"
	env := func(extra ...string) []string {
		return append([]string{"HOME=" + home, "PATH=" + sysPath}, extra...)
	}
	tools := t.TempDir()
	fakeTool(t, filepath.Join(tools, "explicit"), "explicit")
	pathDir := filepath.Join(tools, "pathdir")
	fakeTool(t, filepath.Join(pathDir, "trtperf"), "on-path")
	// A fake go: `go build -o OUT ./cmd/trtperf` writes a fake trtperf,
	// after checking it runs in the source folder.
	goDir := filepath.Join(tools, "godir")
	os.MkdirAll(goDir, 0o755)
	os.WriteFile(filepath.Join(goDir, "go"), []byte(`#!/bin/sh
[ -f go.mod ] && [ "$1" = build ] && [ "$2" = -o ] || { echo "fake go: bad call $* in $(pwd)" >&2; exit 9; }
printf '#!/bin/sh\necho built\nfor a in "$@"; do echo "[$a]"; done\nexit ${FAKE_EXIT:-0}\n' > "$3"
chmod +x "$3"
`), 0o755)

	args := []string{"analyze", "a b", "$HOME", "*", ""}
	wantArgs := "[analyze]\n[a b]\n[$HOME]\n[*]\n[]\n"

	// 4. Source build (nothing shipped, nothing on PATH): go is on PATH.
	cache := filepath.Join(t.TempDir(), "cache")
	r := runSh(t, script, env("PATH="+goDir+":"+sysPath, "XDG_CACHE_HOME="+cache), args...)
	if r.code != 0 || r.stdout != "built\n"+wantArgs {
		t.Fatalf("source build: %+v", r)
	}
	built, _ := filepath.Glob(filepath.Join(cache, "trtperf", "trtperf-*"))
	if len(built) != 1 {
		t.Errorf("source build cached %v, want one binary under %s/trtperf", built, cache)
	}
	r = runSh(t, script, env("PATH="+goDir+":"+sysPath, "XDG_CACHE_HOME="+cache, "FAKE_EXIT=4"), "x")
	if r.code != 4 {
		t.Errorf("source build: exit %d, want 4 passed through", r.code)
	}
	// TRTPERF_SRC that is not a checkout is an error.
	r = runSh(t, script, env("PATH="+goDir+":"+sysPath, "TRTPERF_SRC="+tools))
	if r.code != 127 || !strings.Contains(r.stderr, "TRTPERF_SRC") {
		t.Errorf("bad TRTPERF_SRC: %+v", r)
	}

	// Nothing at all: one error line, exit 127.
	r = runSh(t, script, env(), args...)
	if r.code != 127 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "run.sh: error: trtperf not found") || !strings.Contains(r.stderr, "TRTPERF=") || !strings.Contains(r.stderr, "install Go") {
		t.Errorf("nothing available: %+v", r)
	}

	// 3. On PATH wins over the source build.
	r = runSh(t, script, env("PATH="+pathDir+":"+goDir+":"+sysPath), args...)
	if r.code != 0 || r.stdout != "on-path\n"+wantArgs {
		t.Errorf("on PATH: %+v", r)
	}

	// 2. The shipped binary wins over PATH.
	shipped := filepath.Join(dir, "bin", runtime.GOOS+"-"+runtime.GOARCH, "trtperf")
	fakeTool(t, shipped, "shipped")
	r = runSh(t, script, env("PATH="+pathDir+":"+sysPath, "FAKE_EXIT=3"), args...)
	if r.code != 3 || r.stdout != "shipped\n"+wantArgs {
		t.Errorf("shipped: %+v", r)
	}

	// 1. TRTPERF wins over everything; a wrong TRTPERF is an error.
	r = runSh(t, script, env("PATH="+pathDir+":"+sysPath, "TRTPERF="+filepath.Join(tools, "explicit")), args...)
	if r.code != 0 || r.stdout != "explicit\n"+wantArgs {
		t.Errorf("TRTPERF: %+v", r)
	}
	r = runSh(t, script, env("TRTPERF="+filepath.Join(tools, "missing")), args...)
	if r.code != 127 || !strings.Contains(r.stderr, "TRTPERF=") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("bad TRTPERF: %+v", r)
	}
	r = runSh(t, script, env("TRTPERF="+tools)) // a folder is not an executable
	if r.code != 127 {
		t.Errorf("TRTPERF folder: %+v", r)
	}
}

// TestRunCmdStructure reviews run.cmd mechanically: CRLF endings, the
// lookup order, the exit code passed after every run, no %ERRORLEVEL% inside
// a ( ) block (expanded before the block runs), and every goto/call target
// defined.
func TestRunCmdStructure(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoSkill, "scripts", "run.cmd"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	if strings.Count(s, "\r\n") != strings.Count(s, "\n") {
		t.Fatal("run.cmd must use CRLF line endings throughout")
	}
	lines := strings.Split(strings.TrimSuffix(s, "\r\n"), "\r\n")
	if lines[0] != "@echo off" {
		t.Errorf("first line %q, want @echo off", lines[0])
	}
	find := func(re string) int {
		r := regexp.MustCompile(re)
		for i, l := range lines {
			if r.MatchString(l) {
				return i
			}
		}
		t.Fatalf("run.cmd has no line matching %s", re)
		return -1
	}
	order := []int{
		find(`^"%TRTPERF%" %\*$`),
		find(`^set "RUN_BIN=%RUN_SKILL%\\bin\\windows-%RUN_ARCH%\\trtperf\.exe"$`),
		find(`^for %%I in \(trtperf\.exe\) do set "RUN_PATHBIN=%%~\$PATH:I"$`),
		find(`^call "%RUN_GO%" build -o "%RUN_OUT%" \./cmd/trtperf 1>&2$`),
	}
	for i := 1; i < len(order); i++ {
		if order[i] <= order[i-1] {
			t.Errorf("lookup step %d (line %d) comes before step %d (line %d)", i+1, order[i]+1, i, order[i-1]+1)
		}
	}
	// Through a symlink %~dp0 is the link's folder: the link is followed
	// before the skill folder is used.
	if follow, use := find(`^for /f "tokens=2 delims=\[\]" %%T in \('dir /al "%~f0" .*do set "RUN_LINK=%%T"$`), find(`^set "RUN_BIN=%RUN_SKILL%`); follow > use {
		t.Errorf("run.cmd follows its symlink (line %d) after using the skill folder (line %d)", follow+1, use+1)
	}
	find(`^for %%I in \("%RUN_LINK%"\) do set "RUN_SKILL=%%~dpI\.\."$`)
	find(`^if /i "%RUN_ARCH%"=="AMD64" set "RUN_ARCH=amd64"$`)
	find(`^if /i "%RUN_ARCH%"=="ARM64" set "RUN_ARCH=arm64"$`)
	find(`^if defined PROCESSOR_ARCHITEW6432 set "RUN_ARCH=%PROCESSOR_ARCHITEW6432%"$`)

	runs := regexp.MustCompile(`^"%[A-Z_]+%" %\*$`)
	labels := map[string]bool{}
	for _, l := range lines {
		if strings.HasPrefix(l, ":") {
			labels[strings.ToLower(l[1:])] = true
		}
	}
	nRuns, depth := 0, 0
	for i, l := range lines {
		if runs.MatchString(l) {
			nRuns++
			if i+1 >= len(lines) || lines[i+1] != "exit /b %ERRORLEVEL%" {
				t.Errorf("line %d runs trtperf but the next line is not 'exit /b %%ERRORLEVEL%%'", i+1)
			}
		}
		if strings.HasPrefix(strings.ToLower(l), "rem ") {
			continue
		}
		depth += strings.Count(l, "(") - strings.Count(l, ")")
		if depth > 0 && strings.Contains(l, "%ERRORLEVEL%") {
			t.Errorf("line %d reads %%ERRORLEVEL%% inside a ( ) block", i+1)
		}
		for _, m := range regexp.MustCompile(`(?i)\b(?:goto|call) :?([a-z_]+)`).FindAllStringSubmatch(l, -1) {
			if !labels[strings.ToLower(m[1])] {
				t.Errorf("line %d jumps to undefined label %q", i+1, m[1])
			}
		}
		if strings.Contains(l, "echo run.cmd: error:") {
			if !strings.HasPrefix(l, ">&2 echo") || i+1 >= len(lines) || lines[i+1] != "exit /b 127" {
				t.Errorf("line %d: an error must go to stderr and be followed by 'exit /b 127'", i+1)
			}
		}
	}
	if nRuns != 4 {
		t.Errorf("run.cmd runs trtperf in %d places, want 4 (TRTPERF, shipped, PATH, built)", nRuns)
	}
}

// TestRunCmdUnderWine runs run.cmd's lookup under wine when
// TRTPERF_TEST_WINE=1 and wine is installed (it takes ~20 s). Fake
// trtperf.exe files are copies of wine's cmd.exe, so "/c exit N" checks the
// exit code and "/c echo X" the arguments.
func TestRunCmdUnderWine(t *testing.T) {
	if os.Getenv("TRTPERF_TEST_WINE") != "1" {
		t.Skip("set TRTPERF_TEST_WINE=1 to run run.cmd under wine")
	}
	wine, err := exec.LookPath("wine")
	if err != nil {
		t.Skip("wine is not installed")
	}
	prefix := filepath.Join(os.TempDir(), "trtperf-wineprefix")
	base := []string{"WINEPREFIX=" + prefix, "WINEDEBUG=-all", "HOME=" + os.Getenv("HOME"), "PATH=" + os.Getenv("PATH")}
	winRun := func(env []string, cmdline string) shRun {
		t.Helper()
		cmd := exec.Command(wine, "cmd", "/c", cmdline)
		cmd.Env = append(append([]string{}, base...), env...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return shRun{code, strings.ReplaceAll(out.String(), "\r\n", "\n"), errb.String()}
	}
	// Make sure the prefix exists; then take its cmd.exe as the fake tool.
	winRun(nil, "exit 0")
	fakeCmd := filepath.Join(prefix, "drive_c", "windows", "system32", "cmd.exe")
	data, err := os.ReadFile(fakeCmd)
	if err != nil {
		t.Skipf("wine prefix has no cmd.exe: %v", err)
	}
	win := func(p string) string { return "Z:" + strings.ReplaceAll(p, "/", `\`) }

	src := fakeModule(t)
	dir := filepath.Join(src, "skill", "trt-perf-analysis")
	if _, err := Install(dir, Options{Cross: CrossOff}); err != nil {
		t.Fatal(err)
	}
	runCmd := win(filepath.Join(dir, "scripts", "run.cmd"))
	tools := t.TempDir()
	put := func(p string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	explicit := filepath.Join(tools, "explicit", "tool.exe")
	put(explicit)
	put(filepath.Join(tools, "pathdir", "trtperf.exe"))
	goDir := filepath.Join(tools, "godir")
	os.MkdirAll(goDir, 0o755)
	os.WriteFile(filepath.Join(goDir, "go.cmd"), []byte("@echo off\r\nif not \"%1\"==\"build\" exit /b 9\r\nif not exist go.mod exit /b 8\r\ncopy /y \"%FAKE_GO_EXE%\" %3 >nul\r\n"), 0o644)

	// 4. Source build with a fake go.cmd.
	r := winRun([]string{"WINEPATH=" + win(goDir), "FAKE_GO_EXE=" + win(explicit)}, runCmd+" /c echo built")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "built" {
		t.Errorf("source build: %+v", r)
	}
	r = winRun([]string{"WINEPATH=" + win(goDir), "FAKE_GO_EXE=" + win(explicit)}, runCmd+" /c exit 6")
	if r.code != 6 {
		t.Errorf("source build exit: %+v", r)
	}
	// Nothing: exit 127 with one error line.
	r = winRun(nil, runCmd+" /c exit 0")
	if r.code != 127 || !strings.Contains(r.stderr, "run.cmd: error: trtperf not found") {
		t.Errorf("nothing available: %+v", r)
	}
	// 3. PATH.
	r = winRun([]string{"WINEPATH=" + win(filepath.Join(tools, "pathdir"))}, runCmd+" /c exit 5")
	if r.code != 5 {
		t.Errorf("on PATH: %+v", r)
	}
	// 2. Shipped.
	put(filepath.Join(dir, "bin", "windows-amd64", "trtperf.exe"))
	r = winRun(nil, runCmd+" /c exit 3")
	if r.code != 3 {
		t.Errorf("shipped: %+v", r)
	}
	r = winRun(nil, runCmd+" /c echo shipped x y")
	if strings.TrimSpace(r.stdout) != "shipped x y" {
		t.Errorf("shipped args: %+v", r)
	}
	// 1. TRTPERF.
	r = winRun([]string{"TRTPERF=" + win(explicit)}, runCmd+" /c exit 7")
	if r.code != 7 {
		t.Errorf("TRTPERF: %+v", r)
	}
	r = winRun([]string{"TRTPERF=" + win(filepath.Join(tools, "missing.exe"))}, runCmd+" /c exit 0")
	if r.code != 127 || !strings.Contains(r.stderr, "TRTPERF=") {
		t.Errorf("bad TRTPERF: %+v", r)
	}
}

// TestRunShThroughSymlink: run.sh finds the skill's shipped binary when it
// is invoked through a symlink elsewhere (an absolute link to a relative
// link to the script, as in ~/bin/trtperf -> ...), by sh and directly.
func TestRunShThroughSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("run.sh needs a POSIX sh")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	dir := filepath.Join(t.TempDir(), "skill")
	if _, err := Install(dir, Options{Executable: fakeExe(t), ExecutablePlatform: Platform{runtime.GOOS, runtime.GOARCH}, Cross: CrossOff}); err != nil {
		t.Fatal(err)
	}
	links := t.TempDir()
	mid := filepath.Join(links, "mid")
	os.MkdirAll(mid, 0o755)
	rel, _ := filepath.Rel(mid, filepath.Join(dir, "scripts", "run.sh"))
	if err := os.Symlink(rel, filepath.Join(mid, "run.sh")); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(links, "bin")
	os.MkdirAll(bin, 0o755)
	link := filepath.Join(bin, "trtperf-skill")
	if err := os.Symlink(filepath.Join(mid, "run.sh"), link); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}
	if r := runSh(t, link, env, "version"); r.code != 0 || r.stdout != "fake\n" {
		t.Errorf("sh LINK: %+v, want the shipped binary", r)
	}
	cmd := exec.Command(link, "version")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "fake\n" {
		t.Errorf("LINK run directly: %q %v, want the shipped binary", out, err)
	}
}
