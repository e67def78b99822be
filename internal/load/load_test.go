package load

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/gen"
)

// TestConfigsLeaveOutUnreadable: a config that cannot be read is a hint
// lost, never an error; the others keep their order.
func TestConfigsLeaveOutUnreadable(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "config.json")
	os.WriteFile(a, []byte(`{"model_type":"bert"}`), 0o644)
	b := filepath.Join(dir, "model_index.json")
	os.WriteFile(b, []byte(`{"_class_name":"X"}`), 0o644)
	got := Configs([]string{b, filepath.Join(dir, "gone.json"), a, dir})
	if len(got) != 2 || got[0].Path != b || got[1].Path != a || string(got[1].Data) != `{"model_type":"bert"}` {
		t.Errorf("got %+v", got)
	}
}

// TestBackendReadsEveryFile: each file a backend names is read into its
// field, and a file that cannot be read has its error there instead.
func TestBackendReadsEveryFile(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := gen.WriteFolder(dir, "fp16", gen.Options{Shape: "cnn", Layers: 20, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	sc, err := discover.Folder(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := sc.Backends[0]
	b.TimesPath = filepath.Join(dir, "times_missing.json")
	b.LogPaths = []string{filepath.Join(dir, "missing.log")}
	in := Backend(b)
	if in.LayerInfoErr != nil || in.LayerInfo == nil || len(in.LayerInfo.Layers) == 0 {
		t.Errorf("layer info %v, %v", in.LayerInfo, in.LayerInfoErr)
	}
	if in.ProfileErr != nil || in.Profile == nil || len(in.Profile.Records) == 0 {
		t.Errorf("profile %v, %v", in.Profile, in.ProfileErr)
	}
	if in.TimesErr == nil || in.Times != nil {
		t.Errorf("missing times file: %v, %v; want its error", in.Times, in.TimesErr)
	}
	if len(in.Logs) != 1 || in.Logs[0].Err == nil || in.Logs[0].Path != b.LogPaths[0] {
		t.Errorf("missing log: %+v; want its error", in.Logs)
	}
	src := Source(sc)
	if got := src.Backend(0); got.LayerInfo == nil || len(got.LayerInfo.Layers) != len(in.LayerInfo.Layers) {
		t.Errorf("Source(scope).Backend(0) did not read the backend's files")
	}
}
