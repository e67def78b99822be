package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorHintsRun: every command an error message offers runs on the
// same input and succeeds. The folders' names hold a space and a quote, so
// a hint that forgot to quote an argument fails too.
func TestErrorHintsRun(t *testing.T) {
	t.Chdir(t.TempDir()) // package writes its reports here
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	write := func(dir string, labels ...string) string {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, l := range labels {
			for name, body := range map[string]string{"layers_" + l + ".json": okLayers, "profile_" + l + ".json": okProfile} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		return dir
	}
	two := write(filepath.Join(root, "two builds's dumps"), "fp16", "int8")
	parent := filepath.Join(root, "pipe line")
	write(filepath.Join(parent, "unet"), "fp16")
	write(filepath.Join(parent, "vae"), "fp16")

	cases := []struct {
		name string
		args []string
		want int // commands the message must offer
	}{
		{"compare: a folder of two builds without a label", []string{"compare", two, two + "#fp16"}, 2},
		{"compare: an unknown label", []string{"compare", two + "#fp32", two + "#int8"}, 2},
		{"compare: an unknown baseline", []string{"compare", two + "#fp32"}, 3},
		{"package: a parent of components", []string{"package", parent}, 2},
		{"analyze: a parent of components", []string{"analyze", parent, "--output", filepath.Join(root, "x.json")}, 1},
		{"package --suite: a folder of dumps", []string{"package", "--suite", two}, 1},
		{"package: a dump file", []string{"package", filepath.Join(two, "layers_fp16.json")}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := run(t, tc.args...)
			if code != ExitCannotRun {
				t.Fatalf("exit %d, want %d: %s", code, ExitCannotRun, stderr)
			}
			cmds := hintCommands(t, stderr)
			if len(cmds) != tc.want {
				t.Fatalf("%d commands %q in %q, want %d", len(cmds), cmds, stderr, tc.want)
			}
			for _, argv := range cmds {
				if code, _, errs := run(t, argv...); code != 0 {
					t.Errorf("hint %q: exit %d: %s", argv, code, errs)
				}
			}
		})
	}
}

// hintCommands reads the trtperf commands out of a message: from each
// "trtperf " to an unquoted ';', ')' or ',', the end, or a joining word
// ("or", "against"), with ShellQuote's single and double quotes and
// backslashes undone.
func hintCommands(t *testing.T, msg string) [][]string {
	t.Helper()
	var out [][]string
	for {
		i := strings.Index(msg, "trtperf ")
		if i < 0 {
			return out
		}
		msg = msg[i+len("trtperf "):]
		var argv []string
		var word strings.Builder
		inWord, done := false, false
		var quoted byte
		flush := func() {
			if inWord {
				argv = append(argv, word.String())
				word.Reset()
				inWord = false
			}
		}
		j := 0
		for ; j < len(msg) && !done; j++ {
			c := msg[j]
			switch {
			case quoted != 0 && c == quoted:
				quoted = 0
			case quoted != 0:
				word.WriteByte(c)
			case c == '\'' || c == '"':
				quoted, inWord = c, true
			case c == '\\' && j+1 < len(msg):
				j++
				word.WriteByte(msg[j])
				inWord = true
			case c == ' ' || c == '\n':
				flush()
				if n := len(argv); n > 0 && (argv[n-1] == "or" || argv[n-1] == "against") {
					argv = argv[:n-1]
					done = true
				}
			case c == ';' || c == ')' || c == ',':
				done = true
			default:
				word.WriteByte(c)
				inWord = true
			}
		}
		if quoted != 0 {
			t.Fatalf("unterminated quote in %q", msg)
		}
		flush()
		if n := len(argv); n > 0 && (argv[n-1] == "or" || argv[n-1] == "against") {
			argv = argv[:n-1]
		}
		out = append(out, argv)
		msg = msg[j:]
	}
}
