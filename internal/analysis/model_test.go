package analysis

import (
	"path/filepath"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/load"
)

func TestBlockCount(t *testing.T) {
	layers := func(names ...string) []contract.Layer {
		out := make([]contract.Layer, len(names))
		for i, n := range names {
			out[i].Name = n
		}
		return out
	}
	tests := []struct {
		names []string
		want  int64 // -1: nil
	}{
		{[]string{"/model/layers.0/self_attn/q_proj/MatMul", "/model/layers.31/mlp/down_proj/MatMul_myl0_9"}, 32},
		{[]string{"/bert/encoder/layer.11/output/dense/MatMul"}, 12},
		{[]string{"transformer.h.5.attn"}, 6},
		{[]string{"/blocks.7/attn", "/encoder/block.2/ff"}, 8},
		{[]string{"/features/features.3/Conv", "conv1.weight + QuantizeLinear_7"}, -1},
		{[]string{"/mylayers.4/x", "/layers.x/y", "/layers.123456/z"}, -1},
		{[]string{"layers.2"}, 3},
	}
	for _, tt := range tests {
		got := blockCount(layers(tt.names...))
		switch {
		case tt.want < 0 && got != nil:
			t.Errorf("blockCount(%q) = %d, want none", tt.names, *got)
		case tt.want >= 0 && (got == nil || *got != tt.want):
			t.Errorf("blockCount(%q) = %v, want %d", tt.names, got, tt.want)
		}
	}
}

func TestEndToEnd(t *testing.T) {
	tm := &engine.Times{LatencyMs: []float64{4, 1, 3, 2, 10}, ComputeMs: []float64{3, 1, 2, 2, 2}}
	e := endToEnd(tm, "times_x.json", 8)
	if e.Iterations != 5 || e.MeanMs != 4 || e.MedianMs != 3 || e.MinMs != 1 || e.MaxMs != 10 || e.P99Ms != 10 || e.P90Ms != 10 {
		t.Errorf("stats %+v", e)
	}
	if e.ComputeMeanMs == nil || *e.ComputeMeanMs != 2 || e.ProfileOverhead != 2 {
		t.Errorf("compute mean %v, overhead %v; want 2, 2", e.ComputeMeanMs, e.ProfileOverhead)
	}
}

// The trtexec --exportTimes files beside the corpus dumps give the real
// latency; the profiled sum of layer averages is larger (CUDA-event overhead).
func TestCorpusEndToEnd(t *testing.T) {
	dir := corpustest.Dir(t, corpustest.Parsing)
	sc, err := discover.Folder(filepath.Join(dir, "trex-resnet18-a100-fp32-fp16"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := AnalyzeParsed(sc, load.Source(sc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range d.Results {
		e := b.Timing.EndToEnd
		if e == nil || e.Iterations < 1000 || e.MeanMs <= 0 || e.ProfileOverhead < 1 {
			t.Errorf("%s: end to end %+v", b.Label, e)
		}
	}
}
