package analysis

import (
	"reflect"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

func TestMatchNames(t *testing.T) {
	lay := func(names ...string) []engine.Layer {
		out := make([]engine.Layer, len(names))
		for i, n := range names {
			out[i] = engine.Layer{Index: i, Name: n}
		}
		return out
	}
	rec := func(names ...string) []engine.ProfileRecord {
		out := make([]engine.ProfileRecord, len(names))
		for i, n := range names {
			out[i] = engine.ProfileRecord{Name: n}
		}
		return out
	}
	tests := []struct {
		name     string
		layers   []engine.Layer
		recs     []engine.ProfileRecord
		layerOf  []int
		ok       bool
		repeated []string
	}{
		{"same order", lay("a", "b", "c"), rec("a", "b", "c"), []int{0, 1, 2}, true, nil},
		{"other order", lay("a", "b", "c"), rec("c", "a", "b"), []int{2, 0, 1}, true, nil},
		{"repeated names by occurrence, same order", lay("x", "y", "x"), rec("x", "y", "x"), []int{0, 1, 2}, true, []string{"x"}},
		{"repeated names by occurrence, other order", lay("x", "y", "x"), rec("y", "x", "x"), []int{1, 0, 2}, true, []string{"x"}},
		{"names repeated thrice, listed at their second occurrence", lay("y", "x", "x", "y", "x"), rec("y", "x", "x", "y", "x"), []int{0, 1, 2, 3, 4}, true, []string{"x", "y"}},
		{"extra record", lay("a"), rec("a", "a"), []int{0, -1}, false, nil},
		{"missing record", lay("a", "b"), rec("a"), []int{0}, false, nil},
		{"renamed", lay("/m/conv1/Conv"), rec("m.conv1.Conv"), []int{-1}, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := matchNames(tt.layers, tt.recs)
			if !reflect.DeepEqual(m.layerOf, tt.layerOf) || m.ok() != tt.ok || !reflect.DeepEqual(m.repeated, tt.repeated) {
				t.Errorf("layerOf %v ok %v repeated %v; want %v %v %v", m.layerOf, m.ok(), m.repeated, tt.layerOf, tt.ok, tt.repeated)
			}
		})
	}
}

func TestMismatchMessageNamesTheClosestLayer(t *testing.T) {
	layers := []engine.Layer{{Name: "/layer1/conv1/Conv + /layer1/relu/Relu"}, {Name: "/fc/Gemm"}}
	recs := []engine.ProfileRecord{{Name: "layer1.conv1.Conv + layer1.relu.Relu"}, {Name: "/fc/Gemm"}}
	m := matchNames(layers, recs)
	msg := m.describe(layers, recs)
	for _, want := range []string{"1 of 2 profile records", "1 of 2 layers", `closest layer: "/layer1/conv1/Conv + /layer1/relu/Relu"`, "--exportLayerInfo"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}
