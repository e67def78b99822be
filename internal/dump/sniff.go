package dump

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/trtperf/trtperf/internal/engine"
)

// Kind classifies a JSON file found beside the dumps.
type Kind int

const (
	KindUnknown     Kind = iota
	KindLayerInfo        // trtexec --exportLayerInfo / inspector / front-end layer info
	KindProfile          // trtexec --exportProfile list
	KindLatencyDict      // {layer name: [ms, ...]} latency samples
	KindTimes            // trtexec --exportTimes per-inference records
	KindConfig           // Hugging Face / diffusers model config
	KindMetadata         // trex build/profile/device metadata
	KindTrtexecLog       // trtexec console output
	KindTimeTable        // a user's per-layer times in its own shape (usertable.go, csvtable.go)
)

var kindNames = [...]string{"unknown", "layer info", "trtexec profile", "latency dictionary", "trtexec times", "model config", "trtexec metadata", "trtexec log", "per-layer time table"}

// NumKinds is the number of kinds Sniff can return (KindUnknown included):
// a consumer's switch over kinds is tested against every Kind below it.
const NumKinds = Kind(len(kindNames))

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

// IsProfile reports whether k is per-layer timing of any format.
func (k Kind) IsProfile() bool { return k == KindProfile || k == KindLatencyDict || k == KindTimeTable }

// SniffSize is how many leading bytes Sniff needs to decide.
const SniffSize = 8 << 10

// Sniff classifies a file from its first bytes (SniffSize is enough; the
// head may end mid-document). It decides on the first keys that tell the
// formats apart and never reads the whole document.
func Sniff(head []byte) (kind Kind) {
	s := newScanner(head)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(scanError); !ok {
				panic(r)
			}
		}
	}()
	defer func() {
		if kind == KindUnknown && isTimeTableText(head) {
			kind = KindTimeTable
		} else if kind == KindUnknown && isTrtexecLog(head) {
			kind = KindTrtexecLog
		} else if kind == KindUnknown && looksLikeInspectorText(head) {
			kind = KindLayerInfo
		}
	}()
	s.skipBOM()
	switch s.peek() {
	case '{':
		s.pos++
		if k := sniffKeys(s.sniffRootObject); k != KindUnknown {
			return k
		}
		return sniffTimeTable(head)
	case '[':
		s.pos++
		switch s.peek() {
		case '"':
			return KindLayerInfo // a names-only layer list
		case '{':
			s.pos++
			if k := sniffKeys(s.sniffListObject); k != KindUnknown {
				return k
			}
			return sniffTimeTable(head)
		}
	}
	return KindUnknown
}

// sniffKeys runs a sniff of the first keys; a head cut in the middle of
// a value it skips is KindUnknown for it, so the caller can read on.
func sniffKeys(sniff func() Kind) (k Kind) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(scanError); !ok {
				panic(r)
			}
			k = KindUnknown
		}
	}()
	return sniff()
}

// sniffTimeTable reads head as a per-layer profile of any shape: a head
// of SniffSize bytes may be cut mid-document, so it is read up to its
// last complete member. KindTimeTable for a user's own shape (the rules
// of usertable.go decide, on what the head holds), KindProfile or
// KindLatencyDict for trtexec's, KindUnknown when it is none.
func sniffTimeTable(head []byte) Kind {
	if len(head) < SniffSize {
		s := newScanner(head)
		return timeTableKind(parseProfileWith(&s))
	}
	// Cut after the last complete member at each depth, latest first: a
	// cut inside the last record would leave it without its time.
	for _, cut := range lastSeparators(head) {
		s := newScanner(head[:cut])
		s.partial = true
		if k := timeTableKind(parseProfileWith(&s)); k != KindUnknown {
			return k
		}
	}
	if columnsHead(head) {
		return KindTimeTable
	}
	return KindUnknown
}

// columnsHead reports whether a cut head starts a table stored by column
// whose first column fills the head (a long "name" column of pandas'
// to_json): an object whose keys so far are all fields (name, time,
// count columns) and whose first value is an object of rows.
func columnsHead(head []byte) (ok bool) {
	keys := rootKeys(head)
	if len(keys) == 0 {
		return false
	}
	for _, k := range keys {
		if !vocabularyOnly(k) || timeField(k).stat == fieldOther {
			return false
		}
	}
	s := newScanner(head)
	s.skipBOM()
	if s.peek() != '{' {
		return false
	}
	s.pos++
	defer func() {
		if r := recover(); r != nil {
			if _, isScan := r.(scanError); !isScan {
				panic(r)
			}
			ok = false // the head ends inside the first key
		}
	}()
	s.key()
	return s.peek() == '{'
}

func timeTableKind(p *engine.Profile, err error) Kind {
	switch {
	case err != nil || len(p.Records) == 0:
		return KindUnknown
	case p.Read != "":
		return KindTimeTable
	case p.Kind == engine.ProfileLatencyDict:
		return KindLatencyDict
	}
	return KindProfile
}

// lastSeparators returns the offset of the last ',' outside a string at
// each nesting depth up to 4, latest first: what comes before one is
// complete members.
func lastSeparators(data []byte) []int {
	var last [5]int
	depth, in := 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case in:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth >= 1 && depth < len(last):
			last[depth] = i
		}
	}
	var out []int
	for _, c := range last[1:] {
		if c > 0 {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out
}

var rootKeyKinds = map[string]Kind{
	"Layers": KindLayerInfo, "Bindings": KindLayerInfo, "I/O Tensors": KindLayerInfo,
	"model_options": KindMetadata, "build_options": KindMetadata, "performance_summary": KindMetadata,
	"device_information": KindMetadata, "inference_options": KindMetadata,
	"architectures": KindConfig, "model_type": KindConfig, "_name_or_path": KindConfig,
	"_class_name": KindConfig, "_diffusers_version": KindConfig, "transformers_version": KindConfig,
	"tokenizer_class": KindConfig, "hidden_size": KindConfig, "num_hidden_layers": KindConfig,
}

var listKeyKinds = map[string]Kind{
	"count": KindProfile, "timeMs": KindProfile, "averageMs": KindProfile, "medianMs": KindProfile, "percentage": KindProfile,
	// Per-layer tables a user's IProfiler writes, in other spellings.
	"avg_ms": KindProfile, "avgMs": KindProfile, "average_ms": KindProfile, "mean_ms": KindProfile, "meanMs": KindProfile, "median_ms": KindProfile,
	"LayerType": KindLayerInfo, "Inputs": KindLayerInfo, "Outputs": KindLayerInfo, "TacticName": KindLayerInfo, "ParameterType": KindLayerInfo,
	"startEnqMs": KindTimes, "endEnqMs": KindTimes, "latencyMs": KindTimes, "computeMs": KindTimes, "h2dMs": KindTimes,
	"inMs": KindTimes, "endToEndMs": KindTimes, "startComputeMs": KindTimes,
	"ComputeCapability": KindMetadata, "TotalMemory": KindMetadata, "CUDA_VERSION": KindMetadata,
}

func (s *scanner) sniffRootObject() Kind {
	for n := 0; n < 64 && s.peek() == '"'; n++ {
		kraw, kesc := s.key()
		if k, ok := rootKeyKinds[string(s.decoded(kraw, kesc))]; ok {
			return k
		}
		if s.peek() == '[' && s.looksLikeSamples() {
			return KindLatencyDict
		}
		s.skip()
		if !s.more('}') {
			break
		}
	}
	return KindUnknown
}

func (s *scanner) sniffListObject() Kind {
	for n := 0; n < 64 && s.peek() == '"'; n++ {
		kraw, kesc := s.key()
		if k, ok := listKeyKinds[string(s.decoded(kraw, kesc))]; ok {
			return k
		}
		s.skip()
		if !s.more('}') {
			break
		}
	}
	return KindUnknown
}

// logMarkers are lines only trtexec prints; any of them in the head of a
// text file makes it a trtexec log.
var logMarkers = [][]byte{
	[]byte("&&&& RUNNING TensorRT.trtexec"), []byte("=== Model Options ==="), []byte("=== Build Options ==="),
	[]byte("=== Inference Options ==="), []byte("=== Performance summary ==="), []byte("=== Device Information ==="),
}

// isTrtexecLog reports whether head is trtexec console output: a marker
// line, or what the log reader finds in a pasted fragment without them —
// a per-layer table, a performance summary or trace line, a verbose build
// line it reads, or two lines of TensorRT's logger ("[I] [TRT] ...").
func isTrtexecLog(head []byte) bool {
	for _, m := range logMarkers {
		if bytes.Contains(head, m) {
			return true
		}
	}
	if !utf8.Valid(head[:max(0, len(head)-utf8.UTFMax)]) || bytes.IndexByte(head, 0) >= 0 {
		return false // binary
	}
	runs, err := ParseTrtexecLog(head)
	if err != nil {
		return false
	}
	for _, r := range runs {
		l := r.Log
		if r.Perf != nil || r.Device != nil || len(l.Tables)+len(l.Layers)+len(l.Timings) > 0 || l.DLA != nil || l.Trace != nil || r.Version != "" {
			return true
		}
		for _, f := range l.Facts {
			if f.Key != engine.FactCommand && f.Key != engine.FactPrecision && f.Key != engine.FactLoadEngine && f.Key != engine.FactIOFormats {
				return true
			}
		}
	}
	trt := 0
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		if _, isTRT, _ := stripPrefix(string(line)); isTRT {
			if trt++; trt >= 2 {
				return true
			}
		}
	}
	return false
}
