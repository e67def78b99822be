package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/trtperf/trtperf/internal/contract"
)

// Files of a report folder.
const (
	FileIndex       = "index.html"
	FileAnalyzeData = "analyze-data.json"
	FileDataJS      = "data.js"
	FileAnalyzeMD   = "analyze.md"
	// FileAnalysisJS carries analyze.md's sanitised HTML for file:// pages.
	// It is separate from data.js so that updating analyze.md rewrites a few
	// kilobytes, not the whole (possibly 100 MB) analysis.
	FileAnalysisJS = "analysis.js"
	DirAssets      = "assets"
	DirLicenses    = "licenses"
)

// Builder writes report folders from a web-app asset file system.
type Builder struct {
	// Assets holds index.html.tmpl, the built app and licenses/; nil means
	// the embedded app. Tests inject a broken one.
	Assets fs.FS
}

// Build writes a report into stagingDir (an existing, empty folder) with the
// embedded app. encoded must be d as written by contract.Encode; analyzeMD
// may be nil.
func Build(stagingDir string, d *contract.AnalyzeData, encoded []byte, analyzeMD []byte) error {
	return Builder{}.Build(stagingDir, d, encoded, analyzeMD)
}

// Build writes a report into stagingDir; see the package function Build.
// It finds the layers in encoded with contract.IndexOf; BuildIndexed takes
// an index the caller already has.
func (b Builder) Build(stagingDir string, d *contract.AnalyzeData, encoded []byte, analyzeMD []byte) error {
	return b.BuildIndexed(stagingDir, d, encoded, nil, analyzeMD)
}

// BuildIndexed is Build with idx, where each layer and record is in encoded
// (from contract.EncodeIndexed or contract.DecodeIndexed); nil means
// contract.IndexOf(encoded). The files are independent and are written
// concurrently.
func (b Builder) BuildIndexed(stagingDir string, d *contract.AnalyzeData, encoded []byte, idx *contract.Index, analyzeMD []byte) error {
	return b.build(stagingDir, d, encoded, idx, analyzeMD, true)
}

// build is BuildIndexed; writeData false means stagingDir already holds
// encoded as analyze-data.json (Publisher.PublishEncoding wrote it there).
func (b Builder) build(stagingDir string, d *contract.AnalyzeData, encoded []byte, idx *contract.Index, analyzeMD []byte, writeData bool) error {
	assets := b.Assets
	if assets == nil {
		assets = DefaultAssets()
	}
	// Everything that can fail without touching the disk goes first.
	tmpl, err := parseIndexTemplate(assets)
	if err != nil {
		return err
	}
	analysisJS, err := analysisScript(analyzeMD)
	if err != nil {
		return err
	}
	var page bytes.Buffer
	if err := tmpl.Execute(&page, newPageData(d, analyzeMD != nil)); err != nil {
		return fmt.Errorf("render %s: %w", FileIndex, err)
	}
	if idx == nil {
		if idx, err = contract.IndexOf(encoded); err != nil {
			return fmt.Errorf("find the layers in the encoded analysis: %w", err)
		}
	}

	jobs, err := planView(stagingDir, d, encoded, idx)
	if err != nil {
		return err
	}
	if writeData {
		// analyze-data.json is the biggest file: start it first.
		jobs = append([]func() error{func() error { return writeFile(stagingDir, FileAnalyzeData, encoded) }}, jobs...)
	}
	if analyzeMD != nil {
		jobs = append(jobs, func() error { return writeFile(stagingDir, FileAnalyzeMD, analyzeMD) })
	}
	jobs = append(jobs,
		func() error { return writeFile(stagingDir, FileAnalysisJS, analysisJS) },
		func() error {
			if err := os.Mkdir(filepath.Join(stagingDir, DirAssets), 0o755); err != nil {
				return fmt.Errorf("create assets folder: %w", err)
			}
			for _, name := range shippedAssets {
				if err := copyAsset(assets, name, filepath.Join(stagingDir, DirAssets, name)); err != nil {
					return err
				}
			}
			return nil
		},
		func() error { return copyLicenses(assets, filepath.Join(stagingDir, DirLicenses)) },
		func() error { return writeFile(stagingDir, FileIndex, page.Bytes()) },
	)
	return runJobs(jobs, runtime.GOMAXPROCS(0))
}

// runJobs runs jobs on up to workers goroutines, in order of start, and
// returns the error of the first failed job in jobs order; after a failure
// no further job starts.
func runJobs(jobs []func() error, workers int) error {
	errs := make([]error, len(jobs))
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range max(1, min(workers, len(jobs))) {
		wg.Go(func() {
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) {
					return
				}
				if errs[i] = jobs[i](); errs[i] != nil {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// pageData is what index.html.tmpl sees; the app reads the rest from data.js.
type pageData struct {
	Title       string
	ModelName   string
	Status      string
	Backends    int
	Passed      int
	ToolVersion string
	HasAnalysis bool
}

func newPageData(d *contract.AnalyzeData, hasAnalysis bool) pageData {
	title := "trtperf report"
	if d.ModelName != "" {
		title = d.ModelName + " — trtperf report"
	}
	return pageData{
		Title:       title,
		ModelName:   d.ModelName,
		Status:      d.Validation.Status,
		Backends:    d.Validation.BackendCount,
		Passed:      d.Validation.PassedCount,
		ToolVersion: d.Tool.Version,
		HasAnalysis: hasAnalysis,
	}
}

func parseIndexTemplate(assets fs.FS) (*template.Template, error) {
	src, err := fs.ReadFile(assets, assetTemplate)
	if err != nil {
		return nil, fmt.Errorf("read report template %s: %w (the trtperf binary is incomplete; rebuild it)", assetTemplate, err)
	}
	tmpl, err := template.New(assetTemplate).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("parse report template: %w", err)
	}
	return tmpl, nil
}

// analysisScript renders analyze.md into `window.TRTPERF_ANALYSIS = {...};`.
func analysisScript(analyzeMD []byte) ([]byte, error) {
	v := struct {
		Present bool   `json:"present"`
		HTML    string `json:"html"`
		File    string `json:"file"`
	}{File: FileAnalyzeMD}
	if analyzeMD != nil {
		html, err := RenderMarkdown(analyzeMD)
		if err != nil {
			return nil, fmt.Errorf("render analyze.md: %w", err)
		}
		v.Present, v.HTML = true, html
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode analysis: %w", err)
	}
	var buf bytes.Buffer
	if err := writeJSAssignment(&buf, "TRTPERF_ANALYSIS", raw); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeFile(dir, name string, data []byte) error {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

func copyAsset(assets fs.FS, name, dst string) error {
	src, err := assets.Open(name)
	if err != nil {
		return fmt.Errorf("read report asset %s: %w (the trtperf binary is incomplete; rebuild it)", name, err)
	}
	defer src.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create %s: %w", dst, err)
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return fmt.Errorf("write %s: %w", dst, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}

// copyLicenses copies every file under the assets' licenses/ folder; the web
// build puts one file per bundled library there, plus a README.
func copyLicenses(assets fs.FS, dst string) error {
	entries, err := fs.ReadDir(assets, assetLicenses)
	if err != nil {
		return fmt.Errorf("read report licences: %w (the trtperf binary is incomplete; rebuild it)", err)
	}
	if err := os.Mkdir(dst, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dst, err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if err := copyAsset(assets, path.Join(assetLicenses, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
