package analysis

import (
	"testing"

	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/inputs"
)

// FuzzAnalyze feeds arbitrary layer-info and profile bytes, parsed in
// memory, through the whole analysis: it must never panic, and whatever it writes must pass the
// contract (a broken input is a failed backend, never a broken file).
func FuzzAnalyze(f *testing.F) {
	f.Add([]byte(`{"Layers":[{"Name":"a","LayerType":"CaskConvolution","Inputs":[{"Name":"x","Dimensions":[1,3],"Format/Datatype":"Half"}],"Outputs":[{"Name":"y","Dimensions":[1,3],"Format/Datatype":"Half"}]}],"Bindings":["x","y"]}`),
		[]byte(`[{"count":10},{"name":"a","timeMs":1,"averageMs":0.1,"medianMs":0.1,"percentage":100}]`))
	f.Add([]byte(`[{"Name":"a","Inputs":[{"Name":"t"}],"Outputs":[{"Name":"t"}]},{"Name":"a","Inputs":[],"Outputs":[{"Name":"u"}]}]`),
		[]byte(`{"a":[0.1,0.2],"b":[[0.3,"ts"]]}`))
	f.Add([]byte(`{"Layers":["a","b"]}`), []byte(`[{"name":"a","timeMs":0,"averageMs":0,"percentage":0}][{"count":1}]`))
	f.Add([]byte(`{"Layers":[{"Name":"a [profile 1]","_subgraph":3,"Outputs":[{"Name":"o","Dimensions":[-1]}]}],"I/O Tensors":[{"Name":"o","IOMode":"Input"}]}`),
		[]byte(`[{"name":"a [profile 1]","timeMs":-1,"averageMs":1e308,"percentage":1e308}]`))
	two := []byte(`{"Layers":[{"Name":"a","Inputs":[{"Name":"x"}],"Outputs":[{"Name":"y"}]},{"Name":"b","Inputs":[{"Name":"y"}],"Outputs":[{"Name":"z"}]}]}`)
	f.Add(two, []byte(`[{"count":1},{"name":"a","timeMs":1e308,"averageMs":1e308,"percentage":50},{"name":"b","timeMs":1e308,"averageMs":1e308,"percentage":50}]`))
	f.Add(two, []byte(`[{"name":"a","timeMs":-1,"averageMs":0.1,"percentage":50},{"name":"b","timeMs":0,"averageMs":0,"percentage":0}]`))
	f.Add(two, []byte(`[{"name":"a","timeMs":0,"averageMs":0,"percentage":0},{"name":"b","timeMs":0,"averageMs":0,"percentage":0}]`))
	// Raw parameters copied into the contract: repeated keys, lone
	// surrogates, numbers beyond float64; counts beyond int64.
	f.Add([]byte(`{"Layers":[{"Name":"a\ud800","Inputs":[{"Name":"x","Dimensions":[1,1e999],"Odd":{"k":1,"k":2}}],"Outputs":[],"P":{"q":1,"q":"\udfff"},"P":1e999,"StreamId":1e999}]}`),
		[]byte(`[{"count":1e30},{"name":"a\ud800","timeMs":1,"averageMs":1,"percentage":100}]`))
	f.Fuzz(func(t *testing.T, layers, profile []byte) {
		// In memory: the readers have their own fuzz targets in dump.
		var in inputs.Backend
		in.LayerInfo, in.LayerInfoErr = dump.ParseLayerInfo(layers)
		in.Profile, in.ProfileErr = dump.ParseProfile(profile)
		in.FirstProfile = dump.FirstProfileOf(profile, in.ProfileErr)
		sc := &discover.Scope{Backends: []discover.Backend{{Label: "x", LayerPath: "layers_x.json", ProfilePath: "profile_x.json"}}}
		d, err := AnalyzeParsed(sc, inputs.InMemory(nil, in), Options{})
		if err != nil {
			t.Fatalf("analyze: %v", err)
		}
		keepsContract(t, d)
	})
}
