package analysis

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/costmodel"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/gen"
	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/load"
)

// Options.GPU gives a backend whose files name no GPU the facts of the
// GPU named, so the cost model predicts for it with the named-GPU error
// band; without it the model assumes a default with its own band; an
// unknown name is an error wrapping gpu.ErrUnknown.
func TestGPUOption(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cnn")
	if _, _, err := gen.WriteFolder(dir, "fp32", gen.Options{Shape: "cnn", Precision: "fp32", Layers: 40, Seed: 3, ProfileKind: "none"}); err != nil {
		t.Fatalf("generate: %v", err)
	}
	sc, err := discover.Folder(dir)
	if err != nil {
		t.Fatal(err)
	}
	analyze := func(name string) (*contract.AnalyzeData, error) {
		return AnalyzeParsed(sc, load.Source(sc), Options{GPU: name, GPUFrom: "test option"})
	}
	d, err := analyze("")
	if err != nil {
		t.Fatal(err)
	}
	b := d.Results[0]
	if b.Device != nil || b.Prediction == nil || b.Prediction.DeviceSource != contract.PredictionDeviceDefault || b.Prediction.ErrorPct != costmodel.ErrorPctDefaultGPU {
		t.Fatalf("no GPU: device %+v, prediction %+v; want a default with the %g %% band", b.Device, b.Prediction, costmodel.ErrorPctDefaultGPU)
	}
	d, err = analyze("NVIDIA A100")
	if err != nil {
		t.Fatal(err)
	}
	b = d.Results[0]
	if b.Device == nil || b.Device.Name != "NVIDIA A100" || b.Device.Source != "test option" || b.Device.SMCount == nil || *b.Device.SMCount != 108 {
		t.Fatalf("device %+v, want the A100 of the GPU table from the option", b.Device)
	}
	if p := b.Prediction; p.Device != "NVIDIA A100" || p.DeviceSource != contract.PredictionDeviceOwn || p.ErrorPct != costmodel.ErrorPct {
		t.Errorf("prediction for %s (%s, ± %g %%), want the A100 as the backend's device, ± %g %%", p.Device, p.DeviceSource, p.ErrorPct, costmodel.ErrorPct)
	}
	if _, err := analyze("Radeon RX 7900"); !errors.Is(err, gpu.ErrUnknown) {
		t.Errorf("unknown GPU: %v, want gpu.ErrUnknown", err)
	}
	// The generated kernels are sm80 ones: a Turing GPU cannot run them.
	if _, err := analyze("Tesla T4"); !errors.Is(err, ErrGPUContradicted) {
		t.Errorf("T4 for sm80 kernels: %v, want ErrGPUContradicted", err)
	}
}
