package gen

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

type shapeSpec struct {
	build     func(*builder)
	tailUnits func(Options) int
}

var shapeSpecs = map[string]shapeSpec{
	"llm":  {buildLLM, llmTailUnits},
	"bert": {buildBERT, bertTailUnits},
	"cnn":  {buildCNN, cnnTailUnits},
	"unet": {buildUNet, unetTailUnits},
}

// Generate writes the layer-info dump to layers and the profile to profile
// (nil, or ProfileKind "none", writes no profile). It streams: memory grows
// only with the per-layer name and time the profile needs.
func Generate(opt Options, layers, profile io.Writer) error {
	o, err := opt.normalized()
	if err != nil {
		return err
	}
	lw := bufio.NewWriterSize(layers, 1<<20)
	e := &emitter{o: o, j: newJW(lw)}
	n := o.Layers * o.OptProfiles
	e.names = make([]string, 0, n)
	e.avgs = make([]float64, 0, n)
	spec := shapeSpecs[o.Shape]
	if o.Root == "object" {
		e.j.raw(`{"Layers": [`)
	} else {
		e.j.raw("[")
	}
	for run := 0; run < o.OptProfiles; run++ {
		e.rt = newRNG(o.Seed, uint64(100+run))
		e.startRun(run, o.Layers, spec.tailUnits(o))
		spec.build(newBuilder(e, o))
		e.endRun()
		if e.written != o.Layers {
			return fmt.Errorf("generator bug: %s/%s wrote %d layers, want %d", o.Shape, o.Era, e.written, o.Layers)
		}
	}
	if o.Root == "object" {
		e.j.raw("],\n")
		writeIO(e)
		e.j.raw("}\n")
	} else {
		e.j.raw("]\n")
	}
	if err := lw.Flush(); err != nil {
		return fmt.Errorf("write layer info: %w", err)
	}
	if profile == nil || o.ProfileKind == "none" {
		return nil
	}
	pw := bufio.NewWriterSize(profile, 1<<20)
	writeProfile(newJW(pw), o, e.names, e.avgs)
	if err := pw.Flush(); err != nil {
		return fmt.Errorf("write profile: %w", err)
	}
	return nil
}

// writeIO writes "Bindings" (names, inputs first) or, in the trt11 era,
// "I/O Tensors" objects; one set per optimization profile.
func writeIO(e *emitter) {
	j := e.j
	ordered := make([]ioTensor, 0, len(e.io))
	for _, in := range []bool{true, false} {
		for _, t := range e.io {
			if t.input == in {
				ordered = append(ordered, t)
			}
		}
	}
	first := true
	if e.o.Era != "trt11" {
		j.raw(`"Bindings": [`)
		for run := 0; run < e.o.OptProfiles; run++ {
			e.run = run
			for _, t := range ordered {
				if !first {
					j.raw("\n,")
				}
				first = false
				j.str(t.t.name + e.suffix())
			}
		}
		j.raw("\n]")
		return
	}
	j.raw(`"I/O Tensors": [`)
	for run := 0; run < e.o.OptProfiles; run++ {
		e.run = run
		for _, t := range ordered {
			if !first {
				j.raw(",")
			}
			first = false
			mode := "Output"
			if t.input {
				mode = "Input"
			}
			j.raw("{\n  \"Name\": ")
			j.str(t.t.name + e.suffix())
			j.raw(",\n  \"IOMode\": ")
			j.str(mode)
			j.raw(",\n  \"DataType\": ")
			j.str(t.t.dt.kernelName())
			j.raw(",\n  \"Dimensions\": ")
			j.dims(t.t.dims, ",")
			j.raw(",\n  \"Location\": \"Device\",\n  \"IsShapeInferenceIO\": false,\n  \"ProfileInfo\": [{\"MinShape\": ")
			j.dims(shapeAt(t.t.dims, 0), ",")
			j.raw(", \"OptShape\": ")
			j.dims(shapeAt(t.t.dims, 1), ",")
			j.raw(", \"MaxShape\": ")
			j.dims(shapeAt(t.t.dims, 2), ",")
			j.raw(", \"Format\": ")
			j.str(splitFormat(t.t.lay))
			j.raw("}]\n}")
		}
	}
	j.raw("]")
}

// shapeAt resolves dynamic dims for the min (0), opt (1) or max (2) shape.
func shapeAt(d []int64, which int) []int64 {
	out := make([]int64, len(d))
	for i, v := range d {
		switch {
		case v >= 0:
			out[i] = v
		case i == 0:
			out[i] = []int64{1, 4, 8}[which]
		default:
			out[i] = []int64{1, 512, 2048}[which]
		}
	}
	return out
}

// WriteFolder writes layers_<label>.json and profile_<label>.json (or
// latency_<label>.json for the latency kinds; no profile for "none") into
// dir, creating it. It returns the paths written ("" for no profile).
func WriteFolder(dir, label string, opt Options) (layerPath, profilePath string, err error) {
	o, err := opt.normalized()
	if err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("create %s: %w", dir, err)
	}
	layerPath = filepath.Join(dir, "layers_"+label+".json")
	switch o.ProfileKind {
	case "none":
	case "trtexec":
		profilePath = filepath.Join(dir, "profile_"+label+".json")
	default:
		profilePath = filepath.Join(dir, "latency_"+label+".json")
	}
	lf, err := os.Create(layerPath)
	if err != nil {
		return "", "", fmt.Errorf("create %s: %w", layerPath, err)
	}
	defer lf.Close()
	var pw io.Writer
	var pf *os.File
	if profilePath != "" {
		if pf, err = os.Create(profilePath); err != nil {
			return "", "", fmt.Errorf("create %s: %w", profilePath, err)
		}
		defer pf.Close()
		pw = pf
	}
	if err := Generate(o, lf, pw); err != nil {
		return "", "", fmt.Errorf("generate into %s: %w", dir, err)
	}
	if err := lf.Close(); err != nil {
		return "", "", fmt.Errorf("close %s: %w", layerPath, err)
	}
	if pf != nil {
		if err := pf.Close(); err != nil {
			return "", "", fmt.Errorf("close %s: %w", profilePath, err)
		}
	}
	return layerPath, profilePath, nil
}
