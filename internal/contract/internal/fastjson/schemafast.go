package fastjson

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The fast checker validates the elements of big arrays (layers, records,
// edges, topo_order) against the same compiled schema, without building a
// generic value tree: on a 200k-layer file the generic validator would need
// seconds and gigabytes. It supports the keywords those elements use; a
// schema that uses anything else is left to the generic validator, so
// correctness never depends on this file knowing every keyword.

// JSON kinds as a bit set, matching JSON Schema's "type" names.
const (
	kNull uint8 = 1 << iota
	kBool
	kNumber
	kInteger // a number with no fractional part
	kString
	kArray
	kObject
)

var kindNames = []struct {
	k    uint8
	name string
}{{kNull, "null"}, {kBool, "boolean"}, {kNumber, "number"}, {kInteger, "integer"}, {kString, "string"}, {kArray, "array"}, {kObject, "object"}}

func kindsString(ks uint8) string {
	var parts []string
	for _, n := range kindNames {
		if ks&n.k != 0 {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, " or ")
}

// fnode is one compiled schema.
type fnode struct {
	never      bool  // the false schema
	types      uint8 // 0: any kind
	enum       map[string]bool
	enumText   string
	minimum    float64
	hasMin     bool
	maximum    float64
	hasMax     bool
	minLength  int
	props      map[string]*fnode
	required   map[string]int // name → bit in the seen mask
	reqNames   []string
	additional *fnode // nil: any member allowed
	noExtra    bool   // additionalProperties: false
	prefix     []*fnode
	items      *fnode
	minItems   int
	maxItems   int // -1: no limit
}

var (
	fastMu    sync.Mutex
	fastCache = map[*jsonschema.Schema]*fnode{}
	fastBad   = map[*jsonschema.Schema]bool{}
)

// fastFor returns the compiled checker of s, or nil when s uses a keyword
// the fast checker does not implement.
func fastFor(s *jsonschema.Schema) *fnode {
	fastMu.Lock()
	defer fastMu.Unlock()
	if fastBad[s] {
		return nil
	}
	n, err := compileFast(s, map[*jsonschema.Schema]*fnode{})
	if err != nil {
		fastBad[s] = true
		return nil
	}
	return n
}

func compileFast(s *jsonschema.Schema, seen map[*jsonschema.Schema]*fnode) (*fnode, error) {
	if n, ok := fastCache[s]; ok {
		return n, nil
	}
	if n, ok := seen[s]; ok {
		return n, nil // recursion; filled in below
	}
	if s.Ref != nil {
		if !onlyRef(s) {
			return nil, fmt.Errorf("%s: $ref beside other keywords", s.Location)
		}
		n, err := compileFast(s.Ref, seen)
		if err == nil {
			fastCache[s] = n
		}
		return n, err
	}
	n := &fnode{maxItems: -1}
	seen[s] = n
	c := *s
	if c.Bool != nil {
		n.never = !*c.Bool
		c.Bool = nil
	}
	if c.Types != nil {
		for _, t := range c.Types.ToStrings() {
			for _, kn := range kindNames {
				if kn.name == t {
					n.types |= kn.k
				}
			}
		}
		c.Types = nil
	}
	if c.Enum != nil {
		n.enum = map[string]bool{}
		var quoted []string
		for _, v := range c.Enum.Values {
			str, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("%s: non-string enum", s.Location)
			}
			n.enum[str] = true
			quoted = append(quoted, strconv.Quote(str))
		}
		n.enumText = strings.Join(quoted, ", ")
		c.Enum = nil
	}
	ratf := func(r *big.Rat) float64 { f, _ := r.Float64(); return f }
	if c.Minimum != nil {
		n.minimum, n.hasMin = ratf(c.Minimum), true
		c.Minimum = nil
	}
	if c.Maximum != nil {
		n.maximum, n.hasMax = ratf(c.Maximum), true
		c.Maximum = nil
	}
	if c.MinLength != nil {
		n.minLength = *c.MinLength
		c.MinLength = nil
	}
	if c.Properties != nil {
		n.props = map[string]*fnode{}
		for k, p := range c.Properties {
			pn, err := compileFast(p, seen)
			if err != nil {
				return nil, err
			}
			n.props[k] = pn
		}
		c.Properties = nil
	}
	if c.Required != nil {
		if len(c.Required) > 64 {
			return nil, fmt.Errorf("%s: too many required properties", s.Location)
		}
		n.required = map[string]int{}
		for i, r := range c.Required {
			n.required[r] = i
		}
		n.reqNames = c.Required
		c.Required = nil
	}
	switch a := c.AdditionalProperties.(type) {
	case nil:
	case bool:
		n.noExtra = !a
	case *jsonschema.Schema:
		an, err := compileFast(a, seen)
		if err != nil {
			return nil, err
		}
		n.additional = an
	}
	c.AdditionalProperties = nil
	for _, p := range c.PrefixItems {
		pn, err := compileFast(p, seen)
		if err != nil {
			return nil, err
		}
		n.prefix = append(n.prefix, pn)
	}
	c.PrefixItems = nil
	if c.Items2020 != nil {
		in, err := compileFast(c.Items2020, seen)
		if err != nil {
			return nil, err
		}
		n.items = in
		c.Items2020 = nil
	}
	if c.MinItems != nil {
		n.minItems = *c.MinItems
		c.MinItems = nil
	}
	if c.MaxItems != nil {
		n.maxItems = *c.MaxItems
		c.MaxItems = nil
	}
	if constrains(&c) {
		return nil, fmt.Errorf("%s: keyword the fast checker does not implement", s.Location)
	}
	fastCache[s] = n
	return n, nil
}

// segment is one step of a JSON pointer, kept as raw bytes so the happy
// path allocates nothing.
type segment struct {
	name []byte // raw (still escaped) member name, nil for an index
	idx  int
}

// fastChecker walks one valid JSON value (already syntax-checked).
type fastChecker struct {
	b        []byte
	i        int
	base     string // pointer of the array holding the element checked
	idx      int    // the element's index in it
	path     []segment
	problems []Problem
	limit    int
}

func (c *fastChecker) pointer(last string) string {
	var sb strings.Builder
	sb.WriteString(c.base)
	sb.WriteByte('/')
	sb.WriteString(strconv.Itoa(c.idx))
	for _, s := range c.path {
		sb.WriteByte('/')
		if s.name == nil {
			sb.WriteString(strconv.Itoa(s.idx))
		} else {
			sb.WriteString(EscapePointer(unquoteRaw(s.name)))
		}
	}
	if last != "" {
		sb.WriteByte('/')
		sb.WriteString(EscapePointer(last))
	}
	return sb.String()
}

func (c *fastChecker) fail(last, format string, args ...any) {
	if len(c.problems) < c.limit {
		c.problems = append(c.problems, Problem{Pointer: c.pointer(last), Message: fmt.Sprintf(format, args...)})
	}
}

func (c *fastChecker) ws() { c.i = SkipWS(c.b, c.i) }

// str consumes a string and returns its raw contents.
func (c *fastChecker) str() []byte {
	raw, end, _ := ScanString(c.b, c.i)
	c.i = end
	return raw
}

// skip consumes any value.
func (c *fastChecker) skip() { c.i = ValueEnd(c.b, c.i) }

func unquoteRaw(raw []byte) string {
	for _, ch := range raw {
		if ch == '\\' {
			s, err := strconv.Unquote(`"` + string(raw) + `"`)
			if err == nil {
				return s
			}
			break
		}
	}
	return string(raw)
}

// check validates the value at c.i against n; last is the member name
// or index of the value, for messages.
func (c *fastChecker) check(n *fnode) {
	c.ws()
	if n.never {
		c.fail("", "not allowed here")
		c.skip()
		return
	}
	start := c.i
	var kind uint8
	switch c.b[c.i] {
	case '{':
		kind = kObject
	case '[':
		kind = kArray
	case '"':
		kind = kString
	case 't', 'f':
		kind = kBool
	case 'n':
		kind = kNull
	default:
		kind = kNumber
	}
	if n.types != 0 {
		ok := n.types&kind != 0
		if !ok && kind == kNumber && n.types&kInteger != 0 {
			c.skip()
			f := parseNum(c.b[start:c.i])
			if f == math.Trunc(f) {
				ok = true
			}
			c.i = start
		}
		if !ok {
			got := kindsString(kind)
			if kind == kNumber {
				got = "number " + string(c.b[start:ScalarEnd(c.b, c.i)])
			}
			c.fail("", "got %s, want %s", got, kindsString(n.types))
			c.skip()
			return
		}
	}
	switch kind {
	case kString:
		raw := c.str()
		if n.enum != nil || n.minLength > 0 {
			s := unquoteRaw(raw)
			if n.enum != nil && !n.enum[s] {
				c.fail("", "value %q must be one of %s", s, n.enumText)
			}
			if len([]rune(s)) < n.minLength {
				c.fail("", "length of %q must be >= %d", s, n.minLength)
			}
		}
		return
	case kNumber:
		c.skip()
		if overflowsFloat64(unsafe.String(&c.b[start], c.i-start)) {
			c.fail("", "%s", rangeMessage(string(c.b[start:c.i])))
			break
		}
		if n.hasMin || n.hasMax {
			f := parseNum(c.b[start:c.i])
			if n.hasMin && f < n.minimum {
				c.fail("", "%s is below the minimum %v", c.b[start:c.i], n.minimum)
			}
			if n.hasMax && f > n.maximum {
				c.fail("", "%s is above the maximum %v", c.b[start:c.i], n.maximum)
			}
		}
	case kObject:
		c.object(n)
	case kArray:
		c.array(n)
	default:
		c.skip()
	}
	if n.enum != nil && kind != kString {
		c.fail("", "value must be one of %s", n.enumText)
	}
}

func parseNum(b []byte) float64 {
	if len(b) == 0 {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 64)
	if err != nil && !isRangeErr(err) {
		return math.NaN()
	}
	return f
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func (c *fastChecker) object(n *fnode) {
	c.i++ // {
	var seen uint64
	for {
		var done bool
		if c.i, done = NextItem(c.b, c.i, '}'); done {
			break
		}
		name := c.str()
		c.ws()
		c.i++ // :
		// m[string(b)] lookups do not allocate.
		p, known := n.props[string(name)]
		if bit, ok := n.required[string(name)]; ok {
			seen |= 1 << bit
		}
		c.path = append(c.path, segment{name: name})
		switch {
		case known:
			c.check(p)
		case n.additional != nil:
			c.check(n.additional)
		case n.noExtra:
			c.path = c.path[:len(c.path)-1]
			c.fail(unquoteRaw(name), "unknown property (the schema allows no other members here)")
			c.path = append(c.path, segment{name: name})
			c.skip()
		default:
			c.skip()
		}
		c.path = c.path[:len(c.path)-1]
	}
	if want := uint64(1)<<len(n.reqNames) - 1; seen != want {
		for i, r := range n.reqNames {
			if seen&(1<<i) == 0 {
				c.fail(r, "required property missing")
			}
		}
	}
}

func (c *fastChecker) array(n *fnode) {
	c.i++ // [
	count := 0
	for {
		var done bool
		if c.i, done = NextItem(c.b, c.i, ']'); done {
			break
		}
		var item *fnode
		if count < len(n.prefix) {
			item = n.prefix[count]
		} else {
			item = n.items
		}
		if item != nil {
			c.path = append(c.path, segment{idx: count})
			c.check(item)
			c.path = c.path[:len(c.path)-1]
		} else {
			c.skip()
		}
		count++
	}
	if count < n.minItems {
		c.fail("", "%d items, want at least %d", count, n.minItems)
	}
	if n.maxItems >= 0 && count > n.maxItems {
		c.fail("", "%d items, want at most %d", count, n.maxItems)
	}
}

// EscapePointer escapes one JSON pointer token (RFC 6901).
func EscapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
