package gen

import (
	"github.com/trtperf/trtperf/internal/golden"
	"path/filepath"
	"testing"
)

// goldenCases pins small dumps: one per shape and one per variant, so a
// change to what the generator writes is seen and reviewed.
var goldenCases = map[string]Options{
	"llm":                 {Shape: "llm", Layers: 16, Seed: 1},
	"bert":                {Shape: "bert", Layers: 20, Seed: 1},
	"cnn":                 {Shape: "cnn", Layers: 16, Seed: 1},
	"unet":                {Shape: "unet", Layers: 24, Seed: 1},
	"llm-trt8":            {Shape: "llm", Layers: 14, Seed: 1, Era: "trt8"},
	"cnn-trt11-dynamic":   {Shape: "cnn", Layers: 14, Seed: 1, Era: "trt11", DynamicDims: true},
	"bert-int8-list":      {Shape: "bert", Layers: 14, Seed: 1, Precision: "int8", Root: "list"},
	"llm-bf16-profiles":   {Shape: "llm", Layers: 12, Seed: 1, Precision: "bf16", OptProfiles: 2},
	"llm-fp8-subgraphs":   {Shape: "llm", Layers: 12, Seed: 1, Precision: "fp8", Subgraphs: 3},
	"cnn-names-only":      {Shape: "cnn", Layers: 12, Seed: 1, NamesOnly: true},
	"cnn-broken-graph":    {Shape: "cnn", Layers: 24, Seed: 1, Cycle: true, DuplicateProducers: 1, InputProducedByLayer: true},
	"cnn-names-mismatch":  {Shape: "cnn", Layers: 12, Seed: 1, RepeatNames: 2, MismatchNames: 2},
	"cnn-trt7-concat":     {Shape: "cnn", Layers: 12, Seed: 1, NoMedian: true, NoCount: true, Concatenated: 2, Era: "trt8"},
	"cnn-latency":         {Shape: "cnn", Layers: 12, Seed: 1, ProfileKind: "latency", Count: 3},
	"cnn-latency-pairs":   {Shape: "cnn", Layers: 12, Seed: 1, ProfileKind: "latency-pairs", Count: 2},
	"unet-fp32-trt8-meta": {Shape: "unet", Layers: 20, Seed: 1, Precision: "fp32", Era: "trt8", ControlChars: true},
}

func TestGolden(t *testing.T) {
	for name, o := range goldenCases {
		t.Run(name, func(t *testing.T) {
			lb, pb := generate(t, o)
			got := append(append(lb, "--- profile ---\n"...), pb...)
			golden.Check(t, filepath.Join("testdata", name+".golden"), got)
		})
	}
}
