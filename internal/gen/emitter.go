package gen

import (
	"bufio"
	"hash/fnv"
	"slices"
	"strconv"
)

// maxGroup bounds a trt8 ForeignNode region so its bookkeeping stays cheap.
const maxGroup = 64

// emitter receives layers from a shape builder and writes them. It owns the
// exact layer count (a budget the builder fills, then the tail), the trt8
// grouping of Myelin kernels into ForeignNode regions, the graph-breaking
// variants (cycle, duplicate producers, input produced by a layer), and the
// per-layer time draws the profile is written from.
type emitter struct {
	o   Options
	j   *jw
	rt  *rng // timing draws; a separate stream so structure never depends on time
	run int  // optimization profile being written

	g, k int // Myelin graph id and kernel index inside it

	n, budget, units int
	closed           bool
	lastOut          tensor
	hasLast          bool

	group   []*layer
	pending *layer

	written  int // layers written in this run
	total    int // layers written in all runs
	prevName string

	repeatAt []int
	ri       int
	dupAt    []int
	di       int
	cycled   bool
	inputHit bool

	io    []ioTensor
	names []string
	avgs  []float64
}

// startRun resets the per-profile state; every run writes the same engine.
func (e *emitter) startRun(run, n, tailUnits int) {
	e.run, e.n, e.budget, e.units = run, n, n-tailUnits, 0
	e.closed, e.hasLast = false, false
	e.written, e.ri, e.di = 0, 0, 0
	e.g, e.k = 0, 0
	e.repeatAt = spread(e.o.RepeatNames, n)
	if run == 0 {
		e.dupAt = spread(e.o.DuplicateProducers, n)
	}
}

// spread returns k indexes evenly spread over (0, n).
func spread(k, n int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = (i + 1) * n / (k + 1)
	}
	return out
}

func (e *emitter) suffix() string {
	if e.run == 0 {
		return ""
	}
	return " [profile " + strconv.Itoa(e.run) + "]"
}

// add takes one layer from the builder. It reports false when the budget is
// spent; from then on every layer is dropped until tail, so no later layer
// can consume a dropped layer's output.
func (e *emitter) add(l *layer) bool {
	if e.closed {
		return false
	}
	if l.myelin && e.o.Era == "trt8" {
		if len(e.group) > 0 && len(e.group) < maxGroup {
			e.group = append(e.group, l)
			e.noteLast(l)
			return true
		}
		e.flushGroup()
		if e.units >= e.budget {
			e.closed = true
			return false
		}
		e.units++
		e.group = append(e.group, l)
		e.noteLast(l)
		return true
	}
	e.flushGroup()
	if e.units >= e.budget {
		e.closed = true
		return false
	}
	e.units++
	e.noteLast(l)
	e.stage(l)
	return true
}

func (e *emitter) noteLast(l *layer) {
	if l.mylSfx {
		l.name += "_myl" + strconv.Itoa(e.g) + "_" + strconv.Itoa(e.k)
		l.mylSfx = false
		e.k++
	}
	if len(l.out) > 0 {
		e.lastOut, e.hasLast = l.out[0], true
	}
}

// room reports whether the builder may add another layer before its tail.
func (e *emitter) room() bool { return !e.closed && e.units < e.budget }

// boundary ends the current trt8 Myelin region (a block boundary).
func (e *emitter) boundary() { e.flushGroup() }

// tail lets the builder write its final layers past the budget.
func (e *emitter) tail() {
	e.flushGroup()
	e.closed = false
	e.budget = e.n
}

// endRun flushes what is buffered.
func (e *emitter) endRun() {
	e.flushGroup()
	if e.pending != nil {
		e.write(e.pending)
		e.pending = nil
	}
}

// flushGroup turns the open trt8 region into one {ForeignNode[a...b]} layer
// whose inputs are what the region reads from outside and whose outputs are
// what it produces and does not consume itself.
func (e *emitter) flushGroup() {
	g := e.group
	if len(g) == 0 {
		return
	}
	fn := &layer{typ: "Myelin", tvalue: "0x0000000000000000"}
	var produced []string
	for _, l := range g {
		for _, t := range l.in {
			if !slices.Contains(produced, t.name) && !hasTensor(fn.in, t.name) {
				fn.in = append(fn.in, t)
			}
		}
		for _, t := range l.out {
			produced = append(produced, t.name)
		}
		fn.cost += l.cost
	}
	for i, l := range g {
		for _, t := range l.out {
			used := false
			for _, later := range g[i+1:] {
				if hasTensor(later.in, t.name) {
					used = true
					break
				}
			}
			if !used || t.shared {
				fn.out = append(fn.out, t)
			}
		}
	}
	first, last := g[0].name, g[len(g)-1].name
	if len(g[0].meta) > 0 {
		first = g[0].meta[0]
	}
	if m := g[len(g)-1].meta; len(m) > 0 {
		last = m[len(m)-1]
	}
	fn.name = "{ForeignNode[" + first + "..." + last + "]}"
	e.group = e.group[:0]
	e.stage(fn)
}

func hasTensor(ts []tensor, name string) bool {
	for i := range ts {
		if ts[i].name == name {
			return true
		}
	}
	return false
}

// stage holds one layer back so a variant can tie it to its successor: a
// cycle (this layer also reads the next one's output, which reads this
// one's) or a duplicate producer (this layer also writes the next one's
// output tensor; every consumer of it comes later, so the graph stays a DAG).
func (e *emitter) stage(l *layer) {
	p := e.pending
	e.pending = l
	if p == nil {
		return
	}
	if e.run == 0 && len(l.out) > 0 {
		idx := e.written
		if e.o.Cycle && !e.cycled && idx >= e.n/2 && consumesAny(l, p) {
			p.in = append(slices.Clip(p.in), l.out[0])
			e.cycled = true
		} else if e.di < len(e.dupAt) && idx >= e.dupAt[e.di] && len(p.out) > 0 && !hasTensor(p.out, l.out[0].name) {
			p.out = append(slices.Clip(p.out), l.out[0])
			e.di++
		}
	}
	e.write(p)
}

func consumesAny(l, p *layer) bool {
	for _, t := range p.out {
		if hasTensor(l.in, t.name) {
			return true
		}
	}
	return false
}

// write renders one layer and draws its time.
func (e *emitter) write(l *layer) {
	idx := e.written
	e.written++
	name := l.name
	if e.ri < len(e.repeatAt) && idx == e.repeatAt[e.ri] {
		name = e.prevName
		e.ri++
	}
	e.prevName = name
	sfx := e.suffix()
	e.names = append(e.names, name+sfx)
	e.avgs = append(e.avgs, e.drawTime(l.cost))

	j := e.j
	first := e.total == 0
	e.total++
	if e.o.NamesOnly {
		if !first {
			j.raw("\n,")
		}
		j.str(name + sfx)
		return
	}
	if !first {
		j.byte(',')
	}
	j.raw("{\n")
	j.raw(`  "Name": `)
	j.str(name + sfx)
	j.raw(",\n  \"LayerType\": ")
	j.str(l.typ)
	j.raw(",\n")
	e.tensors("Inputs", l.in, l.myelin, sfx)
	j.raw(",\n")
	e.tensors("Outputs", l.out, l.myelin, sfx)
	if len(l.consts) > 0 {
		j.raw(",\n")
		e.tensors("Constants", l.consts, l.myelin, "")
	}
	for _, p := range l.params {
		j.raw(",\n  ")
		j.str(p.k)
		j.raw(": ")
		j.raw(p.v)
	}
	if l.origin != "" {
		j.raw(",\n  \"Origin\": ")
		j.str(l.origin)
	}
	if l.tactic != "" || (l.myelin && e.o.Era != "trt8") {
		j.raw(",\n  \"TacticName\": ")
		j.str(l.tactic)
	}
	if l.tvalue != "" {
		j.raw(",\n  \"TacticValue\": ")
		j.str(l.tvalue)
	}
	j.raw(",\n  \"StreamId\": ")
	j.int(int64(l.stream))
	j.raw(",\n  \"Metadata\": ")
	e.metadata(l.meta, idx)
	if e.o.Subgraphs > 1 {
		j.raw(",\n  \"_subgraph\": ")
		j.int(int64(idx * e.o.Subgraphs / e.n))
	}
	j.raw("\n}")
}

func (e *emitter) metadata(ops []string, idx int) {
	if len(ops) == 0 {
		e.j.str("")
		return
	}
	if !e.o.controlChars() {
		ops = ops[:1]
	}
	j := e.j
	j.byte('"')
	for i, op := range ops {
		if i > 0 {
			// TensorRT mostly separates with U+001E; some fusions use U+001F.
			if (idx+i)%5 == 0 {
				j.raw(`\u001f`)
			} else {
				j.raw(`\u001e`)
			}
		}
		j.raw("[ONNX Layer: ")
		j.body(op)
		j.byte(']')
	}
	j.byte('"')
}

func (e *emitter) tensors(key string, ts []tensor, myelin bool, sfx string) {
	j := e.j
	j.raw("  \"")
	j.raw(key)
	j.raw("\": [")
	if len(ts) == 0 {
		j.raw("]")
		return
	}
	for i := range ts {
		t := &ts[i]
		if i > 0 {
			j.raw(",")
		}
		j.raw("\n  {\n    \"Name\": ")
		j.str(t.name + sfx)
		kernel := myelin && e.o.Era != "trt8"
		if !kernel {
			j.raw(",\n    \"Location\": \"Device\"")
		}
		j.raw(",\n    \"Dimensions\": ")
		j.dims(t.dims, ",")
		lay := t.lay
		if e.o.DynamicDims && !kernel && naTensor(t.name) {
			lay = layNA
		}
		switch {
		case e.o.Era == "trt11":
			j.raw(",\n    \"Format\": ")
			if kernel && lay != layNA {
				j.str(splitFormat(layLinear))
			} else {
				j.str(splitFormat(lay))
			}
			j.raw(",\n    \"Datatype\": ")
			j.str(t.dt.kernelName())
		case kernel:
			j.raw(",\n    \"Format/Datatype\": ")
			j.str(t.dt.kernelName())
		default:
			j.raw(",\n    \"Format/Datatype\": ")
			j.str(classicFormat(lay, t.dt))
		}
		j.raw("\n  }")
	}
	j.raw("]")
}

// naTensor picks about one tensor in seven, by name so producer and
// consumers agree, to carry "N/A due to dynamic shapes".
func naTensor(name string) bool {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32()%7 == 0
}

// drawTime turns a layer's modelled cost into a measured average: the
// roofline time with the run-to-run spread of a profiled kernel (2%).
func (e *emitter) drawTime(cost float64) float64 {
	if cost == 0 {
		return 0
	}
	return cost * e.rt.lognormal(0.02)
}

func newJW(w *bufio.Writer) *jw { return &jw{w: w, tmp: make([]byte, 0, 32)} }
