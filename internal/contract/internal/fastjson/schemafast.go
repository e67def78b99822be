package fastjson

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
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
	id         int      // index of this node's hints in a fastChecker
	members    []member // the properties the schema names
	memberOf   map[string]int
	reqNames   []string
	additional *fnode // nil: any member allowed
	noExtra    bool   // additionalProperties: false
	prefix     []*fnode
	items      *fnode
	minItems   int
	maxItems   int // -1: no limit
}

// member is one property a schema names.
type member struct {
	name   string
	node   *fnode
	reqBit int // bit in the seen mask of required properties, -1 if optional
}

var (
	fastMu    sync.Mutex
	fastNodes int // nodes compiled so far: the next fnode.id
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
	n := &fnode{maxItems: -1, id: fastNodes}
	fastNodes++
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
	if len(c.Required) > 64 {
		return nil, fmt.Errorf("%s: too many required properties", s.Location)
	}
	if c.Properties != nil || c.Required != nil {
		n.memberOf = map[string]int{}
		add := func(name string, node *fnode) {
			n.memberOf[name] = len(n.members)
			n.members = append(n.members, member{name: name, node: node, reqBit: -1})
		}
		for _, k := range slices.Sorted(maps.Keys(c.Properties)) {
			pn, err := compileFast(c.Properties[k], seen)
			if err != nil {
				return nil, err
			}
			add(k, pn)
		}
		for i, r := range c.Required {
			if _, ok := n.memberOf[r]; !ok {
				add(r, nil) // required, but any value (or per additionalProperties)
			}
			n.members[n.memberOf[r]].reqBit = i
		}
		n.reqNames = c.Required
		c.Properties, c.Required = nil, nil
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
	hints    [][]int32 // by fnode.id: see memberIndex
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
			num := c.b[start:ScalarEnd(c.b, c.i)]
			if numberShapeOf(num).whole {
				ok = true
			} else if f := parseNum(num); f == math.Trunc(f) {
				ok = true // 1.0 and 1e3 are integers too
			}
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
		num := c.b[start:c.i]
		shape := numberShapeOf(num)
		if shape.mayOverflow && overflowsFloat64(unsafe.String(&num[0], len(num))) {
			c.fail("", "%s", rangeMessage(string(num)))
			break
		}
		// A number without a minus sign meets a minimum at or below 0
		// unparsed; the contract's minimums are mostly 0.
		if n.hasMin && (shape.negative || n.minimum > 0) {
			if f := parseNum(num); f < n.minimum {
				c.fail("", "%s is below the minimum %v", num, n.minimum)
			}
		}
		if n.hasMax {
			if f := parseNum(num); f > n.maximum {
				c.fail("", "%s is above the maximum %v", num, n.maximum)
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

// numberShape is what one look at a JSON number's bytes tells.
type numberShape struct {
	negative    bool // starts with a minus sign
	whole       bool // digits only (after the sign): an integer
	mayOverflow bool // has an exponent or hundreds of digits: see overflowsFloat64
}

func numberShapeOf(num []byte) numberShape {
	sh := numberShape{negative: len(num) > 0 && num[0] == '-', whole: len(num) > 0, mayOverflow: len(num) >= 300}
	for i, ch := range num {
		switch {
		case ch >= '0' && ch <= '9', i == 0 && ch == '-':
		case ch == 'e' || ch == 'E':
			sh.whole, sh.mayOverflow = false, true
		default:
			sh.whole = false
		}
	}
	if sh.negative && len(num) == 1 {
		sh.whole = false
	}
	return sh
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
	prev := -1 // the member read last
	for {
		var done bool
		if c.i, done = NextItem(c.b, c.i, '}'); done {
			break
		}
		name := c.str()
		c.ws()
		c.i++ // :
		var p *fnode
		if k := c.memberIndex(n, prev, name); k >= 0 {
			m := &n.members[k]
			if m.reqBit >= 0 {
				seen |= 1 << m.reqBit
			}
			p, prev = m.node, k
		}
		c.path = append(c.path, segment{name: name})
		switch {
		case p != nil:
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

// memberIndex finds name among n's members, -1 when it is none of them.
// It first tries the member that followed prev the last time an object of
// n was checked: one encoder writes every object of a kind in one order,
// so the guess nearly always holds and the map is rarely consulted (two
// lookups per member were a fifth of the check).
func (c *fastChecker) memberIndex(n *fnode, prev int, name []byte) int {
	if n.memberOf == nil {
		return -1
	}
	hints := c.hintsOf(n)
	if g := hints[prev+1]; g >= 0 && n.members[g].name == string(name) {
		return int(g)
	}
	k, ok := n.memberOf[string(name)]
	if !ok {
		return -1
	}
	hints[prev+1] = int32(k)
	return k
}

// hintsOf returns this checker's guesses for n: entry k+1 is the member
// seen after member k, entry 0 the first member (-1: no guess yet). They
// are per checker, as checkers run in parallel.
func (c *fastChecker) hintsOf(n *fnode) []int32 {
	if n.id >= len(c.hints) {
		c.hints = append(c.hints, make([][]int32, n.id+1-len(c.hints))...)
	}
	h := c.hints[n.id]
	if h == nil {
		h = make([]int32, len(n.members)+1)
		for i := range h {
			h[i] = -1
		}
		c.hints[n.id] = h
	}
	return h
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
