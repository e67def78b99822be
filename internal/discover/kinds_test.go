package discover

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/trtperf/trtperf/internal/dump"
)

// kindSamples holds one file of every kind Sniff returns (TestKindSamples
// checks that each sniffs as its kind).
var kindSamples = map[dump.Kind]string{
	dump.KindUnknown:     "hello",
	dump.KindLayerInfo:   layerJSON,
	dump.KindProfile:     profileJSON,
	dump.KindLatencyDict: latencyJSON,
	dump.KindTimes:       timesJSON,
	dump.KindConfig:      configJSON,
	dump.KindMetadata:    metaJSON,
	dump.KindTrtexecLog:  logText,
	dump.KindTimeTable:   `{"unit": "us", "layers": {"conv": 120.5, "fc": 40}}`,
}

func TestKindSamples(t *testing.T) {
	for k := dump.Kind(0); k < dump.NumKinds; k++ {
		s, ok := kindSamples[k]
		if !ok {
			t.Errorf("no sample of kind %v", k)
			continue
		}
		if got := dump.Sniff([]byte(s)); got != k {
			t.Errorf("the sample of %v sniffs as %v", k, got)
		}
	}
}

// TestEveryKindHasAPlace: the one switch over kinds (placeOf) has a case
// for every kind Sniff can return.
func TestEveryKindHasAPlace(t *testing.T) {
	for k := dump.Kind(0); k < dump.NumKinds; k++ {
		if p := placeOf(k); p < 0 || p >= numPlaces {
			t.Errorf("kind %v has no place", k)
		}
	}
}

// TestEveryKindUnderAnyName: a file of every kind under an odd name (a
// .json that is no conventional name, a conventional dump name, a text
// name) beside a conventional pair is discovered without a panic, and a
// trtexec log is a log whatever its name.
func TestEveryKindUnderAnyName(t *testing.T) {
	for k := dump.Kind(0); k < dump.NumKinds; k++ {
		for _, name := range []string{"run.json", "x_profile.json", "layers_x.json", "run.txt", "run"} {
			t.Run(k.String()+"/"+name, func(t *testing.T) {
				files := map[string]string{"layers_a.json": layerJSON, "profile_a.json": profileJSON, name: kindSamples[k]}
				if name == "layers_x.json" {
					files["profile_x.json"] = profileJSON
				}
				sc, err := Folder(folder(t, files))
				if err != nil {
					t.Fatal(err)
				}
				if k != dump.KindTrtexecLog {
					return
				}
				for _, b := range sc.Backends {
					if filepath.Base(b.LayerPath) == name || filepath.Base(b.ProfilePath) == name || filepath.Base(b.TimesPath) == name {
						t.Errorf("the log %s is a dump of %q", name, b.Label)
					}
					for _, l := range b.LogPaths {
						if filepath.Base(l) == name {
							return
						}
					}
				}
				if !hasIgnored(sc, name, "trtexec log") {
					t.Errorf("the log %s is neither a backend's log nor ignored as one: %v %v", name, briefs(sc), sc.Ignored)
				}
			})
		}
	}
}

// TestPairsLog: a trtexec log given as a --data file is the backend's log.
func TestPairsLog(t *testing.T) {
	dir := folder(t, map[string]string{"run.json": logText, "l.json": layerJSON, "p.json": profileJSON})
	p := func(n string) string { return filepath.Join(dir, n) }
	sc, err := Pairs([][]string{{p("l.json"), p("run.json")}, {p("run.json"), p("p.json")}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Backend{}
	for _, b := range sc.Backends {
		got[filepath.Base(b.LayerPath)+"|"+filepath.Base(b.ProfilePath)] = b
		if len(b.LogPaths) != 1 || filepath.Base(b.LogPaths[0]) != "run.json" {
			t.Errorf("logs %v", b.LogPaths)
		}
	}
	if _, ok := got["l.json|."]; !ok {
		t.Errorf("backends %v", briefs(sc))
	}
	if _, ok := got[".|p.json"]; !ok {
		t.Errorf("backends %v", briefs(sc))
	}
	if _, err := Pairs([][]string{{p("run.json")}}); err == nil {
		t.Error("a log alone is a backend")
	}
}

// TestTimeTablesPair: a user's per-layer time table (JSON of its own
// shape or CSV) is a backend's profile by its conventional name or by the
// stem it shares with layer info, and a trtexec profile of the same
// label wins over it.
func TestTimeTablesPair(t *testing.T) {
	csvTable := "Layer,Avg (us)\nconv,120\nfc,40\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // brief of each backend
	}{
		{"conventional csv", map[string]string{"layers_a.json": layerJSON, "profile_a.csv": csvTable}, []string{"a layers_a.json|profile_a.csv|-"}},
		{"stem csv", map[string]string{"model.json": layerJSON, "model_timing.csv": csvTable}, []string{"model model.json|model_timing.csv|-"}},
		{"stem json", map[string]string{"net.engine.graph.json": layerJSON, "net.engine.times.json": kindSamples[dump.KindTimeTable]}, []string{"net net.engine.graph.json|net.engine.times.json|-"}},
		{"trtexec wins", map[string]string{"layers_a.json": layerJSON, "profile_a.json": profileJSON, "latency_a.csv": csvTable}, []string{"a layers_a.json|profile_a.json|-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Folder(folder(t, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			if got := briefs(sc); !slices.Equal(got, tc.want) {
				t.Errorf("backends %q, want %q (ignored %q)", got, tc.want, sc.Ignored)
			}
		})
	}
}
