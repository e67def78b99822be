package analysis

import (
	"fmt"
	"github.com/trtperf/trtperf/internal/findings"

	"github.com/trtperf/trtperf/internal/compare"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/inputs"
)

// AnalyzeParsed analyses the backends of scope from their parsed inputs
// (src; internal/load reads them from files) and returns the
// analyze-data.json model. The scope's paths only name files in messages;
// no file is read. A backend whose files are broken is reported as failed
// in the result, never returned as an error: the error return is reserved
// for problems that prevent writing any structured data at all.
func AnalyzeParsed(scope *discover.Scope, src inputs.Source, opt Options) (*contract.AnalyzeData, error) {
	d, _, err := analyzeScope(scope, src, opt)
	return d, err
}

// analyzeScope is AnalyzeParsed, also returning what the cost model read
// of each backend (the calibration test fits the model on it).
func analyzeScope(scope *discover.Scope, src inputs.Source, opt Options) (*contract.AnalyzeData, []modelInput, error) {
	if scope == nil {
		return nil, nil, fmt.Errorf("analyze: no input scope")
	}
	if src.Backend == nil && len(scope.Backends) > 0 {
		return nil, nil, fmt.Errorf("analyze: no inputs for %d backends", len(scope.Backends))
	}
	d := &contract.AnalyzeData{
		SchemaVersion:     contract.SchemaVersion,
		Tool:              contract.Tool{Name: ToolName, Version: opt.ToolVersion},
		ModelNameEvidence: []contract.Evidence{},
		ModelComponents:   []string{},
		Results:           make([]contract.Backend, 0, len(scope.Backends)),
	}
	if scope.Folder != "" {
		f := scope.Folder
		d.Folder = &f
	}
	id := identify(scope, src.Configs, opt.ModelName, opt.ModelNameFrom)
	d.ModelName, d.ModelNameConfidence, d.ModelNameEvidence = id.name, id.confidence, id.evidence
	d.ModelComponents = id.components

	var given *contract.Device
	from := opt.GPUFrom
	if from == "" {
		from = "GPU option"
	}
	if opt.GPU != "" {
		f, err := gpu.Named(opt.GPU)
		if err != nil {
			return nil, nil, fmt.Errorf("analyze: the GPU given: %w", err)
		}
		given = contractDevice(f, from, []string{"the files name no GPU: these are the facts of the GPU given for the analysis"}, 0)
	}
	ins := make([]modelInput, len(scope.Backends))
	for i, b := range scope.Backends {
		r, mi := analyzeBackend(b, src.Backend(i), scope, id, given, opt.Run)
		d.Results = append(d.Results, r)
		ins[i] = mi
	}
	if given != nil {
		if err := checkGivenGPU(d.Results, ins, from); err != nil {
			return nil, nil, err
		}
	}
	warnFileDevice(d.Results, ins, from)
	fillPredictions(d.Results, ins)
	siblings := make([]*contract.Backend, len(d.Results))
	for i := range d.Results {
		siblings[i] = &d.Results[i]
	}
	d.Validation = rollUp(d.Results, scope)
	// The comparison reads records only; the sibling findings quote it.
	cmp, err := compare.Section(d, opt.Baseline)
	if err != nil {
		return nil, nil, fmt.Errorf("comparison: %w", err)
	}
	d.Comparison = cmp
	d.RowComparisons = compare.RowSection(d)
	rowsOverview(d.Results, d.RowComparisons)
	findings.EvaluateSiblings(siblings, cmp, compare.SameWorkPct)
	compareLogMeasured(d.Results)
	return d, ins, nil
}

// rollUp summarises the per-backend gates.
func rollUp(results []contract.Backend, scope *discover.Scope) contract.Validation {
	v := contract.Validation{BackendCount: len(results), Warnings: []string{}}
	for _, r := range results {
		if r.Validation.Status == contract.StatusPassed {
			v.PassedCount++
		} else {
			v.FailedCount++
			if first := firstError(r.Validation.Messages); first != "" {
				v.Warnings = append(v.Warnings, fmt.Sprintf("backend %s failed: %s", r.Label, first))
			}
		}
	}
	switch {
	case v.BackendCount > 0 && v.PassedCount == v.BackendCount:
		v.Status = contract.StatusPassed
	case v.PassedCount > 0:
		v.Status = contract.StatusPartial
	default:
		v.Status = contract.StatusFailed
	}
	for _, ig := range scope.Ignored {
		v.Warnings = append(v.Warnings, "ignored "+ig)
	}
	for _, rc := range scope.Recast {
		v.Warnings = append(v.Warnings, contract.WarningRecast+rc)
	}
	return v
}

func firstError(ms []contract.Message) string {
	for _, m := range ms {
		if m.Level == contract.LevelError {
			return m.Message
		}
	}
	return ""
}
