package browsertests

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// TestColumnsExact holds the table and graph columns as the app reads them
// from layers-<b>.js (compact and binary: internal/report/columns.go,
// web/src/loader.ts) to analyze-data.json: every name, time and share bit
// for bit, the topological order and the edges. Reports: the synthetic one
// (with a layer-only backend; its computed shares need the raw-double
// form), one with times and shares as trtexec prints them (the decimal
// form), and the hostile one.
func TestColumnsExact(t *testing.T) {
	// trtexec prints times and shares to 6 significant digits: the decimal
	// form (the synthetic report's computed shares take raw doubles).
	printed := reporttest.Synthetic(reporttest.Options{Layers: 400})
	for i := range printed.Results[0].Records {
		r := &printed.Results[0].Records[i]
		r.AvgMs, _ = strconv.ParseFloat(strconv.FormatFloat(r.AvgMs, 'g', 6, 64), 64)
		r.Percentage, _ = strconv.ParseFloat(strconv.FormatFloat(r.Percentage, 'g', 6, 64), 64)
	}
	hostile, _ := reporttest.Hostile()
	for _, tc := range []struct {
		name string
		d    *contract.AnalyzeData
		form string // of the time column in layers-0.js
	}{
		{"synthetic", reporttest.Synthetic(reporttest.Options{Layers: 3000, WithLayerOnly: true}), `"pct":{"f64":`},
		{"printed decimals", printed, `"pct":{"dec":`},
		{"hostile", hostile, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := publish(t, tc.d, nil)
			js, err := os.ReadFile(filepath.Join(dir, "layers-0.js"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(js), tc.form) {
				t.Errorf("layers-0.js holds no %s", tc.form)
			}
			p := newPage(t, 90*time.Second)
			p.open(t, fileURL(dir))
			shown := max(0, slices.IndexFunc(tc.d.Results, func(b contract.Backend) bool { return b.Validation.Status == contract.StatusPassed }))
			for bi := range tc.d.Results {
				b := &tc.d.Results[bi]
				if len(b.Layers) == 0 {
					continue
				}
				if bi != shown {
					p.click(t, `#backend-tabs .tab[data-index="`+strconv.Itoa(bi)+`"]`)
					waitReady(t, p)
					shown = bi
				}
				checkColumns(t, p, b)
			}
			noJSErrorsTB(t, p)
		})
	}
}

func checkColumns(t *testing.T, p *page, b *contract.Backend) {
	t.Helper()
	c := eval[struct {
		Names, Type, Precision []string
		Avg, Pct               []*float64
		Order, Edges           []int
	}](t, p, `window.__trtperf.columns()`)
	if len(c.Names) != len(b.Layers) {
		t.Fatalf("%s: the app holds %d layers, want %d", b.Label, len(c.Names), len(b.Layers))
	}
	for i := range b.Layers {
		if c.Names[i] != b.Layers[i].Name {
			t.Errorf("%s layer %d: name %q, want %q", b.Label, i, trunc(c.Names[i]), trunc(b.Layers[i].Name))
		}
	}
	timed := b.Validation.AnalysisMode == contract.ModeLayerProfile && len(b.Records) > 0
	for _, r := range b.Records {
		if !timed {
			break
		}
		for _, x := range []struct {
			what string
			got  *float64
			want float64
		}{{"avg_ms", c.Avg[r.Layer], r.AvgMs}, {"percentage", c.Pct[r.Layer], r.Percentage}} {
			if x.got == nil || math.Float64bits(*x.got) != math.Float64bits(x.want) {
				t.Errorf("%s layer %d: %s %v in the app, %v in analyze-data.json", b.Label, r.Layer, x.what, x.got, x.want)
			}
		}
		if c.Type[r.Layer] != r.LayerType && r.LayerType != "" {
			t.Errorf("%s layer %d: type %q, record says %q", b.Label, r.Layer, c.Type[r.Layer], r.LayerType)
		}
		if r.Precision != "" && c.Precision[r.Layer] != r.Precision {
			t.Errorf("%s layer %d: precision %q, record says %q", b.Label, r.Layer, c.Precision[r.Layer], r.Precision)
		}
	}
	if len(b.Graph.TopoOrder) == len(b.Layers) && !slices.Equal(c.Order, b.Graph.TopoOrder) {
		t.Errorf("%s: topological order differs from analyze-data.json's", b.Label)
	}
	want := make([][2]int, 0, len(b.Graph.Edges))
	for _, e := range b.Graph.Edges {
		want = append(want, [2]int{e[0], e[1]})
	}
	got := make([][2]int, 0, len(c.Edges)/2)
	for k := 0; k+1 < len(c.Edges); k += 2 {
		got = append(got, [2]int{c.Edges[k], c.Edges[k+1]})
	}
	cmpPair := func(x, y [2]int) int {
		if x[0] != y[0] {
			return x[0] - y[0]
		}
		return x[1] - y[1]
	}
	slices.SortFunc(want, cmpPair)
	slices.SortFunc(got, cmpPair)
	if !slices.Equal(got, want) {
		t.Errorf("%s: the app holds %d edges, analyze-data.json %d (or they differ)", b.Label, len(got), len(want))
	}
}
