package trtexecflags

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzCheckCommand: any text yields well-formed problems, the same ones
// twice, and never a panic, for a known and the unknown version.
func FuzzCheckCommand(f *testing.F) {
	for _, s := range []string{
		"trtexec --onnx=m.onnx --fp16",
		"trtexec --onnx m.onnx --fp16=false --tf32",
		"trtexec '--layerPrecisions=a:b:fp16,c:fp32' --precisionConstraints=obey 2>&1 | tee x",
		"trtexec --inputIOFormats=fp16:chw+hwc8,int8:chw32 --memPoolSize=workspace:1G,dlaSRAM:0.5M",
		"trtexec --shapes=x:1x3,'y:0':scalar --tacticSources=-CUBLAS,+cudnn --preview=+aliasedPluginIO1003",
		"a && trtexec \"--x=$Y\" ; trtexec --profile=0 --minShapes=x:1 --profile=1 --minShapes=x:2",
		"trtexec --onnx=<m>", "trtexec \\", "trtexec 'x", "`x`",
	} {
		f.Add(s, uint8(8), uint8(6))
	}
	f.Fuzz(func(t *testing.T, cmd string, major, minor uint8) {
		for _, v := range []Version{{}, V(int(major%13), int(minor%17))} {
			ps := CheckCommand(cmd, v)
			for _, p := range ps {
				if p.Message == "" || p.Kind == 0 || p.Kind > KindDuplicate || p.Severity > Warning {
					t.Fatalf("malformed problem %+v for %q at %s", p, cmd, v)
				}
			}
			if again := CheckCommand(cmd, v); !reflect.DeepEqual(ps, again) {
				t.Fatalf("CheckCommand(%q, %s) not deterministic", cmd, v)
			}
		}
	})
}

// FuzzQuoteRoundTrip: a command written by QuoteCommand reaches trtexec
// with exactly the arguments it was built from.
func FuzzQuoteRoundTrip(f *testing.F) {
	f.Add("--loadEngine=a b.plan", "--layerPrecisions=it's:fp16", "")
	f.Add("--x=$HOME", "\"q\"", "a\\b\nc")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		argv := []string{"trtexec", a, b, c}
		for _, s := range argv {
			if strings.IndexByte(s, 0) >= 0 {
				return // argv cannot hold NUL
			}
		}
		toks, err := shellWords(QuoteCommand(argv))
		if err != nil {
			t.Fatalf("QuoteCommand(%q) does not parse: %v", argv, err)
		}
		var got []string
		for _, tk := range toks {
			if tk.op != "" {
				t.Fatalf("QuoteCommand(%q) produced operator %q", argv, tk.text)
			}
			got = append(got, tk.text)
		}
		if !reflect.DeepEqual(got, argv) {
			t.Fatalf("round trip of %q = %q", argv, got)
		}
	})
}

// FuzzLayerSpec: parsing never panics, and an addressable name always
// survives FormatLayerSpec → ParseLayerSpec.
func FuzzLayerSpec(f *testing.F) {
	f.Add("a:b:fp16,'c,d':fp32", "x:y")
	f.Add("'':", "*")
	f.Fuzz(func(t *testing.T, spec, name string) {
		_, _ = ParseLayerSpec(spec)
		if !AddressableLayerName(name) {
			return
		}
		in := []LayerSetting{{Name: name, Value: "fp16"}}
		s, err := FormatLayerSpec(in)
		if err != nil {
			t.Fatalf("FormatLayerSpec(%q): %v", name, err)
		}
		back, err := ParseLayerSpec(s)
		if err != nil || !reflect.DeepEqual(back, in) {
			t.Fatalf("name %q: round trip via %q = %v, %v", name, s, back, err)
		}
	})
}
