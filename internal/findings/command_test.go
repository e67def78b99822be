package findings

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// hostileSuffixes are appended to every layer name of the generated
// engines: shell code a name may hold (a name with a blank, ',' ':' or a
// quote is never put into a command: trtexec cannot address it; nor one
// whose quoted argument cmd.exe would act on, see SafeEverywhere).
var hostileSuffixes = []string{"$(touch${IFS}PWNED)", "`touch${IFS}PWNED`", ";touch${IFS}PWNED", "|touch${IFS}PWNED", "&&touch${IFS}PWNED", ">PWNED", "<x", "$HOME", `\`, "!!", "#x", "(x)", "~", "%PATH%", "^", "@x"}

// commandWords returns every shell word in text that starts an option
// (--flag or a quoted '--flag…'), as the raw text printed: the commands a
// next_check or action tells the user to run.
func commandWords(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if i > 0 && text[i-1] != ' ' && text[i-1] != '(' {
			continue
		}
		if !strings.HasPrefix(text[i:], "--") && !strings.HasPrefix(text[i:], "'--") && !strings.HasPrefix(text[i:], `"--`) {
			continue
		}
		j, quote := i, byte(0)
		for j < len(text) && (quote != 0 || text[j] != ' ') {
			switch {
			case quote == 0 && (text[j] == '\'' || text[j] == '"'):
				quote = text[j]
			case quote != 0 && text[j] == quote:
				quote = 0
			}
			j++
		}
		w := text[i:j]
		if !strings.HasSuffix(w, "'") && !strings.HasSuffix(w, `"`) {
			w = strings.TrimRight(w, ".,;)")
		}
		out = append(out, w)
		i = j
	}
	return out
}

// TestCommandsSafeWithHostileNames: every rule runs on engines whose layer
// names hold shell code; every option word of every next_check and action
// reads back, through a POSIX word splitter, as exactly one argument with
// nothing live, and a --layerPrecisions value names the layers exactly.
// The rules that put layer names into commands must do so for these names
// (so the check cannot pass by printing no name).
func TestCommandsSafeWithHostileNames(t *testing.T) {
	type engineCase struct {
		name string
		b    *contract.Backend
	}
	var cases []engineCase
	for _, sfx := range hostileSuffixes {
		for _, tc := range ruleCases {
			if !tc.fires {
				continue
			}
			b := *tc.b
			b.Layers = slices.Clone(tc.b.Layers)
			b.Records = slices.Clone(tc.b.Records)
			for i := range b.Layers {
				b.Layers[i].Name += sfx
			}
			for i := range b.Records {
				b.Records[i].Name += sfx
			}
			cases = append(cases, engineCase{tc.name + sfx, &b})
		}
		// The INT8 stem: a 3-channel first convolution on CUDA cores,
		// which the tensor-core rule pins to FP16 by name.
		cases = append(cases, engineCase{"int8 stem" + sfx, build("int8", []L{
			{Name: "Conv_0" + sfx, Type: "CaskConvolution", Tactic: "sm80_xmma_fprop_implicit_gemm_i8i8_i8i32_f32_nchw_simt", In: i8, Out: i8, Ms: 1, InDims: []int64{1, 3, 224, 224}, Params: `{"OutMaps":64,"Groups":1}`},
			{Name: "Conv_1" + sfx, Type: "CaskConvolution", Tactic: tcI8, In: i8, Out: i8, Ms: 3, From: []int{0}, Params: `{"OutMaps":64,"Groups":1}`},
		})})
	}
	named := map[string]map[string]bool{} // rule -> suffixes whose names reached a command
	var words []string
	for _, ec := range cases {
		names := map[string]bool{}
		for _, l := range ec.b.Layers {
			names[l.Name] = true
		}
		issues, _, _, _ := Evaluate(ec.b)
		for _, f := range issues {
			for _, text := range []string{f.NextCheck, f.Action} {
				for _, w := range commandWords(text) {
					args, err := trtexecflags.ShellArgs(w)
					if err != nil || len(args) != 1 {
						t.Errorf("%s %s: the option %s is not one literal shell word (%v, %q) in %q", ec.name, f.ID, w, err, args, text)
						continue
					}
					words = append(words, w)
					v, ok := strings.CutPrefix(args[0], "--layerPrecisions=")
					if !ok {
						continue
					}
					specs, err := trtexecflags.ParseLayerSpec(v)
					if err != nil {
						t.Errorf("%s %s: %s: %v", ec.name, f.ID, w, err)
					}
					for _, s := range specs {
						if !names[s.Name] {
							t.Errorf("%s %s: --layerPrecisions names %q, which is no layer of the engine", ec.name, f.ID, s.Name)
						}
						for _, sfx := range hostileSuffixes {
							if strings.HasSuffix(s.Name, sfx) {
								if named[f.ID] == nil {
									named[f.ID] = map[string]bool{}
								}
								named[f.ID][sfx] = true
							}
						}
					}
				}
			}
		}
	}
	// Every name whose argument is safe in every shell reaches the
	// command (else the check above proved nothing for it); no other does.
	for _, id := range []string{"precision_fallback", "no_tensor_core"} {
		for _, sfx := range hostileSuffixes {
			want := trtexecflags.SafeEverywhere("--layerPrecisions=Conv_0" + sfx + ":fp16")
			if named[id][sfx] != want {
				t.Errorf("%s: a name ending %q in --layerPrecisions: %v, want %v", id, sfx, named[id][sfx], want)
			}
		}
		if len(named[id]) < len(hostileSuffixes)/2 {
			t.Errorf("%s put only %d of the %d hostile names into commands", id, len(named[id]), len(hostileSuffixes))
		}
	}
	// The same words, run by a real shell, reach the program unchanged
	// and run nothing.
	if runtime.GOOS == "windows" {
		return
	}
	dir := t.TempDir()
	for _, w := range words {
		want, _ := trtexecflags.ShellArgs(w)
		cmd := exec.Command("/bin/sh", "-c", "printf '%s\\000' "+w)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil || strings.TrimSuffix(string(out), "\x00") != want[0] {
			t.Errorf("sh -c printf %s gave %q (%v), want %q", w, out, err, want[0])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Error("a printed command ran code from a layer name")
	}
}
