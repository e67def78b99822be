package findings_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/findings"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/load"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// flagRE finds command-line options in advice text.
var flagRE = regexp.MustCompile(`--[A-Za-z][A-Za-z0-9-]*(=[^\s,;)]+)?`)

// optionWords are the options in advice text as the shell hands them to
// the program: a quoted '--flag=value' word is unquoted.
func optionWords(text string) []string {
	var out []string
	for _, m := range quotedOptionRE.FindAllStringIndex(text, -1) {
		w := text[m[0]:m[1]]
		if args, err := trtexecflags.ShellArgs(w); err == nil && len(args) == 1 {
			out = append(out, args[0])
		}
	}
	for _, f := range flagRE.FindAllString(quotedOptionRE.ReplaceAllString(text, ""), -1) {
		out = append(out, strings.TrimRight(f, "."))
	}
	return out
}

// quotedOptionRE finds an option quoted with ShellQuote.
var quotedOptionRE = regexp.MustCompile(`'--[A-Za-z][^']*'(?:\\''[^']*')*|"--[A-Za-z][^"]*"`)

// otherTools are options of the other tools advice names (polygraphy,
// tf2onnx), not trtexec's.
var otherTools = map[string]bool{"--fold-constants": true, "--inputs-as-nchw": true}

// checkAdvice fails when a next_check, an action or a message names a
// trtexec option that one of the backend's TensorRT releases (the version
// its logs or metadata name, else the range its file formats fit) does not
// have, or passes --layerPrecisions a name trtexec cannot address (fused,
// Myelin, Q/DQ names).
func checkAdvice(t *testing.T, where string, b *contract.Backend) {
	t.Helper()
	v := trtexecflags.Range{}
	if b.Build != nil && b.Build.TensorRTVersion != nil {
		x, _ := trtexecflags.ParseVersion(*b.Build.TensorRTVersion)
		v = trtexecflags.Exactly(x)
	} else {
		v = findings.RangeOf(b.TensorRTRange)
	}
	type said struct{ id, text string }
	var texts []said
	for _, f := range b.Issues {
		texts = append(texts, said{f.ID, f.NextCheck}, said{f.ID, f.Action})
	}
	for _, m := range b.Validation.Messages {
		if !strings.Contains(m.Message, "TensorRT 8.2 or newer and run") { // advice for a newer release, said so
			texts = append(texts, said{m.Code, m.Message})
		}
	}
	for _, o := range b.Overview {
		texts = append(texts, said{o.ID, strings.Join(o.Evidence, " ")})
	}
	for _, s := range texts {
		f := struct{ ID string }{s.id}
		for _, text := range []string{s.text} {
			for _, flag := range optionWords(text) {
				name, value, _ := strings.Cut(flag, "=")
				if otherTools[name] {
					continue
				}
				if ok, why := trtexecflags.SupportedIn(flag, v); !ok {
					t.Errorf("%s %s: %s in %q: %s", where, f.ID, flag, text, why)
				}
				if name == "--layerPrecisions" {
					specs, err := trtexecflags.ParseLayerSpec(value)
					if err != nil {
						t.Errorf("%s %s: %s: %v", where, f.ID, flag, err)
					}
					for _, s := range specs {
						if strings.Contains(s.Name, " + ") || strings.Contains(s.Name, "_myl") || strings.Contains(s.Name, "QuantizeLinear") || strings.Contains(s.Name, "ForeignNode") {
							t.Errorf("%s %s: --layerPrecisions names a layer trtexec cannot address: %q", where, f.ID, s.Name)
						}
					}
				}
			}
		}
	}
}

func TestAdviceRunsOnCorpus(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join(corpustest.Dir(t, corpustest.Verdicts), "*", "PROVENANCE.md"))
	for _, c := range cases {
		name := filepath.Base(filepath.Dir(c))
		d := analyzeCase(t, name)
		for i := range d.Results {
			checkAdvice(t, name+"/"+d.Results[i].Label, &d.Results[i])
		}
	}
}

// Every next_check across 1,020 generated engines of every shape, precision
// and dump era parses against the flag table, and every analysis keeps the
// ownership invariants (no layer owned twice, prices within the reference,
// numbers recomputable).
func TestAdviceRunsOnGeneratedEngines(t *testing.T) {
	n := 0
	for _, shape := range []string{"cnn", "bert", "llm", "unet"} {
		for _, prec := range []string{"fp16", "fp32", "int8", "fp8", "bf16"} {
			for _, era := range []string{"trt8", "trt10", "trt11"} {
				for seed := int64(1); seed <= 17; seed++ {
					dir := t.TempDir()
					opt := gen.Options{Shape: shape, Layers: 40, Seed: seed, Precision: prec, Era: era}
					if _, _, err := gen.WriteFolder(dir, prec, opt); err != nil {
						t.Fatal(err)
					}
					sc, err := discover.Folder(dir)
					if err != nil {
						t.Fatal(err)
					}
					d, err := analysis.AnalyzeParsed(sc, load.Source(sc), analysis.Options{})
					if err != nil {
						t.Fatal(err)
					}
					for i := range d.Results {
						b := &d.Results[i]
						checkAdvice(t, fmt.Sprintf("%s/%s/%s/%d", shape, prec, era, seed), b)
						if b.Diagnosis != nil {
							findings.CheckFindings(t, b, b.Issues, b.Diagnosis)
							sameUnderNeutralLabel(t, fmt.Sprintf("%s/%s/%s/%d", shape, prec, era, seed), b)
						}
					}
					n++
				}
			}
		}
	}
	t.Logf("%d generated engines", n)
}

// sameUnderNeutralLabel: the backend's findings (ids, layers, prices)
// do not change when its label, which names its precision, becomes a
// neutral word or names another precision.
func sameUnderNeutralLabel(t *testing.T, where string, b *contract.Backend) {
	t.Helper()
	key := func(fs []contract.Finding) string {
		var sb strings.Builder
		for _, f := range fs {
			fmt.Fprintf(&sb, "%s %v %.6f %.6f %s; ", f.ID, f.Layers, f.RecoverableMs, f.RecoverableHighMs, f.Confidence)
		}
		return sb.String()
	}
	x := *b
	want, _, _, _ := findings.Evaluate(&x)
	for _, label := range []string{"a", "int8-qat", "fp32"} {
		x.Label = label
		got, _, _, _ := findings.Evaluate(&x)
		if key(got) != key(want) {
			t.Errorf("%s: labelled %q → %s, findings %s, were %s", where, b.Label, label, key(got), key(want))
		}
	}
}
