package trtexecflags

import (
	"fmt"
	"strings"
	"testing"
)

// brief renders problems as "kind:flag" (or "kind:arg" without a flag).
func brief(ps []Problem) string {
	var parts []string
	for _, p := range ps {
		who := p.Flag
		if who == "" {
			who = p.Arg
		}
		parts = append(parts, fmt.Sprintf("%s:%s", p.Kind, who))
	}
	return strings.Join(parts, " ")
}

func TestCheckCommand(t *testing.T) {
	unknown := Version{}
	for _, c := range []struct {
		cmd  string
		v    Version
		want string
	}{
		// Commands that run as printed.
		{"trtexec --onnx=model.onnx --fp16 --saveEngine=m.plan", V(8, 6), ""},
		{"trtexec --loadEngine=m.plan --dumpProfile --separateProfileRun --exportProfile=p.json --exportLayerInfo=l.json --profilingVerbosity=detailed", V(10, 4), ""},
		{"/usr/src/tensorrt/bin/trtexec --loadEngine='my engine.plan' --useCudaGraph --noDataTransfers --useSpinWait 2>&1 | tee run.log", V(8, 5), ""},
		{"CUDA_VISIBLE_DEVICES=0 ./trtexec --onnx=m.onnx --minShapes=x:1x3x224x224 --optShapes=x:8x3x224x224 --maxShapes=x:16x3x224x224 --shapes=x:8x3x224x224", V(8, 2), ""},
		{"trtexec --onnx=m.onnx \\\n  --memPoolSize=workspace:4096,dlaSRAM:1 --builderOptimizationLevel=5", V(8, 6), ""},
		{"trtexec --onnx=m.onnx --profile=0 --minShapes=x:1x3 --optShapes=x:1x3 --maxShapes=x:1x3 --profile=1 --minShapes=x:2x3 --optShapes=x:2x3 --maxShapes=x:2x3", V(10, 0), ""},
		{"trtexec --onnx=m.onnx --staticPlugins=a.so --staticPlugins=b.so", V(10, 0), ""},
		{"trtexec --onnx=$MODEL --fp16", V(10, 0), ""},
		{"trtexec --loadEngine=m.plan --dumpProfile --iterations=50 --warmUp=500 --duration=0 --avgRuns=10", unknown, ""},
		{"trtexec --onnx=m.onnx --fp16 --precisionConstraints=obey --layerPrecisions='a:b:fp16,c d:fp32' --layerOutputTypes=n:fp16+fp32", V(10, 4), ""},
		{"trtexec --onnx=m.onnx --inputIOFormats=fp16:chw,int8:hwc8+chw32 --outputIOFormats=fp16:chw16", V(8, 6), ""},
		{"trtexec --onnx=m.onnx --inputIOFormats=hwc8+chw", V(11, 0), ""},
		{"trtexec --onnx=m.onnx --tacticSources=-CUBLAS,+cudnn,-JIT_CONVOLUTIONS", V(8, 5), ""},
		{"trtexec --onnx=m.onnx --hardwareCompatibilityLevel=AMPERE+ --useRuntime=lean --versionCompatible", V(8, 6), ""},
		{"trtexec --onnx=m.onnx # build only", V(8, 0), ""},
		{"trtexec --onnx=m.onnx --noTF32", V(12, 0), ""},
		{"trtexec --onnx=m.onnx --fp16", V(12, 0), "not-in-version:--fp16"},
		// Not runnable.
		{"trtexec --onnx model.onnx", V(8, 6), "missing-value:--onnx"},
		{"trtexec --fp16=false", V(8, 6), "unexpected-value:--fp16"},
		{"trtexec --threads=4", V(8, 6), "unexpected-value:--threads"},
		{"trtexec --tf32", V(8, 6), "unknown-flag:--tf32"},
		{"trtexec --onnx=m.onnx --fp16 --best --noTF32", V(11, 0), "not-in-version:--fp16 not-in-version:--best"},
		{"trtexec --onnx=m.onnx --exportLayerInfo=l.json --profilingVerbosity=detailed", V(7, 2), "not-in-version:--exportLayerInfo not-in-version:--profilingVerbosity"},
		{"trtexec --loadEngine=e --nvtxMode=verbose", V(10, 0), "not-in-version:--nvtxMode"},
		{"trtexec --loadEngine=e --nvtxMode=verbose", V(8, 2), "deprecated:--nvtxMode deprecated:--nvtxMode"},
		{"trtexec --onnx=m.onnx --workspace=4096", V(8, 6), "deprecated:--workspace"},
		{"trtexec --onnx=m.onnx --workspace=4096", V(10, 0), "not-in-version:--workspace"},
		{"trtexec --onnx=m.onnx --batch=8", V(10, 0), "not-in-version:--batch"},
		{"trtexec --onnx=m.onnx --precisionConstraints=force", V(8, 6), "bad-value:--precisionConstraints"},
		{"trtexec --onnx=m.onnx --profilingVerbosity=verbose", V(8, 6), "deprecated:--profilingVerbosity"},
		{"trtexec --onnx=m.onnx --inputIOFormats=fp16", V(8, 6), "bad-value:--inputIOFormats"},
		{"trtexec --onnx=m.onnx --inputIOFormats=fp16:chw", V(11, 0), "bad-value:--inputIOFormats"},
		{"trtexec --onnx=m.onnx --inputIOFormats=bf16:chw", V(8, 6), "bad-value:--inputIOFormats"},
		{"trtexec --onnx=m.onnx --shapes=x:1x3xN", V(8, 6), "bad-value:--shapes"},
		{"trtexec --onnx=m.onnx --shapes=1x3x224x224", V(8, 6), "bad-value:--shapes"},
		{"trtexec --onnx=m.onnx --layerPrecisions=a,b:fp16", V(8, 6), "bad-value:--layerPrecisions"},
		{"trtexec --onnx=m.onnx --layerPrecisions=a:float16", V(8, 6), "bad-value:--layerPrecisions"},
		{"trtexec --onnx=m.onnx --tacticSources=CUDNN", V(8, 6), "bad-value:--tacticSources"},
		{"trtexec --onnx=m.onnx --memPoolSize=workspace:4G", V(8, 6), "bad-value:--memPoolSize"},
		{"trtexec --onnx=m.onnx --memPoolSize=scratch:4", V(10, 0), "bad-value:--memPoolSize"},
		{"trtexec --onnx=m.onnx --warmUp=0.5", V(8, 2), "bad-value:--warmUp"},
		{"trtexec --onnx=m.onnx --iterations=ten", V(8, 6), "bad-value:--iterations"},
		{"trtexec --onnx=m.onnx --saveEngine", V(8, 6), "missing-value:--saveEngine"},
		{"trtexec --onnx=m.onnx --saveEngine=", V(8, 6), "missing-value:--saveEngine"},
		{"trtexec --onnx=m.onnx --fp16 --fp16", V(8, 6), "duplicate:--fp16"},
		{"trtexec --onnx=a.onnx --onnx=b.onnx", V(8, 6), "duplicate:--onnx"},
		{"trtexec --onnx=m.onnx --minShapes=x:1x3 --minShapes=y:1x3", V(10, 0), "duplicate:--minShapes"},
		{"trtexec --onnx=m.onnx model.onnx", V(8, 6), "stray-argument:model.onnx"},
		{"trtexec --onnx=m.onnx -v", V(8, 6), "unknown-flag:-v"},
		{"trtexec --onnx=m.onnx --dumpprofile", V(8, 6), "unknown-flag:--dumpprofile"},
		{"trtexec --onnx=<model.onnx>", V(8, 6), "shell:"},
		{"trtexec --onnx='m.onnx", V(8, 6), "shell:"},
		{"trtexec --onnx=$(ls *.onnx)", V(8, 6), "shell:"},
		{"polygraphy run m.onnx --trt", V(8, 6), "not-trtexec:"},
		{"trtexec --consistency", V(10, 8), "not-in-version:--consistency"},
		{"trtexec --onnx=m.onnx", V(6, 0), "version-not-covered:"},
		// Unknown version: options and values of only some releases from 8.0.
		{"trtexec --onnx=m.onnx --fp16", unknown, "version-specific:--fp16"},
		{"trtexec --onnx=m.onnx --exportLayerInfo=l.json", unknown, "version-specific:--exportLayerInfo"},
		{"trtexec --onnx=m.onnx --uff=m.uff", unknown, "version-specific:--uff"},
		{"trtexec --onnx=m.onnx --inputIOFormats=chw", unknown, "version-specific:--inputIOFormats"},
		{"trtexec --onnx=m.onnx --fp16=true", unknown, "unexpected-value:--fp16"},
		{"trtexec --onnx=m.onnx --tf32", unknown, "unknown-flag:--tf32"},
	} {
		got := brief(CheckCommand(c.cmd, c.v))
		if got != c.want {
			t.Errorf("CheckCommand(%q, %s)\n got: %s\nwant: %s", c.cmd, c.v, got, c.want)
		}
	}
}

// TestMessagesSayHowToFix spot-checks that messages carry the fix.
func TestMessagesSayHowToFix(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		v    Version
		want string
	}{
		{"trtexec --onnx model.onnx", V(8, 6), "write --onnx=model.onnx"},
		{"trtexec --workspace=64", V(10, 0), "--memPoolSize=workspace:<MiB>"},
		{"trtexec --precisionConstraints=force", V(8, 6), "none|prefer|obey"},
		{"trtexec --dumpprofile", V(8, 6), "did you mean --dumpProfile?"},
		{"trtexec --tf32", V(8, 6), "--noTF32"},
		{"trtexec --fp16", Version{}, "8.0–10.16"},
		{"trtexec --consistency", V(10, 8), "missing from 10.4 until 10.13"},
		{"trtexec --inputIOFormats=fp16:chw", V(11, 1), "only the format"},
	} {
		ps := CheckCommand(c.cmd, c.v)
		if len(ps) == 0 || !strings.Contains(ps[0].Message, c.want) {
			t.Errorf("CheckCommand(%q, %s) = %v; want a message containing %q", c.cmd, c.v, ps, c.want)
		}
	}
}

func TestShellWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // words joined by |, operators as <op>
	}{
		{`trtexec --onnx=a.onnx`, `trtexec|--onnx=a.onnx`},
		{`trtexec '--x=a b' "--y=c \"d\"" --z=e\ f`, `trtexec|--x=a b|--y=c "d"|--z=e f`},
		{"a \\\n b", `a|b`},
		{`a 2>&1 | tee x`, `a|<redir>|1|<sep>|tee|x`},
		{`a && b; c`, `a|<sep>|b|<sep>|c`},
		{`a # c d`, `a|<comment>`},
		{`a x#y`, `a|x#y`},
	} {
		toks, err := shellWords(c.in)
		if err != nil {
			t.Errorf("shellWords(%q): %v", c.in, err)
			continue
		}
		var parts []string
		for _, tk := range toks {
			if tk.op != "" {
				parts = append(parts, "<"+tk.op+">")
			} else {
				parts = append(parts, tk.text)
			}
		}
		if got := strings.Join(parts, "|"); got != c.want {
			t.Errorf("shellWords(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// Hostile arguments quoted with ShellQuote come back from the POSIX
// splitter as exactly one argument with nothing live, and the same text
// run by /bin/sh (shell_unix_test.go) gives the same argument.
var hostileArgs = []string{
	"a$(touch PWNED)", "a`touch PWNED`", "a;touch PWNED", "a|touch PWNED", "a&&b", "a&b", "a>b", "a<b",
	"$HOME", "${HOME}", "a b", "a\tb", "a\nb", "it's", "'", "\\", "a\\", "\"a\"", "*", "a?", "[ab]", "~", "~root",
	"#x", "a #x", "!!", "a!b", "%PATH%", "^", "a,b", "@x", "-", "--x=a b", "é", "\u200b", "a\u202eb", "=", "",
}

func TestShellQuoteHostile(t *testing.T) {
	for _, a := range hostileArgs {
		q := ShellQuote(a)
		args, err := ShellArgs("prog " + q)
		if err != nil {
			t.Errorf("ShellQuote(%q) = %s: %v", a, q, err)
			continue
		}
		if len(args) != 2 || args[1] != a {
			t.Errorf("ShellQuote(%q) = %s reads back as %q", a, q, args)
		}
		if !strings.Contains(a, "'") && !literalInPowerShell(q, a) {
			t.Errorf("ShellQuote(%q) = %s is not one literal PowerShell argument", a, q)
		}
		if SafeEverywhere(a) && !inertInCmd(q, a) {
			t.Errorf("ShellQuote(%q) = %s: SafeEverywhere says yes, but cmd.exe would act on it or split it", a, q)
		}
	}
}

// literalInPowerShell models PowerShell's reading of one quoted word: a
// single-quoted string is literal without a quote inside; a double-quoted
// one without $, backtick or a quote; a bare word of letters, digits and
// - _ = + : . / is literal.
func literalInPowerShell(q, arg string) bool {
	switch {
	case len(q) >= 2 && q[0] == '\'' && q[len(q)-1] == '\'':
		return q[1:len(q)-1] == arg && !strings.Contains(arg, "'")
	case len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"':
		return q[1:len(q)-1] == arg && !strings.ContainsAny(arg, "$`\"")
	}
	return q == arg && bareSafe(arg)
}

// inertInCmd models cmd.exe and Windows' argument parser on one word:
// outside double quotes & | < > ^ act and a blank splits, anywhere % and !
// may expand. A bare or double-quoted word must also reach the program as
// arg (double quotes removed); cmd.exe passes single quotes on as text.
func inertInCmd(q, arg string) bool {
	in := false
	var got strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '"':
			in = !in
			continue
		case c == '%' || c == '!':
			return false
		case !in && strings.IndexByte("&|<>^ \t", c) >= 0:
			return false
		case c == '\\' && i+1 < len(q) && (q[i+1] == '"' || q[i+1] == '\\'):
			return false
		}
		got.WriteByte(c)
	}
	return !in && (q[0] == '\'' || got.String() == arg)
}

func TestShellArgsRefusesLiveText(t *testing.T) {
	for _, s := range []string{"a $(b)", "a `b`", "a; b", "a | b", "a && b", "a > b", "a $HOME", `a "$HOME"`, "a 'b", "a # b", "a\nb"} {
		if args, err := ShellArgs(s); err == nil {
			t.Errorf("ShellArgs(%q) = %q, want an error", s, args)
		}
	}
}

func TestQuoteCommand(t *testing.T) {
	argv := []string{"trtexec", "--loadEngine=my engine.plan", "--layerPrecisions=it's:fp16", "--shapes=x:1x3", ""}
	got := QuoteCommand(argv)
	want := `trtexec "--loadEngine=my engine.plan" "--layerPrecisions=it's:fp16" --shapes=x:1x3 ""`
	if got != want {
		t.Errorf("QuoteCommand = %s, want %s", got, want)
	}
}
