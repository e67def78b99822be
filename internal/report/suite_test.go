package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/report/reporttest"
)

func suiteComps(t *testing.T) []SuiteComponent {
	t.Helper()
	ok := reporttest.Synthetic(reporttest.Options{Layers: 24, Model: "sd15"})
	failed := reporttest.Synthetic(reporttest.Options{FailedOnly: true, Model: "sd15"})
	hostile, _ := reporttest.Hostile()
	return []SuiteComponent{
		{Name: "text_encoder", Data: ok, Encoded: encode(t, ok)},
		{Name: "unet", Data: failed, Encoded: encode(t, failed)},
		{Name: "vae <script>", Data: hostile, Encoded: encode(t, hostile)},
	}
}

func TestPublishSuite(t *testing.T) {
	parent := t.TempDir()
	comps := suiteComps(t)
	dir, reports, err := Publisher{}.PublishSuite(comps, SuiteTarget{OutputParent: parent, ModelName: "sd15", Timestamp: "20240131_120000"})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(parent, "suite_sd15_20240131_120000"); dir != want {
		t.Fatalf("dir %s, want %s", dir, want)
	}
	wantSub := []string{"text_encoder", "unet", "vae-script"}
	for i, r := range reports {
		if filepath.Base(r) != wantSub[i] {
			t.Errorf("report %d is %s, want %s", i, r, wantSub[i])
		}
		if !IsReport(r) {
			t.Errorf("%s is not a complete report", r)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, FileIndex))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	b0 := comps[0].Data.Results[0]
	for _, want := range []string{
		`<a href="text_encoder/index.html">text_encoder</a>`,
		`<a href="unet/index.html">unet</a>`,
		`<a href="vae-script/index.html">vae &lt;script&gt;</a>`,
		b0.Label + ": " + formatMs(b0.Timing.AverageInferenceMs),
		b0.Label + ": " + templateEscape(b0.Issues[0].Title),
		`class="failed">failed`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("overview lacks %q", want)
		}
	}
	if strings.Contains(html, "<script>") {
		t.Error("overview carries a raw <script> from a component's strings")
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		t.Errorf("parent holds %d entries, want only the suite (no staging left)", len(entries))
	}

	// The same name again gets _2; nothing is overwritten.
	dir2, _, err := Publisher{}.PublishSuite(comps, SuiteTarget{OutputParent: parent, ModelName: "sd15", Timestamp: "20240131_120000"})
	if err != nil || filepath.Base(dir2) != "suite_sd15_20240131_120000_2" {
		t.Fatalf("second suite %s, %v; want suite_sd15_20240131_120000_2", dir2, err)
	}
}

func TestPublishSuiteLeavesNothingOnFailure(t *testing.T) {
	comps := suiteComps(t)
	cases := []struct {
		name string
		p    Publisher
		t    func(parent string) SuiteTarget
		want string
	}{
		{"contract fails", Publisher{Validate: func(b []byte) error {
			if string(b) == string(comps[1].Encoded) {
				return &ValidationError{Problems: []string{"semantic /x: broken"}}
			}
			return nil
		}}, func(p string) SuiteTarget { return SuiteTarget{OutputParent: filepath.Join(p, "new", "deeper")} }, "component unet"},
		{"build fails", Publisher{Builder: Builder{Assets: os.DirFS(t.TempDir())}}, func(p string) SuiteTarget { return SuiteTarget{OutputParent: filepath.Join(p, "new")} }, "component text_encoder"},
		{"suite dir not empty", Publisher{}, func(p string) SuiteTarget {
			d := filepath.Join(p, "taken")
			os.MkdirAll(d, 0o755)
			os.WriteFile(filepath.Join(d, "x"), nil, 0o644)
			return SuiteTarget{SuiteDir: d}
		}, "not empty"},
		{"bad timestamp", Publisher{}, func(p string) SuiteTarget { return SuiteTarget{OutputParent: p, Timestamp: "2024"} }, "YYYYMMDD_HHMMSS"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			target := tc.t(parent)
			before := reporttest.Listing(t, parent)
			_, _, err := tc.p.PublishSuite(comps, target)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one containing %q", err, tc.want)
			}
			if after := reporttest.Listing(t, parent); after != before {
				t.Errorf("the failure changed the parent:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
	var ve *ValidationError
	_, _, err := Publisher{Validate: func([]byte) error { return &ValidationError{} }}.PublishSuite(comps, SuiteTarget{OutputParent: t.TempDir()})
	if !errors.As(err, &ve) {
		t.Errorf("a contract failure must stay a *ValidationError (exit 1), got %T", err)
	}
}

func TestPublishSuiteNeedsComponents(t *testing.T) {
	if _, _, err := (Publisher{}).PublishSuite(nil, SuiteTarget{OutputParent: t.TempDir()}); err == nil {
		t.Fatal("an empty suite was published")
	}
}

func formatMs(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) + " ms" }

// templateEscape escapes s as html/template does in element text.
func templateEscape(s string) string {
	var b strings.Builder
	template.Must(template.New("").Parse("{{.}}")).Execute(&b, s)
	return b.String()
}

// TestPagesShareReportCSP: the per-model report and the suite page carry
// one Content-Security-Policy, ReportCSP (the suite adds only the hash of
// its inline style, which matches the style the page holds).
func TestPagesShareReportCSP(t *testing.T) {
	src, err := fs.ReadFile(DefaultAssets(), assetTemplate)
	if err != nil {
		t.Fatal(err)
	}
	if want := `<meta http-equiv="Content-Security-Policy" content="` + ReportCSP + `">`; !strings.Contains(string(src), want) {
		t.Errorf("the report's index.html does not carry ReportCSP: want %s", want)
	}
	var page bytes.Buffer
	if err := suiteTemplate.Execute(&page, newSuitePage(nil, nil, "m")); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	i := strings.Index(html, `http-equiv="Content-Security-Policy" content="`)
	if i < 0 {
		t.Fatal("the suite page has no Content-Security-Policy")
	}
	csp := html[i+len(`http-equiv="Content-Security-Policy" content="`):]
	csp = strings.ReplaceAll(csp[:strings.IndexByte(csp, '"')], "&#39;", "'")
	style := html[strings.Index(html, "<style>")+len("<style>") : strings.Index(html, "</style>")]
	sum := sha256.Sum256([]byte(style))
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	if strings.Replace(csp, " "+hash, "", 1) != ReportCSP || !strings.Contains(csp, "style-src 'self' "+hash) {
		t.Errorf("suite CSP %q is not ReportCSP plus the hash %s of its style", csp, hash)
	}
	if strings.Contains(html, "<script") {
		t.Error("the suite page runs a script")
	}
}
