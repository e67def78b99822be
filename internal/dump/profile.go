package dump

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/trtperf/trtperf/internal/engine"
)

const fixNotProfile = "expected a per-layer profile: the list written by trtexec --exportProfile=F ([{\"count\": N}, {\"name\", \"timeMs\", \"averageMs\", ...}, ...]) or a latency dictionary {\"layer name\": [ms, ...]}"

// ReadProfile reads and parses a profile file.
func ReadProfile(path string) (*engine.Profile, error) {
	p, rerr, err := parseInput(path, kindJSONDump, ParseProfile)
	if rerr != nil {
		return nil, fmt.Errorf("read profile %s: %w", path, rerr)
	}
	if err != nil {
		return nil, fmt.Errorf("profile %s: %w", path, err)
	}
	return p, nil
}

// FirstProfile re-reads the first document of a profile file whose error
// says it holds several concatenated ones; nil for any other error or when
// the first document is not a usable profile.
func FirstProfile(path string, err error) *engine.Profile {
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Code != CodeConcatenated || fe.Offset <= 0 {
		return nil
	}
	data, rerr := readInput(path, kindJSONDump)
	if rerr != nil {
		return nil
	}
	return FirstProfileOf(data, err)
}

// FirstProfileOf is FirstProfile for a profile in memory: err is what
// ParseProfile(data) returned.
func FirstProfileOf(data []byte, err error) *engine.Profile {
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Code != CodeConcatenated || fe.Offset <= 0 || fe.Offset > len(data) {
		return nil
	}
	p, perr := ParseProfile(data[:fe.Offset])
	if perr != nil {
		return nil
	}
	return p
}

// ParseProfile parses a trtexec profile list (with or without the count
// header and medianMs) or a latency-sample dictionary ({name: [ms, ...]} or
// {name: [[ms, "timestamp"], ...]}). Errors are *FormatError.
func ParseProfile(data []byte) (p *engine.Profile, err error) {
	s := newScanner(data)
	defer recoverInto(&err)
	p = &engine.Profile{}
	s.skipBOM()
	if s.atEnd() {
		return nil, errPlain(CodeEmpty, "the profile file is empty; re-run trtexec with --exportProfile=F (and --separateProfileRun)")
	}
	if list, ok := recordLines(data[s.pos:]); ok {
		// Records pasted one per line without the list around them: read
		// them as the list they were cut from.
		s = newScanner(list)
	}
	switch s.peek() {
	case '[':
		p.Kind = engine.ProfileTrtexec
		s.trtexecProfile(p)
	case '{':
		p.Kind = engine.ProfileLatencyDict
		s.latencyDict(p)
	default:
		s.failAt(s.pos, CodeNotProfile, "the root of the file is "+s.valueKind()+", not a list or an object", fixNotProfile)
	}
	s.finish()
	if len(p.Records) == 0 {
		return nil, errPlain(CodeEmpty, "the profile holds no per-layer records; re-run trtexec with --exportProfile=F --separateProfileRun")
	}
	return p, nil
}

// maxCount is the largest iteration count taken: every whole number up to
// it is exact in a float64 (and far beyond any real run).
const maxCount = 1 << 53

// trtexecProfile reads [{"count": N}, {"name", "timeMs", "averageMs",
// "medianMs", "percentage"}, ...].
func (s *scanner) trtexecProfile(p *engine.Profile) {
	if s.open(']') {
		return
	}
	var recs chunked[engine.ProfileRecord]
	for i := 0; ; i++ {
		if s.peek() != '{' {
			s.failAt(s.pos, CodeNotProfile, fmt.Sprintf("entry %d of the list is %s; profile entries are objects", i, s.valueKind()), fixNotProfile)
		}
		if recs.n >= engine.MaxLayers {
			s.failAt(s.pos, CodeTooManyLayers, fmt.Sprintf("the profile holds more than %d records", engine.MaxLayers), fixTooManyLayers)
		}
		s.profileEntry(p, &recs, i)
		if !s.more(']') {
			break
		}
	}
	p.Records = recs.appendTo(make([]engine.ProfileRecord, 0, recs.n))
}

// Field bits of a trtexec profile entry.
const (
	hasName = 1 << iota
	hasTime
	hasAvg
	hasMedian
	hasPercent
	hasCount
	hasLayerKey
)

func (s *scanner) profileEntry(p *engine.Profile, recs *chunked[engine.ProfileRecord], i int) {
	start := s.pos
	var r engine.ProfileRecord
	var count float64
	var seen int
	if !s.open('}') {
		for {
			kraw, _ := s.key()
			switch string(kraw) {
			case "name", "layer", "layer_name", "layerName":
				if s.peek() != '"' {
					s.failAt(s.pos, CodeMissingField, fmt.Sprintf("\"name\" of profile entry %d is %s, not a string", i, s.valueKind()), fixNotProfile)
				}
				raw, esc := s.rawString()
				r.Name, r.OptProfile = splitProfile(s.str(raw, esc))
				seen |= hasName
			case "timeMs", "total_ms", "totalMs", "sum_ms":
				r.TimeMs, seen = s.optFloat(seen, hasTime, i, "timeMs")
			case "averageMs", "avg_ms", "avgMs", "average_ms", "mean_ms", "meanMs", "ms", "latency_ms":
				// A user's IProfiler table names the average its own way.
				r.AverageMs, seen = s.optFloat(seen, hasAvg, i, "averageMs")
			case "medianMs", "median_ms", "med_ms":
				r.MedianMs, seen = s.optFloat(seen, hasMedian, i, "medianMs")
			case "percentage":
				r.Percentage, seen = s.optFloat(seen, hasPercent, i, "percentage")
			case "count":
				count, seen = s.optFloat(seen, hasCount, i, "count")
			case "Name", "LayerType", "Inputs", "Outputs":
				seen |= hasLayerKey
				s.skip()
			default:
				s.skip()
			}
			if !s.more('}') {
				break
			}
		}
	}
	if seen&hasName == 0 && seen&hasLayerKey != 0 {
		s.failAt(start, CodeNotProfile, fmt.Sprintf("entry %d is a layer-info record (it has \"Name\"/\"LayerType\"), so this file is layer info, not a profile", i), fixNotProfile)
	}
	if i == 0 && seen&hasCount != 0 && seen&hasName == 0 {
		if count < 0 || count != math.Trunc(count) || count > maxCount {
			s.failAt(start, CodeMissingField, fmt.Sprintf("the \"count\" header is %v, not a whole number of iterations up to %d", count, int64(maxCount)), fixNotProfile)
		}
		p.Count, p.HasCount = int64(count), true
		return
	}
	if seen&hasTime == 0 && seen&hasAvg != 0 && !p.HasCount {
		// A user's table of per-layer averages (no trtexec count header,
		// no total): the average is all there is; the iteration count is
		// unknown.
		r.TimeMs, seen = r.AverageMs, seen|hasTime
		p.AveragesOnly = true
	}
	for _, f := range [...]struct {
		bit  int
		name string
	}{{hasName, "name"}, {hasTime, "timeMs"}, {hasAvg, "averageMs"}} {
		if seen&f.bit == 0 {
			s.failAt(start, CodeMissingField, fmt.Sprintf("profile entry %d has no %q", i, f.name),
				"every trtexec profile record needs \"name\", \"timeMs\" and \"averageMs\": re-export with trtexec --exportProfile=F")
		}
	}
	r.HasMedian = seen&hasMedian != 0
	r.HasPercent = seen&hasPercent != 0
	*recs.next() = r
}

// optFloat reads a number field (null reads as absent) and sets bit in seen.
func (s *scanner) optFloat(seen, bit, i int, field string) (float64, int) {
	switch c := s.peek(); {
	case c == 'n':
		s.literal()
		return 0, seen
	case c == '-' || c >= '0' && c <= '9':
		return s.float(), seen | bit
	case c == '"' || c == '{' || c == '[' || c == 't' || c == 'f':
		s.failAt(s.pos, CodeMissingField, fmt.Sprintf("%q of profile entry %d is %s, not a number", field, i, s.valueKind()), fixNotProfile)
	}
	s.unexpected("a number")
	return 0, seen
}

// latencyDict reads {name: [ms, ...]} or {name: [[ms, "timestamp"], ...]},
// one record per key in file order (a repeated key gives a repeated record,
// as repeated layer names do). Average, median, total and share come from
// the samples.
func (s *scanner) latencyDict(p *engine.Profile) {
	start := s.pos
	if s.open('}') {
		return
	}
	var samples []float64
	sameCount := true
	for {
		kraw, kesc := s.key()
		name := s.str(kraw, kesc)
		switch name {
		case "Layers", "Bindings", "I/O Tensors":
			s.failAt(start, CodeNotProfile, fmt.Sprintf("the root object has %q, so this file is layer info, not a profile", name), fixNotProfile)
		}
		if s.peek() != '[' {
			s.failAt(s.pos, CodeNotProfile, fmt.Sprintf("the value of %q is %s; a latency dictionary maps each layer name to a list of samples in ms", name, s.valueKind()), fixNotProfile)
		}
		samples = s.sampleList(samples[:0], name)
		if len(samples) == 0 {
			s.failAt(s.pos-1, CodeMissingField, fmt.Sprintf("layer %q has no latency samples", name), "every layer of a latency dictionary needs at least one sample: re-run the profiler script")
		}
		r := engine.ProfileRecord{Samples: len(samples), HasMedian: true, HasPercent: true}
		r.Name, r.OptProfile = splitProfile(name)
		for _, v := range samples {
			r.TimeMs += v
		}
		r.AverageMs = r.TimeMs / float64(len(samples))
		slices.Sort(samples)
		if n := len(samples); n%2 == 1 {
			r.MedianMs = samples[n/2]
		} else {
			r.MedianMs = (samples[n/2-1] + samples[n/2]) / 2
		}
		if len(p.Records) > 0 && p.Records[0].Samples != r.Samples {
			sameCount = false
		}
		if len(p.Records) >= engine.MaxLayers {
			s.failAt(s.pos, CodeTooManyLayers, fmt.Sprintf("the profile holds more than %d records", engine.MaxLayers), fixTooManyLayers)
		}
		p.Records = append(p.Records, r)
		if !s.more('}') {
			break
		}
	}
	var total float64
	for _, r := range p.Records {
		total += r.AverageMs
	}
	for i := range p.Records {
		if total > 0 {
			p.Records[i].Percentage = p.Records[i].AverageMs / total * 100
		}
	}
	if sameCount && len(p.Records) > 0 {
		p.Count, p.HasCount = int64(p.Records[0].Samples), true
	}
}

// sampleList reads one layer's samples: numbers, or lists whose first
// element is the number (the rest, e.g. a timestamp, is validated and
// ignored).
func (s *scanner) sampleList(out []float64, name string) []float64 {
	if s.open(']') {
		return out
	}
	for {
		switch c := s.peek(); {
		case c == '-' || c >= '0' && c <= '9':
			out = append(out, s.float())
		case c == '[':
			s.pos++
			s.enter()
			if c := s.peek(); c != '-' && (c < '0' || c > '9') {
				s.sampleErr(name, len(out))
			}
			out = append(out, s.float())
			for s.more(']') {
				s.skip()
			}
		case c == '"' || c == '{' || c == 't' || c == 'f' || c == 'n':
			s.sampleErr(name, len(out))
		default:
			s.unexpected("a latency sample")
		}
		if !s.more(']') {
			return out
		}
	}
}

func (s *scanner) sampleErr(name string, i int) {
	if c := s.peek(); c == 'N' || c == 'I' || c == '-' {
		s.unexpected("a number")
	}
	s.failAt(s.pos, CodeNotProfile, fmt.Sprintf("sample %d of %q is %s; samples are numbers (ms) or [ms, \"timestamp\"] pairs", i, name, s.valueKind()), fixNotProfile)
}

// ProfileRuns re-reads a profile file whose error says it holds several
// concatenated documents and parses each (one trtexec run each, as when a
// script appends the profiles of a batch sweep); nil for any other error.
// A document that does not parse ends the list.
func ProfileRuns(path string, err error) []*engine.Profile {
	if data := concatenated(path, err); data != nil {
		return ProfileRunsOf(data)
	}
	return nil
}

// concatenated re-reads path when err says it holds several concatenated
// JSON documents; nil for any other error or when it cannot be read again.
func concatenated(path string, err error) []byte {
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Code != CodeConcatenated {
		return nil
	}
	data, rerr := readInput(path, kindJSONDump)
	if rerr != nil {
		return nil
	}
	return data
}

// ProfileRunsOf splits data into its concatenated profile documents, in
// time linear in len(data): the document boundaries are found in one
// pass, then each document is parsed alone. A document that does not
// parse ends the list.
func ProfileRunsOf(data []byte) []*engine.Profile {
	var out []*engine.Profile
	for _, sp := range documentSpans(data) {
		p, err := ParseProfile(data[sp[0]:sp[1]])
		if err != nil {
			return out
		}
		out = append(out, p)
	}
	return out
}

// documentSpans returns the [start, end) of each JSON document of data
// (documents concatenated, white space between them), in one pass; it
// stops at the first that does not scan.
func documentSpans(data []byte) (spans [][2]int) {
	s := scanner{data: data}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(scanError); !ok {
				panic(r)
			}
		}
	}()
	s.skipBOM()
	for !s.atEnd() {
		start := s.pos
		s.depth = 0
		s.skip()
		spans = append(spans, [2]int{start, s.pos})
	}
	return spans
}

// recordLines recognises exported profile records pasted one per line
// without the list brackets, each line one object, optionally with the
// ", " separator trtexec writes before it ({ "name" : "x", "timeMs" : 1,
// "averageMs" : 0.1, ... }), and returns them as a JSON list.
func recordLines(data []byte) ([]byte, bool) {
	if len(data) > 64<<20 {
		return nil, false // a real profile file, not a paste
	}
	var objs [][]byte
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		l := bytes.TrimSpace(line)
		l = bytes.TrimSpace(bytes.TrimPrefix(l, []byte(",")))
		l = bytes.TrimSpace(bytes.TrimSuffix(l, []byte(",")))
		if len(l) == 0 {
			continue
		}
		if l[0] != '{' || l[len(l)-1] != '}' {
			return nil, false
		}
		objs = append(objs, l)
	}
	if len(objs) == 0 || !bytes.Contains(objs[0], []byte(`"name"`)) || !bytes.Contains(objs[0], []byte(`"averageMs"`)) && !bytes.Contains(objs[0], []byte(`"timeMs"`)) {
		return nil, false
	}
	out := append([]byte("["), bytes.Join(objs, []byte(","))...)
	return append(out, ']'), true
}
