package cli

import (
	"html/template"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/report"
	"github.com/trtperf/trtperf/internal/speed"
)

// suiteParent builds a model-suite folder in a temp dir whose component
// folders link to corpus cases' JSON files (made at test time, never
// committed).
func suiteParent(t *testing.T) string {
	t.Helper()
	corpus := corpustest.Dir(t, corpustest.Reports)
	parent := filepath.Join(t.TempDir(), "sd-pipeline")
	for comp, cs := range map[string]string{
		"text_encoder": "trex-resnet18-a100-qat",
		"unet":         "controlnet-sd15-trt86-fp16",
		"vae":          "kalfazed-vgg16-fp32-rtx3080-trt85",
	} {
		dir := filepath.Join(parent, comp)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(corpus, cs, "*.json"))
		if len(files) == 0 {
			t.Fatalf("corpus case %s has no JSON files", cs)
		}
		for _, f := range files {
			dst := filepath.Join(dir, filepath.Base(f))
			if err := os.Symlink(f, dst); err != nil {
				data, rerr := os.ReadFile(f) // no symlinks (Windows): copy
				if rerr != nil {
					t.Fatal(rerr)
				}
				if err := os.WriteFile(dst, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return parent
}

// TestPackageSuite is issue 5's acceptance 2.
func TestPackageSuite(t *testing.T) {
	parent := suiteParent(t)
	comps := []string{"text_encoder", "unet", "vae"}

	// Without --suite, package and analyze refuse the parent and name the
	// three components.
	for _, cmd := range []string{"package", "analyze"} {
		code, out, errs := run(t, cmd, parent)
		wantError(t, code, errs, ExitCannotRun, "holds no dumps but component folders: text_encoder, unet, vae;", "--suite")
		if out != "" {
			t.Errorf("%s wrote to stdout on refusal: %q", cmd, out)
		}
	}

	outParent := filepath.Join(t.TempDir(), "reports")
	code, out, errs := run(t, "package", "--suite", parent, "--output-parent", outParent, "--timestamp", "20240131_120000")
	if code != 0 {
		t.Fatalf("package --suite: exit %d: %s", code, errs)
	}
	suite := filepath.Join(outParent, "suite_sd-pipeline_20240131_120000")
	if !strings.Contains(out, "suite_dir: "+suite+"\n") || !strings.Contains(out, "overview: "+filepath.Join(suite, "index.html")) {
		t.Fatalf("output:\n%s", out)
	}
	entries, _ := os.ReadDir(suite)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "index.html,text_encoder,unet,vae" {
		t.Errorf("suite holds %v", names)
	}
	overview, err := os.ReadFile(filepath.Join(suite, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	wantComponent := map[string]string{"text_encoder": "text-encoder", "unet": "unet", "vae": "vae"}
	for _, c := range comps {
		rd := filepath.Join(suite, c)
		if !strings.Contains(out, "component "+c+": report_dir: "+rd+"\n") {
			t.Errorf("output lacks component %s", c)
		}
		if !report.IsReport(rd) {
			t.Errorf("%s is not a complete report", rd)
			continue
		}
		data, err := os.ReadFile(filepath.Join(rd, "analyze-data.json"))
		if err != nil {
			t.Fatal(err)
		}
		r := contract.Validate(data)
		if !r.SchemaOK() || !r.SemanticOK() {
			t.Fatalf("%s: schema %v semantic %v", c, r.Schema, r.Semantic)
		}
		d := r.Data
		if len(d.ModelComponents) != 1 || d.ModelComponents[0] != wantComponent[c] {
			t.Errorf("%s: model_components %v, want [%s]", c, d.ModelComponents, wantComponent[c])
		}
		// Base name only (package --full-paths keeps the whole path).
		if d.Folder == nil || *d.Folder != c {
			t.Errorf("%s: folder %v, want %q", c, d.Folder, c)
		}
		// The overview links the report with the first passed backend's
		// time and top finding.
		html := string(overview)
		if !strings.Contains(html, `href="`+c+`/index.html"`) {
			t.Errorf("overview lacks a link to %s", c)
		}
		b := d.Results[0]
		ms := strconv.FormatFloat(b.Timing.AverageInferenceMs, 'f', 3, 64) + " ms"
		if !strings.Contains(html, b.Label+": "+ms) {
			t.Errorf("overview lacks %s's time %s for %s", c, ms, b.Label)
		}
		if len(b.Issues) > 0 && !strings.Contains(html, b.Label+": "+htmlEscape(b.Issues[0].Title)) {
			t.Errorf("overview lacks %s's top finding %q", c, b.Issues[0].Title)
		}
	}

	// Same parent again: a new folder, the first one untouched.
	code, out, _ = run(t, "package", "--suite", parent, "--output-parent", outParent, "--timestamp", "20240131_120000")
	if code != 0 || !strings.Contains(out, "suite_dir: "+suite+"_2\n") {
		t.Errorf("second suite: exit %d, output %s", code, out)
	}
}

func TestPackageSuiteRefusals(t *testing.T) {
	parent := suiteParent(t)
	corpus := corpustest.Dir(t, corpustest.Reports)
	cases := []struct {
		name  string
		args  []string
		hints []string
	}{
		{"with folder arg", []string{"package", "--suite", parent, parent}, []string{"--suite PARENT"}},
		{"with analyze-md", []string{"package", "--suite", parent, "--analyze-md", "x.md"}, []string{"--analyze-data"}},
		{"missing", []string{"package", "--suite", filepath.Join(parent, "nope")}, []string{"does not exist"}},
		{"a dump folder", []string{"package", "--suite", filepath.Join(corpus, "trex-resnet18-a100-qat")}, []string{"holds dumps itself", "without --suite"}},
		{"empty", []string{"package", "--suite", t.TempDir()}, []string{"no subfolder holding dumps"}},
		{"bad timestamp", []string{"package", "--suite", parent, "--timestamp", "x"}, []string{"YYYYMMDD_HHMMSS"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, tc.args...)
			wantError(t, code, errs, ExitCannotRun, tc.hints...)
		})
	}
}

// htmlEscape escapes s as html/template does in element text.
func htmlEscape(s string) string {
	var b strings.Builder
	template.Must(template.New("").Parse("{{.}}")).Execute(&b, s)
	return b.String()
}

// TestPackageSuitePrimesHeap: the suite readies the heap for all its
// components at once, as package does for one folder (where the system
// has transparent huge pages; the probe primes 4 MiB).
func TestPackageSuitePrimesHeap(t *testing.T) {
	if !speed.HugePages() {
		t.Skip("no transparent huge pages here: priming is a no-op")
	}
	parent := t.TempDir()
	for _, comp := range []string{"text_encoder", "unet"} {
		if code, _, errs := run(t, "gen", "--shape", "llm", "--layers", "2000", "--seed", "1", "--label", "fp16", "--out", filepath.Join(parent, comp)); code != 0 {
			t.Fatalf("gen: exit %d: %s", code, errs)
		}
	}
	primed := speed.Primed()
	if code, _, errs := run(t, "package", "--suite", parent, "--output-parent", t.TempDir(), "--timestamp", "20240131_120000"); code != 0 {
		t.Fatalf("package --suite: exit %d: %s", code, errs)
	}
	if speed.Primed() == primed {
		t.Error("package --suite did not prime the heap for its components")
	}
}
