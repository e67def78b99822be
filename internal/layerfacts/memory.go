package layerfacts

import (
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/engine"
)

// WeightBytes is the size of the weights a layer stores: every parameter
// that is a weights blob ({"Type": ..., "Count": N}: Weights, Bias,
// ConvWeights, Scale, Shift, Power, a Constant's weights...) at its stored
// type's size, plus the tensors listed as Constants (TensorRT 10 Myelin
// regions). blobs counts what was sized; unknown counts blobs or constants
// whose type or shape has no known size (left out of bytes).
func WeightBytes(l *engine.Layer) (bytes float64, blobs, unknown int) {
	for _, p := range l.Params {
		if len(p.Value) == 0 || p.Value[0] != '{' || !strings.Contains(string(p.Value), `"Count"`) {
			continue
		}
		var v struct {
			Type  string `json:"Type"`
			Count *int64 `json:"Count"`
		}
		if json.Unmarshal(p.Value, &v) != nil || v.Count == nil || v.Type == "" {
			continue
		}
		if *v.Count == 0 {
			continue
		}
		bits := formatOf(v.Type).bits
		if bits == 0 || *v.Count < 0 {
			unknown++
			continue
		}
		bytes += float64(*v.Count) * float64(bits) / 8
		blobs++
	}
	for i := range l.Constants {
		if b, ok := TensorBytes(&l.Constants[i]); ok {
			bytes += b
			blobs++
		} else {
			unknown++
		}
	}
	return bytes, blobs, unknown
}

// TensorBytes is the memory a tensor of fixed shape takes in its format:
// elements × element size, with the channel dimension (index 1) padded to
// the vector width of vectorized and channel-major formats ("Channel major
// FP16 format where channel % 8 == 0", "Thirty-two wide channel vectorized
// row major Int8 format"). ok is false for dynamic shapes (-1) or a format
// without a known element size.
func TensorBytes(t *engine.Tensor) (float64, bool) {
	f := formatOf(t.Format)
	bits := f.bits
	if bits == 0 || len(t.Dims) == 0 || anyNegative(t.Dims) {
		return 0, false
	}
	n := 1.0
	for i, d := range t.Dims {
		if i == 1 && len(t.Dims) >= 3 {
			if v := f.vector; v > 1 {
				d = (d + v - 1) / v * v
			}
		}
		n *= float64(d)
	}
	return n * float64(bits) / 8, true
}

// formatInfo is what the size estimates read of a format or data-type
// string. An engine has a handful of distinct formats over 10^5 tensors, so
// it is computed once per string (formatOf) rather than per tensor: the
// case folding below allocated a copy of the string every time.
type formatInfo struct {
	size   int   // elemSize
	bits   int   // elemBits
	vector int64 // vectorWidth
}

var formats strCache[formatInfo]

func formatOf(s string) formatInfo {
	if f, ok := formats.load(s); ok {
		return f
	}
	f := formatInfo{size: elemSize(s), bits: elemBits(s), vector: vectorWidth(s)}
	formats.store(s, f)
	return f
}

// vectorWidth is the channel vector width a format string names; 1 when
// it names none.
func vectorWidth(f string) int64 {
	low := strings.ToLower(f)
	if i := strings.Index(low, "channel % "); i >= 0 {
		rest := low[i+len("channel % "):]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if v, err := strconv.ParseInt(rest[:j], 10, 64); err == nil && v > 0 {
			return v
		}
	}
	if i := strings.Index(low, " wide channel vectorized"); i >= 0 {
		words := strings.Fields(low[:i])
		if len(words) > 0 {
			switch words[len(words)-1] {
			case "two":
				return 2
			case "four":
				return 4
			case "eight":
				return 8
			case "sixteen":
				return 16
			case "thirty-two":
				return 32
			}
		}
	}
	return 1
}

// elemBits is the bits per element a format or type string names; 0 when
// it names none.
func elemBits(s string) int {
	u := strings.ToUpper(s)
	switch {
	case strings.Contains(u, "BFLOAT16"):
		return 16
	case strings.Contains(u, "INT4"), strings.Contains(u, "FP4"), strings.Contains(u, "E2M1"):
		return 4
	case strings.Contains(u, "INT64"):
		return 64
	}
	return 8 * elemSize(s)
}
