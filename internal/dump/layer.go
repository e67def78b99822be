package dump

import (
	"fmt"
	"github.com/trtperf/trtperf/internal/trtexecflags"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
)

// decoder decodes layer records. Each goroutine owns one; slices handed out
// are carved from its slabs so a 200k-layer dump costs few allocations.
type decoder struct {
	scanner
	tensors []engine.Tensor // scratch for one tensor list
	params  []engine.Param  // scratch for one layer's params
	extra   []engine.Param  // scratch for one tensor's extra keys
	dims    []int64         // scratch for one Dimensions list
	// splitFormat is set by a tensor with separate "Format" and "Datatype"
	// keys (the newer releases' spelling), a fact that dates the file.
	splitFormat bool
	tensorSlab  slab[engine.Tensor]
	paramSlab   slab[engine.Param]
	dimSlab     slab[int64]
	// seen has a bit per known layer key present in the last layer decoded;
	// the parallel splitter uses it to tell layers from tensors.
	seen uint32
}

func newDecoder(data []byte) *decoder {
	d := &decoder{scanner: newScanner(data)}
	d.tensorSlab.size = 4096
	d.paramSlab.size = 4096
	d.dimSlab.size = 16384
	return d
}

const (
	seenName = 1 << iota
	seenType
	seenInputs
	seenOutputs
)

// missing raises a missing_field error at off.
func (d *decoder) missing(off int, what string) {
	d.failAt(off, CodeMissingField, what,
		"every layer needs a \"Name\" and tensors must be objects with a \"Name\": export the layer info again: "+trtexecflags.LayerInfoAdvice("F", "", trtexecflags.LayerInfoReleases()))
}

// layer decodes one layer object at the current position ('{') into l,
// which must be zero.
func (d *decoder) layer(l *engine.Layer, idx int) {
	l.Index = idx
	start := d.pos
	d.params = d.params[:0]
	d.seen = 0
	if d.open('}') {
		d.missing(start, fmt.Sprintf("layer %d is an empty object (no \"Name\")", idx))
	}
	for {
		kraw, kesc := d.key()
		switch string(kraw) {
		case "Name":
			off := d.pos
			name, ok := d.scalarText()
			if !ok {
				d.ws()
				d.missing(off, fmt.Sprintf("\"Name\" of layer %d is not a string", idx))
			}
			l.Name = name
			d.seen |= seenName
		case "LayerType":
			l.Type = d.strField(kraw, kesc, true)
			d.seen |= seenType
		case "Inputs":
			l.Inputs = d.tensorList("Inputs", idx)
			d.seen |= seenInputs
		case "Outputs":
			l.Outputs = d.tensorList("Outputs", idx)
			d.seen |= seenOutputs
		case "Constants":
			l.Constants = d.tensorList("Constants", idx)
		case "ParameterType":
			l.ParameterType = d.strField(kraw, kesc, true)
		case "TacticName":
			l.TacticName = d.strField(kraw, kesc, true)
		case "TacticValue":
			l.TacticValue = d.strField(kraw, kesc, true)
		case "Origin":
			l.Origin = d.strField(kraw, kesc, true)
		case "Metadata":
			l.Metadata = d.strField(kraw, kesc, false)
		case "StreamId":
			l.StreamID, l.HasStreamID = d.intField(kraw, kesc)
		case "_subgraph":
			l.Subgraph, _ = d.scalarText()
		default:
			d.params = append(d.params, engine.Param{Key: d.istr(kraw, kesc), Value: d.raw()})
		}
		if !d.more('}') {
			break
		}
	}
	if d.seen&seenName == 0 {
		d.missing(start, fmt.Sprintf("layer %d has no \"Name\"", idx))
	}
	l.Name, l.OptProfile = splitProfile(l.Name)
	l.Params = d.paramSlab.take(d.params)
}

// strField reads a string-valued field of a layer; see strInto.
func (d *decoder) strField(kraw []byte, kesc, intern bool) string {
	return d.strInto(&d.params, kraw, kesc, intern)
}

// tensorStr reads an interned string field of a tensor; see strInto.
func (d *decoder) tensorStr(kraw []byte, kesc bool) string {
	return d.strInto(&d.extra, kraw, kesc, true)
}

// strInto reads a string-valued field. null reads as ""; any other type is
// kept as a raw param in others under its key so nothing is lost.
func (d *decoder) strInto(others *[]engine.Param, kraw []byte, kesc, intern bool) string {
	switch d.peek() {
	case '"':
		raw, esc := d.rawString()
		if intern {
			return d.istr(raw, esc)
		}
		return d.str(raw, esc)
	case 'n':
		d.literal()
		return ""
	}
	*others = append(*others, engine.Param{Key: d.istr(kraw, kesc), Value: d.raw()})
	return ""
}

// intField reads an integer field; other values are kept as a raw param.
func (d *decoder) intField(kraw []byte, kesc bool) (int, bool) {
	if c := d.peek(); c == '-' || c >= '0' && c <= '9' {
		start := d.pos
		if v, ok := parseInt(d.number()); ok {
			return int(v), true
		}
		d.pos = start
	}
	d.params = append(d.params, engine.Param{Key: d.istr(kraw, kesc), Value: d.raw()})
	return 0, false
}

// scalarText reads any scalar as text: strings decoded, numbers and
// booleans as written, null as "". ok is false (and nothing is consumed)
// for objects, arrays and null.
func (d *decoder) scalarText() (string, bool) {
	switch c := d.peek(); c {
	case '"':
		raw, esc := d.rawString()
		return d.str(raw, esc), true
	case '{', '[':
		d.skip()
		return "", false
	case 'n':
		d.literal()
		return "", false
	case 't', 'f':
		start := d.pos
		d.literal()
		return d.internBytes(d.data[start:d.pos]), true
	default:
		if c == 'N' || c == 'I' {
			d.nonFinite()
		}
		return d.internBytes(d.number()), true
	}
}

// tensorList decodes Inputs, Outputs or Constants: a list of tensor objects
// (a bare string is taken as a tensor name).
func (d *decoder) tensorList(field string, idx int) []engine.Tensor {
	switch d.peek() {
	case 'n':
		d.literal()
		return nil
	case '[':
	default:
		d.missing(d.pos, fmt.Sprintf("%q of layer %d is not a list of tensors", field, idx))
	}
	d.tensors = d.tensors[:0]
	if d.open(']') {
		return nil
	}
	for {
		switch d.peek() {
		case '{':
			d.tensors = append(d.tensors, d.tensor(field, idx, len(d.tensors)))
		case '"':
			raw, esc := d.rawString()
			d.tensors = append(d.tensors, engine.Tensor{Name: d.str(raw, esc)})
		default:
			d.missing(d.pos, fmt.Sprintf("tensor %d of %q of layer %d is not an object", len(d.tensors), field, idx))
		}
		if !d.more(']') {
			break
		}
	}
	return d.tensorSlab.take(d.tensors)
}

// tensor decodes one tensor object, unifying "Format/Datatype" with the
// split "Format" + "Datatype" of newer releases.
func (d *decoder) tensor(field string, idx, ti int) engine.Tensor {
	var t engine.Tensor
	start := d.pos
	d.extra = d.extra[:0]
	hasName := false
	var format, dtype string
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
			case "Location":
				t.Location = d.tensorStr(kraw, kesc)
			case "Format/Datatype":
				t.Format = d.tensorStr(kraw, kesc)
			case "Format":
				format = d.tensorStr(kraw, kesc)
			case "Datatype", "DataType":
				dtype = d.tensorStr(kraw, kesc)
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
		d.missing(start, fmt.Sprintf("tensor %d of %q of layer %d has no \"Name\" string", ti, field, idx))
	}
	if t.Format == "" {
		t.Format = d.joinFormat(format, dtype)
		d.splitFormat = d.splitFormat || format != "" && dtype != ""
	}
	t.Extra = d.paramSlab.take(d.extra)
	return t
}

func (d *decoder) joinFormat(format, dtype string) string {
	switch {
	case format == "":
		return dtype
	case dtype == "":
		return format
	}
	d.scratch = append(append(append(d.scratch[:0], format...), ' '), dtype...)
	return d.internBytes(d.scratch)
}

// dimensions reads a list of integers (-1 for dynamic axes). Anything else
// (floats, nested lists, strings) is kept raw in the tensor's Extra.
func (d *decoder) dimensions(kraw []byte, kesc bool) []int64 {
	switch d.peek() {
	case 'n':
		d.literal()
		return nil
	case '[':
	default:
		d.extra = append(d.extra, engine.Param{Key: d.istr(kraw, kesc), Value: d.raw()})
		return nil
	}
	start := d.pos
	d.pos++
	d.dims = d.dims[:0]
	if d.peek() == ']' {
		d.pos++
		return []int64{}
	}
	for {
		c := d.peek()
		if c != '-' && (c < '0' || c > '9') {
			break
		}
		v, ok := parseInt(d.number())
		if !ok {
			break
		}
		d.dims = append(d.dims, v)
		switch d.peek() {
		case ',':
			d.pos++
			continue
		case ']':
			d.pos++
			return d.dimSlab.take(d.dims)
		}
		break
	}
	// Not a plain integer list: keep it verbatim (raw validates it).
	d.pos = start
	d.extra = append(d.extra, engine.Param{Key: d.istr(kraw, kesc), Value: d.raw()})
	return nil
}

// splitProfile strips a " [profile N]" suffix that multi-profile engines
// append to the names of every profile but the first.
func splitProfile(name string) (string, int) {
	if !strings.HasSuffix(name, "]") {
		return name, 0
	}
	i := strings.LastIndex(name, " [profile ")
	if i < 0 {
		return name, 0
	}
	digits := name[i+len(" [profile ") : len(name)-1]
	if digits == "" || len(digits) > 6 || strings.TrimLeft(digits, "0123456789") != "" {
		return name, 0
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return name, 0
	}
	return name[:i], n
}
