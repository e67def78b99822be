package dump

import (
	"fmt"
	"github.com/trtperf/trtperf/internal/trtexecflags"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
)

const fixNotLayerInfo = "expected a TensorRT layer-info dump: {\"Layers\": [...], \"Bindings\": [...]} or a list of layer objects, as written by trtexec --exportLayerInfo=F --profilingVerbosity=detailed"

// ReadLayerInfo reads and parses a layer-info file.
func ReadLayerInfo(path string) (*engine.LayerInfo, error) {
	li, rerr, err := parseInput(path, kindLayerFile, func(data []byte) (*engine.LayerInfo, error) {
		li, err := parseLayerFile(data)
		return li, sayWhatItIs(err, data)
	})
	if rerr != nil {
		return nil, fmt.Errorf("read layer info %s: %w", path, rerr)
	}
	if err != nil {
		return nil, fmt.Errorf("layer info %s: %w", path, err)
	}
	return li, nil
}

// parseLayerFile parses the bytes of a layer-info file: JSON, or
// inspector output printed one layer object at a time.
func parseLayerFile(data []byte) (*engine.LayerInfo, error) {
	if c, ok := firstJSONByte(data); ok && c != '{' && c != '[' {
		list, ok := InspectorText(data)
		if !ok {
			return nil, errPlain(CodeMalformed, fmt.Sprintf("it starts with %s, not '{' or '[': it is not a JSON dump nor per-layer inspector output", describeByte(c)))
		}
		data = list
	}
	return ParseLayerInfo(data)
}

// ParseLayerInfo parses a layer-info document of any era: an object root
// with "Layers" and "Bindings" or "I/O Tensors", a bare list of layers, or a
// names-only dump (NamesOnly is then true and Layers carry only names). Errors
// are *FormatError.
func ParseLayerInfo(data []byte) (li *engine.LayerInfo, err error) {
	d := newDecoder(data)
	defer recoverInto(&err)
	li = &engine.LayerInfo{}
	d.skipBOM()
	if d.atEnd() {
		return nil, errPlain(CodeEmpty, "the layer-info file is empty; export it again: "+trtexecflags.LayerInfoAdvice("F", "", trtexecflags.LayerInfoReleases()))
	}
	switch d.peek() {
	case '{':
		li.RootKind = "object"
		d.layerRoot(li)
	case '[':
		li.RootKind = "list"
		d.layerList(li)
	default:
		d.failAt(d.pos, CodeNotLayerInfo, "the root of the file is "+d.valueKind()+", not an object or a list", fixNotLayerInfo)
	}
	d.finish()
	li.SplitFormat = d.splitFormat
	if len(li.Layers) == 0 {
		return nil, errPlain(CodeEmpty, "the layer-info file lists no layers; export it again: "+trtexecflags.LayerInfoAdvice("F", "", trtexecflags.LayerInfoReleases()))
	}
	return li, nil
}

// valueKind names the JSON type at the current position.
func (s *scanner) valueKind() string {
	switch s.peek() {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// layerRoot reads {"Layers": [...], "Bindings": [...] | "I/O Tensors": [...]}.
func (d *decoder) layerRoot(li *engine.LayerInfo) {
	start := d.pos
	var keys []string
	sawLayers := false
	if !d.open('}') {
		for {
			kraw, kesc := d.key()
			switch k := string(d.decoded(kraw, kesc)); k {
			case "Layers":
				if c := d.peek(); c != '[' {
					d.failAt(d.pos, CodeNotLayerInfo, "\"Layers\" is "+d.valueKind()+", not a list", fixNotLayerInfo)
				}
				d.layerList(li)
				sawLayers = true
			case "Bindings", "I/O Tensors":
				d.ioList(li, k)
			default:
				if len(keys) < 6 {
					keys = append(keys, fmt.Sprintf("%q", k))
				}
				if !sawLayers && d.peek() == '[' && len(keys) == 1 && d.looksLikeSamples() {
					d.failAt(start, CodeNotLayerInfo, "this is a per-layer latency dictionary (a profile), not layer info", fixNotLayerInfo)
				}
				d.skip()
			}
			if !d.more('}') {
				break
			}
		}
	}
	if !sawLayers {
		what := "the root object has no \"Layers\""
		if len(keys) > 0 {
			what += " (keys: " + strings.Join(keys, ", ") + ")"
		}
		d.failAt(start, CodeNotLayerInfo, what, fixNotLayerInfo)
	}
}

// looksLikeSamples reports whether the list at the current position starts
// with a number or a [number, ...] pair, as latency dictionaries do. It does
// not move the position.
func (s *scanner) looksLikeSamples() bool {
	i := s.pos + 1
	for i < len(s.data) && isSpace(s.data[i]) {
		i++
	}
	if i < len(s.data) && s.data[i] == '[' {
		i++
		for i < len(s.data) && isSpace(s.data[i]) {
			i++
		}
	}
	return i < len(s.data) && (s.data[i] == '-' || s.data[i] >= '0' && s.data[i] <= '9')
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// ioList reads Bindings (names) or TensorRT 11 "I/O Tensors" (objects).
func (d *decoder) ioList(li *engine.LayerInfo, field string) {
	li.HasIODeclaration = true
	li.IOTensorObjects = li.IOTensorObjects || field == "I/O Tensors"
	switch d.peek() {
	case 'n':
		d.literal()
		return
	case '[':
	default:
		d.failAt(d.pos, CodeNotLayerInfo, fmt.Sprintf("%q is %s, not a list", field, d.valueKind()), fixNotLayerInfo)
	}
	if d.open(']') {
		return
	}
	for {
		switch d.peek() {
		case '"':
			raw, esc := d.rawString()
			li.IO = append(li.IO, engine.IOTensor{Name: d.str(raw, esc)})
		case '{':
			li.IO = append(li.IO, d.ioTensor(field, len(li.IO)))
		default:
			d.failAt(d.pos, CodeNotLayerInfo, fmt.Sprintf("entry %d of %q is %s; expected a tensor name or object", len(li.IO), field, d.valueKind()), fixNotLayerInfo)
		}
		if !d.more(']') {
			break
		}
	}
}

// ioTensor reads one TensorRT 11 I/O tensor object.
func (d *decoder) ioTensor(field string, i int) engine.IOTensor {
	var t engine.IOTensor
	start := d.pos
	d.extra = d.extra[:0]
	hasName := false
	if !d.open('}') {
		for {
			kraw, kesc := d.key()
			switch string(kraw) {
			case "Name":
				if d.peek() == '"' {
					raw, esc := d.rawString()
					t.Name = d.str(raw, esc)
					hasName = true
				} else {
					d.extra = append(d.extra, engine.Param{Key: "Name", Value: d.raw()})
				}
			case "IOMode", "Mode":
				t.IOMode = d.tensorStr(kraw, kesc)
			case "DataType", "Datatype":
				t.DataType = d.tensorStr(kraw, kesc)
			case "Dimensions":
				t.Dims = d.dimensions(kraw, kesc)
			default:
				d.extra = append(d.extra, engine.Param{Key: d.istr(kraw, kesc), Value: d.raw()})
			}
			if !d.more('}') {
				break
			}
		}
	}
	if !hasName {
		d.failAt(start, CodeMissingField, fmt.Sprintf("entry %d of %q has no \"Name\" string", i, field), fixNotLayerInfo)
	}
	t.Extra = d.paramSlab.take(d.extra)
	return t
}

// layerList reads the list of layers at the current position ('['): layer
// objects, or names only.
func (d *decoder) layerList(li *engine.LayerInfo) {
	if d.open(']') {
		return
	}
	switch d.peek() {
	case '"':
		li.NamesOnly = true
		li.Layers = d.nameList(li.Layers[:0])
	case '{':
		li.Layers = d.layerObjects()
	default:
		d.failAt(d.pos, CodeNotLayerInfo, "the layer list holds "+d.valueKind()+"s; expected layer objects", fixNotLayerInfo)
	}
}

const fixTooManyLayers = "trtperf reads engines of at most that many layers (each costs memory however short its entry); export the layer info of a smaller engine or of one of its parts"

// nameList reads a names-only layer list (layer_names_only verbosity). The
// slice is sized by a counting pass first: an engine.Layer is about six
// times the bytes of a name in the file, and growing a slice that large by
// appends (1.25× steps) allocated about five times its final size.
func (d *decoder) nameList(out []engine.Layer) []engine.Layer {
	n := d.countNames()
	if n > engine.MaxLayers {
		d.failAt(d.pos, CodeTooManyLayers, fmt.Sprintf("the list holds %d layer names, over the limit of %d layers", n, engine.MaxLayers), fixTooManyLayers)
	}
	out = slices.Grow(out, n)
	for {
		if d.peek() != '"' {
			d.failAt(d.pos, CodeNotLayerInfo, fmt.Sprintf("layer %d is %s while earlier layers are plain names; a list must hold only names or only layer objects", len(out), d.valueKind()), fixNotLayerInfo)
		}
		raw, esc := d.rawString()
		name, prof := splitProfile(d.str(raw, esc))
		out = append(out, engine.Layer{Index: len(out), Name: name, OptProfile: prof})
		if !d.more(']') {
			return out
		}
	}
}

// countNames counts the strings of a names-only list from the current
// position without consuming them. It stops at the first element that is
// not a string (nameList reports it); a malformed string or separator fails
// here exactly as nameList would.
func (d *decoder) countNames() int {
	pos, depth := d.pos, d.depth
	n := 0
	for d.peek() == '"' {
		d.rawString()
		n++
		if !d.more(']') {
			break
		}
	}
	d.pos, d.depth = pos, depth
	return n
}

// layerObjects reads layer objects from the first '{' to the closing ']',
// using two goroutines for large lists (parallel.go).
func (d *decoder) layerObjects() []engine.Layer {
	if len(d.data)-d.pos >= parallelMin && workers() > 1 {
		return d.layerObjectsParallel()
	}
	var out chunked[engine.Layer]
	d.layerRun(&out, nil)
	return flattenLayers(&out)
}

// layerRun decodes layers starting at the current position (a '{') into
// out until the list ends or stop (checked every 256 layers) says the work
// is no longer needed.
func (d *decoder) layerRun(out *chunked[engine.Layer], stop func() bool) {
	for {
		if c := d.peek(); c != '{' {
			d.failAt(d.pos, CodeNotLayerInfo, fmt.Sprintf("layer %d is %s while earlier layers are objects; a list must hold only layer objects or only names", out.n, d.valueKind()), fixNotLayerInfo)
		}
		if out.n >= engine.MaxLayers {
			d.failAt(d.pos, CodeTooManyLayers, fmt.Sprintf("the list holds more than %d layers", engine.MaxLayers), fixTooManyLayers)
		}
		d.layer(out.next(), out.n-1)
		if !d.more(']') {
			return
		}
		if stop != nil && out.n&255 == 0 && stop() {
			return
		}
	}
}
