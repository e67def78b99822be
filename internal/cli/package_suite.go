package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/report"
)

// suiteHelp is appended to package's flag help.
const suiteHelp = "package every component subfolder of PARENT (text_encoder/, unet/, vae/...) as its own report, plus an overview index.html, in suite_<model>_<timestamp>/"

// runPackageSuite is `package --suite PARENT`: one report per component
// folder (each analysed with its own identity) and an overview page, built
// in one staging folder and renamed into place together.
func runPackageSuite(c *cobra.Command, args []string, f *packageFlags, parent string, dp *deps) error {
	switch {
	case len(args) > 0:
		return cannotRun("give the parent folder once, as --suite PARENT (got also %s)", strings.Join(args, " "))
	case f.analyzeData != "":
		return cannotRun("--suite analyses folders; --analyze-data packages one existing analysis, use one or the other")
	case f.analyzeMD != "":
		return cannotRun("--analyze-md holds the analysis of one component; package the suite first, then add each component's analysis with 'trtperf package --analyze-data D/analyze-data.json --report-dir D --analyze-md analyze.md'")
	case f.reportDir != "" && f.outputParent != "":
		return cannotRun("give either --report-dir (the exact suite folder) or --output-parent (a folder to create suite_<model>_<timestamp> in), not both")
	}
	if f.timestamp != "" {
		if err := report.CheckTimestamp(f.timestamp); err != nil {
			return cannotRun("--timestamp: %v", err)
		}
	}
	if st, err := os.Stat(parent); err != nil {
		return cannotRun("--suite folder %s does not exist or cannot be read (%v); give the folder whose subfolders hold the dumps", parent, unwrapPath(err))
	} else if !st.IsDir() {
		return cannotRun("--suite %s is a file; give the folder whose subfolders (text_encoder/, unet/, vae/...) hold the dumps", parent)
	}
	dirs, err := discover.FindComponents(parent)
	if err != nil {
		return &ExitError{Code: ExitCannotRun, Err: err}
	}
	if len(dirs) == 0 {
		if _, err := discover.Folder(parent); err == nil {
			return cannotRun("%s holds dumps itself and no component folders; package it without --suite: %s", parent, commandLine("package", parent))
		}
		return cannotRun("%s has no subfolder holding dumps (layers_<label>.json / profile_<label>.json); --suite expects one subfolder per component, e.g. text_encoder/, unet/, vae/", parent)
	}

	scopes := make([]*discover.Scope, len(dirs))
	for i, dir := range dirs {
		sc, err := discover.Folder(dir)
		if err != nil {
			return &ExitError{Code: ExitCannotRun, Err: fmt.Errorf("component %s: %w", filepath.Base(dir), err)}
		}
		scopes[i] = sc
	}
	// Every component's analysis stays in memory until the suite is
	// published, so the heap grows to about all of them together.
	prepareForScopes(scopes...)
	comps := make([]report.SuiteComponent, 0, len(dirs))
	model := f.modelName
	for i, dir := range dirs {
		name, sc := filepath.Base(dir), scopes[i]
		d, err := analyzeScope(sc, analysis.Options{ModelName: f.modelName, ModelNameFrom: modelNameFlag, ToolVersion: ToolVersion()})
		if err != nil {
			return &ExitError{Code: ExitCannotRun, Err: fmt.Errorf("analyse component %s: %w", dir, err)}
		}
		recordComponent(d, name)
		if !f.fullPaths {
			report.ShareablePaths(d)
		}
		encoded, idx, err := encodeIndexed(d, encodedSizeHint(sc))
		if err != nil {
			return &ExitError{Code: ExitCannotRun, Err: fmt.Errorf("encode the analysis of %s: %w", dir, err)}
		}
		comps = append(comps, report.SuiteComponent{Name: name, Data: d, Encoded: encoded, Index: idx})
		if model == "" {
			model = d.ModelName
		}
	}
	if model == "" {
		if abs, err := filepath.Abs(parent); err == nil {
			model = filepath.Base(abs)
		}
	}
	t := report.SuiteTarget{SuiteDir: f.reportDir, OutputParent: f.outputParent, ModelName: model, Timestamp: f.timestamp}
	dir, reports, err := dp.publisher.PublishSuite(comps, t)
	if err != nil {
		var ve *report.ValidationError
		if errors.As(err, &ve) {
			return &ExitError{Code: ExitCheck, Err: err}
		}
		return &ExitError{Code: ExitCannotRun, Err: withAdvice(err, reportDirAdvice...)}
	}
	w := c.OutOrStdout()
	fmt.Fprintf(w, "suite_dir: %s\n", dir)
	fmt.Fprintf(w, "overview: %s\n", filepath.Join(dir, report.FileIndex))
	for i, sc := range comps {
		fmt.Fprintf(w, "component %s: report_dir: %s\n", sc.Name, reports[i])
	}
	return nil
}

// recordComponent makes sure the component's folder name is in
// model_components (analysis already maps well-known names such as
// text_encoder to text-encoder; others are recorded as they are).
func recordComponent(d *contract.AnalyzeData, name string) {
	if len(d.ModelComponents) > 0 {
		return
	}
	d.ModelComponents = []string{name}
	for i := range d.Results {
		m := &d.Results[i].Model
		if !slices.Contains(m.Components, name) {
			m.Components = append(m.Components, name)
		}
	}
}

// componentsRefusal is the exit-2 message for a parent folder given where
// one component folder is expected.
func componentsRefusal(dir string, ce *discover.ComponentsError) error {
	return cannotRun("%s holds no dumps but component folders: %s; package each component on its own (e.g. %s) or all of them with %s",
		dir, strings.Join(ce.Components, ", "), commandLine("package", filepath.Join(dir, ce.Components[0])), commandLine("package", "--suite", dir))
}
