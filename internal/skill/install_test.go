package skill

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	skillfiles "github.com/trtperf/trtperf/skill"
)

// repoSkill is the skill folder in the repository, the single source the
// binary embeds.
const repoSkill = "../../skill/trt-perf-analysis"

// TestEmbeddedIsTheRepoFolder checks the embed carries every file of the
// repository's skill folder, byte for byte (dot files excepted: embed skips
// them and the skill has none that matter).
func TestEmbeddedIsTheRepoFolder(t *testing.T) {
	emb := skillfiles.Files()
	n := 0
	err := filepath.WalkDir(repoSkill, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoSkill, p)
		if strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got, err := fs.ReadFile(emb, filepath.ToSlash(rel))
		if err != nil {
			t.Errorf("%s is not embedded: %v", rel, err)
			return nil
		}
		if string(got) != string(want) {
			t.Errorf("embedded %s differs from the repository", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"SKILL.md", "scripts/run.sh", "scripts/run.cmd", "examples/analyze.md", "examples/README.md"} {
		if _, err := fs.Stat(emb, must); err != nil {
			t.Errorf("the skill lacks %s", must)
		}
	}
	if n < 5 {
		t.Errorf("only %d files compared", n)
	}
}

func TestSkillFrontMatter(t *testing.T) {
	md, err := fs.ReadFile(skillfiles.Files(), "SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	if !strings.HasPrefix(s, "---\n") {
		t.Fatal("SKILL.md must start with YAML front matter")
	}
	end := strings.Index(s[4:], "\n---\n")
	if end < 0 {
		t.Fatal("SKILL.md front matter is not closed")
	}
	fm := s[4 : 4+end]
	if !strings.Contains(fm, "\nname: "+skillfiles.Name+"\n") && !strings.HasPrefix(fm, "name: "+skillfiles.Name+"\n") {
		t.Errorf("front matter lacks name: %s", skillfiles.Name)
	}
	for _, want := range []string{"description: ", "--exportLayerInfo", "--exportProfile"} {
		if !strings.Contains(fm, want) {
			t.Errorf("front matter lacks %q", want)
		}
	}
	// The body names the commands and fields agents rely on.
	for _, want := range []string{"scripts/run.sh", "run.cmd", "--model-name", "analyze FOLDER --output analyze-data.json",
		"SCHEMA PASS", "SEMANTIC PASS", `validation.status == "passed"`, "layer_only", "graph.is_dag", "next_check",
		"## Summary", "## Details", "--analyze-md analyze.md", "package --suite", "serve D", "ANALYZE-MD PASS"} {
		if !strings.Contains(s, want) {
			t.Errorf("SKILL.md lacks %q", want)
		}
	}
}

func fakeExe(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "trtperf")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho fake\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInstall(t *testing.T) {
	exe := fakeExe(t)
	here := Platform{"linux", "amd64"}
	dir := filepath.Join(t.TempDir(), "a", "b", "trt-perf-analysis")
	res, err := Install(dir, Options{Executable: exe, ExecutablePlatform: here, Cross: CrossOff})
	if err != nil {
		t.Fatal(err)
	}
	if res.Dir != dir || len(res.Platforms) != len(AllPlatforms) {
		t.Fatalf("result %+v", res)
	}
	for _, p := range res.Platforms {
		if p.Written != (p.Platform == here) {
			t.Errorf("%s written=%v", p.Platform, p.Written)
		}
		if !p.Written && (!errors.Is(p.Err, ErrCrossOff) || p.Why != p.Err.Error()) {
			t.Errorf("%s: why %q does not say why", p.Platform, p.Why)
		}
	}
	for name, mode := range map[string]fs.FileMode{
		"SKILL.md": 0o644, "scripts/run.sh": 0o755, "scripts/run.cmd": 0o644, "bin/linux-amd64/trtperf": 0o755,
	} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("missing %s: %v", name, err)
			continue
		}
		if st.Mode().Perm() != mode {
			t.Errorf("%s mode %v, want %v", name, st.Mode().Perm(), mode)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bin", "darwin-arm64")); err == nil {
		t.Error("a platform that was not built has a folder")
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("staging left behind: %v", entries)
	}

	// Non-empty: refused without --force; --force replaces a skill.
	if _, err := Install(dir, Options{Cross: CrossOff}); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("second install: %v, want ErrNotEmpty", err)
	}
	// --force replaces a skill trtperf installed, and only while it holds
	// nothing else: a file the user added keeps the folder as it is.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Install(dir, Options{Cross: CrossOff, Force: true}); !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "notes.txt") {
		t.Fatalf("--force over a skill with a user's file: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(b) != "mine" {
		t.Fatal("--force touched a user's file")
	}
	os.Remove(filepath.Join(dir, "notes.txt"))
	if _, err := Install(dir, Options{Cross: CrossOff, Force: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bin", "linux-amd64")); err == nil {
		t.Error("--force kept files of the previous skill")
	}
	if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err != nil {
		t.Error("--force lost the skill")
	}

	// --force never replaces a folder that trtperf did not install: plain
	// files, or another skill (a SKILL.md without the marker).
	for _, files := range [][]string{{"precious.txt"}, {"SKILL.md", "scripts/run.sh"}} {
		other := t.TempDir()
		for _, f := range files {
			os.MkdirAll(filepath.Dir(filepath.Join(other, f)), 0o755)
			os.WriteFile(filepath.Join(other, f), []byte("x"), 0o644)
		}
		if _, err := Install(other, Options{Cross: CrossOff, Force: true}); !errors.Is(err, ErrNotInstalled) {
			t.Fatalf("--force on %v: %v", files, err)
		}
		for _, f := range files {
			if _, err := os.Stat(filepath.Join(other, f)); err != nil {
				t.Errorf("--force deleted %s of a folder trtperf did not install", f)
			}
		}
	}

	// An empty folder is fine.
	empty := t.TempDir()
	if _, err := Install(empty, Options{Cross: CrossOff}); err != nil {
		t.Fatalf("empty folder: %v", err)
	}
}

func TestInstallFailureLeavesNothing(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "new", "skill")
	_, err := Install(dir, Options{Executable: filepath.Join(parent, "missing"), ExecutablePlatform: Platform{"linux", "amd64"}, Cross: CrossOff})
	if err == nil {
		t.Fatal("install with a missing executable succeeded")
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 0 {
		t.Errorf("failure left %v behind", entries)
	}
}

// fakeModule writes a tiny module named like trtperf, so the cross-compile
// path is exercised in seconds.
func fakeModule(t *testing.T) string {
	t.Helper()
	src := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(src, "cmd", "trtperf"), 0o755))
	must(os.MkdirAll(filepath.Join(src, "internal", "cli"), 0o755))
	must(os.WriteFile(filepath.Join(src, "go.mod"), []byte("module "+ModulePath+"\n\ngo 1.21\n"), 0o644))
	must(os.WriteFile(filepath.Join(src, "internal", "cli", "v.go"), []byte("package cli\n\nvar Version = \"dev\"\n"), 0o644))
	must(os.WriteFile(filepath.Join(src, "cmd", "trtperf", "main.go"), []byte("package main\n\nimport (\n\t\"fmt\"\n\t\"runtime\"\n\n\t\""+ModulePath+"/internal/cli\"\n)\n\nfunc main() { fmt.Println(cli.Version, runtime.GOOS, runtime.GOARCH) }\n"), 0o644))
	return src
}

func TestInstallCross(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	src := fakeModule(t)
	exe := fakeExe(t)
	here := Platform{runtime.GOOS, runtime.GOARCH}
	other := Platform{"windows", "arm64"}
	if here == other {
		other = Platform{"linux", "amd64"}
	}
	dir := filepath.Join(t.TempDir(), "skill")
	res, err := Install(dir, Options{Executable: exe, ExecutablePlatform: here, Cross: CrossOn, Source: src,
		Version: "v9.9.9", Platforms: []Platform{here, other, {"plan9", "nosucharch"}}})
	if err == nil {
		t.Fatalf("--cross with an impossible platform succeeded: %+v", res)
	}
	if _, serr := os.Stat(dir); serr == nil {
		t.Fatal("a failed --cross install left the skill folder")
	}

	res, err = Install(dir, Options{Executable: exe, ExecutablePlatform: here, Source: src, Version: "v9.9.9",
		Platforms: []Platform{here, other, {"plan9", "nosucharch"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[Platform]PlatformResult{}
	for _, p := range res.Platforms {
		got[p.Platform] = p
	}
	if p := got[here]; !p.Written || p.How != "this executable" {
		t.Errorf("own platform: %+v", p)
	}
	if p := got[other]; !p.Written || p.How != "go build" {
		t.Errorf("cross platform: %+v", p)
	}
	if p := got[Platform{"plan9", "nosucharch"}]; p.Written || !strings.Contains(p.Why, "go build for plan9-nosucharch failed") {
		t.Errorf("impossible platform: %+v", p)
	}
	bin := filepath.Join(dir, filepath.FromSlash(other.BinPath()))
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "v9.9.9") {
		t.Error("the cross-compiled binary does not carry the version")
	}
}

func TestCrossUnavailable(t *testing.T) {
	notSrc := t.TempDir()
	_, err := Install(filepath.Join(t.TempDir(), "s"), Options{Cross: CrossOn, Source: notSrc})
	if !errors.Is(err, ErrCrossUnavailable) || !strings.Contains(err.Error(), "not a checkout") {
		t.Fatalf("err %v", err)
	}
	_, err = Install(filepath.Join(t.TempDir(), "s"), Options{Cross: CrossOn, Source: fakeModule(t), Go: filepath.Join(notSrc, "no-go")})
	if err == nil {
		t.Fatal("a missing go command was not reported")
	}
	res, err := Install(filepath.Join(t.TempDir(), "s"), Options{Source: notSrc})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Platforms {
		if p.Written || !strings.Contains(p.Why, "not a checkout") {
			t.Errorf("%+v", p)
		}
	}
}

func TestFindSource(t *testing.T) {
	src := fakeModule(t)
	deep := filepath.Join(src, "internal", "cli")
	if got, ok := FindSource(deep); !ok || got != src {
		t.Errorf("FindSource(%s) = %s, %v; want %s", deep, got, ok, src)
	}
	if _, ok := FindSource(t.TempDir()); ok {
		t.Error("found a source in an empty folder")
	}
	other := t.TempDir()
	os.MkdirAll(filepath.Join(other, "cmd", "trtperf"), 0o755)
	os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o644)
	if isSource(other) {
		t.Error("another module counted as the trtperf source")
	}
}

// TestInstallForceKeepsEdits: --force over an installed skill whose files
// were edited, or that gained a file while the new skill was being
// written, replaces it but keeps the old folder as a backup holding them;
// a clean skill leaves no backup. Without --force the refusal names the
// edited files.
func TestInstallForceKeepsEdits(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skill")
	if _, err := Install(dir, Options{Cross: CrossOff}); err != nil {
		t.Fatal(err)
	}
	res, err := Install(dir, Options{Cross: CrossOff, Force: true})
	if err != nil || res.Backup != "" {
		t.Fatalf("clean reinstall: backup %q, %v", res.Backup, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Errorf("clean reinstall left %v", entries)
	}

	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("my notes"), 0o644)
	if _, err := Install(dir, Options{Cross: CrossOff}); !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "SKILL.md changed") {
		t.Errorf("without --force over an edited skill: %v", err)
	}
	res, err = Install(dir, Options{Cross: CrossOff, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Backup == "" || !slices.Equal(res.Edited, []string{"SKILL.md"}) {
		t.Fatalf("edited skill: backup %q, edited %v", res.Backup, res.Edited)
	}
	if b, _ := os.ReadFile(filepath.Join(res.Backup, "SKILL.md")); string(b) != "my notes" {
		t.Errorf("the backup lost the edit: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "SKILL.md")); string(b) == "my notes" {
		t.Error("the new skill kept the edited file")
	}

	// A file added between the check and the replacement.
	beforePublish = func() { os.WriteFile(filepath.Join(dir, "late.txt"), []byte("mine"), 0o644) }
	defer func() { beforePublish = nil }()
	res, err = Install(dir, Options{Cross: CrossOff, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Backup == "" || !slices.Equal(res.Added, []string{"late.txt"}) {
		t.Fatalf("late file: backup %q, added %v", res.Backup, res.Added)
	}
	if b, err := os.ReadFile(filepath.Join(res.Backup, "late.txt")); err != nil || string(b) != "mine" {
		t.Errorf("a file added during the install was lost: %v", err)
	}
}
