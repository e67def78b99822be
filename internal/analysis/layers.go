package analysis

import (
	"bytes"
	"fmt"
	"github.com/trtperf/trtperf/internal/jsonnum"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
)

// contractLayers converts the model's layers to the contract's normalised
// layer records. Parameters the model does not name are kept, in file
// order, as one raw object.
//
// Those raw values come straight from the dump, so they are checked here:
// the contract's JSON has no repeated keys, only valid Unicode and only
// numbers a 64-bit float holds. A value that breaks one of these is
// rewritten (the last of repeated keys kept, invalid characters replaced
// by U+FFFD, an out-of-range number kept as a string) and counted in
// fixes, with the first such parameter in example.
func contractLayers(ls []engine.Layer) (out []contract.Layer, fixes int, example string) {
	out = make([]contract.Layer, len(ls))
	var pf paramFixer
	// One backing array for all tensors keeps 10^5-layer engines to a
	// handful of allocations.
	n := 0
	for i := range ls {
		n += len(ls[i].Inputs) + len(ls[i].Outputs) + len(ls[i].Constants)
	}
	tensors := make([]contract.Tensor, 0, n)
	var i int
	take := func(ts []engine.Tensor) []contract.Tensor {
		start := len(tensors)
		for j := range ts {
			t := &ts[j]
			dims := t.Dims
			if dims == nil {
				dims = []int64{}
			}
			tensors = append(tensors, contract.Tensor{Name: t.Name, Location: t.Location, Dimensions: dims, Format: t.Format, Extra: pf.rawObject(ls[i].Name, t.Extra)})
		}
		return tensors[start:len(tensors):len(tensors)]
	}
	for i = range ls {
		l := &ls[i]
		c := &out[i]
		c.Name = l.Name
		c.LayerType = l.Type
		c.Inputs = take(l.Inputs)
		c.Outputs = take(l.Outputs)
		if len(l.Constants) > 0 {
			c.Constants = take(l.Constants)
		}
		c.ParameterType = l.ParameterType
		c.TacticName = l.TacticName
		c.TacticValue = l.TacticValue
		c.Origin = l.Origin
		if l.HasStreamID {
			s := l.StreamID
			c.StreamID = &s
		}
		c.Metadata = l.Metadata
		c.Subgraph = l.Subgraph
		c.OptProfile = l.OptProfile
		c.Parameters = pf.rawObject(l.Name, l.Params)
	}
	return out, pf.fixes, pf.example
}

// paramFixer counts the parameters rawObject had to rewrite.
type paramFixer struct {
	fixes   int
	example string
}

// rawObject joins raw key/value pairs into one compact JSON object; nil when
// there are none so the field is omitted. A repeated key keeps its last
// value; each value is made contract-safe (see safeValue).
func (pf *paramFixer) rawObject(layer string, ps []engine.Param) jsontext.Value {
	if len(ps) == 0 {
		return nil
	}
	note := func(key string) {
		if pf.fixes == 0 {
			pf.example = fmt.Sprintf("%q of layer %q", key, layer)
		}
		pf.fixes++
	}
	// ps is the layer's own slice, which the layer facts read at the same
	// time: it is copied before anything in it is rewritten.
	owned := false
	if len(ps) > 1 {
		seen := make(map[string]int, len(ps))
		dup := false
		for j, p := range ps {
			if _, ok := seen[p.Key]; ok {
				dup = true
			}
			seen[p.Key] = j
		}
		if dup {
			kept := make([]engine.Param, 0, len(seen))
			for j, p := range ps {
				if seen[p.Key] == j {
					kept = append(kept, p)
				} else {
					note(p.Key)
				}
			}
			ps, owned = kept, true
		}
	}
	own := func() {
		if !owned {
			ps, owned = slices.Clone(ps), true
		}
	}
	for j := range ps {
		if !utf8.ValidString(ps[j].Key) {
			note(ps[j].Key)
			own()
			ps[j].Key = strings.ToValidUTF8(ps[j].Key, "\uFFFD")
		}
		if v, changed := safeValue(ps[j].Value); changed {
			note(ps[j].Key)
			own()
			ps[j].Value = v
		}
	}
	size := 2
	for _, p := range ps {
		size += len(p.Key) + len(p.Value) + 4
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b, _ = jsontext.AppendQuote(b, p.Key)
		b = append(b, ':')
		b = append(b, p.Value...)
	}
	return append(b, '}')
}

// safeValue returns raw (a JSON value from the dump) unchanged when it has
// no repeated object keys, only valid UTF-8 and no number beyond float64,
// and otherwise a rewritten copy: repeated keys keep their last value,
// invalid characters become U+FFFD, such a number becomes its text as a
// string, and a value that is not JSON at all becomes its text as a string.
func safeValue(raw []byte) (out []byte, changed bool) {
	if jsontext.Value(raw).IsValid() && !hasHugeNumber(raw) {
		return raw, false
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	v, err := readSafe(dec)
	if err != nil {
		b, _ := jsontext.AppendQuote(nil, strings.ToValidUTF8(string(raw), "\uFFFD"))
		return b, true
	}
	return v, true
}

// readSafe re-reads one value from dec the way safeValue describes.
func readSafe(dec *jsontext.Decoder) ([]byte, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case '{':
		type member struct {
			key string
			val []byte
		}
		var ms []member
		at := map[string]int{}
		for dec.PeekKind() != '}' {
			kt, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			key := strings.ToValidUTF8(kt.String(), "\uFFFD")
			val, err := readSafe(dec)
			if err != nil {
				return nil, err
			}
			if j, ok := at[key]; ok {
				ms[j].val = val // the last value wins, in the first one's place
				continue
			}
			at[key] = len(ms)
			ms = append(ms, member{key, val})
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		b := []byte{'{'}
		for j, m := range ms {
			if j > 0 {
				b = append(b, ',')
			}
			b, _ = jsontext.AppendQuote(b, m.key)
			b = append(b, ':')
			b = append(b, m.val...)
		}
		return append(b, '}'), nil
	case '[':
		b := []byte{'['}
		for first := true; dec.PeekKind() != ']'; first = false {
			val, err := readSafe(dec)
			if err != nil {
				return nil, err
			}
			if !first {
				b = append(b, ',')
			}
			b = append(b, val...)
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		return append(b, ']'), nil
	case '"':
		return jsontext.AppendQuote(nil, strings.ToValidUTF8(tok.String(), "\uFFFD"))
	case '0':
		num := tok.String()
		if !jsonnum.InRange(num) {
			return jsontext.AppendQuote(nil, num)
		}
		return []byte(num), nil
	default:
		return []byte(tok.String()), nil
	}
}

// hasHugeNumber reports whether raw may hold a number out of the float64
// range (jsonnum: too large, or non-zero and too small): one
// with an exponent of three digits or more (cheap to rule out, so the
// common value is not parsed).
func hasHugeNumber(raw []byte) bool {
	for k := 0; k+3 < len(raw); k++ {
		if (raw[k] == 'e' || raw[k] == 'E') && k > 0 && raw[k-1] >= '0' && raw[k-1] <= '9' {
			d := k + 1
			if raw[d] == '+' || raw[d] == '-' {
				d++
			}
			n := 0
			for d < len(raw) && raw[d] >= '0' && raw[d] <= '9' {
				d, n = d+1, n+1
			}
			if n >= 3 {
				return true
			}
		}
	}
	return len(raw) >= 300 // a number of hundreds of digits
}
