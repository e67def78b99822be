package analysis

import (
	"fmt"
	"github.com/trtperf/trtperf/internal/trtexecflags"
	"path/filepath"
	"strings"
	"sync"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/findings"
	"github.com/trtperf/trtperf/internal/graph"
	"github.com/trtperf/trtperf/internal/inputs"
	"github.com/trtperf/trtperf/internal/layerfacts"
)

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
		Issues: []contract.Finding{}, Positives: []contract.Positive{}, Runs: []contract.RunRow{},
	}
}

// analyzeBackend runs the integrity gate on one backend's parsed inputs and, when it
// passes, the timing analysis. Problems are messages, never Go errors.
func analyzeBackend(b discover.Backend, in inputs.Backend, scope *discover.Scope, id identity, given *contract.Device, run int) (contract.Backend, modelInput) {
	// A log's per-layer table and layer information lines stand for the
	// files the backend lacks (see logsource.go).
	if in.ProfileLog != "" {
		b.ProfilePath = in.ProfileLog
	}
	if in.LayerInfoLog != "" {
		b.LayerPath = in.LayerInfoLog
	}
	if in.ProfileLog != "" && in.LayerInfo != nil && len(in.LayerInfo.Layers) > 0 {
		// A log of several tables and layer info of one engine: as for a
		// profile of several runs, analyse the table whose layer names
		// are the layer info's (load gives the first).
		pickLogTable(&in)
	}
	out := newBackend(b)
	var msgs messages
	logSourceMessages(b, in, &msgs)

	// Without usable layer info the profile alone still says where the time
	// goes (profile_only); of a file of several runs, the first.
	layerMissing := b.LayerPath == "" || in.LayerInfoErr != nil || in.LayerInfo.NamesOnly || len(in.LayerInfo.Layers) == 0
	var concatCode, concatText, concatSuffix string
	analysedRun := 0
	if k, n := run, len(in.ProfileRuns); k > 0 && n > 1 && in.FirstProfile != nil {
		// The run asked for (Options.Run), when the file has it.
		concatCode, concatText = readError(sideProfile, b.ProfilePath, in.ProfileErr)
		if k > n {
			k = 1
			concatSuffix = fmt.Sprintf("; run %d was asked for but the file holds %d runs, so run 1 is analysed", run, n)
		} else {
			concatSuffix = fmt.Sprintf("; run %d of %d is analysed, as asked; the runs table lists them all", k, n)
		}
		in.Profile, in.ProfileErr, analysedRun = in.ProfileRuns[k-1], nil, k
	} else if layerMissing && in.FirstProfile != nil {
		concatCode, concatText = readError(sideProfile, b.ProfilePath, in.ProfileErr)
		concatSuffix = "; without layer info the first run is analysed on its own"
		in.Profile, in.ProfileErr, analysedRun = in.FirstProfile, nil, 1
	} else if !layerMissing && len(in.ProfileRuns) > 1 {
		// Several runs and layer info of one engine: analyse the run whose
		// layer names are the layer info's.
		if k, n := matchingRun(in.ProfileRuns, in.LayerInfo.Layers); n > 0 {
			concatCode, concatText = readError(sideProfile, b.ProfilePath, in.ProfileErr)
			concatSuffix = fmt.Sprintf("; run %d of %d matches the layer info (%d of %d layer names) and is analysed, the runs table lists them all", k, len(in.ProfileRuns), n, len(in.LayerInfo.Layers))
			in.Profile, in.ProfileErr, analysedRun = in.ProfileRuns[k-1], nil, k
		}
	}

	// A times file of the same sweep: the analysed run's times (said after
	// the messages that say what to do).
	timesNote := ""
	if analysedRun > 0 && len(in.TimesRuns) == len(in.ProfileRuns) && analysedRun <= len(in.TimesRuns) {
		in.Times, in.TimesErr = in.TimesRuns[analysedRun-1], nil
		timesNote = fmt.Sprintf("times file %s holds %d runs, as the profile does; run %d, the one analysed, gives the end-to-end latency", filepath.Base(b.TimesPath), len(in.TimesRuns), analysedRun)
	}

	// Layer side first, so the message that says what to do comes first.
	var layers []engine.Layer
	optProfiles := []int{0}
	chosenProfile := 0
	switch {
	case b.LayerPath == "" && b.ProfilePath == "":
		msgs.error(CodeLogWithoutLayers, logWithoutLayersText(b, in))
	case b.LayerPath == "":
		msgs.error(CodeMissingLayerInfo, fmt.Sprintf("no layer info for backend %q: %s has timing but no layers beside it; %s", b.Label, filepath.Base(b.ProfilePath), layerInfoHint(b.Label, releaseOf(runsOf(in, analysedRun), &in))))
	case in.LayerInfoErr != nil:
		msgs.error(readError(sideLayerInfo, b.LayerPath, in.LayerInfoErr))
	case in.LayerInfo.NamesOnly:
		msgs.error(CodeNamesOnly, fmt.Sprintf("layer info %s holds layer names only (the engine was built with the default profiling verbosity), so tensors, formats and tactics are unknown; rebuild the engine with trtexec --profilingVerbosity=detailed and export again with --exportLayerInfo", filepath.Base(b.LayerPath)))
		layers = in.LayerInfo.Layers
	case len(in.LayerInfo.Layers) == 0:
		msgs.error(CodeNoLayers, fmt.Sprintf("layer info %s holds no layers; export it again: %s", filepath.Base(b.LayerPath), trtexecflags.LayerInfoAdvice(filepath.Base(b.LayerPath), "", withLayerInfo)))
	default:
		layers, optProfiles, chosenProfile = firstOptProfile(in.LayerInfo.Layers, &msgs)
	}

	if concatCode != "" {
		msgs.warning(concatCode, concatText+concatSuffix)
	}

	// Profile side.
	var recs []engine.ProfileRecord
	switch {
	case b.ProfilePath == "":
		if b.LayerPath != "" && in.LayerInfoErr == nil {
			msgs.info(CodeNoProfile, fmt.Sprintf("no profile for backend %q: graph and layers can be inspected, timing cannot; export one with trtexec --loadEngine=ENGINE --exportProfile=profile_%s.json --separateProfileRun", b.Label, b.Label))
		}
	case in.ProfileErr != nil:
		msgs.error(readError(sideProfile, b.ProfilePath, in.ProfileErr))
	case len(in.Profile.Records) == 0:
		msgs.error(CodeEmptyProfile, fmt.Sprintf("profile %s holds no layer records; export it again with trtexec --exportProfile", filepath.Base(b.ProfilePath)))
	default:
		recs = firstOptProfileRecords(in.Profile.Records, chosenProfile)
		if problem := badTimes(recs); problem != "" {
			msgs.error(CodeBadTimes, fmt.Sprintf("profile %s: %s; export the profile again with trtexec --exportProfile", filepath.Base(b.ProfilePath), problem))
			recs = nil
		} else if len(recs) == 0 {
			msgs.error(CodeEmptyProfile, fmt.Sprintf("profile %s holds no records of optimization profile %d, the one analysed; export the profile of that optimization profile (trtexec --profile=%d --exportProfile)", filepath.Base(b.ProfilePath), chosenProfile, chosenProfile))
			recs = nil
		}
		switch text := fmt.Sprintf("timing comes from a per-layer table of your own in %s (%d records): %s", filepath.Base(b.ProfilePath), len(recs), in.Profile.Read); {
		case in.Profile.Read != "" && in.Profile.UnitAssumed:
			// An assumed unit qualifies every number that follows.
			msgs.warning(CodeProfileSourceTable, text+"; if the times are in µs or ns, name the unit in the file (a \"unit\" member, or the unit in each key or column header)")
		case in.Profile.Read != "":
			msgs.info(CodeProfileSourceTable, text)
		}
		if in.Profile.Read == "" && in.Profile.Kind == engine.ProfileLatencyDict {
			msgs.info(CodeProfileSourceLatency, fmt.Sprintf("timing comes from per-layer latency samples in %s (%d records): average, median and share are computed from the samples", filepath.Base(b.ProfilePath), len(recs)))
		}
	}
	out.ProfileCount = len(recs)
	if in.Profile != nil {
		out.ProfileKind = in.Profile.Kind
	}
	out.LayerCount = len(layers)

	// Conversion, graph, name matching and per-layer facts only read the
	// layers: run them at once (facts split itself over the CPUs). Each
	// writes its own messages, joined below in a fixed order.
	detailed := in.LayerInfo != nil && !in.LayerInfo.NamesOnly && len(layers) > 0
	var (
		g                   *graph.Graph
		m                   matchResult
		facts               []layerfacts.Facts
		graphMsgs, matchMsg messages
		wg                  sync.WaitGroup
	)
	var paramFixes int
	var paramExample string
	wg.Go(func() { out.Layers, paramFixes, paramExample = contractLayers(layers) })
	if detailed {
		wg.Go(func() {
			g = graph.Build(layers, in.LayerInfo.IO)
			out.Graph = contractGraph(g, layers, in.LayerInfo.IO)
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
	var mi modelInput
	if detailed {
		mi = newModelInput(layers, facts)
	}
	if paramFixes > 0 {
		msgs.warning(CodeParamsNormalised, fmt.Sprintf("%d layer parameter(s) were not valid I-JSON (e.g. %s): repeated keys keep their last value, invalid characters became U+FFFD, numbers beyond a 64-bit float became strings", paramFixes, paramExample))
	}
	msgs.list = append(msgs.list, graphMsgs.list...)
	msgs.list = append(msgs.list, matchMsg.list...)

	failed := msgs.hasError()
	v := &out.Validation
	switch {
	case failed && layerMissing && recs != nil:
		v.Status, v.AnalysisMode = contract.StatusFailed, contract.ModeProfileOnly
	case failed:
		v.Status, v.AnalysisMode = contract.StatusFailed, contract.ModeUnusable
	case recs == nil:
		v.Status, v.AnalysisMode = contract.StatusPassed, contract.ModeLayerOnly
	default:
		v.Status, v.AnalysisMode = contract.StatusPassed, contract.ModeLayerProfile
	}
	v.ReportAvailable = !failed

	if v.AnalysisMode == contract.ModeLayerProfile {
		fillTiming(&out, in.Profile, recs, m, layers, facts, &msgs)
		addEndToEnd(&out, in, b.TimesPath, &msgs)
	}
	if v.AnalysisMode == contract.ModeProfileOnly {
		fillProfileOnly(&out, in.Profile, recs, layers, &msgs)
		addEndToEnd(&out, in, b.TimesPath, &msgs)
	}
	if timesNote != "" {
		msgs.info(CodeSeveralRuns, timesNote)
	}
	if b.FromLog && b.LayerPath == "" && b.ProfilePath == "" {
		// A log without per-layer data still measured the engine: its
		// timing holds what trtexec measured and no records.
		out.Timing = &contract.Timing{Notes: []string{"no per-layer data: only what trtexec measured, from " + filepath.Base(b.LogPaths[0])}}
	}
	addRunFacts(&out, in, b.TimesPath, analysedRun, &msgs)
	if out.Device == nil && given != nil {
		out.Device = cloneDevice(given)
	}
	if out.Timing != nil && out.Timing.Measured == nil && len(out.Records) == 0 && v.AnalysisMode == contract.ModeUnusable {
		out.Timing = nil
	}
	if v.AnalysisMode == contract.ModeProfileOnly {
		// After the run facts: a measured GPU time is the prices' reference.
		out.Issues, out.Diagnosis, out.Overview = findings.EvaluateProfileOnly(&out)
	}
	if v.AnalysisMode == contract.ModeUnusable && out.Timing != nil && out.Timing.Measured != nil && len(out.Records) == 0 && len(out.Layers) == 0 {
		// No per-layer evidence, but what trtexec measured end to end:
		// latency, GPU compute, the host/device split.
		v.AnalysisMode = contract.ModeMeasuredOnly
	}
	if out.Build == nil || out.Build.TensorRTVersion == nil {
		out.TensorRTRange = tensorRTRange(&in, recs, &msgs)
	}
	out.Runs = sweepRows(in, analysedRun)
	markLogRun(out.Runs, in)
	// The model section, the engine memory and partitions, and the
	// findings only read the backend, and the findings need nothing of the
	// others but DynamicDims: compute that first, then run the findings
	// beside the rest.
	out.Model.DynamicDims = hasDynamicDims(out.Layers)
	var (
		model   contract.Model
		memory  *contract.Memory
		engines contract.Engines
	)
	wg.Go(func() {
		model = modelFor(id, &out, infoOrNil(in.LayerInfo, detailed))
		if !detailed {
			engines = enginesFor(scope, nil, nil, nil, 0, optProfiles)
			return
		}
		memory = engineMemory(layers, g, in.LayerInfo.IO, in.LayerInfo.HasIODeclaration)
		total := 0.0
		if out.Timing != nil {
			total = out.Timing.AverageInferenceMs
		}
		engines = enginesFor(scope, layers, facts, out.Records, total, optProfiles)
	})
	if v.AnalysisMode == contract.ModeLayerProfile {
		evaluateLayerProfile(&out, &mi)
	}
	if v.AnalysisMode == contract.ModeLayerOnly && mi.layers != nil {
		mi.shadow = shadowRecords(layers, facts)
	}
	wg.Wait()
	out.Model, out.Memory, out.Engines = model, memory, engines
	addLogOverview(&out, in, analysedRun, len(scope.Backends)-1)
	v.Messages = msgs.items()
	return out, mi
}

func infoOrNil(info *engine.LayerInfo, ok bool) *engine.LayerInfo {
	if ok {
		return info
	}
	return nil
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
