package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/gen"
)

// helpExamples lists every example line of every command's --help, in
// command order, with the command path it belongs to.
func helpExamples(t *testing.T) (examples [][2]string) {
	t.Helper()
	var prof profiling
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if strings.Contains(c.Long, "Examples:") || strings.Contains(c.Long, "Example:") {
			t.Errorf("%s: examples belong in the command's Example field (where TestHelpExamplesRun runs them), not in its Long text", c.CommandPath())
		}
		for _, line := range strings.Split(c.Example, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				examples = append(examples, [2]string{c.CommandPath(), line})
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&strings.Builder{}, &strings.Builder{}, &prof, defaultDeps()))
	return examples
}

// TestHelpExamplesRun runs every example of every command's --help, as
// written, in a folder of generated dumps and analyses named as the
// examples name them: an example that exits non-zero (an unknown finding
// id, a flag renamed, a path form that no longer works) fails here.
func TestHelpExamplesRun(t *testing.T) {
	examples := helpExamples(t)
	if len(examples) < 10 {
		t.Fatalf("only %d help examples found", len(examples))
	}
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", filepath.Join(dir, "home"))
	// Generated data under the names the examples use.
	for _, f := range []struct {
		dir, label string
		opt        gen.Options
	}{
		{"dumps", "fp16", gen.Options{Shape: "cnn", Layers: 60, Seed: 1}},
		{"dumps", "int8", gen.Options{Shape: "cnn", Layers: 60, Seed: 1, Precision: "int8"}},
		{"dumps/resnet50", "fp16", gen.Options{Shape: "cnn", Layers: 60, Seed: 2}},
		{"dumps/resnet18", "fp16", gen.Options{Shape: "cnn", Layers: 40, Seed: 3}},
	} {
		if _, _, err := gen.WriteFolder(f.dir, f.label, f.opt); err != nil {
			t.Fatal(err)
		}
	}
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err == nil {
			err = os.MkdirAll(filepath.Dir(to), 0o755)
		}
		if err == nil {
			err = os.WriteFile(to, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	layers, profile := filepath.Join("dumps", "resnet50", "layers_fp16.json"), filepath.Join("dumps", "resnet50", "profile_fp16.json")
	for _, p := range [][2]string{{"engine.graph.json", "engine.profile.json"}, {"a/layers.json", "a/profile.json"}, {"b/layers.json", "b/profile.json"}} {
		copyFile(layers, p[0])
		copyFile(profile, p[1])
	}
	for _, d := range []string{"main", "pr", "reports"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	setup := [][]string{
		{"analyze", "dumps", "--output", "analyze-data.json"},
		{"analyze", "dumps/resnet50", "--output", "before.json"},
		{"analyze", "dumps/resnet50", "--output", "after.json"},
		{"analyze", "dumps", "--output", "main/analyze-data.json"},
		{"analyze", "dumps", "--output", "pr/analyze-data.json"},
		{"package", "--analyze-data", "analyze-data.json", "--report-dir", "R"},
		{"package", "dumps/resnet50", "--report-dir", "reports/report_resnet50_20240131_120000"},
	}
	for _, args := range setup {
		if code, _, errs := run(t, args...); code != 0 {
			t.Fatalf("setup %v: exit %d: %s", args, code, errs)
		}
	}
	if err := os.WriteFile("analyze.md", []byte("# Analysis\n\n## Summary\n\nThe generated CNN (fp16 and int8 builds) is read from analyze-data.json; see the findings for what to try first.\n\n## Details\n\nThe evidence of each finding is in the report.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// serve runs until interrupted: here it is interrupted at once, after
	// it checked its folder and started listening.
	d := defaultDeps()
	d.serveContext = func(parent context.Context) (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(parent)
		cancel()
		return ctx, cancel
	}

	for _, ex := range examples {
		cmd, line := ex[0], ex[1]
		if c, _, ok := strings.Cut(line, " #"); ok {
			line = c // a comment
		}
		words := strings.Fields(line)
		if len(words) == 0 || words[0] != "trtperf" {
			t.Errorf("%s: example %q does not start with trtperf", cmd, line)
			continue
		}
		if strings.ContainsAny(line, `'"$|;&`) {
			t.Errorf("%s: example %q uses shell syntax this test does not run", cmd, line)
			continue
		}
		args, redirect := words[1:], ""
		if i := len(args) - 2; i >= 0 && args[i] == ">" {
			args, redirect = args[:i], args[i+1]
		}
		for i, a := range args {
			if strings.HasPrefix(a, "~/") {
				args[i] = filepath.Join(os.Getenv("HOME"), a[2:])
			}
		}
		code, out, errs := runWith(t, d, args...)
		if code != 0 {
			t.Errorf("%s --help example %q: exit %d\nstderr: %s", cmd, line, code, errs)
			continue
		}
		if redirect != "" {
			if err := os.WriteFile(redirect, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestArgCountErrors: every command that limits its arguments says, when
// given too many, what it takes and shows its usage line (exit 2).
func TestArgCountErrors(t *testing.T) {
	var prof profiling
	var walk func(c *cobra.Command)
	checked := 0
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.Args == nil || c.HasSubCommands() {
			return
		}
		checked++
		path := strings.Fields(c.CommandPath())[1:]
		code, _, errs := run(t, append(path, "x1", "x2", "x3", "x4")...)
		wantError(t, code, errs, ExitCannotRun, "'"+c.CommandPath()+"' takes ", `got 4: "x1", "x2", "x3", "x4"`, "usage: "+c.UseLine())
	}
	walk(newRootCmd(&strings.Builder{}, &strings.Builder{}, &prof, defaultDeps()))
	if checked < 5 {
		t.Errorf("only %d commands limit their arguments", checked)
	}
	code, _, errs := run(t, "serve")
	wantError(t, code, errs, ExitCannotRun, "'trtperf serve' takes one argument (REPORT_DIR), got none", "usage: trtperf serve REPORT_DIR")
	code, _, errs = run(t, "compare")
	wantError(t, code, errs, ExitCannotRun, "takes one or two arguments (A [B])")
}
