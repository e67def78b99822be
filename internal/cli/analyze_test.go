package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

const tinyLayers = `{"Layers": [
 {"Name": "conv", "LayerType": "CaskConvolution",
  "Inputs": [{"Name": "x", "Dimensions": [1,3,8,8], "Format/Datatype": "Row major linear FP16 format"}],
  "Outputs": [{"Name": "y", "Dimensions": [1,8,8,8], "Format/Datatype": "Row major linear FP16 format"}],
  "TacticName": "sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize64x64x64_stage4_warpsize2x2x1_g1_tensor16x8x16"}],
 "Bindings": ["x", "y"]}`

const tinyProfile = `[{"count": 10}, {"name": "conv", "timeMs": 1.0, "averageMs": 0.1, "medianMs": 0.1, "percentage": 100}]`

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAnalyzeErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	good := filepath.Join(dir, "good")
	l := writeFile(t, filepath.Join(good, "layers_fp16.json"), tinyLayers)
	p := writeFile(t, filepath.Join(good, "profile_fp16.json"), tinyProfile)
	tests := []struct {
		name  string
		args  []string
		hints []string
	}{
		{"no input", []string{"analyze"}, []string{"FOLDER"}},
		{"missing folder", []string{"analyze", filepath.Join(dir, "nope")}, []string{"nope"}},
		{"empty folder", []string{"analyze", empty}, []string{"layers_<label>.json"}},
		{"unwritable output", []string{"analyze", good, "--output", filepath.Join(dir, "no", "such", "dir", "x.json")}, []string{"--output"}},
		{"data with three paths", []string{"analyze", "--data", l, p, p}, []string{"one or two paths"}},
		{"folder and data", []string{"analyze", good, "--data", l, p}, []string{"not both"}},
		{"missing data file", []string{"analyze", "--data", filepath.Join(dir, "missing.json")}, []string{"missing.json"}},
		{"unknown flag", []string{"analyze", good, "--bogus"}, []string{"--bogus"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, tt.args...)
			wantError(t, code, stderr, ExitCannotRun, tt.hints...)
		})
	}
}

// An unreadable file given explicitly stops the command (exit 2); one found
// in a folder fails its backend and the JSON still says why (exit 0). A
// folder standing where a file should be is unreadable even for root.
func TestAnalyzeUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "profile_fp16.json"), tinyProfile)
	unreadable := filepath.Join(dir, "layers_fp16.json")
	os.Mkdir(unreadable, 0o755)

	code, _, stderr := run(t, "analyze", "--data", unreadable)
	wantError(t, code, stderr, ExitCannotRun, "layers_fp16.json")

	out := filepath.Join(t.TempDir(), "a.json")
	code, _, stderr = run(t, "analyze", dir, "--output", out)
	if code != ExitOK {
		t.Fatalf("exit %d, want 0 with a failed backend: %s", code, stderr)
	}
	d := readJSON(t, out)
	if d["validation"].(map[string]any)["status"] != "failed" {
		t.Errorf("unreadable layer file must fail its backend: %v", d["validation"])
	}
}

func TestAnalyzeWritesJSONAndExitsZeroEvenWhenBackendsFail(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "layers_fp16.json"), tinyLayers)
	writeFile(t, filepath.Join(dir, "profile_fp16.json"), tinyProfile)
	writeFile(t, filepath.Join(dir, "layers_int8.json"), `{"Layers": ["conv"], "Bindings": ["x", "y"]}`)
	writeFile(t, filepath.Join(dir, "profile_int8.json"), tinyProfile)
	out := filepath.Join(t.TempDir(), "analyze-data.json")
	code, _, stderr := run(t, "analyze", dir, "--output", out)
	if code != ExitOK {
		t.Fatalf("exit %d, want 0: %s", code, stderr)
	}
	d := readJSON(t, out)
	v := d["validation"].(map[string]any)
	if v["status"] != "partial" || v["passed_count"].(float64) != 1 || v["failed_count"].(float64) != 1 {
		t.Errorf("validation = %v, want partial 1/1", v)
	}
	int8 := d["results"].([]any)[1].(map[string]any)
	msgs := int8["validation"].(map[string]any)["messages"].([]any)
	if first := msgs[0].(map[string]any); first["code"] != "names_only_layer_info" {
		t.Errorf("first message of names-only backend = %v", first)
	}

	// Same input, same bytes; stdout gets the same JSON as --output.
	code, stdout, _ := run(t, "analyze", dir)
	again, _ := os.ReadFile(out)
	if code != ExitOK || stdout != string(again) {
		t.Errorf("stdout output differs from --output file (exit %d)", code)
	}
}

func TestAnalyzeDataPairsGetDistinctLabels(t *testing.T) {
	dir := t.TempDir()
	l1 := writeFile(t, filepath.Join(dir, "a", "layers.json"), tinyLayers)
	p1 := writeFile(t, filepath.Join(dir, "a", "profile.json"), tinyProfile)
	l2 := writeFile(t, filepath.Join(dir, "b", "layers.json"), tinyLayers)
	p2 := writeFile(t, filepath.Join(dir, "b", "profile.json"), tinyProfile)
	code, stdout, stderr := run(t, "analyze", "--data", l1, p1, "--data", l2, p2, "--model-name", "tiny")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d map[string]any
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	rs := d["results"].([]any)
	if len(rs) != 2 {
		t.Fatalf("want 2 backends, got %d", len(rs))
	}
	a, b := rs[0].(map[string]any)["label"], rs[1].(map[string]any)["label"]
	if a == b {
		t.Errorf("two --data pairs with equal file names got the same label %v", a)
	}
	if d["model_name"] != "tiny" || d["model_name_confidence"] != "high" {
		t.Errorf("--model-name must win: %v %v", d["model_name"], d["model_name_confidence"])
	}
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
	return d
}

func TestCompareCommand(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "layers_a.json"), tinyLayers)
	writeFile(t, filepath.Join(dir, "profile_a.json"), tinyProfile)
	writeFile(t, filepath.Join(dir, "layers_b.json"), tinyLayers)
	writeFile(t, filepath.Join(dir, "profile_b.json"), strings.NewReplacer(`"averageMs": 0.1`, `"averageMs": 0.15`, `"medianMs": 0.1`, `"medianMs": 0.15`).Replace(tinyProfile))
	code, stdout, stderr := run(t, "compare", dir+"#a", dir+"#b")
	if code != ExitOK || !strings.HasPrefix(stdout, "b is 1.50× slower than a ") || strings.Contains(stdout, dir) {
		t.Errorf("two backends of one folder are named by their labels: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, _ = run(t, "compare", dir+"#a", dir+"#b", "--full-paths"); code != ExitOK || !strings.HasPrefix(stdout, dir+"#b is 1.50× slower than "+dir+"#a") {
		t.Errorf("--full-paths: exit %d, stdout %q", code, stdout)
	}
	// The CI gate: +50 % is beyond noise (±4.5 % at 10 iterations) and 10 %.
	code, _, stderr = run(t, "compare", dir+"#a", dir+"#b", "--fail-above", "10")
	wantError(t, code, stderr, ExitCheck, "slower than", "allowed 10 %")
	if code, _, _ = run(t, "compare", dir+"#a", dir+"#b", "--fail-above", "60"); code != ExitOK {
		t.Errorf("--fail-above 60 with +50 %%: exit %d, want 0", code)
	}
	// One argument: every backend against the fastest, here a.
	code, stdout, _ = run(t, "compare", dir, "--format", "csv")
	if code != ExitOK || !strings.HasPrefix(stdout, "section,kind,a_name") || !strings.Contains(stdout, "total,b_slower,a,b,") {
		t.Errorf("folder compare as csv: exit %d\n%s", code, stdout)
	}
	// JSON has one shape whatever the arguments: analyze-data.json's
	// comparison section (a baseline and its pairs).
	for _, args := range [][]string{{dir}, {dir + "#a", dir + "#b"}} {
		code, stdout, stderr = run(t, append([]string{"compare", "--format", "json"}, args...)...)
		var c contract.Comparison
		if err := json.Unmarshal([]byte(stdout), &c); code != ExitOK || err != nil || c.Baseline != "a" || len(c.Pairs) != 1 || c.Pairs[0].B != "b" {
			t.Errorf("compare %v --format json: exit %d, %v, %+v (stderr %q)", args, code, err, c, stderr)
		}
		if strings.Count(stdout, "\"pairs\"") != 1 {
			t.Errorf("compare %v --format json printed more than one document:\n%s", args, stdout)
		}
	}
	code, _, stderr = run(t, "compare", dir+"#a", dir+"#nope")
	wantError(t, code, stderr, ExitCannotRun, "no backend", "a, b")
	code, _, stderr = run(t, "analyze", dir, "--baseline", "nope")
	wantError(t, code, stderr, ExitCannotRun, `baseline "nope"`, "usable: a, b", "--baseline")
	code, _, stderr = run(t, "compare", dir+"#a", dir+"#b", "--format", "yaml")
	wantError(t, code, stderr, ExitCannotRun, "unknown --format", "csv")
}

// A run that cannot analyse leaves an earlier --output untouched.
func TestAnalyzeKeepsEarlierOutputOnFailure(t *testing.T) {
	dir := t.TempDir()
	out := writeFile(t, filepath.Join(dir, "analyze-data.json"), `{"earlier": true}`)
	code, _, _ := run(t, "analyze", filepath.Join(dir, "missing"), "--output", out)
	if code != ExitCannotRun {
		t.Fatalf("exit %d, want 2", code)
	}
	if got, _ := os.ReadFile(out); string(got) != `{"earlier": true}` {
		t.Errorf("earlier output changed to %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temp files left behind: %v", entries)
	}
}

func TestCompareSideNames(t *testing.T) {
	cases := []struct{ a, b, la, lb, wantA, wantB string }{
		{"x/analyze-data.json#fp16", "x/analyze-data.json#int8", "fp16", "int8", "fp16", "int8"},
		{"/runs/before/analyze-data.json#fp16", "/runs/after/analyze-data.json#fp16", "fp16", "fp16", "before#fp16", "after#fp16"},
		{"/a/run/analyze-data.json", "/b/run/analyze-data.json", "fp16", "fp16", "a/run#fp16", "b/run#fp16"},
		{"/d/dumps#fp16", "/d/other.json#fp16", "fp16", "fp16", "dumps#fp16", "other.json#fp16"},
		{"/d/dumps#fp16", "/d/dumps#fp16", "fp16", "fp16", "dumps#fp16", "dumps#fp16"},
	}
	for _, tc := range cases {
		a, b := sideNames(tc.a, tc.b, tc.la, tc.lb)
		if a != tc.wantA || b != tc.wantB {
			t.Errorf("sideNames(%q, %q) = %q, %q; want %q, %q", tc.a, tc.b, a, b, tc.wantA, tc.wantB)
		}
	}
}

// TestCompareRowsOfPartialTables: two pasted fragments of profiles (rows
// holding a sliver of their engines' time; written here by the test) are
// refused as engines but compared on the rows both hold, from a folder and
// from two sides.
func TestCompareRowsOfPartialTables(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "profile_a.json"), `[{"count": 100}, {"name": "PWN(val_9, PWN(node_prelu))", "timeMs": 1.0, "averageMs": 0.01, "medianMs": 0.01, "percentage": 0.1}]`)
	writeFile(t, filepath.Join(dir, "profile_b.json"), `[{"count": 100}, {"name": "__myl_Cast_myl3_1", "timeMs": 0.8, "averageMs": 0.008, "medianMs": 0.008, "percentage": 0.07},
 {"name": "PWN([PARAMETRIC_RELU]-[aten_ops._prelu_kernel.default])", "timeMs": 2.6, "averageMs": 0.026, "medianMs": 0.026, "percentage": 0.22}]`)
	for _, args := range [][]string{{dir}, {dir + "#a", dir + "#b"}} {
		code, stdout, stderr := run(t, append([]string{"compare"}, args...)...)
		if code != ExitOK || !strings.Contains(stdout, "not an engine comparison") || !strings.Contains(stdout, "op prelu") || !strings.Contains(stdout, "2.60×") {
			t.Errorf("compare %v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	code, stdout, _ := run(t, "summary", dir)
	if code != ExitOK || !strings.Contains(stdout, "rows compared (partial tables") || !strings.Contains(stdout, "rows of partial tables, not engine times") {
		t.Errorf("summary: exit %d\n%s", code, stdout)
	}
}
