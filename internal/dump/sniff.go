package dump

import (
	"bytes"
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
)

var kindNames = [...]string{"unknown", "layer info", "trtexec profile", "latency dictionary", "trtexec times", "model config", "trtexec metadata", "trtexec log"}

// NumKinds is the number of kinds Sniff can return (KindUnknown included):
// a consumer's switch over kinds is tested against every Kind below it.
const NumKinds = Kind(len(kindNames))

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

// IsProfile reports whether k is a per-layer profile of either format.
func (k Kind) IsProfile() bool { return k == KindProfile || k == KindLatencyDict }

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
		if kind == KindUnknown && isTrtexecLog(head) {
			kind = KindTrtexecLog
		} else if kind == KindUnknown && looksLikeInspectorText(head) {
			kind = KindLayerInfo
		}
	}()
	s.skipBOM()
	switch s.peek() {
	case '{':
		s.pos++
		return s.sniffRootObject()
	case '[':
		s.pos++
		switch s.peek() {
		case '"':
			return KindLayerInfo // a names-only layer list
		case '{':
			s.pos++
			return s.sniffListObject()
		}
	}
	return KindUnknown
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
