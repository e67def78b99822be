package dump

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/engine"
)

// Per-layer timing tables in a user's own shape, read by content:
//
//   - a list of records, one per layer: a name field and time fields in any
//     naming (timeField: "avg_ms", "meanUs", "Time (ms)", "median_ns"), or a
//     list of per-run samples ("times": [...]);
//   - an object keyed by layer name: name → ms, name → samples
//     ([ms, ...] or [[ms, "timestamp"], ...]), name → record;
//   - either of those under a wrapper object ({"unit": "us", "layers":
//     {...}}), nested at most maxWrapDepth deep;
//   - a CSV/TSV table (csvtable.go).
//
// Units come from the key or header ("_us", "(ns)"), else from a "unit"
// member of the wrapper or the wrapper's key ("layer_times_us"), else ms is
// assumed — and the profile says which (engine.Profile.Read).
//
// An object of numbers is a per-layer table only when it cannot be read as
// anything else (objectTable refuses the rest, with the reason):
//   - it has at least two layers;
//   - no key is made only of words of the field, settings and summary
//     vocabulary ("batch", "workspace", "latency_ms", "throughput"): such an
//     object is settings or an end-to-end summary, not layers; a key that
//     is only a total ("Total", "sum_ms") is a total row and left out;
//   - every value is a finite number ≥ 0;
//   - not every value is a whole number unless a unit is named: per-layer
//     times in ms are fractions, whole numbers are counts or settings.

// unitHint is the unit of times that name none themselves: from a
// wrapper's "unit" member or key; unit "" when nothing named one (ms is
// then assumed, and said).
type unitHint struct {
	unit  string
	scale float64
}

var noHint = unitHint{scale: 1}

// maxWrapDepth bounds how deep a table may sit inside wrapper objects.
const maxWrapDepth = 3

// Bits of the fields an entry has.
const (
	hasName = 1 << iota
	hasTime
	hasAvg
	hasMedian
	hasPercent
	hasCount
	hasLayerKey
	hasGeneric
	hasSamples
)

// entry is one layer's fields as read, in ms.
type entry struct {
	name                     string
	seen                     int
	avg, median, total, time float64
	count, percent           float64
	samples                  []float64
	start                    int // offset of the entry, for errors
	index                    int
}

// tableRead is what a user-shaped table says about how it was read; it
// becomes engine.Profile.Read.
type tableRead struct {
	shape    string
	units    []string // units named by keys, headers or a unit member
	assumed  bool     // some time named no unit: ms assumed
	totalRow string   // a total row left out ("Total"), "" when none
	user     bool     // anything but trtexec's own field names was read
	path     []string // the wrapper keys the table sits under
}

func (t *tableRead) unit(u string) {
	if u != "" && !slices.Contains(t.units, u) {
		t.units = append(t.units, u)
	}
}

// sentence words how the table was read, for engine.Profile.Read.
func (t *tableRead) sentence() string {
	var parts []string
	if t.shape != "" {
		parts = append(parts, t.shape)
	}
	switch {
	case len(t.units) > 0 && t.assumed:
		parts = append(parts, "times in "+strings.Join(t.units, ", ")+" where a unit is named, ms assumed where none is")
	case len(t.units) == 1 && t.units[0] == "ms":
		parts = append(parts, "times in ms")
	case len(t.units) > 0:
		parts = append(parts, "times in "+strings.Join(t.units, ", ")+", converted to ms")
	case t.assumed:
		parts = append(parts, "no unit named, so ms assumed")
	}
	if t.totalRow != "" {
		parts = append(parts, fmt.Sprintf("the %q row left out (a total, not a layer)", t.totalRow))
	}
	return strings.Join(parts, "; ")
}

// scaleOf is the scale of a time field: its own unit, else the hint's,
// else ms assumed; it records which for the profile's sentence.
func (t *tableRead) scaleOf(f field, hint unitHint) float64 {
	switch {
	case f.unit != "":
		t.unit(f.unit)
		return f.scale
	case hint.unit != "":
		t.unit(hint.unit)
		return hint.scale
	}
	t.assumed = true
	return 1
}

// timeValue stores a time field's value, in ms, in e.
func (e *entry) timeValue(f field, v float64, hint unitHint, t *tableRead) {
	v *= t.scaleOf(f, hint)
	switch f.stat {
	case fieldAvg:
		e.avg, e.seen = v, e.seen|hasAvg
	case fieldMedian:
		e.median, e.seen = v, e.seen|hasMedian
	case fieldTotal:
		e.total, e.seen = v, e.seen|hasTime
	case fieldTime, fieldSamples:
		e.time, e.seen = v, e.seen|hasGeneric
	}
}

// entryRef names an entry in errors ("profile entry 3", "layer \"fc\"",
// "line 12"); built only when one is reported, not per record.
type entryRef struct {
	kind  string
	index int
	name  string
}

func (r entryRef) String() string {
	if r.name != "" {
		return fmt.Sprintf("%s %q", r.kind, r.name)
	}
	return fmt.Sprintf("%s %d", r.kind, r.index)
}

// resolve turns an entry into a record: the average from the samples, the
// generic time (the average, or the total beside an average, as trtexec's
// timeMs), the total from count × average. what names the entry in errors.
func (s *scanner) resolve(e *entry, p *engine.Profile, what entryRef) engine.ProfileRecord {
	r := engine.ProfileRecord{MedianMs: e.median, HasMedian: e.seen&hasMedian != 0, Percentage: e.percent, HasPercent: e.seen&hasPercent != 0}
	r.Name, r.OptProfile = splitProfile(e.name)
	if n := len(e.samples); n > 0 {
		var sum float64
		for _, v := range e.samples {
			sum += v
		}
		if e.seen&hasAvg == 0 {
			e.avg, e.seen = sum/float64(n), e.seen|hasAvg
		}
		if e.seen&hasTime == 0 {
			e.total, e.seen = sum, e.seen|hasTime
		}
		if !r.HasMedian {
			slices.Sort(e.samples)
			if n%2 == 1 {
				r.MedianMs = e.samples[n/2]
			} else {
				r.MedianMs = (e.samples[n/2-1] + e.samples[n/2]) / 2
			}
			r.HasMedian = true
		}
		r.Samples = n
	}
	if e.seen&hasGeneric != 0 {
		switch {
		case e.seen&hasAvg == 0:
			e.avg, e.seen = e.time, e.seen|hasAvg
		case e.seen&hasTime == 0:
			e.total, e.seen = e.time, e.seen|hasTime
		}
	}
	if e.seen&hasAvg == 0 && e.seen&hasTime != 0 && e.seen&hasCount != 0 && e.count > 0 {
		e.avg, e.seen = e.total/e.count, e.seen|hasAvg
	}
	if e.seen&hasName == 0 {
		s.failAt(e.start, CodeMissingField, fmt.Sprintf("%s has no %q", what, "name"), fixNotProfile)
	}
	if e.seen&hasAvg == 0 {
		field := "averageMs"
		if e.seen&hasTime == 0 {
			field = "timeMs"
		}
		s.failAt(e.start, CodeMissingField, fmt.Sprintf("%s has no %q", what, field),
			"every trtexec profile record needs \"name\", \"timeMs\" and \"averageMs\" (a table of your own: a name and a time per layer); re-export with trtexec --exportProfile=F")
	}
	if e.seen&hasTime == 0 {
		if e.seen&hasCount != 0 {
			e.total = e.avg * e.count
		} else {
			e.total = e.avg
			p.AveragesOnly = true
		}
	}
	r.AverageMs, r.TimeMs = e.avg, e.total
	for _, v := range [...]float64{r.AverageMs, r.TimeMs, r.MedianMs} {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			s.failAt(e.start, CodeNonFinite, fmt.Sprintf("a time of %s is beyond the float64 range once converted to ms or summed", what), fixNonFinite)
		}
	}
	return r
}

// finishTable sets what a table of records implies for the profile: the
// iteration count (one sample count, or one count field, shared by every
// record), shares computed from the averages when the table has none, and
// how it was read.
func finishTable(p *engine.Profile, counts []float64, t *tableRead) {
	if len(p.Records) == 0 {
		return
	}
	samples := p.Records[0].Samples
	allSamples := true
	for _, r := range p.Records {
		if r.Samples == 0 || r.Samples != samples {
			allSamples = false
		}
	}
	sameCount := len(counts) == len(p.Records) && !p.HasCount
	for _, c := range counts {
		if c != counts[0] || c <= 0 || c != math.Trunc(c) || c > maxCount {
			sameCount = false
		}
	}
	switch {
	case allSamples && (!p.HasCount || p.Count == int64(samples)):
		p.Kind, p.Count, p.HasCount, p.AveragesOnly = engine.ProfileLatencyDict, int64(samples), true, false
	case p.HasCount:
	case sameCount:
		p.Count, p.HasCount, p.AveragesOnly = int64(counts[0]), true, false
	}
	if p.HasCount && p.AveragesOnly {
		// A wrapper's run count ({"iterations": 100, "layers": ...}) gives
		// the totals the records did not have.
		for i, r := range p.Records {
			if r.TimeMs == r.AverageMs && r.Samples == 0 {
				p.Records[i].TimeMs = r.AverageMs * float64(p.Count)
			}
		}
		p.AveragesOnly = false
	}
	if p.Kind == engine.ProfileLatencyDict {
		var total float64
		for _, r := range p.Records {
			total += r.AverageMs
		}
		for i := range p.Records {
			if total > 0 {
				p.Records[i].Percentage = p.Records[i].AverageMs / total * 100
			}
			p.Records[i].HasPercent = true
		}
	}
	if t.user {
		p.Read, p.UnitAssumed = t.sentence(), t.assumed
	}
}

// settingWords are the words of keys that name settings or end-to-end
// numbers, never a layer ("batch", "workspace", "throughput", "gpu_compute").
var settingWords = map[string]bool{
	"batch": true, "size": true, "workspace": true, "warmup": true, "iteration": true, "iterations": true,
	"duration": true, "streams": true, "threads": true, "device": true, "precision": true, "fp16": true,
	"fp32": true, "int8": true, "tf32": true, "bf16": true, "fp8": true, "throughput": true, "qps": true,
	"fps": true, "gpu": true, "compute": true, "h2d": true, "d2h": true, "enqueue": true, "host": true,
	"walltime": true, "end": true, "to": true, "e2e": true, "inference": true, "inferences": true,
	"memory": true, "mb": true, "gb": true, "mib": true, "gib": true, "version": true, "seed": true,
	"queries": true, "per": true, "second": true, "model": true, "engine": true, "max": true, "min": true,
	"opt": true, "profile": true, "sleep": true, "idle": true, "spin": true, "wait": true, "graph": true,
	"cuda": true, "timing": true, "cache": true, "sparsity": true, "verbose": true, "unit": true, "units": true,
	"input": true, "output": true, "shape": true, "shapes": true, "dla": true, "core": true, "build": true,
}

// keyRole says what an object key is besides a layer name: a field or
// setting ("batch", "latency_ms": the object is no table of layers), a
// total row ("Total", "sum_ms"), or neither (a layer name).
func keyRole(key string) (setting, total bool) {
	if len(key) > maxFieldBytes {
		return false, false
	}
	words := fieldWords(key)
	if len(words) == 0 {
		return false, false
	}
	allVocab, totalWord := true, false
	for _, w := range words {
		_, unit := unitScales[w]
		st, stat := statWords[w]
		switch {
		case st == fieldTotal || w == "overall":
			totalWord = true
		case unit || st == fieldTime:
		case stat || settingWords[w] || notName[w]:
			allVocab = allVocab && true
			setting = true
		default:
			allVocab = false
		}
	}
	if !allVocab {
		return false, false
	}
	if totalWord && !setting {
		return false, true
	}
	return true, false
}

// vocabularyOnly reports whether every word of key is one of the field,
// unit or settings vocabulary: a field name, never a layer's
// ("avg_ms", "Time (us)"; not "GlobalAveragePool_47", "MaxPool_2").
func vocabularyOnly(key string) bool {
	words := fieldWords(key)
	for _, w := range words {
		_, unit := unitScales[w]
		_, stat := statWords[w]
		if !unit && !stat && !settingWords[w] && !notName[w] {
			return false
		}
	}
	return len(words) > 0
}

// unitKey reports whether key names the unit of a table's times.
func unitKey(key string) bool {
	switch strings.ToLower(key) {
	case "unit", "units", "time_unit", "timeunit", "time unit", "unit_of_time":
		return true
	}
	return false
}

// objectTable reads an object root (or a wrapper's table): name → ms,
// name → samples, name → record, or a wrapper of one of those. hint is the
// scale of times that name no unit (1 when none is known: ms assumed);
// key is the wrapper's key that led here ("" at the root).
func (s *scanner) objectTable(p *engine.Profile, t *tableRead, hint unitHint, key string, depth int) {
	start := s.pos
	u, hasUnit, wrapped := s.scanMembers()
	if hasUnit {
		hint = u
	}
	if wrapped > 1 && s.isColumns() {
		counts := s.columnTable(p, t, hint)
		if depth == 0 {
			if len(t.path) > 0 {
				t.shape += " under " + quoteKeys(t.path...)
			}
			p.Kind = engine.ProfileTrtexec
			finishTable(p, counts, t)
		}
		return
	}
	if wrapped > 1 {
		s.failAt(start, CodeNotProfile, fmt.Sprintf("the object holds %d nested objects or lists that are no per-layer records, so it is no table of per-layer times (a wrapper holds one table)", wrapped), fixNotTimeTable)
	}
	if s.open('}') {
		return
	}
	var (
		counts              []float64
		nums, samples, recs int
		whole               = true
		setting, nested     string
		firstNum            = -1
		count               = -1.0
	)
	for {
		kraw, kesc := s.key()
		name := s.str(kraw, kesc)
		switch name {
		case "Layers", "Bindings", "I/O Tensors":
			s.failAt(start, CodeNotProfile, fmt.Sprintf("the root object has %q, so this file is layer info, not a profile", name), fixNotProfile)
		}
		if k := rootKeyKinds[name]; k != KindUnknown && depth == 0 {
			s.failAt(start, CodeNotProfile, fmt.Sprintf("the root object has %q, so this file is %s, not a per-layer profile", name, kindArticle(k)), fixNotProfile)
		}
		isSetting, isTotal := keyRole(name)
		switch c := s.peek(); {
		case c == '"':
			if !unitKey(name) {
				s.skip() // a model name, a date: not per-layer data
				break
			}
			s.skip() // read by scanMembers
		case c == 't' || c == 'f' || c == 'n':
			s.literal()
		case c == '-' || c >= '0' && c <= '9':
			off := s.pos
			v := s.float()
			if timeField(name).stat == fieldCount || strings.HasPrefix(strings.ToLower(name), "iteration") {
				count = v // a wrapper's run count: {"iterations": 100, "layers": {...}}
			}
			if isTotal {
				if t.totalRow == "" {
					t.totalRow = name
				}
				break
			}
			if isSetting {
				if setting == "" {
					setting = name
				}
				break
			}
			if v < 0 {
				s.failAt(off, CodeNotProfile, fmt.Sprintf("the value of %q is %v; a per-layer time is never negative", name, v), fixNotProfile)
			}
			if v != math.Trunc(v) {
				whole = false
			}
			e := entry{name: name, seen: hasName, start: off}
			e.timeValue(field{stat: fieldTime}, v, hint, t)
			if firstNum < 0 {
				firstNum = off
			}
			s.addRecord(p, &e, &counts, entryRef{kind: "the entry", name: name})
			nums++
		case c == '[':
			if s.listOfObjects() {
				if depth < maxWrapDepth && nested == "" && len(p.Records) == 0 {
					nested = name
					t.path = append(t.path, name)
					s.listTable(p, t, s.wrapHint(name, hint, t), &counts)
					break
				}
				s.skip()
				break
			}
			if isSetting && !s.looksLikeSamples() {
				s.skip() // "inputs": ["x"], "shape": [1, 3]
				break
			}
			e := entry{name: name, seen: hasName, start: s.pos}
			e.samples = s.samplesIn(t.scaleOf(field{}, hint), name)
			if len(e.samples) == 0 {
				s.failAt(s.pos-1, CodeMissingField, fmt.Sprintf("layer %q has no latency samples", name), "every layer of a latency dictionary needs at least one sample: re-run the profiler script")
			}
			e.seen |= hasSamples
			s.addRecord(p, &e, &counts, entryRef{kind: "layer", name: name})
			samples++
		case c == '{':
			if s.isRecord() {
				if isSetting && setting == "" {
					setting = name
				}
				e := s.recordObject(name, hint, t)
				s.addRecord(p, &e, &counts, entryRef{kind: "layer", name: name})
				recs++
				break
			}
			if depth < maxWrapDepth && nested == "" && len(p.Records) == 0 {
				nested = name
				t.path = append(t.path, name)
				s.objectTable(p, t, s.wrapHint(name, hint, t), name, depth+1)
				break
			}
			s.skip()
		default:
			s.unexpected("a JSON value")
		}
		if !s.more('}') {
			break
		}
	}
	switch {
	case nested != "":
		if count >= 0 && count == math.Trunc(count) && count <= maxCount && !p.HasCount {
			p.Count, p.HasCount = int64(count), true
		}
		if nums+samples+recs > 0 {
			s.failAt(start, CodeNotProfile, fmt.Sprintf("the object mixes per-layer entries with the table %q; keep one table per file", nested), fixNotProfile)
		}
		t.user = true
		if t.shape == "" {
			t.shape = "a list of per-layer records"
		}
	case nums+samples+recs == 0 && setting != "":
		s.failAt(start, CodeNotProfile, fmt.Sprintf("the object holds settings or end-to-end numbers (%q), not per-layer times", setting), fixNotTimeTable)
	case nums+recs > 0:
		where := "the object"
		if key != "" {
			where = fmt.Sprintf("the object %q", key)
		}
		switch {
		case setting != "":
			s.failAt(start, CodeNotProfile, fmt.Sprintf("%s has the key %q, a setting or end-to-end number, not a layer name, so it is no table of per-layer times", where, setting), fixNotTimeTable)
		case nums+samples+recs < 2:
			s.failAt(start, CodeNotProfile, where+" names a single layer; a table of per-layer times names at least two", fixNotTimeTable)
		case nums > 0 && whole && recs+samples == 0 && hint.unit == "":
			s.failAt(firstNum, CodeNotProfile, where+" maps every key to a whole number: counts or settings, not per-layer times in ms", fixNotTimeTable)
		}
		t.user = true
		t.shape = "an object of layer name → time"
		if recs > 0 {
			t.shape = "an object of layer name → record"
		}
	case samples > 0:
		p.Kind = engine.ProfileLatencyDict
		if key != "" || hint.unit != "" {
			t.user = true
			t.shape = "an object of layer name → samples"
		}
	}
	if depth > 0 {
		return
	}
	if len(p.Records) > 0 && p.Kind == "" {
		p.Kind = engine.ProfileTrtexec
	}
	if len(t.path) > 0 {
		t.shape += " under " + quoteKeys(t.path...)
	}
	finishTable(p, counts, t)
}

// fixNotTimeTable says how to write per-layer times so they are read.
const fixNotTimeTable = "a table of per-layer times maps each layer name to its time in ms ({\"conv1\": 0.12, \"fc\": 0.05}), to its samples, or to a record; name the unit when it is not ms ({\"unit\": \"us\", \"layers\": {...}}), or export the profile with trtexec --exportProfile=F"

func quoteKeys(keys ...string) string {
	var q []string
	for _, k := range keys {
		if k != "" {
			q = append(q, fmt.Sprintf("%q", k))
		}
	}
	return strings.Join(q, " → ")
}

// addRecord resolves e and appends it, with its count for finishTable.
func (s *scanner) addRecord(p *engine.Profile, e *entry, counts *[]float64, what entryRef) {
	if len(p.Records) >= engine.MaxLayers {
		s.failAt(s.pos, CodeTooManyLayers, fmt.Sprintf("the profile holds more than %d records", engine.MaxLayers), fixTooManyLayers)
	}
	if e.seen&hasCount != 0 {
		*counts = append(*counts, e.count)
	}
	p.Records = append(p.Records, s.resolve(e, p, what))
}

// wrapHint is the unit scale inside a wrapper key ("layer_times_us": µs).
func (s *scanner) wrapHint(key string, hint unitHint, t *tableRead) unitHint {
	if f := timeField(key); f.unit != "" {
		return unitHint{unit: f.unit, scale: f.scale}
	}
	return hint
}

// scanMembers looks over the members of the object at s.pos without
// moving: its "unit": "us" member (units may be written after the table
// they apply to), and how many members hold a nested table (an object
// that is no record, or a list of objects) — a wrapper holds one.
func (s *scanner) scanMembers() (u unitHint, hasUnit bool, nested int) {
	save, depth := s.pos, s.depth
	defer func() { s.pos, s.depth = save, depth }()
	if s.open('}') {
		return u, false, 0
	}
	for {
		kraw, kesc := s.key()
		k := string(s.decoded(kraw, kesc))
		switch c := s.peek(); {
		case unitKey(k) && c == '"':
			raw, esc := s.rawString()
			v := strings.ToLower(strings.TrimSpace(string(s.decoded(raw, esc))))
			us, known := unitScales[v]
			if !known {
				s.failAt(s.pos, CodeNotProfile, fmt.Sprintf("the unit %q is not a time unit", v), "name the unit of the times as ms, us, ns or s")
			}
			u, hasUnit = unitHint{unit: us.unit, scale: us.scale}, true
		case c == '{' && !s.isRecord(), c == '[' && s.listOfObjects():
			nested++
			s.skip()
		default:
			s.skip()
		}
		if !s.more('}') {
			return u, hasUnit, nested
		}
	}
}

// listOfObjects reports whether the list at s.pos starts with an object.
func (s *scanner) listOfObjects() bool { return s.listElem() == '{' }

func (s *scanner) listElem() byte {
	i := s.pos + 1
	for i < len(s.data) && isSpace(s.data[i]) {
		i++
	}
	if i < len(s.data) {
		return s.data[i]
	}
	return 0
}

// isRecord reports whether the object at s.pos is one layer's record (a
// time field holding a number or a list of samples: "avg_ms", "times")
// rather than a table keyed by layer names or a wrapper. It does not move.
func (s *scanner) isRecord() bool {
	save, depth := s.pos, s.depth
	defer func() { s.pos, s.depth = save, depth }()
	if s.open('}') {
		return false
	}
	for {
		kraw, kesc := s.key()
		switch k := string(s.decoded(kraw, kesc)); timeField(k).stat {
		case fieldAvg, fieldMedian, fieldTotal, fieldTime, fieldSamples:
			if !vocabularyOnly(k) {
				break // "GlobalAveragePool_47" is a layer, not a field
			}
			if c := s.peek(); c == '-' || c >= '0' && c <= '9' || c == '[' && s.looksLikeSamples() {
				return true
			}
		}
		s.skip()
		if !s.more('}') {
			return false
		}
	}
}

// recordObject reads {field: value, ...}, the record of the layer name.
func (s *scanner) recordObject(name string, hint unitHint, t *tableRead) entry {
	e := entry{name: name, seen: hasName, start: s.pos}
	s.entryFields(&e, hint, t, true)
	return e
}

// listTable reads a list of per-layer records nested in a wrapper.
func (s *scanner) listTable(p *engine.Profile, t *tableRead, hint unitHint, counts *[]float64) {
	if s.open(']') {
		return
	}
	t.user = true
	for i := 0; ; i++ {
		if s.peek() != '{' {
			s.failAt(s.pos, CodeNotProfile, fmt.Sprintf("entry %d of the list is %s; per-layer entries are objects", i, s.valueKind()), fixNotProfile)
		}
		e := entry{start: s.pos, index: i}
		s.entryFields(&e, hint, t, false)
		if e.seen&hasLayerKey != 0 && e.seen&hasName == 0 {
			s.failAt(e.start, CodeNotProfile, fmt.Sprintf("entry %d is a layer-info record (it has \"Name\"/\"LayerType\"), not a per-layer time", i), fixNotProfile)
		}
		s.addRecord(p, &e, counts, entryRef{kind: "profile entry", index: i})
		if !s.more(']') {
			break
		}
	}
}

// entryFields reads the members of one record object into e: trtexec's
// own keys by their exact spelling (the fast path of a 200k-layer
// profile), any other key through timeField. named says the name is
// known already (the key of a name → record object).
func (s *scanner) entryFields(e *entry, hint unitHint, t *tableRead, named bool) {
	if s.open('}') {
		return
	}
	for {
		kraw, kesc := s.key()
		switch string(kraw) {
		case "name":
			s.entryName(e, kraw)
		case "timeMs":
			e.total, e.seen = s.optFloat(e.seen, hasTime, e.index, "timeMs")
			t.unit("ms")
		case "averageMs":
			e.avg, e.seen = s.optFloat(e.seen, hasAvg, e.index, "averageMs")
			t.unit("ms")
		case "medianMs":
			e.median, e.seen = s.optFloat(e.seen, hasMedian, e.index, "medianMs")
		case "percentage":
			e.percent, e.seen = s.optFloat(e.seen, hasPercent, e.index, "percentage")
		case "count":
			e.count, e.seen = s.optFloat(e.seen, hasCount, e.index, "count")
		case "Name", "LayerType", "Inputs", "Outputs":
			e.seen |= hasLayerKey
			s.skip()
		default:
			key := string(s.decoded(kraw, kesc))
			f := timeField(key)
			switch f.stat {
			case fieldName:
				if named || s.peek() != '"' {
					s.skip() // a second name field (the layer's key names it), or a layer index
					break
				}
				s.entryName(e, kraw)
				t.user = true
			case fieldAvg, fieldMedian, fieldTotal, fieldTime:
				if s.peek() == '[' && (f.stat == fieldTime || f.stat == fieldSamples) {
					e.samples, e.seen = s.samplesIn(t.scaleOf(f, hint), key), e.seen|hasSamples
					t.user = true
					break
				}
				var v float64
				var bit int
				if v, bit = s.optFloat(0, 1, e.index, key); bit != 0 {
					e.timeValue(f, v, hint, t)
				}
				t.user = true
			case fieldSamples:
				if s.peek() != '[' {
					if s.peek() != '"' { // "samples": 100 is a count
						if v, bit := s.optFloat(0, 1, e.index, key); bit != 0 {
							e.count, e.seen = v, e.seen|hasCount
						}
						break
					}
					s.skip()
					break
				}
				e.samples, e.seen = s.samplesIn(t.scaleOf(f, hint), key), e.seen|hasSamples
				t.user = true
			case fieldCount:
				if c := s.peek(); c == '-' || c >= '0' && c <= '9' {
					e.count, e.seen = s.float(), e.seen|hasCount
					break
				}
				s.skip()
			default:
				s.skip() // a share, a spread, a type: not the layer's cost
			}
		}
		if !s.more('}') {
			return
		}
	}
}

func (s *scanner) entryName(e *entry, kraw []byte) {
	if s.peek() != '"' {
		s.failAt(s.pos, CodeMissingField, fmt.Sprintf("%q of profile entry %d is %s, not a string", string(kraw), e.index, s.valueKind()), fixNotProfile)
	}
	raw, esc := s.rawString()
	e.name = s.str(raw, esc)
	e.seen |= hasName
}

// samplesIn reads a list of samples scaled to ms by scale (1: ms, or
// assumed when nothing named the unit).
func (s *scanner) samplesIn(scale float64, name string) []float64 {
	out := s.sampleList(nil, name)
	if scale != 1 {
		for i := range out {
			out[i] *= scale
		}
	}
	for _, v := range out {
		if v < 0 {
			s.failAt(s.pos, CodeNotProfile, fmt.Sprintf("a sample of %q is %v; a time is never negative", name, v), fixNotProfile)
		}
	}
	return out
}

// kindArticle names a kind of file in a sentence ("this file is ...").
func kindArticle(k Kind) string {
	switch k {
	case KindMetadata:
		return "trtexec metadata (options, an end-to-end performance summary or device facts)"
	case KindConfig:
		return "a model configuration"
	case KindTimes:
		return "trtexec --exportTimes records (one per inference, not per layer)"
	}
	return k.String()
}

// isColumns reports whether the object at s.pos is a table stored by
// column, as pandas' DataFrame.to_json writes one by default: every member
// a field ("avg_ms", "name", "median_us", ...) mapping each row (a layer
// name, or a row number beside a "name" column) to its value, with at
// least one time column. It does not move.
func (s *scanner) isColumns() bool {
	save, depth := s.pos, s.depth
	defer func() { s.pos, s.depth = save, depth }()
	if s.open('}') {
		return false
	}
	times := 0
	for {
		kraw, kesc := s.key()
		k := string(s.decoded(kraw, kesc))
		if unitKey(k) && s.peek() == '"' {
			s.skip()
		} else {
			if s.peek() != '{' || !vocabularyOnly(k) {
				return false
			}
			switch timeField(k).stat {
			case fieldAvg, fieldMedian, fieldTotal, fieldTime:
				times++
			}
			s.skip()
		}
		if !s.more('}') {
			return times > 0
		}
	}
}

// columnTable reads a table stored by column (isColumns): rows are joined
// by their key, in the order the first column lists them; a row's name is
// its "name" column's value, else its key.
func (s *scanner) columnTable(p *engine.Profile, t *tableRead, hint unitHint) (counts []float64) {
	t.user = true
	t.shape = "an object of columns (as pandas' to_json writes)"
	rows := map[string]int{}
	var list []entry
	var keys []string
	s.open('}') // not empty: isColumns found a column
	for {
		kraw, kesc := s.key()
		col := s.str(kraw, kesc)
		if s.peek() != '{' {
			s.skip() // the unit, read by scanMembers
		} else if f := timeField(col); !s.open('}') {
			for {
				rraw, resc := s.key()
				row := string(s.decoded(rraw, resc))
				i, ok := rows[row]
				if !ok {
					if len(list) >= engine.MaxLayers {
						s.failAt(s.pos, CodeTooManyLayers, fmt.Sprintf("the table holds more than %d rows", engine.MaxLayers), fixTooManyLayers)
					}
					i = len(list)
					rows[row] = i
					list = append(list, entry{start: s.pos, index: i})
					keys = append(keys, s.str(rraw, resc))
				}
				e := &list[i]
				switch c := s.peek(); {
				case f.stat == fieldName && c == '"':
					s.entryName(e, kraw)
				case f.stat == fieldCount && (c == '-' || c >= '0' && c <= '9'):
					e.count, e.seen = s.float(), e.seen|hasCount
				case f.stat == fieldAvg || f.stat == fieldMedian || f.stat == fieldTotal || f.stat == fieldTime:
					if v, bit := s.optFloat(0, 1, i, col); bit != 0 {
						if v < 0 {
							s.failAt(s.pos, CodeNotProfile, fmt.Sprintf("row %q of column %q is %v; a time is never negative", row, col, v), fixNotProfile)
						}
						e.timeValue(f, v, hint, t)
					}
				default:
					s.skip()
				}
				if !s.more('}') {
					break
				}
			}
		}
		if !s.more('}') {
			break
		}
	}
	for i := range list {
		e := &list[i]
		if e.seen&hasName == 0 {
			e.name, e.seen = keys[i], e.seen|hasName
		}
		s.addRecord(p, e, &counts, entryRef{kind: "row", name: keys[i]})
	}
	return counts
}
