package layerfacts

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/gen"
)

// TestDeriverSameAsDerive: a Deriver gives every layer the facts Derive
// gives (nil and empty source-op lists alike), and a list taken from its
// shared blocks cannot be grown into the next layer's.
func TestDeriverSameAsDerive(t *testing.T) {
	var layers []engine.Layer
	for _, shape := range []string{"llm", "bert", "cnn", "unet"} {
		var buf bytes.Buffer
		if err := gen.Generate(gen.Options{Shape: shape, Layers: 3000, Seed: 2}, &buf, nil); err != nil {
			t.Fatal(err)
		}
		li, err := dump.ParseLayerInfo(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		layers = append(layers, li.Layers...)
	}
	for _, m := range []string{"", " ", "␞", "[ONNX Layer: a]␞␞[ONNX Layer: b]", "a\x1eb\x1fc", "[ONNX Layer: ]"} {
		layers = append(layers, engine.Layer{Name: "x", Metadata: m})
	}
	d := NewDeriver()
	var lists [][]string
	for i := range layers {
		got, want := d.Derive(&layers[i]), Derive(&layers[i])
		if !reflect.DeepEqual(got, want) || (got.SourceOps == nil) != (want.SourceOps == nil) {
			t.Fatalf("layer %d (%q, metadata %q): Deriver %+v, Derive %+v", i, layers[i].Name, layers[i].Metadata, got, want)
		}
		if len(got.SourceOps) > 0 {
			lists = append(lists, got.SourceOps)
		}
	}
	if len(lists) < 2 {
		t.Fatal("too few layers with source ops to check")
	}
	before := append([]string(nil), lists[1]...)
	_ = append(lists[0], "appended")
	if !reflect.DeepEqual(lists[1], before) {
		t.Errorf("appending to one layer's source ops changed the next: %q, was %q", lists[1], before)
	}
}
