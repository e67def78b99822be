package findings

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// trtVersion is the backend's TensorRT release(s): the version its build
// facts name, else the range its file formats fit (tensorrt_range); zero
// when unknown.
func trtVersion(b *contract.Backend) trtexecflags.Range {
	if b.Build != nil && b.Build.TensorRTVersion != nil {
		if v, err := trtexecflags.ParseVersion(*b.Build.TensorRTVersion); err == nil {
			return trtexecflags.Exactly(v)
		}
	}
	return RangeOf(b.TensorRTRange)
}

// RangeOf reads a contract version range; zero for nil or unreadable.
func RangeOf(vr *contract.VersionRange) trtexecflags.Range {
	if vr == nil {
		return trtexecflags.Range{}
	}
	lo, err := trtexecflags.ParseVersion(vr.Min)
	if err != nil {
		return trtexecflags.Range{}
	}
	r := trtexecflags.Range{Lo: lo}
	if vr.Max != nil {
		if hi, err := trtexecflags.ParseVersion(*vr.Max); err == nil {
			r.Hi = hi
		}
	}
	return r
}

// has reports whether the backend's trtexec takes a flag (with its value):
// advice names only flags that exist in every TensorRT release the backend
// may have been built with.
func (c *evaluation) has(flag string) bool {
	ok, _ := trtexecflags.SupportedIn(flag, c.trt)
	return ok
}

// stronglyTyped: TensorRT 11+ builds strongly typed networks; precision
// flags are gone and precision comes from the model.
func (c *evaluation) stronglyTyped() bool { return !c.has("--fp16") }

// ioFormat is an --inputIOFormats value for the backend's trtexec: "type:
// layout" before TensorRT 11, the layout alone from 11.0.
func (c *evaluation) ioFormat(spec string) string {
	if c.has("--inputIOFormats=" + spec) {
		return spec
	}
	if i := strings.IndexByte(spec, ':'); i >= 0 {
		return spec[i+1:]
	}
	return spec
}

// addressableName reports whether trtexec's --layerPrecisions can name a
// layer: a network layer name, not a name TensorRT made up while building
// (fused "a + b" names, Myelin regions and kernels, reformats, Q/DQ), no
// character the spec syntax splits on, and no control or invisible
// character (a command holding one cannot be read or typed). Shell
// metacharacters are fine: layerPrecisionsArg quotes the argument.
func addressableName(l *contract.Layer) bool {
	return !builderName(l) && typableName(l.Name)
}

// builderName: a name TensorRT made up while building (fused "a + b"
// names, Myelin regions and kernels, reformats, Q/DQ).
func builderName(l *contract.Layer) bool {
	n := l.Name
	if l.Origin == "QDQ" || l.Origin == "REFORMAT" {
		return true
	}
	for _, bad := range []string{" + ", "_myl", "__myl", "ForeignNode", "Reformatting CopyNode", "QuantizeLinear", "DequantizeLinear", "PWN(", "[", "]"} {
		if strings.Contains(n, bad) {
			return true
		}
	}
	return false
}

// typableName: a --layerPrecisions entry can carry the name.
func typableName(n string) bool {
	if n == "" {
		return false
	}
	for _, r := range n {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
			return false
		}
	}
	return !strings.ContainsAny(n, ",:'\" ") && trtexecflags.AddressableLayerName(n)
}

// addressable lists "name:prec" specs for the records whose layers can be
// named, at most five, as a --layerPrecisions value; "" when none can. The
// quoted argument must be safe in every shell (trtexecflags.SafeEverywhere):
// when it is not, names holding a character cmd.exe acts on are left out.
func (c *evaluation) addressable(recs []*contract.Record, prec string) string {
	for _, strict := range []bool{false, true} {
		var specs []trtexecflags.LayerSetting
		for _, r := range recs {
			if len(specs) == 5 {
				break
			}
			if addressableName(c.layer(r)) && !(strict && strings.ContainsAny(r.Name, cmdLive)) {
				specs = append(specs, trtexecflags.LayerSetting{Name: r.Name, Value: prec})
			}
		}
		spec, err := trtexecflags.FormatLayerSpec(specs)
		if err == nil && spec != "" && trtexecflags.SafeEverywhere("--layerPrecisions="+spec) {
			return spec
		}
	}
	return ""
}

// cmdLive are the characters cmd.exe acts on outside double quotes.
const cmdLive = "&|<>^%!\""

// layerPrecisionsArg is the --layerPrecisions=SPEC argument as a command
// prints it: quoted with the one quoting function, so a layer name holding
// $(…), a backtick, ; or | stays one literal argument.
func layerPrecisionsArg(spec string) string {
	return trtexecflags.ShellQuote("--layerPrecisions=" + spec)
}

// unaddressableWhy says why none of recs can be named in --layerPrecisions.
func (c *evaluation) unaddressableWhy(recs []*contract.Record) string {
	if !c.has("--layerPrecisions=x:fp16") {
		return "carry names TensorRT made while fusing, which no per-layer precision setting can address"
	}
	for _, r := range recs {
		if l := c.layer(r); !builderName(l) && (!typableName(l.Name) || strings.ContainsAny(l.Name, cmdLive)) {
			return "carry names that --layerPrecisions cannot address safely (made by TensorRT while fusing, or holding a blank, ',', ':', a quote, an invisible character or one of & | < > ^ % ! that a Windows shell would act on)"
		}
	}
	return "carry names TensorRT made while fusing, which --layerPrecisions cannot address"
}

// rebuildWith is "rebuild with FLAGS" when the backend's trtexec takes the
// flags, else "rebuild" (TensorRT 11's strongly typed builds take no
// precision flags).
func (c *evaluation) rebuildWith(flags string) string {
	for _, f := range strings.Fields(flags) {
		if !c.has(f) {
			return "rebuild"
		}
	}
	return "rebuild with " + flags
}

// builtByTrtexec: the engine's profile was written by trtexec (or nothing
// says otherwise). A per-layer latency dictionary comes from the
// application's own IProfiler, so the engine was built through the TensorRT
// API (ONNX parser script, Torch-TensorRT, ...), where trtexec's flags are
// not the knob.
func (c *evaluation) builtByTrtexec() bool {
	return c.b.ProfileKind != "latency-dict"
}

// torchTensorRT: the layer names are Torch-TensorRT's ("[CONVOLUTION]-
// [aten_ops.convolution.default]-[/scope/op]").
func (c *evaluation) torchTensorRT() bool {
	for i := range min(len(c.b.Layers), 64) {
		if strings.Contains(c.b.Layers[i].Name, "]-[aten_ops.") {
			return true
		}
	}
	return false
}

// inputFormat says how to build with the graph input in the I/O format spec
// ("fp16:hwc8"), in the words of the tool that built the engine: trtexec's
// --inputIOFormats, or the TensorRT API's allowed formats of the network
// input (with the trtexec flag for a rebuild from ONNX).
func (c *evaluation) inputFormat(spec string) string {
	flag := "--inputIOFormats=" + c.ioFormat(spec)
	if c.builtByTrtexec() {
		return flag
	}
	typ, layout, _ := strings.Cut(spec, ":")
	enum := strings.ToUpper(layout)
	if layout == "chw" {
		enum = "LINEAR"
	}
	return fmt.Sprintf("the network input's dtype %s and allowed_formats TensorFormat.%s (TensorRT API; trtexec %s)", strings.ToUpper(typ), enum, flag)
}

// inputFormatCaveat is a sentence to add when the engine's builder cannot
// set the input format spec at all: Torch-TensorRT's Input sets only a
// dtype and a linear or channels-last layout.
func (c *evaluation) inputFormatCaveat(spec string) string {
	_, layout, _ := strings.Cut(spec, ":")
	if c.builtByTrtexec() || !c.torchTensorRT() || layout == "chw" || layout == "hwc" {
		return ""
	}
	return " Torch-TensorRT's Input offers only linear and channels-last layouts, so this needs a build from an ONNX export."
}
