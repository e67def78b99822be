package summary

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// Lines about the run: device, build and measured timing, one sentence each.

func deviceLine(d *contract.Device) string {
	if d == nil {
		return ""
	}
	var parts []string
	if d.ComputeCapability != nil {
		parts = append(parts, "compute capability "+*d.ComputeCapability)
	}
	if d.SMCount != nil {
		parts = append(parts, strconv.Itoa(*d.SMCount)+" SMs")
	}
	if d.MemoryBandwidthGBs != nil {
		parts = append(parts, fmt.Sprintf("%.4g GB/s", *d.MemoryBandwidthGBs))
	}
	for _, p := range []struct {
		name string
		v    *float64
	}{{"FP32", d.PeakTFLOPS.FP32}, {"TF32", d.PeakTFLOPS.TF32}, {"FP16", d.PeakTFLOPS.FP16}, {"INT8", d.PeakTFLOPS.INT8}} {
		if p.v != nil {
			parts = append(parts, fmt.Sprintf("%s %.4g", p.name, *p.v))
		}
	}
	name := d.Name
	if name == "" {
		name = "unnamed GPU"
	}
	s := "device " + name
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + " dense TFLOP/s)"
		if d.PeakTFLOPS.FP32 == nil && d.PeakTFLOPS.FP16 == nil {
			s = "device " + name + " (" + strings.Join(parts, ", ") + ")"
		}
	}
	s += " from " + d.Source
	var caps []string
	if d.Class != "" {
		caps = append(caps, strings.ReplaceAll(d.Class, "_", " "))
	}
	if len(d.TensorCores) > 0 {
		caps = append(caps, "tensor cores "+strings.Join(d.TensorCores, "/"))
	}
	if d.DLACores > 0 {
		caps = append(caps, fmt.Sprintf("%d DLA core(s)", d.DLACores))
	}
	if len(caps) > 0 {
		s += "; " + strings.Join(caps, ", ")
	}
	return s
}

func buildLine(b *contract.Build) string {
	if b == nil {
		return ""
	}
	var parts []string
	if b.TensorRTVersion != nil {
		parts = append(parts, "TensorRT "+*b.TensorRTVersion)
	}
	if b.Precision != nil {
		p := "precision " + *b.Precision
		if len(b.PrecisionFlags) > 0 {
			p += " (" + strings.Join(b.PrecisionFlags, " ") + ")"
		}
		parts = append(parts, p)
	}
	if b.LoadedEngine != nil {
		// The run loaded a built engine: its printed build options are
		// trtexec's defaults, not the engine's.
		parts = append(parts, "precision not known (the run loads the built engine "+*b.LoadedEngine+"; its build options are trtexec's defaults)")
	}
	if b.TF32Timed != nil {
		parts = append(parts, map[bool]string{true: "TF32 tried", false: "TF32 not tried"}[*b.TF32Timed]+" ("+b.TF32Evidence+")")
	}
	if b.InferenceShapes != nil {
		parts = append(parts, "shapes "+*b.InferenceShapes)
	} else if b.BuildShapes != nil {
		parts = append(parts, "build shapes "+*b.BuildShapes)
	}
	if b.Batch != nil {
		parts = append(parts, "batch "+*b.Batch)
	}
	if len(parts) == 0 {
		return ""
	}
	return "build " + strings.Join(parts, ", ") + " from " + strings.Join(b.Sources, ", ")
}

// inventory is a layer_only backend's layer census: what the layer info
// says without a profile.
type inventory struct {
	Types   []count `json:"types"`
	Formats []count `json:"output_formats"`
	Tactics []count `json:"tactics"`
	Myelin  int     `json:"myelin_layers"`
}

type count struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func inventoryOf(b *contract.Backend) *inventory {
	if b.Validation.AnalysisMode != contract.ModeLayerOnly || len(b.Layers) == 0 {
		return nil
	}
	types, formats, tactics := map[string]int{}, map[string]int{}, map[string]int{}
	inv := &inventory{}
	for i := range b.Layers {
		l := &b.Layers[i]
		t := l.LayerType
		if t == "" {
			t = "(none)"
		}
		types[t]++
		if strings.EqualFold(l.LayerType, "Myelin") || strings.HasPrefix(l.Name, "{ForeignNode") || strings.Contains(l.Name, "myl") {
			inv.Myelin++
		}
		for _, o := range l.Outputs {
			if o.Format != "" {
				formats[o.Format]++
			}
		}
		if l.TacticName != "" {
			tactics[l.TacticName]++
		}
	}
	inv.Types, inv.Formats, inv.Tactics = counts(types, 0), counts(formats, 8), counts(tactics, 8)
	return inv
}

func counts(m map[string]int, limit int) []count {
	out := make([]count, 0, len(m))
	for k, v := range m {
		out = append(out, count{k, v})
	}
	slices.SortFunc(out, func(a, b count) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

func countsText(cs []count, width int) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s ×%d", Shorten(c.Name, width), c.Count)
	}
	return strings.Join(parts, ", ")
}

// unusedFiles are the files discovery looked at and did not use, with why.
func unusedFiles(d *contract.AnalyzeData) []string {
	var out []string
	for _, w := range d.Validation.Warnings {
		if f, ok := strings.CutPrefix(w, "ignored "); ok {
			out = append(out, f)
		}
	}
	return out
}

// recastFiles are the files read for what their content is, not for what
// their name says, with what they are.
func recastFiles(d *contract.AnalyzeData) []string {
	var out []string
	for _, w := range d.Validation.Warnings {
		if f, ok := strings.CutPrefix(w, contract.WarningRecast); ok {
			out = append(out, f)
		}
	}
	return out
}
