package dump

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	"github.com/trtperf/trtperf/internal/engine"
)

const fixNotProfile = "expected per-layer times: the list written by trtexec --exportProfile=F ([{\"count\": N}, {\"name\", \"timeMs\", \"averageMs\", ...}, ...]), a latency dictionary {\"layer name\": [ms, ...]}, or a table of your own (layer name → ms, a list of {\"name\", \"avg_ms\"} records, or a CSV with a layer column and a time column)"

// ReadProfile reads and parses a profile file.
func ReadProfile(path string) (*engine.Profile, error) {
	p, rerr, err := parseInput(path, kindProfileFile, func(data []byte) (*engine.Profile, error) {
		p, err := ParseProfile(data)
		return p, sayWhatItIs(err, data)
	})
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
	return parseProfileWith(&s)
}

func parseProfileWith(s *scanner) (p *engine.Profile, err error) {
	data := s.data
	defer recoverInto(&err)
	p = &engine.Profile{}
	s.skipBOM()
	if s.atEnd() {
		return nil, errPlain(CodeEmpty, "the profile file is empty; re-run trtexec with --exportProfile=F (and --separateProfileRun)")
	}
	if list, ok := recordLines(data[s.pos:]); ok {
		// Records pasted one per line without the list around them: read
		// them as the list they were cut from.
		s = &scanner{data: list, intern: s.intern}
	}
	if c := s.peek(); c != '[' && c != '{' && !s.partial {
		if _, reason, ok := findHeader(data[s.pos:]); ok || reason != "" {
			return parseCSVTable(data[s.pos:])
		}
	}
	switch s.peek() {
	case '[':
		p.Kind = engine.ProfileTrtexec
		s.trtexecProfile(p)
	case '{':
		s.objectTable(p, &tableRead{}, noHint, "", 0)
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
// "medianMs", "percentage"}, ...], and a user's list of per-layer records
// in any naming (entryFields).
func (s *scanner) trtexecProfile(p *engine.Profile) {
	if s.open(']') {
		return
	}
	var recs chunked[engine.ProfileRecord]
	var t tableRead
	var counts []float64
	for i := 0; ; i++ {
		if s.peek() != '{' {
			s.failAt(s.pos, CodeNotProfile, fmt.Sprintf("entry %d of the list is %s; profile entries are objects", i, s.valueKind()), fixNotProfile)
		}
		if recs.n >= engine.MaxLayers {
			s.failAt(s.pos, CodeTooManyLayers, fmt.Sprintf("the profile holds more than %d records", engine.MaxLayers), fixTooManyLayers)
		}
		s.profileEntry(p, &recs, &t, &counts, i)
		if !s.more(']') {
			break
		}
	}
	p.Records = recs.appendTo(make([]engine.ProfileRecord, 0, recs.n))
	if t.user {
		t.shape = "a list of per-layer records"
	}
	finishTable(p, counts, &t)
}

func (s *scanner) profileEntry(p *engine.Profile, recs *chunked[engine.ProfileRecord], t *tableRead, counts *[]float64, i int) {
	e := entry{start: s.pos, index: i}
	s.entryFields(&e, noHint, t, false)
	if e.seen&hasName == 0 && e.seen&hasLayerKey != 0 {
		s.failAt(e.start, CodeNotProfile, fmt.Sprintf("entry %d is a layer-info record (it has \"Name\"/\"LayerType\"), so this file is layer info, not a profile", i), fixNotProfile)
	}
	if i == 0 && e.seen&hasCount != 0 && e.seen&hasName == 0 {
		if c := e.count; c < 0 || c != math.Trunc(c) || c > maxCount {
			s.failAt(e.start, CodeMissingField, fmt.Sprintf("the \"count\" header is %v, not a whole number of iterations up to %d", c, int64(maxCount)), fixNotProfile)
		}
		p.Count, p.HasCount = int64(e.count), true
		return
	}
	if e.seen&hasCount != 0 {
		*counts = append(*counts, e.count)
	}
	if e.seen&(hasTime|hasAvg) == hasAvg && p.HasCount && e.seen&hasCount == 0 {
		// trtexec's count header gives the total of a record without one.
		e.total, e.seen = e.avg*float64(p.Count), e.seen|hasTime
	}
	*recs.next() = s.resolve(&e, p, entryRef{kind: "profile entry", index: i})
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
