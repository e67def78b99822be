package analysis

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/findings"
	"github.com/trtperf/trtperf/internal/graph"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

// inputs are the parsed files of one backend.
type inputs struct {
	info    *engine.LayerInfo
	infoErr error
	prof    *engine.Profile
	profErr error
}

// readInputs parses the layer info and the profile concurrently: on big
// engines both files are large and independent.
func readInputs(b discover.Backend) inputs {
	var in inputs
	var wg sync.WaitGroup
	if b.LayerPath != "" {
		wg.Go(func() { in.info, in.infoErr = dump.ReadLayerInfo(b.LayerPath) })
	}
	if b.ProfilePath != "" {
		wg.Go(func() { in.prof, in.profErr = dump.ReadProfile(b.ProfilePath) })
	}
	wg.Wait()
	return in
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// readError turns a parse or I/O error into a message with a stable code.
func readError(side, path string, err error) (code, text string) {
	var fe *dump.FormatError
	if errors.As(err, &fe) {
		return side + "_" + fe.Code, fmt.Sprintf("%s %s: %s", sideWords(side), filepath.Base(path), fe.Error())
	}
	return side + "_unreadable", fmt.Sprintf("%s %s cannot be read: %v; check the file exists and is readable", sideWords(side), filepath.Base(path), err)
}

func sideWords(side string) string {
	if side == sideLayerInfo {
		return "layer info"
	}
	return "profile"
}

func newBackend(b discover.Backend) contract.Backend {
	return contract.Backend{
		Label: b.Label,
		Validation: contract.BackendValidation{
			SourcePaths: contract.SourcePaths{Layer: strPtr(b.LayerPath), Profile: strPtr(b.ProfilePath)},
		},
		Layers: []contract.Layer{}, Records: []contract.Record{},
		Graph: contract.Graph{
			DuplicateProducers: []contract.DuplicateProducer{}, ExternalInputs: []string{},
			GraphOutputs: []string{}, DeclaredInputs: []string{}, DeclaredOutputs: []string{}, Edges: [][2]int{},
		},
		CountSource:   CountUnknown,
		TypeBreakdown: []contract.Breakdown{}, TagBreakdown: []contract.Breakdown{}, PrecisionBreakdown: []contract.Breakdown{},
		Issues: []contract.Finding{}, Positives: []contract.Positive{},
	}
}

// analyzeBackend runs the integrity gate on one backend and, when it
// passes, the timing analysis. Problems are messages, never Go errors.
func analyzeBackend(b discover.Backend, scope *discover.Scope, id identity) contract.Backend {
	out := newBackend(b)
	var msgs messages
	in := readInputs(b)

	// Layer side first, so the message that says what to do comes first.
	var layers []engine.Layer
	optProfiles := []int{0}
	chosenProfile := 0
	switch {
	case b.LayerPath == "":
		msgs.error(CodeMissingLayerInfo, fmt.Sprintf("no layer info for backend %q: %s has timing but no layers beside it; export it from the same engine with trtexec --loadEngine=ENGINE --profilingVerbosity=detailed --exportLayerInfo=layers_%s.json (or pass both files with --data LAYERS PROFILE)", b.Label, filepath.Base(b.ProfilePath), b.Label))
	case in.infoErr != nil:
		msgs.error(readError(sideLayerInfo, b.LayerPath, in.infoErr))
	case in.info.NamesOnly:
		msgs.error(CodeNamesOnly, fmt.Sprintf("layer info %s holds layer names only (the engine was built with the default profiling verbosity), so tensors, formats and tactics are unknown; rebuild the engine with trtexec --profilingVerbosity=detailed and export again with --exportLayerInfo", filepath.Base(b.LayerPath)))
		layers = in.info.Layers
	case len(in.info.Layers) == 0:
		msgs.error(CodeNoLayers, fmt.Sprintf("layer info %s holds no layers; export it again with trtexec --profilingVerbosity=detailed --exportLayerInfo", filepath.Base(b.LayerPath)))
	default:
		layers, optProfiles, chosenProfile = firstOptProfile(in.info.Layers, &msgs)
	}

	// Profile side.
	var recs []engine.ProfileRecord
	switch {
	case b.ProfilePath == "":
		if b.LayerPath != "" && in.infoErr == nil {
			msgs.info(CodeNoProfile, fmt.Sprintf("no profile for backend %q: graph and layers can be inspected, timing cannot; export one with trtexec --loadEngine=ENGINE --exportProfile=profile_%s.json --separateProfileRun", b.Label, b.Label))
		}
	case in.profErr != nil:
		msgs.error(readError(sideProfile, b.ProfilePath, in.profErr))
	case len(in.prof.Records) == 0:
		msgs.error(CodeEmptyProfile, fmt.Sprintf("profile %s holds no layer records; export it again with trtexec --exportProfile", filepath.Base(b.ProfilePath)))
	default:
		recs = firstOptProfileRecords(in.prof.Records, chosenProfile)
		if problem := badTimes(recs); problem != "" {
			msgs.error(CodeBadTimes, fmt.Sprintf("profile %s: %s; export the profile again with trtexec --exportProfile", filepath.Base(b.ProfilePath), problem))
			recs = nil
		} else if len(recs) == 0 {
			msgs.error(CodeEmptyProfile, fmt.Sprintf("profile %s holds no records of optimization profile %d, the one analysed; export the profile of that optimization profile (trtexec --profile=%d --exportProfile)", filepath.Base(b.ProfilePath), chosenProfile, chosenProfile))
			recs = nil
		}
		if in.prof.Kind == engine.ProfileLatencyDict {
			msgs.info(CodeProfileSourceLatency, fmt.Sprintf("timing comes from per-layer latency samples in %s (%d records): average, median and share are computed from the samples", filepath.Base(b.ProfilePath), len(recs)))
		}
	}
	out.ProfileCount = len(recs)
	if in.prof != nil {
		out.ProfileKind = in.prof.Kind
	}
	out.LayerCount = len(layers)

	// Conversion, graph, name matching and per-layer facts only read the
	// layers: run them at once (facts split itself over the CPUs). Each
	// writes its own messages, joined below in a fixed order.
	detailed := in.info != nil && !in.info.NamesOnly && len(layers) > 0
	var (
		g                   *graph.Graph
		m                   matchResult
		facts               []layerfacts.Facts
		graphMsgs, matchMsg messages
		wg                  sync.WaitGroup
	)
	wg.Go(func() { out.Layers = contractLayers(layers) })
	if detailed {
		wg.Go(func() {
			g = graph.Build(layers, in.info.IO)
			out.Graph = contractGraph(g, layers, in.info.IO)
			gateGraph(g, layers, &graphMsgs)
			if subs := distinctSubgraphs(layers); len(subs) > 1 {
				graphMsgs.info(CodeSubgraphs, fmt.Sprintf("the dump holds %d engines (_subgraph ids %s); each is reported as a partition", len(subs), strings.Join(subs, ", ")))
			}
		})
		if recs != nil {
			wg.Go(func() {
				m = matchNames(layers, recs)
				if !m.ok() {
					matchMsg.error(CodeNameMismatch, m.describe(layers, recs))
				} else if len(m.repeated) > 0 {
					matchMsg.info(CodeDuplicateNames, fmt.Sprintf("%d layer names occur more than once (e.g. %q); records were matched by occurrence", len(m.repeated), shorten(m.repeated[0], 120)))
				}
			})
		}
		facts = deriveFacts(layers)
	}
	wg.Wait()
	msgs.list = append(msgs.list, graphMsgs.list...)
	msgs.list = append(msgs.list, matchMsg.list...)

	failed := msgs.hasError()
	v := &out.Validation
	switch {
	case failed:
		v.Status, v.AnalysisMode = contract.StatusFailed, contract.ModeUnusable
	case recs == nil:
		v.Status, v.AnalysisMode = contract.StatusPassed, contract.ModeLayerOnly
	default:
		v.Status, v.AnalysisMode = contract.StatusPassed, contract.ModeLayerProfile
	}
	v.ReportAvailable = !failed

	if v.AnalysisMode == contract.ModeLayerProfile {
		fillTiming(&out, in.prof, recs, m, layers, facts, &msgs)
	}
	if detailed {
		total := 0.0
		if out.Timing != nil {
			total = out.Timing.AverageInferenceMs
		}
		out.Engines = enginesFor(scope, layers, facts, out.Records, total, optProfiles)
	} else {
		out.Engines = enginesFor(scope, nil, nil, nil, 0, optProfiles)
	}
	// The model section and the findings both only read the backend, and
	// the findings need nothing of the model but DynamicDims: compute that
	// first, then run both at once.
	out.Model.DynamicDims = hasDynamicDims(out.Layers)
	var model contract.Model
	wg.Go(func() { model = modelFor(id, &out, infoOrNil(in.info, detailed)) })
	if v.AnalysisMode == contract.ModeLayerProfile {
		out.Issues, out.Positives = findings.Evaluate(&out)
		if out.Issues == nil {
			out.Issues = []contract.Finding{}
		}
		if out.Positives == nil {
			out.Positives = []contract.Positive{}
		}
	}
	wg.Wait()
	out.Model = model
	v.Messages = msgs.items()
	return out
}

func infoOrNil(info *engine.LayerInfo, ok bool) *engine.LayerInfo {
	if ok {
		return info
	}
	return nil
}

// fillTiming computes timing, count, records and breakdowns of a backend
// whose gate passed with a profile.
func fillTiming(out *contract.Backend, p *engine.Profile, recs []engine.ProfileRecord, m matchResult, layers []engine.Layer, facts []layerfacts.Facts, msgs *messages) {
	// A profile without percentages (or a latency dict) gets each record's
	// share of the summed averages.
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
	switch source {
	case CountFromTimeRatio:
		msgs.info(CodeCountInferred, fmt.Sprintf("the profile has no {\"count\": N} header; %d iterations inferred from the typical timeMs / averageMs ratio", *count))
	case CountUnknown:
		msgs.info(CodeCountUnknown, "the profile says nothing of how many iterations were timed")
	}
	sub := *p
	sub.Records = recs
	out.Timing = timing(&sub, count, msgs)
	out.Records = buildRecords(recs, m.layerOf, layers, facts)
	total := out.Timing.AverageInferenceMs
	out.TypeBreakdown = breakdown(out.Records, total, func(r *contract.Record) []string { return []string{r.LayerType} })
	out.PrecisionBreakdown = breakdown(out.Records, total, func(r *contract.Record) []string { return []string{r.Precision} })
	out.TagBreakdown = breakdown(out.Records, total, func(r *contract.Record) []string { return r.Tags })
	out.Concentration = concentration(out.Records, total)
}

// firstOptProfile keeps the layers of the first optimization profile
// present (0 in any normal dump). trtexec profiles profile 0 unless told
// otherwise (--profile), and the other profiles repeat the same kernels at
// other shapes; they are counted in an info message rather than reported as
// separate backends. It returns the kept layers, every profile seen, and
// the one kept.
func firstOptProfile(ls []engine.Layer, msgs *messages) ([]engine.Layer, []int, int) {
	seen := map[int]bool{}
	var profiles []int
	for i := range ls {
		if p := ls[i].OptProfile; !seen[p] {
			seen[p] = true
			profiles = append(profiles, p)
		}
	}
	slices.Sort(profiles)
	chosen := profiles[0]
	if len(profiles) == 1 {
		return ls, profiles, chosen
	}
	kept := make([]engine.Layer, 0, len(ls))
	for _, l := range ls {
		if l.OptProfile == chosen {
			l.Index = len(kept)
			kept = append(kept, l)
		}
	}
	msgs.info(CodeOptProfilesSetAside, fmt.Sprintf("the engine has %d optimization profiles; profile %d is analysed (trtexec profiles the first by default) and %d layers of profiles %v are set aside", len(profiles), chosen, len(ls)-len(kept), profiles[1:]))
	return kept, profiles, chosen
}

// firstOptProfileRecords keeps the records of optimization profile chosen.
// When records of other profiles were dropped, the dump percentages are
// shares of all profiles together, so they are recomputed as shares of the
// kept profile's time.
func firstOptProfileRecords(rs []engine.ProfileRecord, chosen int) []engine.ProfileRecord {
	mixed := false
	for _, r := range rs {
		if r.OptProfile != chosen {
			mixed = true
			break
		}
	}
	if !mixed {
		return rs
	}
	kept := make([]engine.ProfileRecord, 0, len(rs))
	for _, r := range rs {
		if r.OptProfile == chosen {
			r.HasPercent = false
			kept = append(kept, r)
		}
	}
	return kept
}

func distinctSubgraphs(ls []engine.Layer) []string {
	var out []string
	seen := map[string]bool{}
	for i := range ls {
		if s := ls[i].Subgraph; s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// badTimes describes profile values no engine can produce: negative times,
// or times so large that their sum is not a finite number.
func badTimes(recs []engine.ProfileRecord) string {
	var sumTime, sumAvg, sumMedian, sumPct float64
	for i, r := range recs {
		if r.TimeMs < 0 || r.AverageMs < 0 || r.MedianMs < 0 || r.Percentage < 0 {
			return fmt.Sprintf("record %d (%q) has a negative time or percentage", i, shorten(r.Name, 80))
		}
		sumTime += r.TimeMs
		sumAvg += r.AverageMs
		sumMedian += r.MedianMs
		sumPct += r.Percentage
	}
	if math.IsInf(sumTime, 0) || math.IsInf(sumAvg, 0) || math.IsInf(sumMedian, 0) || math.IsInf(sumPct, 0) {
		return "its times are too large to add up (the sum overflows)"
	}
	return ""
}
