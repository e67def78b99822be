package analysis

import (
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/inputs"
	"github.com/trtperf/trtperf/internal/layerfacts"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// newestBefore11 is the newest release that writes layer info with
// "Bindings" (TensorRT 11 replaced them with "I/O Tensors" objects).
var newestBefore11 = func() trtexecflags.Version {
	var v trtexecflags.Version
	for _, r := range trtexecflags.Releases {
		if r.Less(trtexecflags.V(11, 0)) {
			v = r
		}
	}
	return v
}()

// withLayerInfo is the releases that export layer info at all.
var withLayerInfo = trtexecflags.LayerInfoReleases()

// rangeFact is one format fact and the releases it allows.
type rangeFact struct {
	r    trtexecflags.Range
	text string
}

// formatFacts are the facts of a backend's files that date the TensorRT
// release that wrote them, each read from trtexec's and TensorRT's own
// output of every release (samples/common/sampleReporting.cpp and
// sampleOptions.cpp of NVIDIA/TensorRT, tags 7.0 to 11.1, for the profile,
// times and option facts: Profiler::print has "Layer … Avg. Time (ms) …
// Time %" up to 8.2.1, adds "Median Time (ms)" in 8.4.1 to 8.6.0, and puts
// "Time(ms) … Layer" numbers first from 8.6.1; ../shared/docs/trt-formats.md for the layer
// info eras).
func formatFacts(in *inputs.Backend, recs []engine.ProfileRecord) []rangeFact {
	var out []rangeFact
	add := func(lo, hi trtexecflags.Version, text string) {
		out = append(out, rangeFact{trtexecflags.Range{Lo: lo, Hi: hi}, text})
	}
	v := trtexecflags.V
	if li := in.LayerInfo; li != nil {
		add(withLayerInfo.Lo, trtexecflags.Version{}, "the engine's layer info exists (IEngineInspector and trtexec --exportLayerInfo came with TensorRT 8.2)")
		switch {
		case li.IOTensorObjects:
			add(v(11, 0), trtexecflags.Version{}, "the layer info declares \"I/O Tensors\" objects (TensorRT 11)")
		case li.HasIODeclaration:
			add(trtexecflags.Version{}, newestBefore11, "the layer info declares \"Bindings\" (replaced by \"I/O Tensors\" in TensorRT 11)")
		}
		if li.SplitFormat {
			add(v(11, 0), trtexecflags.Version{}, "tensors carry split \"Format\" and \"Datatype\" keys (TensorRT 11)")
		}
		for i := range li.Layers {
			if t := li.Layers[i].Type; myelinKernelType(t) {
				add(v(10, 0), trtexecflags.Version{}, "Myelin kernels are listed one by one (layer type \""+t+"\", TensorRT 10 and later)")
				break
			}
		}
	}
	if t := in.ProfileTable; t != nil {
		// A pasted table need not keep its "=== Profile" line (which gives
		// the count) or its header: its layout dates it either way.
		switch t.Layout {
		case engine.LayoutNameFirst:
			add(trtexecflags.Version{}, v(8, 2), "the log's per-layer table has no Median column (trtexec --dumpProfile prints one from TensorRT 8.4 on)")
			switch t.AvgDecimals {
			case 2:
				add(trtexecflags.Version{}, v(7, 1), "the table prints averages with 2 decimals (TensorRT 7.0 and 7.1; 4 from 7.2)")
			case 4:
				add(v(7, 2), trtexecflags.Version{}, "the table prints averages with 4 decimals (TensorRT 7.2 on; 2 in 7.0 and 7.1)")
			}
		case engine.LayoutNameFirstMedian:
			add(v(8, 4), v(8, 6), "the log's per-layer table puts the layer name first and has a Median column (trtexec --dumpProfile of TensorRT 8.4 to 8.6.0 EA)")
		case engine.LayoutNumbersFirst:
			add(v(8, 6), trtexecflags.Version{}, "the log's per-layer table puts the numbers first and the layer name last (trtexec --dumpProfile from TensorRT 8.6)")
		}
	} else if p := profileOf(in); p != nil && p.Kind == engine.ProfileTrtexec && p.HasCount && len(p.Records) > 0 {
		median := 0
		for _, r := range p.Records {
			if r.HasMedian {
				median++
			}
		}
		switch median {
		case 0:
			add(trtexecflags.Version{}, v(8, 2), "the trtexec profile has no medianMs (trtexec writes it from TensorRT 8.4 on)")
		case len(p.Records):
			add(v(8, 4), trtexecflags.Version{}, "the trtexec profile has medianMs (TensorRT 8.4 and later)")
		}
	}
	for _, r := range recs {
		if strings.HasPrefix(r.Name, "{") && !strings.HasPrefix(r.Name, "{ForeignNode[") && layerfacts.GuessKind(r.Name) == layerfacts.KindDLA {
			add(trtexecflags.Version{}, v(7, 2), "a DLA subgraph record lists its layers, \"{a,b,…}\" (TensorRT 7; 8 names it {ForeignNode[…]})")
			break
		}
	}
	t := in.Times
	if t == nil && len(in.TimesRuns) > 0 {
		t = in.TimesRuns[0]
	}
	switch {
	case t == nil:
	case t.TRT7Keys:
		add(trtexecflags.Version{}, v(7, 2), "the --exportTimes records have inMs/outMs (renamed h2dMs/d2hMs in TensorRT 8.0)")
	case len(t.H2DMs) > 0:
		add(v(8, 0), trtexecflags.Version{}, "the --exportTimes records have h2dMs/d2hMs (TensorRT 8.0 and later)")
	}
	return out
}

// inferRange intersects the format facts: the range, its evidence, and
// the facts that contradict each other (then the range is zero).
func inferRange(in *inputs.Backend, recs []engine.ProfileRecord) (trtexecflags.Range, []string, string) {
	facts := formatFacts(in, recs)
	if len(facts) == 0 {
		return trtexecflags.Range{}, nil, ""
	}
	r := trtexecflags.Range{Lo: trtexecflags.Oldest}
	var ev []string
	for _, f := range facts {
		nr, ok := r.Intersect(f.r)
		if !ok {
			return trtexecflags.Range{}, nil, strings.Join(append(ev, f.text), "; ")
		}
		r = nr
		ev = append(ev, f.text)
	}
	return r, ev, ""
}

func profileOf(in *inputs.Backend) *engine.Profile {
	if in.Profile != nil {
		return in.Profile
	}
	return in.FirstProfile
}

// myelinKernelType: from TensorRT 10 on Myelin's kernels are layers of
// their own with these types.
func myelinKernelType(t string) bool {
	switch t {
	case "kgen", "gemm", "shape_call", "signal", "wait", "reshape", "fusion":
		return true
	}
	return false
}

// tensorRTRange is the releases the backend's files fit, for a backend
// whose logs and metadata name no version; nil when the formats say
// nothing or contradict each other (then the evidence is kept in a note).
func tensorRTRange(in *inputs.Backend, recs []engine.ProfileRecord, msgs *messages) *contract.VersionRange {
	r, ev, conflict := inferRange(in, recs)
	if conflict != "" {
		msgs.info(CodeVersionRange, "the file formats disagree on the TensorRT release ("+conflict+"), so no range is inferred; advice names only flags of every release")
	}
	if r.IsZero() {
		return nil
	}
	out := &contract.VersionRange{Min: r.Lo.String(), Evidence: ev}
	if !r.Hi.IsZero() {
		hi := r.Hi.String()
		out.Max = &hi
	}
	return out
}
