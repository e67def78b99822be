package analysis

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/load"
)

// A GPU given for the analysis that real files contradict is refused with
// the evidence: kernels compiled for a newer architecture than the GPU's
// (sm80/ampere tactics on a 6.1 GTX 1080), or a layer that moved more
// bytes per second than the GPU's peak bandwidth (VGG16's 411 MB FC
// weights at 716 GB/s against an RTX 3060's 360 GB/s). The GPU the files
// allow is accepted.
func TestGivenGPUContradicted(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.CostModel)
	// Layer info alone, without the TREx device metadata beside it.
	trex := t.TempDir()
	src := filepath.Join(corpus, "trex-resnet18-a100-fp32-fp16")
	for _, n := range []string{"layers_fp16.json", "layers_fp32.json"} {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(trex, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vgg := filepath.Join(corpus, "kalfazed-vgg16-fp32-rtx3080-trt85")
	three := filepath.Join(corpus, "fuzzy-resnet18-rtx3060-three-paths")
	for _, tc := range []struct {
		dir, gpu string
		want     []string // in the error; nil: accepted
	}{
		{vgg, "GTX 1080", []string{"compute capability 8.0 or newer", "716 GB/s", "2.24×"}},
		{vgg, "RTX 3060", []string{"716 GB/s, 1.99× the GPU's peak memory bandwidth of 360 GB/s"}},
		{vgg, "RTX 3080", nil},
		{trex, "GTX 1080", []string{"backend fp16: its kernels are built for compute capability 8.0", "backend fp32:", "sm_80 cannot run on a 6.1 GPU"}},
		{trex, "A100", nil},
		{trex, "RTX 3090", nil}, // sm80 kernels run on 8.6
		{three, "GTX 1080", []string{"backend onnx-trt:", "backend torch-trt:", "compute capability 8.0 or newer"}},
		{three, "RTX 3060 Laptop", nil},
	} {
		sc, err := discover.Folder(tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = AnalyzeParsed(sc, load.Source(sc), Options{GPU: tc.gpu, GPUFrom: "test option"})
		name := filepath.Base(tc.dir) + " " + tc.gpu
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s: %v, want accepted", name, err)
			}
			continue
		}
		if !errors.Is(err, ErrGPUContradicted) {
			t.Errorf("%s: %v, want ErrGPUContradicted", name, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", name, err, w)
			}
		}
	}
}

// Device facts a file gives are kept, but a backend whose kernels or
// measured rates contradict them is warned (device_contradicted): VGG16
// profiled on an RTX 3080 beside GTX 1080 device metadata. No corpus case
// as shipped is warned.
func TestFileDeviceContradicted(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.CostModel)
	vgg := filepath.Join(t.TempDir(), "vgg")
	src := filepath.Join(corpus, "kalfazed-vgg16-fp32-rtx3080-trt85")
	es, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(vgg, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(vgg, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// TREx device metadata of a GTX 1080, written by this test.
	meta := `[{"Name": "NVIDIA GeForce GTX 1080", "ComputeCapability": [6, 1], "CLOCK_RATE": 1733000, "GLOBAL_MEMORY_BUS_WIDTH": 256, "MEMORY_CLOCK_RATE": 5005000, "MULTIPROCESSOR_COUNT": 20}]`
	if err := os.WriteFile(filepath.Join(vgg, "meta_device.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	warned := func(dir string) string {
		d := analyzeDir(t, dir)
		for _, b := range d.Results {
			for _, m := range b.Validation.Messages {
				if m.Code == CodeDeviceContradicted {
					return m.Message
				}
			}
		}
		return ""
	}
	if m := warned(vgg); !strings.Contains(m, "meta_device.json") || !strings.Contains(m, "sm_80 cannot run on a 6.1 GPU") || !strings.Contains(m, "716 GB/s") {
		t.Errorf("GTX 1080 metadata beside an sm80 engine: warning %q", m)
	}
	cases, _ := filepath.Glob(filepath.Join(corpus, "*", "PROVENANCE.md"))
	if len(cases) < 10 {
		t.Fatalf("only %d corpus cases", len(cases))
	}
	for _, c := range cases {
		if m := warned(filepath.Dir(c)); m != "" {
			t.Errorf("%s: %s", filepath.Base(filepath.Dir(c)), m)
		}
	}
}
