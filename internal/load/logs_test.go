package load

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trtperf/trtperf/internal/discover"
)

// A generated log (not a real one): a TensorRT 8.6+ per-layer table and
// two engine layer information lines of a verbose build.
const genLog = `[I] === Profile (100 iterations ) ===
[I]    Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer
[I]        2.00       0.0200       0.0200      66.7   conv1 + relu1
[I]        1.00       0.0100       0.0100      33.3   pool1
[I]        3.00       0.0300       0.0300     100.0   Total
[V] [TRT] Layer(CaskConvolution): conv1 + relu1, Tactic: 0x1, in[Half(1,3,8,8)] -> x[Half(1,8,8,8)]
[V] [TRT] Layer(CaskPooling): pool1, Tactic: 0x2, x[Half(1,8,8,8)] -> out[Half(1,8,4,4)]
`

// TestLogStandsForMissingFiles: a log alone gives its table as the profile
// and its layer lines as the layer info; beside a profile file it is a
// companion only.
func TestLogStandsForMissingFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log_fp16.txt")
	if err := os.WriteFile(path, []byte(genLog), 0o600); err != nil {
		t.Fatal(err)
	}
	in := Backend(discover.Backend{Label: "fp16", LogPaths: []string{path}, FromLog: true})
	if in.ProfileLog != path || in.Profile == nil || len(in.Profile.Records) != 2 || in.ProfileTable.Total == nil || in.ProfileRun != 1 {
		t.Fatalf("profile from log: %q %+v", in.ProfileLog, in.Profile)
	}
	if in.LayerInfoLog != path || in.LayerInfo == nil || len(in.LayerInfo.Layers) != 2 || in.LayerInfo.Layers[1].Name != "pool1" {
		t.Fatalf("layer info from log: %q %+v", in.LayerInfoLog, in.LayerInfo)
	}
	in = Backend(discover.Backend{Label: "fp16", ProfilePath: filepath.Join(dir, "missing.json"), LayerPath: filepath.Join(dir, "missing2.json"), LogPaths: []string{path}})
	if in.ProfileLog != "" || in.LayerInfoLog != "" || in.ProfileErr == nil {
		t.Fatalf("a log replaced files the backend has: %q %q", in.ProfileLog, in.LayerInfoLog)
	}
}
