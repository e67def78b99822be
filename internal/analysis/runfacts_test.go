package analysis

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/load"
)

func analyzeFolder(t *testing.T, dir string) *contract.AnalyzeData {
	t.Helper()
	sc, err := discover.Folder(dir)
	if err != nil {
		t.Fatalf("discover %s: %v", dir, err)
	}
	d, err := AnalyzeParsed(sc, load.Source(sc), Options{ToolVersion: "test"})
	if err != nil {
		t.Fatalf("analyze %s: %v", dir, err)
	}
	return d
}

func backendByLabel(t *testing.T, d *contract.AnalyzeData, label string) *contract.Backend {
	t.Helper()
	for i := range d.Results {
		if d.Results[i].Label == label {
			return &d.Results[i]
		}
	}
	t.Fatalf("no backend %q", label)
	return nil
}

// TestMeasuredFromTrexMetadata is issue 10's first acceptance check: the
// ResNet18 A100 case shows the GPU compute median, the device, CUDA graphs
// and the profiling overhead, each equal to a direct computation from the
// files.
func TestMeasuredFromTrexMetadata(t *testing.T) {
	dir := filepath.Join(corpustest.Dir(t, corpustest.Companions), "trex-resnet18-a100-fp32-fp16")
	d := analyzeFolder(t, dir)
	for _, label := range []string{"fp16", "fp32"} {
		t.Run(label, func(t *testing.T) {
			b := backendByLabel(t, d, label)
			var meta struct {
				Perf struct {
					GPU []float64 `json:"GPU Compute Time"`
				} `json:"performance_summary"`
				Infer map[string]string `json:"inference_options"`
			}
			readJSON(t, filepath.Join(dir, "meta_"+label+"_profile.json"), &meta)
			var profile []map[string]any
			readJSON(t, filepath.Join(dir, "profile_"+label+".json"), &profile)
			var layerSum float64
			for _, r := range profile {
				if v, ok := r["averageMs"].(float64); ok {
					layerSum += v
				}
			}
			m := b.Timing.Measured
			if m == nil {
				t.Fatal("timing.measured is null")
			}
			wantMedian := meta.Perf.GPU[3] // [min, max, mean, median, p99]
			if m.GPUComputeMs.Median == nil || *m.GPUComputeMs.Median != wantMedian {
				t.Errorf("gpu compute median %v, want %v", m.GPUComputeMs.Median, wantMedian)
			}
			if m.Source.Kind != contract.SourceTrexProfileMeta || m.Source.File != "meta_"+label+"_profile.json" {
				t.Errorf("source %+v", m.Source)
			}
			if want := meta.Infer["CUDA Graph"] == "Enabled"; m.CUDAGraph == nil || *m.CUDAGraph != want || !want {
				t.Errorf("cuda_graph %v, metadata says %q", m.CUDAGraph, meta.Infer["CUDA Graph"])
			}
			if want := layerSum / wantMedian; m.ProfileOverhead == nil || math.Abs(*m.ProfileOverhead-want) > 1e-9*want || m.ProfileOverheadBasis != "gpu_compute_median" {
				t.Errorf("profile_overhead %v (%s), want %v", m.ProfileOverhead, m.ProfileOverheadBasis, want)
			}
			if len(m.Sources) != 2 || m.Sources[1].Kind != contract.SourceExportTimes {
				t.Errorf("sources %+v", m.Sources)
			}
			if b.Device == nil || b.Device.Name != "NVIDIA A100 80GB PCIe" {
				t.Fatalf("device %+v", b.Device)
			}
			// A100 80GB PCIe datasheet: 1,935 GB/s.
			if bw := b.Device.MemoryBandwidthGBs; bw == nil || math.Abs(*bw-1935)/1935 > 0.02 {
				t.Errorf("bandwidth %v, datasheet 1935 GB/s", bw)
			}
		})
	}
}

// TestMeasuredFromTrtexecLog reads the TensorRT 7 log of the Jetson case:
// its first run's build facts reach the backend.
func TestBuildFromTrtexecLog(t *testing.T) {
	d := analyzeFolder(t, filepath.Join(corpustest.Dir(t, corpustest.Companions), "jetson-trt7-googlenet-int8-batch-sweep-concat"))
	b := d.Results[0]
	if b.Build == nil || b.Build.Precision == nil || *b.Build.Precision != "FP32+INT8" || !slices.Contains(b.Build.PrecisionFlags, "--int8") {
		t.Fatalf("build %+v", b.Build)
	}
	if !slices.Contains(b.Build.Sources, "log_int8-trtexec.txt") {
		t.Errorf("sources %v", b.Build.Sources)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestBrokenCompanionsNeverFail is issue 10's fifth acceptance check: a
// malformed or truncated metadata file, log or times file is a warning and
// the rest of the backend stands.
func TestBrokenCompanionsNeverFail(t *testing.T) {
	src := filepath.Join(corpustest.Dir(t, corpustest.Companions), "trex-resnet18-a100-fp32-fp16")
	for _, tc := range []struct {
		name, file, content, code string
	}{
		{"truncated profile metadata", "meta_fp16_profile.json", `{"performance_summary": {"Latency": [0.8`, "metadata_json_malformed"},
		{"device metadata of the wrong shape", "meta_fp16_device.json", `{"nothing": 1}`, "metadata_missing_field"},
		{"truncated times", "times_fp16.json", `[{"latencyMs": 0.8`, "times_json_malformed"},
		{"log without trtexec sections", "log_fp16.txt", "=== Model Options ===\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{"layers_fp16.json", "profile_fp16.json", "meta_fp16_profile.json", "meta_fp16_device.json", "times_fp16.json"} {
				copyFile(t, filepath.Join(src, f), filepath.Join(dir, f))
			}
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			d := analyzeFolder(t, dir)
			b := backendByLabel(t, d, "fp16")
			if b.Validation.Status != contract.StatusPassed || b.Timing == nil || len(b.Records) == 0 {
				t.Fatalf("backend did not stand: %s %v", b.Validation.Status, b.Validation.Messages)
			}
			if tc.code == "" {
				return
			}
			found := false
			for _, m := range b.Validation.Messages {
				if m.Code == tc.code && m.Level == contract.LevelWarning && strings.Contains(m.Message, tc.file) {
					found = true
				}
			}
			if !found {
				t.Errorf("no warning %s naming %s in %v", tc.code, tc.file, b.Validation.Messages)
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRenamedCopySameAnalysis is issue 10's second acceptance check: a copy
// of a corpus folder whose files are renamed to .log, .txt or no extension
// gives the same analysis apart from paths and file names.
func TestRenamedCopySameAnalysis(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.Discovery)
	for _, name := range []string{"trex-resnet18-a100-fp32-fp16", "jetson-trt7-googlenet-int8-batch-sweep-concat", "fuzzy-resnet18-rtx3060-three-paths"} {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join(corpus, name)
			entries, err := os.ReadDir(src)
			if err != nil {
				t.Fatal(err)
			}
			dst := t.TempDir()
			exts := []string{".log", ".txt", ""}
			renamed := map[string]string{} // new name → original
			for i, e := range entries {
				orig := e.Name()
				if orig == "PROVENANCE.md" {
					continue
				}
				newName := orig
				if base, ok := strings.CutSuffix(orig, ".json"); ok {
					newName = base + exts[i%len(exts)]
				} else if base, ok := strings.CutSuffix(orig, ".txt"); ok {
					newName = base + exts[(i+1)%len(exts)]
				}
				renamed[newName] = orig
				copyFile(t, filepath.Join(src, orig), filepath.Join(dst, newName))
			}
			origDir := t.TempDir()
			for _, orig := range renamed {
				copyFile(t, filepath.Join(src, orig), filepath.Join(origDir, orig))
			}
			want := encodeNormalised(t, analyzeFolder(t, origDir), origDir, nil)
			got := encodeNormalised(t, analyzeFolder(t, dst), dst, renamed)
			if got != want {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Fatalf("renamed copy differs at byte %d:\n got  …%s…\n want …%s…", i, got[max(0, i-200):min(len(got), i+200)], want[max(0, i-200):min(len(want), i+200)])
			}
		})
	}
}

// encodeNormalised encodes d with its folder made "DIR" and renamed file
// names put back to their originals.
func encodeNormalised(t *testing.T, d *contract.AnalyzeData, dir string, renamed map[string]string) string {
	t.Helper()
	var buf strings.Builder
	if err := contract.Encode(&buf, d); err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(buf.String(), dir, "DIR")
	names := make([]string, 0, len(renamed))
	for n := range renamed {
		names = append(names, n)
	}
	// Longest first, through placeholders, so no name rewrites another.
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	for i, n := range names {
		// Only whole names: "times_x" must not rewrite the "times_x.json"
		// a message suggests.
		re := regexp.MustCompile(regexp.QuoteMeta(n) + `([^.\w-]|$)`)
		s = re.ReplaceAllString(s, "\x00"+strconv.Itoa(i)+"\x00$1")
	}
	for i, n := range names {
		s = strings.ReplaceAll(s, "\x00"+strconv.Itoa(i)+"\x00", renamed[n])
	}
	return s
}

// TestProfileOnly is issue 10's third acceptance check: a backend with a
// profile but no usable layer info gets profile_only timing, and its first
// message is a rebuild hint its TensorRT release's trtexec can follow.
func TestProfileOnly(t *testing.T) {
	corpus := corpustest.Dir(t, corpustest.Companions)
	for _, tc := range []struct {
		folder, label string
		hint, notHint string // the first message holds hint and not notHint
		layersMatched bool
	}{
		{"jetson-trt7-googlenet-int8-batch-sweep-concat", "int8-concat7", "TensorRT 7.x's trtexec cannot export layer information", "--loadEngine=ENGINE", false},
		{"detr-resnet50-int8-layer-names-only", "int8", "--profilingVerbosity=detailed", "cannot export", true},
	} {
		t.Run(tc.folder, func(t *testing.T) {
			d := analyzeFolder(t, filepath.Join(corpus, tc.folder))
			b := backendByLabel(t, d, tc.label)
			v := b.Validation
			if v.AnalysisMode != contract.ModeProfileOnly || v.Status != contract.StatusFailed || v.ReportAvailable {
				t.Fatalf("mode %s status %s report %v", v.AnalysisMode, v.Status, v.ReportAvailable)
			}
			first := v.Messages[0]
			if first.Level != contract.LevelError || !strings.Contains(first.Message, tc.hint) || strings.Contains(first.Message, tc.notHint) {
				t.Errorf("first message %q, want %q and not %q", first.Message, tc.hint, tc.notHint)
			}
			if b.Timing == nil || b.Timing.AverageInferenceMs <= 0 || len(b.Records) == 0 || b.Concentration == nil {
				t.Fatalf("no profile timing: %+v", b.Timing)
			}
			var sum float64
			for _, r := range b.Records {
				sum += r.AvgMs
				if !slices.Contains(r.Tags, "type_guessed_from_name") {
					t.Fatalf("record %q not marked as guessed", r.Name)
				}
				if (r.Layer >= 0) != tc.layersMatched {
					t.Fatalf("record %q layer %d, matched want %v", r.Name, r.Layer, tc.layersMatched)
				}
			}
			if math.Abs(sum-b.Timing.AverageInferenceMs) > 1e-9*sum {
				t.Errorf("records sum %v, timing %v", sum, b.Timing.AverageInferenceMs)
			}
		})
	}
}
