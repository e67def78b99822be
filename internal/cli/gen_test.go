package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func genRun(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(append([]string{"gen"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestGenWritesFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "dump")
	code, out, errs := genRun("--shape", "cnn", "--layers", "40", "--label", "int8", "--precision", "int8", "--out", dir)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, f := range []string{"layers_int8.json", "profile_int8.json"} {
		p := filepath.Join(dir, f)
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s not written: %v", p, err)
		}
		if !strings.Contains(out, p) {
			t.Errorf("stdout %q does not name %s", out, p)
		}
	}
	code, out, _ = genRun("--shape", "cnn", "--layers", "40", "--profile-kind", "latency", "--count", "3", "--out", dir)
	if code != ExitOK || !strings.Contains(out, "latency_fp16.json") {
		t.Errorf("latency kind: exit %d, stdout %q", code, out)
	}
}

// TestGenDLA: gen --dla writes the named DLA runs (or all of them) as
// profile-only files that analyze reads as DLA work.
func TestGenDLA(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := genRun("--dla", "trt7-split,trt8-fallback", "--out", dir)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, n := range []string{"trt7-split", "trt8-fallback"} {
		p := filepath.Join(dir, "profile_"+n+".json")
		if _, err := os.Stat(p); err != nil || !strings.Contains(out, p) {
			t.Errorf("%s: written %v, stdout %q", p, err, out)
		}
	}
	all := t.TempDir()
	if code, _, errs := genRun("--dla", "all", "--out", all); code != ExitOK {
		t.Fatalf("--dla all: exit %d, %q", code, errs)
	}
	if got, _ := filepath.Glob(filepath.Join(all, "profile_*.json")); len(got) != len(dlaNames()) {
		t.Errorf("--dla all wrote %d files, want %d", len(got), len(dlaNames()))
	}
	if code, _, errs := genRun("--dla", "trt9-dla", "--out", dir); code != ExitCannotRun || !strings.Contains(errs, "trt7-split") {
		t.Errorf("unknown DLA run: exit %d, %q", code, errs)
	}
}

func TestGenErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		hint string
	}{
		{[]string{"--shape", "llm"}, "--out"},
		{[]string{"--out", dir}, "--shape"},
		{[]string{"--shape", "rnn", "--out", dir}, "llm, bert, cnn, unet"},
		{[]string{"--shape", "llm", "--layers", "3", "--out", dir}, "at least"},
		{[]string{"--shape", "llm", "--label", "a/b", "--out", dir}, "--label"},
		{[]string{"--shape", "llm", "--bogus", "--out", dir}, "--help"},
	} {
		code, _, errs := genRun(c.args...)
		if code != ExitCannotRun || !strings.HasPrefix(errs, "error: ") || !strings.Contains(errs, c.hint) {
			t.Errorf("gen %q: exit %d, stderr %q; want exit 2 with %q", c.args, code, errs, c.hint)
		}
	}
}
