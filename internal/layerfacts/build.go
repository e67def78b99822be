package layerfacts

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// BuildPrecisions is the precision set a backend's build facts state
// (trtexec's "Precision" build option in a build log or TREx build
// metadata, the precision flags of the build command): one definition for
// the findings and the comparison.
type BuildPrecisions struct {
	// Narrowest is the narrowest precision the build enables: FP4, FP8,
	// INT8, BF16, FP16, or FP32 when the build states its precision and
	// enables nothing narrower (TF32 is how FP32 runs on Ampere and newer
	// by default, not a flag of its own).
	Narrowest string
	// Flag is the flag that enables Narrowest ("" for FP32).
	Flag string
	// Half: the build allows FP16 or BF16 (--fp16, --bf16, --best).
	Half bool
	// Evidence says where the facts come from (file and line when a log).
	Evidence string
}

// BuildPrecision reads the precision set off a backend's build facts; ok
// is false when no source saw the build (a --loadEngine run prints
// trtexec's defaults, "Precision: FP32" even for an INT8 engine), when the
// build is strongly typed (the model's types decide) or when nothing
// states it.
func BuildPrecision(b *contract.Build) (BuildPrecisions, bool) {
	if b == nil || b.LoadedEngine != nil {
		return BuildPrecisions{}, false
	}
	var out BuildPrecisions
	rank := map[string]int{FP4: 1, FP8: 2, INT8: 2, FP16: 3, BF16: 3}
	strong := false
	for _, f := range b.PrecisionFlags {
		name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		p := ""
		switch strings.ToLower(name) {
		case "fp16":
			p, out.Half = FP16, true
		case "bf16":
			p, out.Half = BF16, true
		case "best":
			p, out.Half = INT8, true
		case "int8":
			p = INT8
		case "fp8":
			p = FP8
		case "int4", "fp4":
			p = FP4
		case "stronglytyped":
			strong = true
		}
		if p != "" && (out.Narrowest == "" || rank[p] < rank[out.Narrowest]) {
			out.Narrowest, out.Flag = p, f
		}
	}
	switch {
	case out.Narrowest != "":
	case strong || b.Precision == nil:
		return BuildPrecisions{}, false
	default:
		v := strings.ToUpper(*b.Precision)
		for _, w := range []string{"FP16", "BF16", "INT8", "FP8", "INT4", "FP4", "STRONGLY"} {
			if strings.Contains(v, w) {
				return BuildPrecisions{}, false // flags and option disagree: no statement
			}
		}
		out.Narrowest = FP32
	}
	out.Evidence = b.PrecisionEvidence
	if out.Evidence == "" {
		switch {
		case b.Precision != nil:
			out.Evidence = fmt.Sprintf("build option Precision %s (%s)", *b.Precision, strings.Join(b.Sources, ", "))
		default:
			out.Evidence = fmt.Sprintf("build flag %s (%s)", out.Flag, strings.Join(b.Sources, ", "))
		}
	}
	return out, true
}

// Describe names the build in a few words: "an FP32 build", "an FP16
// build", "an INT8 build".
func (p BuildPrecisions) Describe() string {
	a := "a"
	if p.Narrowest != "" && strings.ContainsRune("AEFHILMNORSX", rune(p.Narrowest[0])) {
		a = "an"
	}
	return a + " " + p.Narrowest + " build"
}
