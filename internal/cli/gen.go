package cli

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/gen"
)

func init() {
	register("gen", newGenCmd)
}

func newGenCmd(*deps) *cobra.Command {
	var o gen.Options
	var label, out, dla string
	c := &cobra.Command{
		Use:   "gen --shape SHAPE --layers N --out DIR [flags]",
		Short: "Generate a realistic synthetic TensorRT dump (layer info + profile)",
		Long: `gen writes a synthetic but realistic TensorRT engine dump into DIR:
layers_<label>.json (trtexec --exportLayerInfo layout) and profile_<label>.json
(trtexec --exportProfile layout; latency_<label>.json for the latency kinds).

Use it to make test data of any size, to reproduce benchmarks, or to see how
trtperf reports a case you cannot share. The same flags and seed always give
the same bytes.

Shapes: llm (decoder blocks, Myelin kernels, -1 sequence dims), bert (encoder
with fused MHA), cnn (ResNet-50-like CASK convolutions), unet (SD-1.5-like
with attention regions).

--dla writes DLA runs instead: profile-only folders as trtexec --useDLACore
writes them in TensorRT 7 ("{a,b,c}" subgraph records and their "output
reformatter" waits) and 8 ("{ForeignNode[a...c]}" between "to nvm" / "from
nvm" / "copy finish" records), one profile_<name>.json each, no layer info.`,
		Example: `  trtperf gen --shape llm --layers 50000 --seed 1 --out dumps/llm50k
  trtperf gen --shape bert --layers 173 --precision int8 --label int8 --out examples/bert-base
  trtperf gen --shape cnn --layers 300 --era trt11 --opt-profiles 2 --out dumps/multi
  trtperf gen --dla trt7-split,trt8-fallback --out dumps/dla`,
		Args: argCount(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return cannotRun("no output folder: pass --out DIR")
			}
			if dla != "" {
				return writeDLA(cmd, out, dla)
			}
			if o.Shape == "" {
				return cannotRun("no shape: pass --shape one of %s", strings.Join(gen.Shapes, ", "))
			}
			if label == "" || strings.ContainsAny(label, `/\`) {
				return cannotRun("label %q is not usable in a file name: pass --label like fp16", label)
			}
			lp, pp, err := gen.WriteFolder(out, label, o)
			if err != nil {
				return cannotRun("gen: %v", err)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "layers: %s\n", lp)
			if pp != "" {
				fmt.Fprintf(w, "profile: %s\n", pp)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&o.Shape, "shape", "", "engine topology: "+strings.Join(gen.Shapes, ", "))
	f.StringVar(&dla, "dla", "", "write DLA profile-only runs instead of an engine (comma-separated, or all): "+strings.Join(dlaNames(), ", "))
	f.IntVar(&o.Layers, "layers", 1000, fmt.Sprintf("layers per optimization profile, exact (at least %d)", gen.MinLayers))
	f.Int64Var(&o.Seed, "seed", 1, "random seed; the same seed gives the same bytes")
	f.StringVar(&label, "label", "fp16", "backend label: the files are layers_<label>.json and profile_<label>.json")
	f.StringVar(&out, "out", "", "folder to write into (created if missing; existing files of that label are replaced)")
	f.StringVar(&o.Precision, "precision", "fp16", "engine precision: "+strings.Join(gen.Precisions, ", "))
	f.StringVar(&o.Era, "era", "trt10", "TensorRT era: trt8 (Myelin as {ForeignNode[...]} regions), trt10 (Myelin kernels one by one, _myl<G>_<K> names), trt11 (split Format/Datatype keys, \"I/O Tensors\" objects)")
	f.StringVar(&o.Root, "root", "object", `layer-info root: object ({"Layers": [...], "Bindings": [...]}) or list (bare array of layers)`)
	f.BoolVar(&o.NamesOnly, "names-only", false, "write a layer_names_only dump (layer names, no tensors), as the default profiling verbosity does")
	f.IntVar(&o.OptProfiles, "opt-profiles", 1, `optimization profiles: every layer and binding is repeated per extra profile with a " [profile N]" suffix`)
	f.IntVar(&o.Subgraphs, "subgraphs", 1, `split the layers into N engines; each layer carries "_subgraph": id`)
	f.IntVar(&o.RepeatNames, "repeat-names", 0, "give N layers the name of the layer before them (in layer info and profile)")
	f.BoolVar(&o.DynamicDims, "dynamic", false, `-1 batch dims and some "N/A due to dynamic shapes" formats (llm sequence dims are always -1)`)
	f.BoolVar(&o.Cycle, "cycle", false, "make one layer read a tensor produced downstream, so the graph is not a DAG")
	f.IntVar(&o.DuplicateProducers, "duplicate-producers", 0, "make N tensors be produced by two layers (an ambiguous graph)")
	f.IntVar(&o.MismatchNames, "mismatch-names", 0, "rename N profile records so they no longer match the layer info")
	f.BoolVar(&o.InputProducedByLayer, "input-produced", false, "make a layer produce a declared engine input")
	f.StringVar(&o.ProfileKind, "profile-kind", "trtexec", `profile format: trtexec, latency ({name: [ms, ...]}), latency-pairs ({name: [[ms, "ts"], ...]}), none`)
	f.BoolVar(&o.NoMedian, "no-median", false, "leave medianMs out of profile records (TensorRT 7 style)")
	f.BoolVar(&o.NoCount, "no-count", false, `leave out the {"count": N} profile header`)
	f.IntVar(&o.Count, "count", 100, "profiling iterations; samples per layer for the latency kinds (keep those small, e.g. 5)")
	f.BoolVar(&o.ControlChars, "control-chars", false, "join Metadata ops with U+001E/U+001F in the trt8 era (always on from trt10)")
	f.IntVar(&o.Concatenated, "concatenated", 1, "write N concatenated JSON arrays into the profile file (a batch sweep appended to one file)")
	return c
}

// dlaNames are the generated DLA runs gen --dla writes, sorted.
func dlaNames() []string {
	return slices.Sorted(maps.Keys(gen.DLAProfiles))
}

// writeDLA writes the DLA runs named in list (comma-separated, or "all")
// into out, each as profile_<name>.json.
func writeDLA(cmd *cobra.Command, out, list string) error {
	names := strings.Split(list, ",")
	if list == "all" {
		names = dlaNames()
	}
	for _, n := range names {
		if _, ok := gen.DLAProfiles[n]; !ok {
			return cannotRun("no DLA run %q: pass --dla with names from %s, or all", n, strings.Join(dlaNames(), ", "))
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return cannotRun("gen: %v", err)
	}
	for _, n := range names {
		if err := gen.WriteDLAProfile(out, n); err != nil {
			return cannotRun("gen: %v", err)
		}
		fmt.Fprintf(cmd.OutOrStdout(), "profile: %s\n", filepath.Join(out, "profile_"+n+".json"))
	}
	return nil
}
