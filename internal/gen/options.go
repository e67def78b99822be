// Package gen writes realistic synthetic TensorRT dumps (layer info plus
// profile) of any size: LLM-, BERT-, CNN- and UNet-shaped engines in the
// layouts trtexec and its front ends write, era by era, with every variant
// the readers must handle. The output is deterministic from the seed and
// streamed, so a 200k-layer engine costs a few seconds and little memory.
package gen

import (
	"fmt"
	"github.com/trtperf/trtperf/internal/engine"
	"slices"
	"strings"
)

// Options says what dump to generate. The zero value of every variant is off.
type Options struct {
	Shape     string // "llm", "bert", "cnn", "unet"
	Layers    int    // layers per optimization profile (exact)
	Seed      int64  // same seed, same bytes
	Precision string // "fp16" (default), "fp32", "int8", "fp8", "bf16"
	// Era: "trt8" (Format/Datatype strings, Myelin regions as one
	// {ForeignNode[...]} layer), "trt10" (default; Myelin kernels one by one
	// with _myl<G>_<K> suffixes), "trt11" (split Format + Datatype keys and
	// "I/O Tensors" objects instead of Bindings).
	Era  string
	Root string // "object" (default) or "list" (bare array of layers)

	NamesOnly            bool // layer_names_only dump: {"Layers": ["name", ...], ...}
	OptProfiles          int  // >1: every layer and binding repeated per extra profile with " [profile N]"
	Subgraphs            int  // >1: layers split into N engines, each layer carries "_subgraph": id
	RepeatNames          int  // layer names duplicated (layer info and profile, in order)
	DynamicDims          bool // -1 batch dims and some "N/A due to dynamic shapes" formats (LLM sequence dims are always -1)
	Cycle                bool // one layer consumes a tensor produced downstream
	DuplicateProducers   int  // tensors produced by two layers
	MismatchNames        int  // profile names that do not match the layer info
	InputProducedByLayer bool // a declared graph input that a layer also produces
	// ProfileKind: "trtexec" (default), "latency" ({name: [ms, ...]}),
	// "latency-pairs" ({name: [[ms, "timestamp"], ...]}), "none".
	ProfileKind  string
	NoMedian     bool // TensorRT 7 profile records without medianMs
	NoCount      bool // no {"count": N} header
	Count        int  // iterations (default 100); samples per layer for latency kinds
	ControlChars bool // Metadata joined with U+001E/U+001F in the trt8 era (always on from trt10)
	Concatenated int  // >1: the profile file holds that many concatenated JSON arrays
}

// Values each enumerated option accepts, first = default.
var (
	Shapes       = []string{"llm", "bert", "cnn", "unet"}
	Precisions   = []string{"fp16", "fp32", "int8", "fp8", "bf16"}
	Eras         = []string{"trt10", "trt8", "trt11"}
	Roots        = []string{"object", "list"}
	ProfileKinds = []string{"trtexec", "latency", "latency-pairs", "none"}
)

// MinLayers is the smallest engine the generator builds (head and tail of
// every shape fit in it).
const MinLayers = 12

// maxSamples bounds the latency samples of a generated dictionary.
const maxSamples = 1 << 28

// normalized fills defaults and rejects impossible combinations with a
// message that says which value to change.
func (o Options) normalized() (Options, error) {
	def := func(v *string, allowed []string, flag string) error {
		*v = strings.ToLower(strings.TrimSpace(*v))
		if *v == "" {
			*v = allowed[0]
		}
		if !slices.Contains(allowed, *v) {
			return fmt.Errorf("unknown %s %q: use one of %s", flag, *v, strings.Join(allowed, ", "))
		}
		return nil
	}
	if o.Shape == "" {
		return o, fmt.Errorf("no shape given: use one of %s", strings.Join(Shapes, ", "))
	}
	for _, c := range []struct {
		v       *string
		allowed []string
		name    string
	}{
		{&o.Shape, Shapes, "shape"}, {&o.Precision, Precisions, "precision"}, {&o.Era, Eras, "era"},
		{&o.Root, Roots, "root"}, {&o.ProfileKind, ProfileKinds, "profile kind"},
	} {
		if err := def(c.v, c.allowed, c.name); err != nil {
			return o, err
		}
	}
	if o.Layers < MinLayers {
		return o, fmt.Errorf("layers = %d: ask for at least %d", o.Layers, MinLayers)
	}
	if o.Layers > engine.MaxLayers || o.OptProfiles > engine.MaxLayers/o.Layers {
		return o, fmt.Errorf("layers = %d (x %d optimization profiles): ask for at most %d layers in all, the most trtperf reads from one dump", o.Layers, max(o.OptProfiles, 1), engine.MaxLayers)
	}
	if o.Count == 0 {
		o.Count = 100
	}
	if o.Count < 1 {
		return o, fmt.Errorf("count = %d: iterations must be at least 1", o.Count)
	}
	// A latency dictionary holds count samples per layer: bounded like the
	// layers (2^21 layers of 100 samples make a 2 GB file).
	if o.Count > maxSamples/o.Layers/max(o.OptProfiles, 1) && strings.HasPrefix(o.ProfileKind, "latency") {
		return o, fmt.Errorf("count = %d with %d layers: a latency dictionary of more than %d samples in all is more than trtperf reads; ask for fewer samples or layers", o.Count, o.Layers, maxSamples)
	}
	if o.OptProfiles < 1 {
		o.OptProfiles = 1
	}
	if o.Subgraphs < 1 {
		o.Subgraphs = 1
	}
	if o.Concatenated < 1 {
		o.Concatenated = 1
	}
	if o.Subgraphs > o.Layers {
		return o, fmt.Errorf("subgraphs = %d exceeds layers = %d: give each engine at least one layer", o.Subgraphs, o.Layers)
	}
	if o.RepeatNames < 0 || 2*o.RepeatNames+2 > o.Layers {
		return o, fmt.Errorf("repeat-names = %d: use 0 to %d for %d layers", o.RepeatNames, (o.Layers-2)/2, o.Layers)
	}
	if o.MismatchNames < 0 || o.MismatchNames > o.Layers {
		return o, fmt.Errorf("mismatch-names = %d: use 0 to %d", o.MismatchNames, o.Layers)
	}
	if o.DuplicateProducers < 0 || 4*o.DuplicateProducers+4 > o.Layers {
		return o, fmt.Errorf("duplicate-producers = %d: use 0 to %d for %d layers", o.DuplicateProducers, (o.Layers-4)/4, o.Layers)
	}
	if o.Concatenated > 1 && o.ProfileKind != "trtexec" {
		return o, fmt.Errorf("concatenated profiles exist only for the trtexec profile kind, not %q", o.ProfileKind)
	}
	if o.ProfileKind == "none" && (o.MismatchNames > 0 || o.NoMedian || o.NoCount || o.Concatenated > 1) {
		return o, fmt.Errorf("profile options given with profile kind \"none\": drop them or choose a profile kind")
	}
	return o, nil
}

// controlChars reports whether Metadata joins source ops with U+001E/U+001F
// (TensorRT 8.6 and later).
func (o Options) controlChars() bool { return o.ControlChars || o.Era != "trt8" }
