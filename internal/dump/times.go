package dump

import (
	"bytes"
	"fmt"
	"math"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/engine"
)

// timesRecord is the part of a trtexec --exportTimes record trtperf uses.
// Every release writes latencyMs (trtexec's "ideal" host latency:
// H2D + compute + D2H, the sum of the three, gaps left out) and
// computeMs; transfers are h2dMs/d2hMs from TensorRT 8 and inMs/outMs
// before; endToEndMs (from the input copy's start to the output copy's
// end, waits included) only up to 8.2 (samples/common/sampleReporting.cpp
// exportJSONTrace by tag).
type timesRecord struct {
	LatencyMs  *float64 `json:"latencyMs"`
	ComputeMs  *float64 `json:"computeMs"`
	StartEnqMs *float64 `json:"startEnqMs"`
	EndEnqMs   *float64 `json:"endEnqMs"`
	H2DMs      *float64 `json:"h2dMs"`
	D2HMs      *float64 `json:"d2hMs"`
	InMs       *float64 `json:"inMs"`
	OutMs      *float64 `json:"outMs"`
	EndToEndMs *float64 `json:"endToEndMs"`
}

// ReadTimes reads a trtexec --exportTimes file.
func ReadTimes(path string) (*engine.Times, error) {
	data, err := readInput(path, kindTimesFile)
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
	if lit, ok := outOfRangeNumber(data); ok {
		return nil, errPlain(CodeNonFinite, "number "+lit+" is out of the float64 range (too large, or non-zero and too small); "+fixNonFinite)
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	var recs []timesRecord
	if err := json.UnmarshalDecode(dec, &recs); err != nil {
		return nil, errPlain(CodeMalformed, fmt.Sprintf("not a trtexec --exportTimes list (%v); export it again with trtexec --exportTimes=F", err))
	}
	if _, err := dec.ReadToken(); err == nil {
		return nil, errPlain(CodeConcatenated, "the file holds several concatenated JSON documents; split it into one file per run")
	}
	return timesOf(recs)
}

// TimesRuns re-reads a times file whose error says it holds several
// concatenated lists (the runs of a sweep appended to one file) and parses
// each; nil for any other error. A list that does not parse ends it.
func TimesRuns(path string, err error) []*engine.Times {
	if data := concatenated(path, err); data != nil {
		return TimesRunsOf(data)
	}
	return nil
}

// TimesRunsOf splits data into its concatenated --exportTimes lists.
func TimesRunsOf(data []byte) []*engine.Times {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	var out []*engine.Times
	for {
		var recs []timesRecord
		if json.UnmarshalDecode(dec, &recs) != nil {
			return out
		}
		t, err := timesOf(recs)
		if err != nil {
			return out
		}
		out = append(out, t)
	}
}

// timesOf checks one list of records and collects its columns.
func timesOf(recs []timesRecord) (*engine.Times, error) {
	if len(recs) == 0 {
		return nil, errPlain(CodeEmpty, "the times file holds no inference records")
	}
	t := &engine.Times{LatencyMs: make([]float64, 0, len(recs))}
	for i, r := range recs {
		if r.LatencyMs == nil {
			return nil, errPlain(CodeMissingField, fmt.Sprintf("record %d has no latencyMs; export the times again with trtexec --exportTimes=F", i))
		}
		for _, v := range []*float64{r.LatencyMs, r.ComputeMs, r.StartEnqMs, r.EndEnqMs, r.H2DMs, r.D2HMs, r.InMs, r.OutMs, r.EndToEndMs} {
			if v != nil && (math.IsInf(*v, 0) || math.IsNaN(*v) || *v < 0) {
				return nil, errPlain(CodeNonFinite, fmt.Sprintf("record %d has a negative or non-finite time", i))
			}
		}
		t.LatencyMs = append(t.LatencyMs, *r.LatencyMs)
		if r.ComputeMs != nil {
			t.ComputeMs = append(t.ComputeMs, *r.ComputeMs)
		}
		if r.EndToEndMs != nil {
			t.EndToEndMs = append(t.EndToEndMs, *r.EndToEndMs)
		}
		if r.StartEnqMs != nil && r.EndEnqMs != nil && *r.EndEnqMs >= *r.StartEnqMs {
			t.EnqueueMs = append(t.EnqueueMs, *r.EndEnqMs-*r.StartEnqMs)
		}
		if r.H2DMs == nil && r.InMs != nil {
			t.TRT7Keys = true
		}
		if h := firstOf(r.H2DMs, r.InMs); h != nil {
			t.H2DMs = append(t.H2DMs, *h)
		}
		if d := firstOf(r.D2HMs, r.OutMs); d != nil {
			t.D2HMs = append(t.D2HMs, *d)
		}
	}
	// A column only some records carry would skew its statistics: drop it.
	for _, col := range []*[]float64{&t.ComputeMs, &t.EnqueueMs, &t.H2DMs, &t.D2HMs, &t.EndToEndMs} {
		if len(*col) != len(t.LatencyMs) {
			*col = nil
		}
	}
	return t, nil
}

func firstOf(vs ...*float64) *float64 {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}
