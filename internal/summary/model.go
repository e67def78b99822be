package summary

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// Options control what Write prints.
type Options struct {
	Top    int    // layers in the top table; <= 0 means 20
	By     string // "type", "precision", "tag", or "" for type and precision
	Format string // "text" (default), "markdown", "csv", "json"
	Color  bool   // ANSI colour (text only); the CLI sets it on a terminal
	// NameWidth caps the layer-name column (runes); 0 means 60,
	// FullNames no cap.
	NameWidth int
	// DeviceHint says how to name the GPU the engines ran on; it ends the
	// note printed where the cost model priced a finding for a default GPU
	// (the CLI sets it to its flag). "" leaves it out.
	DeviceHint string
}

// FullNames is the NameWidth that prints layer names whole.
const FullNames = -1

// Formats and breakdowns Write accepts.
var (
	Formats    = []string{"text", "markdown", "csv", "json"}
	Breakdowns = []string{"type", "precision", "tag"}
)

// view is the printed model of one backend.
type view struct {
	Label    string             `json:"label"`
	Status   string             `json:"status"`
	Mode     string             `json:"analysis_mode"`
	Messages []string           `json:"messages"`
	Layers   int                `json:"layer_count"`
	Records  int                `json:"profile_count"`
	Count    *int64             `json:"count"`
	TotalMs  float64            `json:"total_ms"`
	MedianMs *float64           `json:"median_ms"`
	EndToEnd *contract.EndToEnd `json:"end_to_end,omitempty"`
	Measured *contract.Measured `json:"measured,omitempty"`
	Category string             `json:"category"`
	Top      []row              `json:"top"`
	TopOf    int                `json:"top_of"`
	// Untimed is the records the profile gives no time (0 ms averages:
	// constants and no-ops TensorRT lists but does not run), kept out of
	// the top table and named on one line instead.
	Untimed   []string                `json:"untimed,omitempty"`
	Tables    []table                 `json:"breakdowns"`
	Findings  []contract.Finding      `json:"findings"`
	Diagnosis *contract.Diagnosis     `json:"diagnosis,omitempty"`
	Overview  []contract.OverviewItem `json:"overview,omitempty"`
	Positives []contract.Positive     `json:"positives"`
	Conc      *contract.Concentration `json:"concentration"`
	Device    string                  `json:"device,omitempty"`
	Build     string                  `json:"build,omitempty"`
	Inventory *inventory              `json:"inventory,omitempty"`
	Guessed   bool                    `json:"layer_kinds_guessed,omitempty"`
	// Predicted is the cost model's view of a layer_only backend: no
	// profile, so every time of it is PREDICTED.
	Predicted *predicted        `json:"predicted,omitempty"`
	TensorRT  string            `json:"tensorrt_version,omitempty"`
	Graph     string            `json:"graph,omitempty"` // DAG, cycle or "" when not built
	Memory    string            `json:"memory,omitempty"`
	Roofline  string            `json:"roofline,omitempty"`
	Runs      []contract.RunRow `json:"runs,omitempty"`
	// RunsOmitted counts the runs of a long sweep not listed in Runs
	// (all are in analyze-data.json's runs[]); RunsLevelsOff says where
	// throughput levels off over all of them.
	RunsOmitted   int    `json:"runs_omitted,omitempty"`
	RunsLevelsOff string `json:"runs_levels_off,omitempty"`
	// DeviceNote says which GPU the cost model assumed for a backend whose
	// files name none, printed after its first model-priced finding.
	DeviceNote string `json:"model_device_note,omitempty"`
}

// predicted is a layer_only backend's predicted total and largest layers.
type predicted struct {
	TotalMs      float64 `json:"total_ms"`
	Device       string  `json:"device"`
	DeviceSource string  `json:"device_source"`
	ErrorPct     float64 `json:"error_pct"`
	Top          []row   `json:"top"`
}

// predictedOf is the predicted view of a layer_only backend with a
// prediction; nil otherwise.
func predictedOf(b *contract.Backend, top int) *predicted {
	p := b.Prediction
	if p == nil || b.Validation.AnalysisMode != contract.ModeLayerOnly || len(p.LayerMs) != len(b.Layers) {
		return nil
	}
	v := &predicted{TotalMs: p.TotalMs, Device: p.Device, DeviceSource: p.DeviceSource, ErrorPct: p.ErrorPct}
	idx := make([]int, len(p.LayerMs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p.LayerMs[idx[a]] > p.LayerMs[idx[b]] })
	if top <= 0 {
		top = 10
	}
	cum := 0.0
	for k, i := range idx {
		if k == top || p.LayerMs[i] <= 0 {
			break
		}
		share := 0.0
		if p.TotalMs > 0 {
			share = p.LayerMs[i] / p.TotalMs * 100
		}
		cum += share
		v.Top = append(v.Top, row{Rank: k + 1, Name: b.Layers[i].Name, Type: b.Layers[i].LayerType, Precision: p.LayerBound[i], AvgMs: p.LayerMs[i], Share: share, Cum: cum})
	}
	return v
}

type row struct {
	Rank      int     `json:"rank"`
	Name      string  `json:"name"`
	Type      string  `json:"layer_type"`
	Precision string  `json:"precision"`
	AvgMs     float64 `json:"avg_ms"`
	Share     float64 `json:"share_pct"`
	Cum       float64 `json:"cum_pct"`
}

type table struct {
	By   string               `json:"by"`
	Rows []contract.Breakdown `json:"rows"`
}

func buildViews(d *contract.AnalyzeData, opt Options) []view {
	out := make([]view, 0, len(d.Results))
	for i := range d.Results {
		b := &d.Results[i]
		v := view{
			Label: b.Label, Status: b.Validation.Status, Mode: b.Validation.AnalysisMode,
			Layers: b.LayerCount, Records: b.ProfileCount, Count: b.Count,
			Category: b.Model.Category, Findings: b.Issues, Positives: b.Positives, Conc: b.Concentration,
			Diagnosis: b.Diagnosis, Overview: b.Overview,
			Messages: []string{},
		}
		for _, m := range b.Validation.Messages {
			// Warnings of a passed backend too: they qualify what follows
			// (an ambiguous tensor makes "graph is a DAG" a reading).
			if m.Level == contract.LevelError || m.Level == contract.LevelWarning {
				v.Messages = append(v.Messages, m.Level+": "+m.Message)
			}
		}
		if b.Timing != nil {
			v.TotalMs, v.MedianMs = b.Timing.AverageInferenceMs, b.Timing.MedianInferenceMs
			v.EndToEnd, v.Measured = b.Timing.EndToEnd, b.Timing.Measured
		}
		v.Device, v.Build, v.Inventory = deviceLine(b.Device), buildLine(b.Build), inventoryOf(b)
		v.TensorRT, v.Graph = trtVersion(b), graphState(b)
		nw := opt.NameWidth
		v.Memory, v.Roofline = memoryLine(b.Memory, nw), rooflineLine(b, nw)
		v.Runs, v.RunsOmitted = shownRuns(b.Runs)
		v.RunsLevelsOff = levelsOff(b.Runs)
		v.Guessed = b.Validation.AnalysisMode == contract.ModeProfileOnly
		v.Predicted = predictedOf(b, opt.Top)
		v.DeviceNote = deviceNote(b, opt.DeviceHint)
		v.Top, v.TopOf, v.Untimed = topRows(b, opt.Top, v.TotalMs)
		by := []string{"type", "precision"}
		if opt.By != "" {
			by = []string{opt.By}
		}
		for _, k := range by {
			switch k {
			case "type":
				v.Tables = append(v.Tables, table{"type", b.TypeBreakdown})
			case "precision":
				v.Tables = append(v.Tables, table{"precision", b.PrecisionBreakdown})
			case "tag":
				v.Tables = append(v.Tables, table{"tag", b.TagBreakdown})
			}
		}
		out = append(out, v)
	}
	return out
}

// deviceNote is the note of a backend whose findings the cost model priced
// for a default GPU: which one, that it is assumed, and how to name the
// real one; "" when no finding is model-priced or the files name the GPU.
func deviceNote(b *contract.Backend, hint string) string {
	p := b.Prediction
	if p == nil || p.DeviceSource != contract.PredictionDeviceDefault || firstModelPriced(b.Issues) < 0 {
		return ""
	}
	s := fmt.Sprintf("the cost model priced this for %s, a DEFAULT it assumed: no file names the GPU, and the price follows the GPU's bandwidth and peaks", p.Device)
	if hint == "" {
		return s + "; name the GPU the engines ran on to price them for it"
	}
	return s + "; " + hint
}

// firstModelPriced is the index of the first finding the cost model
// priced, -1 when none is.
func firstModelPriced(fs []contract.Finding) int {
	for i := range fs {
		if fs[i].PriceBasis == "model" {
			return i
		}
	}
	return -1
}

// topRows returns the n most expensive records with share and cumulative
// share of total, how many records there are, and — when the table lists
// every timed record — the names of those with no time (a row of zeros
// says nothing about where the time goes).
func topRows(b *contract.Backend, n int, total float64) ([]row, int, []string) {
	if n <= 0 {
		n = 20
	}
	idx := make([]int, len(b.Records))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(b.Records[y].AvgMs, b.Records[x].AvgMs) })
	rows := []row{}
	var untimed []string
	cum := 0.0
	for _, i := range idx {
		r := &b.Records[i]
		if r.AvgMs <= 0 {
			untimed = append(untimed, r.Name)
			continue
		}
		if len(rows) == n {
			continue
		}
		share := 0.0
		if total > 0 {
			share = r.AvgMs / total * 100
		}
		cum += share
		rows = append(rows, row{Rank: len(rows) + 1, Name: r.Name, Type: r.LayerType, Precision: r.Precision, AvgMs: r.AvgMs, Share: share, Cum: cum})
	}
	if len(rows)+len(untimed) < len(b.Records) {
		// The table is cut before the timed records end: the untimed
		// ones would not have been reached either.
		untimed = nil
	}
	return rows, len(b.Records), untimed
}

// untimedLine is the line after the top table naming the records with no
// time; "" when every record has one.
func untimedLine(names []string, width int) string {
	if len(names) == 0 {
		return ""
	}
	shown := make([]string, 0, 3)
	for _, n := range names[:min(3, len(names))] {
		shown = append(shown, Shorten(n, width))
	}
	text := strings.Join(shown, ", ")
	if len(names) > len(shown) {
		text += fmt.Sprintf(" and %d more", len(names)-len(shown))
	}
	return fmt.Sprintf("%d record(s) take no time and are not listed: %s", len(names), text)
}
