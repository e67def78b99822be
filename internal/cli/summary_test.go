package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
)

// --name-width 0 prints layer names whole; the default elides the middle
// of long names; a width that cannot hold an ellipsis is refused.
func TestSummaryNameWidth(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dump")
	if code, _, errs := genRun("--shape", "bert", "--layers", "60", "--out", dir); code != ExitOK {
		t.Fatalf("gen: exit %d, %s", code, errs)
	}
	code, full, errs := run(t, "summary", dir, "--name-width", "0", "--top", "50")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	_, short, _ := run(t, "summary", dir, "--top", "50")
	longest := func(s string) int {
		n := 0
		for _, l := range strings.Split(s, "\n") {
			n = max(n, len([]rune(l)))
		}
		return n
	}
	if strings.Contains(topTable(full), "…") || !strings.Contains(topTable(short), "…") {
		t.Errorf("full names still elided, or the default elides nothing:\nfull:\n%s\ndefault:\n%s", topTable(full), topTable(short))
	}
	if longest(topTable(full)) <= longest(topTable(short)) {
		t.Errorf("full-name table is not wider (%d vs %d)", longest(topTable(full)), longest(topTable(short)))
	}
	code, _, errs = run(t, "summary", dir, "--name-width", "3")
	wantError(t, code, errs, ExitCannotRun, "--name-width", "0 (full names)")
}

// topTable is the "top N of M layers" table of a summary.
func topTable(s string) string {
	i := strings.Index(s, "  top ")
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, "\n\n"); j >= 0 {
		s = s[:j]
	}
	return s
}

// A backend whose files name no GPU is priced by the cost model for a
// default GPU: summary says which, that it is a default, and how to name
// the real one, next to the first model-priced finding. --gpu NAME names
// it (the files' GPU wins where they name one); an unknown name is
// refused with the known ones, and an analysis already made is not
// re-priced.
func TestSummaryGPU(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dump")
	if code, _, errs := genRun("--shape", "cnn", "--precision", "fp32", "--layers", "60", "--profile-kind", "none", "--out", dir); code != ExitOK {
		t.Fatalf("gen: exit %d, %s", code, errs)
	}
	code, out, errs := run(t, "summary", dir)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	first := regexp.MustCompile(`(?m)^  1\. .*cost model.*\n(?:     .*\n)*?     note: the cost model priced this for (NVIDIA A10G), a DEFAULT it assumed.*--gpu NAME`).FindStringSubmatch(out)
	if first == nil {
		t.Fatalf("no default-GPU note after the first model-priced finding:\n%s", out)
	}
	if strings.Count(out, "note: the cost model priced") != 1 {
		t.Errorf("the note is printed more than once:\n%s", out)
	}
	code, out, errs = run(t, "summary", dir, "--gpu", "RTX 3060 Laptop")
	if code != ExitOK {
		t.Fatalf("--gpu: exit %d, stderr %q", code, errs)
	}
	if strings.Contains(out, "DEFAULT") || !strings.Contains(out, "device RTX 3060 Laptop (compute capability 8.6, 30 SMs, 336 GB/s") ||
		!strings.Contains(out, "for RTX 3060 Laptop (device)") {
		t.Errorf("--gpu RTX 3060 Laptop: want its facts and no default note:\n%s", out)
	}
	// The files' GPU wins: TREx device metadata of a GTX 1080 beside the dumps.
	meta := `[{"Name": "NVIDIA GeForce GTX 1080", "ComputeCapability": [6, 1], "CLOCK_RATE": 1733000, "GLOBAL_MEMORY_BUS_WIDTH": 256, "MEMORY_CLOCK_RATE": 5005000, "MULTIPROCESSOR_COUNT": 20}]`
	withMeta := filepath.Join(t.TempDir(), "dump")
	if code, _, errs := genRun("--shape", "cnn", "--precision", "fp32", "--layers", "60", "--profile-kind", "none", "--out", withMeta); code != ExitOK {
		t.Fatalf("gen: exit %d, %s", code, errs)
	}
	if err := os.WriteFile(filepath.Join(withMeta, "meta_device.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs = run(t, "summary", withMeta, "--gpu", "a10g"); code != ExitOK || !strings.Contains(out, "for NVIDIA GeForce GTX 1080 (device)") {
		t.Errorf("files naming a GTX 1080 and --gpu a10g: exit %d, %s; want the files' GPU\n%s", code, errs, out)
	}
	code, _, errs = run(t, "summary", dir, "--gpu", "Radeon RX 7900")
	wantError(t, code, errs, ExitCannotRun, "--gpu", `"Radeon RX 7900"`, "known:", "rtx 3060 laptop", "a10g")
	code, _, errs = run(t, "analyze", dir, "--gpu", "nope")
	wantError(t, code, errs, ExitCannotRun, "--gpu", "known:")
	// The generated kernels are sm80 ones: a 6.1 GPU cannot have run them.
	code, _, errs = run(t, "summary", dir, "--gpu", "GTX 1080")
	wantError(t, code, errs, ExitCannotRun, "contradict the GPU given", "sm_80 cannot run on a 6.1 GPU", "omit --gpu, or give --gpu NAME")
	data := filepath.Join(t.TempDir(), "analyze-data.json")
	if code, _, errs := run(t, "analyze", dir, "--output", data); code != ExitOK {
		t.Fatalf("analyze: exit %d, %s", code, errs)
	}
	code, _, errs = run(t, "summary", data, "--gpu", "a10g")
	wantError(t, code, errs, ExitCannotRun, "--gpu", "trtperf analyze FOLDER --gpu a10g")
}

// --run N reads run N of a profile file of several runs layer by layer,
// and the concatenation warning's hint names the flag; a negative run and
// an analysis already made are refused with what to do.
func TestSummaryRun(t *testing.T) {
	dir := filepath.Join(corpustest.Dir(t, corpustest.Companions), "jetson-trt7-googlenet-int8-batch-sweep-concat")
	code, _, errs := run(t, "summary", dir)
	if code != ExitOK || !strings.Contains(errs, "add --run N") {
		t.Fatalf("exit %d; want the --run hint on stderr: %q", code, errs)
	}
	code, out, errs := run(t, "summary", dir, "--run", "7")
	if code != ExitOK {
		t.Fatalf("--run 7: exit %d, %s", code, errs)
	}
	if !regexp.MustCompile(`(?m)^ +7 +batch 128 .*analysed$`).MatchString(out) || !strings.Contains(out, "run 7 of 7 is analysed, as asked") {
		t.Errorf("--run 7: run 7 is not the analysed one:\n%s", out)
	}
	code, _, errs = run(t, "summary", dir, "--run", "-1")
	wantError(t, code, errs, ExitCannotRun, "--run -1", "numbered from 1")
	data := filepath.Join(t.TempDir(), "analyze-data.json")
	if code, _, errs := run(t, "analyze", dir, "--output", data); code != ExitOK {
		t.Fatalf("analyze: exit %d, %s", code, errs)
	}
	code, _, errs = run(t, "summary", data, "--run", "2")
	wantError(t, code, errs, ExitCannotRun, "--run", "trtperf analyze FOLDER --run 2")
}
