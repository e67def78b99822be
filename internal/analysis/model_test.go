package analysis

import (
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
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
