package analysis

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/load"
)

// userShapes write a trtexec profile's per-layer times as a user's own
// profiler would: each shape of issue 21 item 10 (name → ms, name → µs
// under a wrapper, name → samples, records with units in their keys,
// pandas' columns, CSV with quoted names and a total row, TSV in ns). Generated at test time
// from the corpus profile, never stored.
var userShapes = []struct {
	name, file string
	write      func(recs []engine.ProfileRecord) []byte
}{
	{"name to ms", "engine_times.json", func(recs []engine.ProfileRecord) []byte {
		var b strings.Builder
		b.WriteString("{")
		for i, r := range recs {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "%s: %s", jsonString(r.Name), num(r.AverageMs))
		}
		return []byte(b.String() + "}")
	}},
	{"name to us under a wrapper", "engine_timing.json", func(recs []engine.ProfileRecord) []byte {
		var b strings.Builder
		b.WriteString(`{"model": "m", "layers": {`)
		for i, r := range recs {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s: %s", jsonString(r.Name), num(r.AverageMs*1e3))
		}
		return []byte(b.String() + `}, "unit": "us"}`)
	}},
	{"name to samples", "engine_latency.json", func(recs []engine.ProfileRecord) []byte {
		out := map[string][]float64{}
		var order []string
		for _, r := range recs {
			// Three samples whose mean is the average and whose median is
			// the median (two of them are the median).
			s := []float64{r.AverageMs, r.AverageMs, r.AverageMs}
			if third := 3*r.AverageMs - 2*r.MedianMs; r.HasMedian && third >= 0 {
				s = []float64{r.MedianMs, third, r.MedianMs}
			}
			out[r.Name] = s
			order = append(order, r.Name)
		}
		var b strings.Builder
		b.WriteString("{")
		for i, n := range order {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "%s: [%s, %s, %s]", jsonString(n), num(out[n][0]), num(out[n][1]), num(out[n][2]))
		}
		return []byte(b.String() + "}")
	}},
	{"records in us", "engine_profile.json", func(recs []engine.ProfileRecord) []byte {
		type row struct {
			Layer  string  `json:"layer"`
			AvgUs  float64 `json:"avgUs"`
			MinUs  float64 `json:"min_us"`
			Share  float64 `json:"percent"`
			Kernel string  `json:"kernel"`
		}
		var rows []row
		for _, r := range recs {
			rows = append(rows, row{r.Name, r.AverageMs * 1e3, r.AverageMs * 900, r.Percentage, "k"})
		}
		b, _ := json.Marshal(rows)
		return b
	}},
	{"pandas columns", "engine_timings.json", func(recs []engine.ProfileRecord) []byte {
		// DataFrame.to_json's default orient: column → row number → value.
		var name, avg strings.Builder
		for i, r := range recs {
			if i > 0 {
				name.WriteString(", ")
				avg.WriteString(", ")
			}
			fmt.Fprintf(&name, `"%d": %s`, i, jsonString(r.Name))
			fmt.Fprintf(&avg, `"%d": %s`, i, num(r.AverageMs))
		}
		return []byte(`{"layer": {` + name.String() + `}, "mean_ms": {` + avg.String() + `}}`)
	}},
	{"csv", "engine_timing.csv", func(recs []engine.ProfileRecord) []byte {
		var b strings.Builder
		w := csv.NewWriter(&b)
		w.UseCRLF = true
		b.WriteString("\ufeff")
		_ = w.Write([]string{"Layer Name", "Avg. Time (ms)", "Time %"})
		var total float64
		for _, r := range recs {
			_ = w.Write([]string{r.Name, num(r.AverageMs), num(r.Percentage)})
			total += r.AverageMs
		}
		_ = w.Write([]string{"Total", num(total), "100"})
		w.Flush()
		return []byte(b.String())
	}},
	{"tsv in ns", "engine_times.tsv", func(recs []engine.ProfileRecord) []byte {
		var b strings.Builder
		b.WriteString("# per-layer times\nname\tmean_ns\tp99_ns\n")
		for _, r := range recs {
			name := r.Name
			if strings.ContainsAny(name, "\t\"\n") {
				name = `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
			}
			fmt.Fprintf(&b, "%s\t%s\t%s\n", name, num(r.AverageMs*1e6), num(r.AverageMs*2e6))
		}
		return []byte(b.String())
	}},
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// TestUserTableShapesMatchTrtexec: every corpus backend with layer info and
// a trtexec profile, its profile rewritten in each shape a user's profiler
// writes, beside its layer info under a neutral name: analyze reads the
// table by content, pairs it with the layer info (layer_profile, every
// record matched), and gives the same per-layer times and the same first
// finding as the trtexec profile.
func TestUserTableShapesMatchTrtexec(t *testing.T) {
	dir := corpustest.Dir(t, corpustest.Parsing)
	profiles, err := filepath.Glob(filepath.Join(dir, "*", "profile_*.json"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, prof := range profiles {
		label := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(prof), "profile_"), ".json")
		layers := filepath.Join(filepath.Dir(prof), "layers_"+label+".json")
		if _, err := os.Stat(layers); err != nil {
			continue
		}
		p, err := dump.ReadProfile(prof)
		if err != nil || p.Kind != engine.ProfileTrtexec {
			continue
		}
		base := analyzeShape(t, layers, "engine_profile.json", mustRead(t, prof))
		if base.Validation.AnalysisMode != contract.ModeLayerProfile {
			continue // names-only layer info: nothing to match on
		}
		checked++
		for _, sh := range userShapes {
			t.Run(filepath.Base(filepath.Dir(prof))+"/"+label+"/"+sh.name, func(t *testing.T) {
				got := analyzeShape(t, layers, sh.file, sh.write(p.Records))
				if got.Validation.Status != contract.StatusPassed || got.Validation.AnalysisMode != contract.ModeLayerProfile {
					t.Fatalf("%s %s: %+v", got.Validation.Status, got.Validation.AnalysisMode, got.Validation.Messages)
				}
				if len(got.Records) != len(base.Records) {
					t.Fatalf("%d records, the trtexec profile gives %d", len(got.Records), len(base.Records))
				}
				for i, r := range got.Records {
					w := base.Records[i]
					if r.Name != w.Name || r.Layer != w.Layer || math.Abs(r.AvgMs-w.AvgMs) > 1e-9*math.Max(1, w.AvgMs) {
						t.Fatalf("record %d: %q layer %d %v ms; trtexec: %q layer %d %v ms", i, r.Name, r.Layer, r.AvgMs, w.Name, w.Layer, w.AvgMs)
					}
				}
				if first(got) != first(base) {
					t.Errorf("first finding %q, the trtexec profile gives %q", first(got), first(base))
				}
				if !slices.ContainsFunc(got.Validation.Messages, func(m contract.Message) bool { return m.Code == CodeProfileSourceTable }) && !strings.Contains(sh.name, "samples") {
					t.Errorf("no %s message saying how the table was read", CodeProfileSourceTable)
				}
			})
		}
	}
	if checked == 0 {
		t.Fatal("no corpus backend with layer info and a trtexec profile")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// analyzeShape analyses a folder of the layer info as engine.json and the
// timing file as name, and returns its one backend.
func analyzeShape(t *testing.T, layers, name string, timing []byte) *contract.Backend {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "engine.json"), mustRead(t, layers), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), timing, 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := discover.Folder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Backends) != 1 || sc.Backends[0].ProfilePath == "" {
		t.Fatalf("%s and engine.json are not one backend: %+v (ignored %q)", name, sc.Backends, sc.Ignored)
	}
	d, err := AnalyzeParsed(sc, load.Source(sc), Options{ToolVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	keepsContract(t, d)
	return &d.Results[0]
}

func first(b *contract.Backend) string {
	if len(b.Issues) == 0 {
		return "(none)"
	}
	f := b.Issues[0]
	return fmt.Sprintf("%s %.6g ms", f.ID, f.RecoverableMs)
}
