package reporttest

import (
	"bytes"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// The fixtures are only useful if they pass the same gate as real output.
func TestFixturesValidate(t *testing.T) {
	hostile, _ := Hostile()
	for name, d := range map[string]*contract.AnalyzeData{
		"small":   Synthetic(Options{Layers: 30, WithFailed: true, WithLayerOnly: true}),
		"big":     Synthetic(Options{Layers: 5000}),
		"hostile": hostile,
		"failed":  Synthetic(Options{FailedOnly: true}),
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := contract.Encode(&buf, d); err != nil {
				t.Fatal(err)
			}
			rep := contract.Validate(buf.Bytes())
			for _, p := range append(rep.Schema, rep.Semantic...) {
				t.Errorf("%s: %s", p.Pointer, p.Message)
			}
		})
	}
}
