package dump

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/trtperf/trtperf/internal/trtexecflags"
	"strings"
	"unicode/utf8"
)

// Describe names what a file is from its head (SniffSize bytes) and its
// sniffed kind, for the messages about files that are no dump or that
// are not read for what their name says: "a serialized TensorRT engine",
// "trtexec profile metadata (an end-to-end performance summary, no
// per-layer times)", "a JSON object of settings (batch, workspace)". It
// decides from content only and never reads past the head.
func Describe(head []byte, kind Kind) string {
	d, _ := describe(head, kind)
	return d
}

func describe(head []byte, kind Kind) (string, bool) {
	switch kind {
	case KindLayerInfo:
		return "TensorRT layer info", false
	case KindProfile:
		return "a trtexec per-layer profile", false
	case KindLatencyDict:
		return "per-layer latency samples", false
	case KindTimeTable:
		return "a per-layer time table", false
	case KindTimes:
		return "trtexec --exportTimes records (one per inference: end-to-end latency, not per-layer times)", false
	case KindConfig:
		return "a model configuration (Hugging Face / diffusers config)", false
	case KindTrtexecLog:
		return "a trtexec log", false
	case KindMetadata:
		return describeMetadata(head), false
	}
	if d := describeBinary(head); d != "" {
		return d, true
	}
	if c, ok := firstJSONByte(head); ok && (c == '{' || c == '[') {
		return describeJSON(head)
	}
	if d := DescribeTable(head); d != "" {
		return d, true
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return "an empty file", false
	}
	valid := head
	if len(head) >= SniffSize { // a head may cut the last character
		valid = head[:len(head)-utf8.UTFMax]
	}
	if bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(valid) {
		return "binary data of a kind trtperf does not know", true
	}
	return "text that is no trtexec log (none of its first lines is trtexec output or a TensorRT logger line), no per-layer table and no dump", true
}

// magics are the leading bytes of files met beside dumps.
var magics = []struct {
	prefix, what string
}{
	// Torch-TensorRT tells a serialized engine by this prefix (TensorRT
	// 8 and later write it first).
	{"ftrt", "a serialized TensorRT engine (trtperf reads what trtexec exports from one: trtexec --loadEngine=F --exportProfile=P, and --exportLayerInfo=L for an engine built with --profilingVerbosity=detailed)"},
	{"\x89PNG\r\n\x1a\n", "a PNG image"},
	{"\xff\xd8\xff", "a JPEG image"},
	{"GIF87a", "a GIF image"},
	{"GIF89a", "a GIF image"},
	{"%PDF-", "a PDF document"},
	{"PK\x03\x04", "a ZIP archive (a PyTorch .pt/.pth checkpoint is one): unpack it or export the dumps from the engine"},
	{"\x1f\x8b", "a gzip archive: unpack it first"},
	{"SQLite format 3\x00", "an SQLite database (an Nsight Systems export is one): export per-layer times with trtexec --exportProfile instead"},
	{"\x7fELF", "an executable (ELF)"},
}

func describeBinary(head []byte) string {
	for _, m := range magics {
		if bytes.HasPrefix(head, []byte(m.prefix)) {
			return m.what
		}
	}
	if len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP" {
		return "a WebP image"
	}
	if isONNX(head) {
		return "an ONNX model (build an engine from it with trtexec --onnx=F, exporting --exportLayerInfo and --exportProfile)"
	}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(head, []byte("\ufeff")))
	lower := bytes.ToLower(trimmed[:min(len(trimmed), 512)])
	switch {
	case bytes.HasPrefix(lower, []byte("<svg")), bytes.HasPrefix(lower, []byte("<?xml")) && bytes.Contains(lower, []byte("<svg")):
		return "an SVG image"
	case bytes.HasPrefix(lower, []byte("<!doctype html")), bytes.HasPrefix(lower, []byte("<html")):
		return "an HTML page"
	}
	return ""
}

// isONNX reports whether head starts like an ONNX ModelProto: field 1
// (ir_version, a small varint) and then producer_name, producer_version,
// domain, model_version, doc_string, graph or opset_import.
func isONNX(head []byte) bool {
	if len(head) < 4 || head[0] != 0x08 || head[1] == 0 || head[1] > 0x20 {
		return false
	}
	switch head[2] {
	case 0x12, 0x1a, 0x22, 0x28, 0x32, 0x3a, 0x42:
		return true
	}
	return false
}

// describeMetadata tells trex/trtexec metadata files apart by their keys.
func describeMetadata(head []byte) string {
	keys := rootKeys(head)
	has := func(k string) bool {
		for _, x := range keys {
			if x == k {
				return true
			}
		}
		return false
	}
	switch {
	case has("performance_summary") || has("inference_options"):
		return "trtexec profile metadata (an end-to-end performance summary and inference options, no per-layer times)"
	case has("build_options") || has("model_options"):
		return "trtexec build metadata (build and model options, no timing)"
	case has("device_information"):
		return "device information metadata (no timing)"
	}
	if c, ok := firstJSONByte(head); ok && c == '[' {
		return "CUDA device properties (no timing)"
	}
	return "trtexec metadata (no per-layer times)"
}

// describeJSON names JSON that is no dump: a layer list of another shape,
// a Chrome trace, settings, or an object or list it lists the keys of.
func describeJSON(head []byte) (string, bool) {
	keys := rootKeys(head)
	lower := make([]string, len(keys))
	for i, k := range keys {
		lower[i] = strings.ToLower(k)
	}
	for _, k := range lower {
		switch k {
		case "traceevents", "ph", "ts", "dur":
			return "a Chrome/Perfetto trace (timed events, not TensorRT per-layer times: export them with trtexec --exportProfile)", true
		}
	}
	for _, k := range lower {
		if k == "layers" || k == "layer_info" || k == "engine" || k == "network" || k == "nodes" {
			return fmt.Sprintf("JSON that lists layers in a shape trtperf does not read (keys: %s); export layer info: %s", keyList(keys), trtexecflags.LayerInfoAdvice("F", "", trtexecflags.Range{})), false
		}
	}
	if len(keys) == 0 {
		return "JSON that is no dump (no object keys in its head)", false
	}
	s := newScanner(head)
	if _, err := parseProfileWith(&s); err != nil && strings.Contains(err.Error(), "setting") {
		return fmt.Sprintf("a JSON object of settings or end-to-end numbers (keys: %s), no per-layer times", keyList(keys)), true
	}
	return fmt.Sprintf("JSON that is no dump, metadata or per-layer table (keys: %s)", keyList(keys)), false
}

func keyList(keys []string) string {
	if len(keys) > 6 {
		return strings.Join(keys[:6], ", ") + ", …"
	}
	return strings.Join(keys, ", ")
}

// rootKeys returns the keys of the root object of a JSON head, or of the
// first object of a root list, in order (at most 64; a head cut in the
// middle returns those read).
func rootKeys(head []byte) (keys []string) {
	s := newScanner(head)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(scanError); !ok {
				panic(r)
			}
		}
	}()
	s.skipBOM()
	if s.peek() == '[' {
		s.pos++
		if s.peek() != '{' {
			return nil
		}
	}
	if s.peek() != '{' {
		return nil
	}
	s.pos++
	for n := 0; n < 64 && s.peek() == '"'; n++ {
		kraw, kesc := s.key()
		keys = append(keys, string(s.decoded(kraw, kesc)))
		s.skip()
		if !s.more('}') {
			break
		}
	}
	return keys
}

// sayWhatItIs adds what a file surely is (a trace, settings, an image) to
// a reader's refusal of it, when its content says: "profile entry 0 has
// no \"timeMs\" ... (it is a Chrome/Perfetto trace ...)".
func sayWhatItIs(err error, data []byte) error {
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Code == CodeConcatenated {
		return err
	}
	head := data[:min(len(data), SniffSize)]
	if d, foreign := describe(head, Sniff(head)); foreign && !strings.Contains(fe.Detail, d) {
		c := *fe
		c.Detail += " (it is " + d + ")"
		return &c
	}
	return err
}
