package analysis

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/inputs"
	"github.com/trtperf/trtperf/internal/layerfacts"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// CodeProfileOnly says a failed backend still has timing from its profile.
const CodeProfileOnly = "profile_only"

// release is the TensorRT release of a backend: the version a log or
// metadata printed, else the family a log's layout fits ("7.x"), else the
// range the file formats fit.
type release struct {
	r    trtexecflags.Range // zero when unknown
	text string             // as printed, "" when unknown
}

func releaseOf(runs []sourcedRun, in *inputs.Backend) release {
	for _, s := range runs {
		if s.r.Version != "" {
			if v, err := trtexecflags.ParseVersion(s.r.Version); err == nil {
				return release{r: trtexecflags.Exactly(v), text: s.r.Version}
			}
		}
	}
	for _, s := range runs {
		if s.r.Era == "7.x" {
			return release{r: trtexecflags.Exactly(trtexecflags.V(7, 0)), text: "7.x"}
		}
	}
	var recs []engine.ProfileRecord
	if p := profileOf(in); p != nil {
		recs = p.Records
	}
	if r, _, _ := inferRange(in, recs); !r.IsZero() {
		return release{r: r, text: r.String() + " (inferred from the file formats)"}
	}
	return release{}
}

// layerInfoHint says how to get layer info for a backend, in words its
// TensorRT release's trtexec understands: from 8.2 on --exportLayerInfo
// with detailed verbosity; before, a newer release or the verbose build
// log, since those trtexecs cannot export layer information at all.
func layerInfoHint(label string, rel release) string {
	if !rel.r.IsZero() {
		if ok, _ := trtexecflags.SupportedIn("--exportLayerInfo", rel.r); !ok {
			who := fmt.Sprintf("TensorRT %s's trtexec cannot", rel.text)
			if ok, _ := trtexecflags.SupportedIn("--exportLayerInfo", trtexecflags.Exactly(rel.r.Hi)); ok || rel.r.Hi.IsZero() {
				who = fmt.Sprintf("these files fit TensorRT %s, whose trtexec may not", rel.text)
			} else if rel.r.Lo != rel.r.Hi {
				who = fmt.Sprintf("these files fit TensorRT %s, whose trtexec cannot", rel.text)
			}
			return fmt.Sprintf("%s export layer information (--exportLayerInfo and --profilingVerbosity came with TensorRT 8.2): "+
				"rebuild the engine with TensorRT 8.2 or newer and run trtexec --profilingVerbosity=detailed --exportLayerInfo=layers_%s.json --exportProfile=profile_%s.json, "+
				"or rerun this trtexec with --verbose, whose build log lists each layer with its tactic and formats; meanwhile the profile alone is analysed (profile_only)",
				who, label, label)
		}
	}
	return trtexecflags.LayerInfoAdvice("layers_"+label+".json", "", rel.r) + "; or, when the layer info lies under another name, analyse the two files together as one backend; meanwhile the profile alone is analysed (profile_only)"
}

// fillProfileOnly gives a backend without usable layer info the timing its
// profile holds: records whose layer kinds are guessed from their names
// (tagged layerfacts.TagGuessed and the tags of the guessed kind, so a
// guessed reformat, Q/DQ or cast is a conversion), breakdowns and
// concentration. Names-only layer info that matches the profile one to
// one gives the records their layer indexes.
func fillProfileOnly(out *contract.Backend, p *engine.Profile, recs []engine.ProfileRecord, names []engine.Layer, msgs *messages) {
	var sumAvg float64
	for _, r := range recs {
		sumAvg += r.AverageMs
	}
	for i := range recs {
		if !recs[i].HasPercent {
			recs[i].Percentage = share(recs[i].AverageMs, sumAvg)
		}
	}
	count, source := iterations(p)
	out.Count, out.CountSource = count, source
	sub := *p
	sub.Records = recs
	out.Timing = timing(&sub, count, msgs)
	out.Timing.Notes = append(out.Timing.Notes, "profile_only: layer kinds are guessed from layer names (tag "+layerfacts.TagGuessed+"); precisions, tactics and formats are unknown without detailed layer info")

	unmatched := make([]int, len(recs))
	for i := range unmatched {
		unmatched[i] = -1
	}
	out.Records = buildRecords(recs, unmatched, nil, nil)
	var layerOf []int
	if len(names) > 0 {
		if m := matchNames(names, recs); m.ok() {
			layerOf = m.layerOf
		}
	}
	for i := range out.Records {
		r := &out.Records[i]
		r.LayerType = layerfacts.GuessKind(r.Name)
		r.Precision = "unknown"
		r.TacticFamily = layerfacts.FamilyUnknown
		if layerOf != nil {
			r.Layer = layerOf[i]
		}
	}
	dlaForeignNodes(out.Records)
	for i := range out.Records { // the tags of the kind as settled above
		out.Records[i].Tags = layerfacts.GuessedTags(out.Records[i].LayerType)
	}
	out.ProfileCount = len(out.Records)
	total := out.Timing.AverageInferenceMs
	out.TypeBreakdown = breakdown(out.Records, total, func(r *contract.Record) []string { return []string{r.LayerType} })
	out.PrecisionBreakdown = breakdown(out.Records, total, func(r *contract.Record) []string { return []string{r.Precision} })
	out.TagBreakdown = breakdown(out.Records, total, func(r *contract.Record) []string { return r.Tags })
	out.Concentration = concentration(out.Records, total)
	msgs.info(CodeProfileOnly, fmt.Sprintf("profile_only: %d profiled layers give timing, top layers and concentration; layer kinds are guessed from names", len(recs)))
}

// dlaForeignNodes makes a "{ForeignNode[…]}" record DLA work when a DLA
// hand-over or wait record ("… to nvm", "… from nvm", "… finish") is next to
// it: from TensorRT 8 on a DLA subgraph is named like a Myelin region, and
// only its neighbours tell them apart.
func dlaForeignNodes(recs []contract.Record) {
	for i := range recs {
		if recs[i].LayerType != "Myelin" || !strings.HasPrefix(recs[i].Name, "{ForeignNode[") {
			continue
		}
		if i > 0 && recs[i-1].LayerType == layerfacts.KindDLATransfer || i+1 < len(recs) && recs[i+1].LayerType == layerfacts.KindDLATransfer {
			recs[i].LayerType = layerfacts.KindDLA
		}
	}
}
