package report

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/fsutil"
)

// SuiteComponent is one component of a model suite (text_encoder/, unet/,
// vae/...) with its analysis.
type SuiteComponent struct {
	Name    string // folder name; also the report's sub-folder (sanitised)
	Data    *contract.AnalyzeData
	Encoded []byte // Data as written by contract.Encode
	// Index locates the layers and records in Encoded (from
	// contract.EncodeIndexed); nil means find them.
	Index *contract.Index
}

// SuiteTarget says where a suite goes: SuiteDir exactly, or an auto-named
// `suite_<model>_<timestamp>` folder under OutputParent.
type SuiteTarget struct {
	SuiteDir     string // must not exist or be empty
	OutputParent string // used when SuiteDir is empty; "" means "."
	ModelName    string // for the title and the auto name
	Timestamp    string // YYYYMMDD_HHMMSS; "" means now
}

//go:embed suite.html.tmpl
var suiteTemplateText string

var suiteTemplate = template.Must(template.New("suite").Option("missingkey=error").Parse(suiteTemplateText))

// ReportCSP is the Content-Security-Policy of every page trtperf writes to
// disk: nothing loads or runs but the report's own files (the per-model
// report's index.html carries it; TestPagesShareReportCSP holds the two
// equal). connect-src 'none': a page opened from disk fetches nothing;
// worker-src blob: lets the graph lay out off the main thread (a worker made
// from the app's own script text; no other worker).
const ReportCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'none'; worker-src blob:; base-uri 'none'; form-action 'none'"

// suiteCSP is ReportCSP with the suite page's one inline style block
// allowed by its hash (the page has no script and no other inline style).
var suiteCSP = func() string {
	const open, close = "<style>", "</style>"
	i := strings.Index(suiteTemplateText, open)
	j := strings.Index(suiteTemplateText, close)
	if i < 0 || j < i {
		return ReportCSP
	}
	sum := sha256.Sum256([]byte(suiteTemplateText[i+len(open) : j]))
	return strings.Replace(ReportCSP, "style-src 'self'", "style-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", 1)
}()

// PublishSuite validates every component's analysis, builds one report per
// component plus an overview index.html in a staging folder, and renames the
// whole suite into place. It returns the suite folder and the component
// report folders (in comps order). On any error nothing is left behind.
func (p Publisher) PublishSuite(comps []SuiteComponent, t SuiteTarget) (dir string, reports []string, err error) {
	if len(comps) == 0 {
		return "", nil, errors.New("a suite needs at least one component folder")
	}
	dir, sub, err := p.publishSuite(comps, t)
	if err != nil {
		return "", nil, err
	}
	reports = make([]string, len(sub))
	for i, s := range sub {
		reports[i] = filepath.Join(dir, s)
	}
	return dir, reports, nil
}

func (p Publisher) publishSuite(comps []SuiteComponent, t SuiteTarget) (dir string, sub []string, err error) {
	sub = make([]string, len(comps))
	seen := map[string]bool{}
	for i, c := range comps {
		validate := p.Validate
		if validate == nil {
			validate = func(encoded []byte) error { return ValidateContractData(c.Data, encoded) }
		}
		if err := validate(c.Encoded); err != nil {
			return "", nil, fmt.Errorf("component %s: %w", c.Name, err)
		}
		sub[i] = SanitizeName(c.Name)
		for n := 2; seen[sub[i]]; n++ {
			sub[i] = fmt.Sprintf("%s_%d", SanitizeName(c.Name), n)
		}
		seen[sub[i]] = true
	}
	stamp := t.Timestamp
	if stamp == "" {
		now := time.Now
		if p.Now != nil {
			now = p.Now
		}
		stamp = now().Format("20060102_150405")
	} else if err := CheckTimestamp(stamp); err != nil {
		return "", nil, err
	}
	var page bytes.Buffer
	if err := suiteTemplate.Execute(&page, newSuitePage(comps, sub, t.ModelName)); err != nil {
		return "", nil, fmt.Errorf("render the suite overview: %w", err)
	}

	parent := t.OutputParent
	if t.SuiteDir != "" {
		t.SuiteDir = filepath.Clean(t.SuiteDir) // "DIR/" from tab completion names DIR
		parent = filepath.Dir(t.SuiteDir)
		if err := checkEmptyOrAbsent(t.SuiteDir); err != nil {
			return "", nil, err
		}
	} else if parent == "" {
		parent = "."
	}
	created, err := fsutil.EnsureDir(parent)
	if err != nil {
		return "", nil, notWritable{err}
	}
	defer func() {
		if err != nil {
			fsutil.RemoveCreated(parent, created)
		}
	}()
	mkdirTemp := p.mkdirTemp
	if mkdirTemp == nil {
		mkdirTemp = func(dir, _ string) (string, error) { return fsutil.MkdirTemp(dir, "staging") }
	}
	staging, err := mkdirTemp(parent, fsutil.TempPattern("", "staging"))
	if err != nil {
		return "", nil, fmt.Errorf("cannot create the suite in %s (%w): %w; choose a writable folder", parent, ErrNotWritable, err)
	}
	defer fsutil.Untrack(staging)
	defer func() {
		if err != nil {
			fsutil.Discard(staging)
		}
	}()
	for i, c := range comps {
		d := filepath.Join(staging, sub[i])
		if err := os.Mkdir(d, 0o755); err != nil {
			return "", nil, fmt.Errorf("create %s: %w", d, err)
		}
		if err := p.Builder.BuildIndexed(d, c.Data, c.Encoded, c.Index, nil); err != nil {
			return "", nil, fmt.Errorf("component %s: %w", c.Name, err)
		}
	}
	if err := writeFile(staging, FileIndex, page.Bytes()); err != nil {
		return "", nil, err
	}
	if err := os.Chmod(staging, 0o755); err != nil {
		return "", nil, fmt.Errorf("set permissions of %s: %w", staging, err)
	}

	if t.SuiteDir != "" {
		if st, err := os.Lstat(t.SuiteDir); err == nil && st.IsDir() {
			if err := os.Remove(t.SuiteDir); err != nil {
				return "", nil, fmt.Errorf("%s: %w (it changed while the suite was built); choose an empty or new folder", t.SuiteDir, ErrNotEmpty)
			}
		}
		if err := os.Rename(staging, t.SuiteDir); err != nil {
			return "", nil, fmt.Errorf("publish the suite to %s: %w", t.SuiteDir, err)
		}
		return t.SuiteDir, sub, nil
	}
	base := "suite_" + SanitizeName(t.ModelName) + "_" + stamp
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		target := filepath.Join(parent, name)
		if _, err := os.Lstat(target); err == nil {
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", nil, fmt.Errorf("check %s: %w", target, err)
		}
		if err := os.Rename(staging, target); err != nil {
			if isNotEmpty(err) {
				continue
			}
			return "", nil, fmt.Errorf("publish the suite to %s: %w", target, err)
		}
		return target, sub, nil
	}
}

// suitePage is what suite.html.tmpl sees.
type suitePage struct {
	CSP        string
	Title      string
	ModelName  string
	Components []suiteRow
}

type suiteRow struct {
	Name, Link, ModelName, Status string
	Backends                      []suiteBackend
	TopFinding                    string // "label: title", or the first error of a failed component
	Passed, Total                 int
}

type suiteBackend struct {
	Label, Status, Mode, AverageMs string
	Passed                         bool
}

func newSuitePage(comps []SuiteComponent, sub []string, model string) suitePage {
	pg := suitePage{CSP: suiteCSP, Title: "trtperf suite", ModelName: model}
	if model != "" {
		pg.Title = model + " — trtperf suite"
	}
	for i, c := range comps {
		d := c.Data
		row := suiteRow{Name: c.Name, Link: sub[i] + "/" + FileIndex, ModelName: d.ModelName, Status: d.Validation.Status,
			Passed: d.Validation.PassedCount, Total: d.Validation.BackendCount}
		for j := range d.Results {
			b := &d.Results[j]
			sb := suiteBackend{Label: b.Label, Status: b.Validation.Status, Mode: b.Validation.AnalysisMode,
				Passed: b.Validation.Status == contract.StatusPassed}
			if sb.Passed && b.Timing != nil && b.Validation.AnalysisMode == contract.ModeLayerProfile {
				sb.AverageMs = strconv.FormatFloat(b.Timing.AverageInferenceMs, 'f', 3, 64) + " ms"
			}
			row.Backends = append(row.Backends, sb)
			if row.TopFinding == "" && sb.Passed && len(b.Issues) > 0 {
				row.TopFinding = b.Label + ": " + b.Issues[0].Title
			}
		}
		if row.TopFinding == "" && d.Validation.PassedCount == 0 {
			for j := range d.Results {
				if m := firstError(d.Results[j].Validation.Messages); m != "" {
					row.TopFinding = d.Results[j].Label + ": " + m
					break
				}
			}
		}
		pg.Components = append(pg.Components, row)
	}
	return pg
}

func firstError(ms []contract.Message) string {
	for _, m := range ms {
		if m.Level == contract.LevelError {
			return m.Message
		}
	}
	return ""
}
