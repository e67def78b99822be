package mdcheck

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// scope is the set of backends a sentence is about: the labels it names
// in backticks, or every backend when it names none.
type scope struct {
	labels map[string]bool // nil: every backend
}

func (sc scope) has(label string) bool { return sc.labels == nil || sc.labels[label] }

// scopeOf returns the backends sentence s names: a label in backticks or
// a backend reference "file.json#label".
func (x *index) scopeOf(s sentence) scope {
	var named map[string]bool
	for _, sp := range s.spans {
		l := sp.text
		if i := strings.LastIndexByte(l, '#'); i >= 0 && x.labels[l[i+1:]] != nil {
			l = l[i+1:]
		}
		if x.labels[l] != nil {
			if named == nil {
				named = map[string]bool{}
			}
			named[l] = true
		}
	}
	return scope{labels: named}
}

// scopeText names the scope for messages.
func (x *index) scopeText(sc scope) string {
	if sc.labels == nil {
		return "any backend"
	}
	ls := make([]string, 0, len(sc.labels))
	for l := range sc.labels {
		ls = append(ls, l)
	}
	sort.Strings(ls)
	return "`" + strings.Join(ls, "` / `") + "`"
}

// scopeFacts returns the numbers of unit u a sentence about sc may quote
// without naming their item: the backends' own numbers and those of their
// summary items (types, precisions, tags, findings, positives, overview).
// Layers are not in it: a layer's number is quoted after its name.
func (x *index) scopeFacts(sc scope, u unit) []fact {
	var out []fact
	for l, v := range x.labels {
		if sc.has(l) {
			out = append(out, v.of(u)...)
		}
	}
	for _, v := range x.summary {
		for _, f := range v.of(u) {
			if sc.has(x.strs[f.backend]) {
				out = append(out, f)
			}
		}
	}
	if u == unitPct {
		// "20 layers make 50% of the time": concentration's cut-offs are
		// the tool's shares, quoted alone (never an operand of a sum).
		for _, l := range x.concentration {
			if sc.has(l) {
				lv := x.labels[l]
				for _, c := range []float64{50, 80, 90} {
					out = append(out, x.fact(lv, c, l, "concentration", false))
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].v < out[j].v }) // deterministic messages
	return out
}

// namedFacts returns the values of unit u of every item the sentence
// names anywhere (before or after the number) in the backends of sc:
// "`QuantizeLinear_98` is one of the 16 layers that `qdq_placement`
// prices at 0.0737 ms" quotes the finding named after the layer.
func (x *index) namedFacts(s sentence, u unit, sc scope) []fact {
	var out []fact
	for _, sp := range s.spans {
		if v := x.lookup(sp.text, sc); v != nil {
			for _, f := range v.of(u) {
				if sc.has(x.strs[f.backend]) {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// pairFacts returns the reason numbers of u of every compared pair with a
// backend in sc: a comparison's reasons ("15 standalone Q/DQ layers run in
// int8-qat only (+0.0521 ms)") may be quoted in a sentence about either
// build.
func (x *index) pairFacts(sc scope, u unit) []fact {
	var out []fact
	keys := make([][2]string, 0, len(x.pairs))
	for k := range x.pairs {
		if sc.has(k[0]) || sc.has(k[1]) {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+"\x00"+keys[i][1] < keys[j][0]+"\x00"+keys[j][1] })
	for _, k := range keys {
		out = append(out, x.pairs[k].of(u)...)
	}
	return out
}

// recordRefRE is how SKILL.md tells agents to refer to a record whose name
// is too long to write (a DLA subgraph lists every layer it runs):
// `records[12]`, the index into results[].records[] of the backends the
// sentence is about.
var recordRefRE = regexp.MustCompile(`^(?:results\[[0-9]+\]\.)?records\[([0-9]+)\]$`)

// lookup returns the values of a name in backticks: an item, or a record
// reference `records[N]` standing for record N's name in the backends of
// sc (only its own backend's values).
func (x *index) lookup(name string, sc scope) *values {
	if v := x.items[name]; v != nil {
		return v
	}
	m := recordRefRE.FindStringSubmatch(name)
	if m == nil {
		return nil
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	out := &values{name: name, kind: kindLayer}
	labels := make([]string, 0, len(x.records))
	for l := range x.records {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		names := x.records[l]
		if !sc.has(l) || n >= len(names) {
			continue
		}
		v := x.items[names[n]]
		if v == nil {
			continue
		}
		for _, u := range units {
			for _, f := range v.of(u) {
				if x.strs[f.backend] == l {
					out.add(u, f)
				}
			}
		}
	}
	return out
}
