package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// TestFlagAdvice: where a library error or message says what is wrong in
// its own terms, the command line names the flag that fixes it.
func TestFlagAdvice(t *testing.T) {
	dumps := t.TempDir()
	os.WriteFile(filepath.Join(dumps, "layers_fp16.json"), []byte(okLayers), 0o644)
	os.WriteFile(filepath.Join(dumps, "profile_fp16.json"), []byte(okProfile), 0o644)
	os.WriteFile(filepath.Join(dumps, "layers_int8.json"), []byte(okLayers), 0o644)
	os.WriteFile(filepath.Join(dumps, "profile_int8.json"), []byte(okProfile), 0o644)
	taken := t.TempDir()
	os.WriteFile(filepath.Join(taken, "notes.txt"), []byte("mine"), 0o644)
	parent := t.TempDir()
	for _, c := range []string{"unet", "vae"} {
		os.Mkdir(filepath.Join(parent, c), 0o755)
		os.WriteFile(filepath.Join(parent, c, "layers_fp16.json"), []byte(okLayers), 0o644)
	}
	profileOnly := t.TempDir()
	os.WriteFile(filepath.Join(profileOnly, "profile_fp16.json"), []byte(okProfile), 0o644)

	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		wants []string // in stderr
	}{
		{"report-dir not empty", []string{"package", dumps, "--report-dir", taken}, 2,
			[]string{"error: report folder " + taken + ": folder is not empty", "or let trtperf name a new folder (--report-dir DIR, or --output-parent P for an auto-named folder in P)"}},
		{"data is a folder", []string{"analyze", "--data", dumps}, 2,
			[]string{"error: --data: layer-info path " + dumps + " is a folder, not a file", "give the files, or analyze the folder itself (files with --data, the folder as FOLDER without --data)"}},
		{"data is missing", []string{"analyze", "--data", filepath.Join(dumps, "nope.json")}, 2,
			[]string{"error: --data: layer-info file", "does not exist; check the path"}},
		{"folder is a file", []string{"analyze", filepath.Join(dumps, "layers_fp16.json")}, 2,
			[]string{"not a folder (it is a file)", "pass the folder that holds it, or give the file itself as a backend's layer info or profile (FOLDER, or the files with --data LAYERS [PROFILE])"}},
		{"components", []string{"summary", parent}, 2,
			[]string{"package them all as one suite (trtperf package --suite " + parent + ")"}},
		{"unknown baseline", []string{"analyze", dumps, "--baseline", "nosuch"}, 2,
			[]string{`baseline "nosuch": not a backend with usable timing (usable: fp16, int8)`, "name one of those, or none to compare against the fastest (with --baseline LABEL, or without --baseline)"}},
		{"unknown compare label", []string{"compare", dumps + "#nosuch"}, 2,
			[]string{"(trtperf compare " + dumps + " against the fastest, or trtperf compare " + trtexecflags.ShellQuote(dumps+"#fp16")}},
		{"dump over the size limit", []string{"analyze", dumps, "--max-input-bytes", "100"}, 0,
			[]string{"hint: fp16 (layer_info_too_large): if it is a dump and the memory is there, raise the limit with --max-input-bytes"}},
		{"no layer info", []string{"summary", profileOnly}, 0,
			[]string{"hint: fp16 (missing_layer_info): if its layer info lies under another name, give both files: --data LAYERS PROFILE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := run(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, stderr)
			}
			for _, w := range tc.wants {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
}

// TestModelNameEvidenceNamesFlag: a model name given on the command line
// is recorded with the flag that gave it.
func TestModelNameEvidenceNamesFlag(t *testing.T) {
	dumps := t.TempDir()
	os.WriteFile(filepath.Join(dumps, "layers_fp16.json"), []byte(okLayers), 0o644)
	os.WriteFile(filepath.Join(dumps, "profile_fp16.json"), []byte(okProfile), 0o644)
	code, out, stderr := run(t, "analyze", dumps, "--model-name", "resnet50")
	if code != 0 || !strings.Contains(out, `{"source":"flag","detail":"--model-name","value":"resnet50"`) {
		t.Errorf("exit %d, stderr %q; analyze-data.json lacks the --model-name evidence:\n%.600s", code, stderr, out)
	}
}

// TestFlagAdviceUnwritableParent: a parent folder that cannot be created
// gets the flags that choose another.
func TestFlagAdviceUnwritableParent(t *testing.T) {
	dumps := t.TempDir()
	os.WriteFile(filepath.Join(dumps, "layers_fp16.json"), []byte(okLayers), 0o644)
	os.WriteFile(filepath.Join(dumps, "profile_fp16.json"), []byte(okProfile), 0o644)
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, []byte("x"), 0o644)
	code, _, stderr := run(t, "package", dumps, "--output-parent", file)
	if code != ExitCannotRun || !strings.Contains(stderr, "error: "+file+" is a file, not a folder; choose another output folder (--output-parent P, or --report-dir DIR for an exact folder)") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
