package dump

import (
	"bytes"
	"fmt"
	"math"
	"os"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/engine"
)

// timesRecord is the part of a trtexec --exportTimes record trtperf uses.
// TensorRT 7 and 8+ both write latencyMs and computeMs; the other keys
// (enqueue, H2D/D2H or in/out timestamps) are not needed.
type timesRecord struct {
	LatencyMs *float64 `json:"latencyMs"`
	ComputeMs *float64 `json:"computeMs"`
}

// ReadTimes reads a trtexec --exportTimes file.
func ReadTimes(path string) (*engine.Times, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read times %s: %w", path, err)
	}
	t, err := ParseTimes(data)
	if err != nil {
		return nil, fmt.Errorf("times %s: %w", path, err)
	}
	return t, nil
}

// ParseTimes parses a trtexec --exportTimes list: one record per inference
// with at least latencyMs. Errors are *FormatError.
func ParseTimes(data []byte) (*engine.Times, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	var recs []timesRecord
	if err := json.UnmarshalDecode(dec, &recs); err != nil {
		return nil, errPlain(CodeMalformed, fmt.Sprintf("not a trtexec --exportTimes list (%v); export it again with trtexec --exportTimes=F", err))
	}
	if _, err := dec.ReadToken(); err == nil {
		return nil, errPlain(CodeConcatenated, "the file holds several concatenated JSON documents; split it into one file per run")
	}
	if len(recs) == 0 {
		return nil, errPlain(CodeEmpty, "the times file holds no inference records")
	}
	t := &engine.Times{LatencyMs: make([]float64, 0, len(recs))}
	for i, r := range recs {
		if r.LatencyMs == nil {
			return nil, errPlain(CodeMissingField, fmt.Sprintf("record %d has no latencyMs; export the times again with trtexec --exportTimes=F", i))
		}
		for _, v := range []*float64{r.LatencyMs, r.ComputeMs} {
			if v != nil && (math.IsInf(*v, 0) || math.IsNaN(*v) || *v < 0) {
				return nil, errPlain(CodeNonFinite, fmt.Sprintf("record %d has a negative or non-finite time", i))
			}
		}
		t.LatencyMs = append(t.LatencyMs, *r.LatencyMs)
		if r.ComputeMs != nil {
			t.ComputeMs = append(t.ComputeMs, *r.ComputeMs)
		}
	}
	if len(t.ComputeMs) != len(t.LatencyMs) {
		t.ComputeMs = nil // partial computeMs would skew the mean: drop it
	}
	return t, nil
}
