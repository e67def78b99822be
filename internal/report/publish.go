package report

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/fsutil"
)

// Target says where a report goes: ReportDir exactly, or an auto-named
// `report_<model>_<timestamp>` folder under OutputParent.
type Target struct {
	ReportDir    string // must not exist or be empty
	OutputParent string // used when ReportDir is empty; "" means "."
	ModelName    string // for the auto name; "" means the data's model name
	Timestamp    string // YYYYMMDD_HHMMSS; "" means now
}

// Publisher builds, validates and atomically publishes report folders.
type Publisher struct {
	Builder Builder
	// Now stamps auto-named folders; nil means time.Now.
	Now func() time.Time
	// Validate checks the encoded contract; nil means the schema and
	// semantic checks of contract.ValidateData (with the analysis the
	// caller passed as the decoded document).
	Validate func(encoded []byte) error
	// mkdirTemp creates the staging folder (os.MkdirTemp); tests inject a
	// failure because root ignores permission bits.
	mkdirTemp func(dir, pattern string) (string, error)
}

// Errors the command line maps to messages, exit codes and the advice
// that names its flags (this package names none).
var (
	ErrNotEmpty   = errors.New("folder is not empty")
	ErrNotAReport = errors.New("not a trtperf report folder")
	// ErrNotWritable: the folder a report or suite is created in refused it.
	ErrNotWritable = errors.New("folder not writable")
)

// notWritable marks a failure to create the folder a report goes in as
// ErrNotWritable, keeping the failure's own text (it already says to
// choose a writable folder).
type notWritable struct{ error }

func (e notWritable) Unwrap() []error { return []error{e.error, ErrNotWritable} }

// ValidationError says the analysis failed its contract; nothing was
// published. The command line exits 1 for it.
type ValidationError struct {
	Problems []string // "pointer: message", schema problems first
}

func (e *ValidationError) Error() string {
	first := ""
	if len(e.Problems) > 0 {
		first = ": " + e.Problems[0]
	}
	more := ""
	if len(e.Problems) > 1 {
		more = fmt.Sprintf(" (and %d more; run 'trtperf validate' on the analysis for all)", len(e.Problems)-1)
	}
	return fmt.Sprintf("the analysis does not satisfy the analyze-data contract, so no report was published%s%s", first, more)
}

// ValidateContractData runs contract.ValidateData on d and its encoding
// (the same verdict as contract.Validate without decoding encoded again)
// and turns its problems into a *ValidationError.
func ValidateContractData(d *contract.AnalyzeData, encoded []byte) error {
	return validationError(contract.ValidateData(d, encoded))
}

// validationError turns the problems of rep into a *ValidationError, or nil.
func validationError(rep *contract.Report) error {
	if rep.SchemaOK() && rep.SemanticOK() {
		return nil
	}
	ve := &ValidationError{}
	for _, p := range rep.Schema {
		ve.Problems = append(ve.Problems, "schema "+p.Pointer+": "+p.Message)
	}
	for _, p := range rep.Semantic {
		ve.Problems = append(ve.Problems, "semantic "+p.Pointer+": "+p.Message)
	}
	if len(ve.Problems) == 0 {
		ve.Problems = []string{"validation failed without a message"}
	}
	return ve
}

var timestampRE = regexp.MustCompile(`^[0-9]{8}_[0-9]{6}$`)

// CheckTimestamp accepts YYYYMMDD_HHMMSS naming a real date and time.
func CheckTimestamp(ts string) error {
	if !timestampRE.MatchString(ts) {
		return fmt.Errorf("timestamp %q is not YYYYMMDD_HHMMSS (e.g. 20240131_235959)", ts)
	}
	if _, err := time.Parse("20060102_150405", ts); err != nil {
		return fmt.Errorf("timestamp %q is not a real date and time; use YYYYMMDD_HHMMSS", ts)
	}
	return nil
}

// Publish validates the analysis, builds the report in a staging folder
// beside the target and renames it into place. It returns the report folder.
// On any error the file system is left as it was. encoded must be d as
// written by contract.Encode (or d decoded from encoded).
func (p Publisher) Publish(d *contract.AnalyzeData, encoded, analyzeMD []byte, t Target) (dir string, err error) {
	return p.PublishIndexed(d, encoded, nil, analyzeMD, t)
}

// PublishIndexed is Publish with the index of the layers and records in
// encoded (see Builder.BuildIndexed); nil means find them.
func (p Publisher) PublishIndexed(d *contract.AnalyzeData, encoded []byte, idx *contract.Index, analyzeMD []byte, t Target) (dir string, err error) {
	return p.publish(d, source{encoded: encoded, idx: idx}, analyzeMD, t)
}

// PublishEncoding is PublishIndexed for an analysis not encoded yet:
// encode writes d as contract.EncodeIndexed does straight into the
// staging folder's analyze-data.json (w is that file, unbuffered) and
// returns the index of its layers and records. The validator and the
// report's detail files then read the file back through a read-only
// memory map (fsutil.ReadMapped; read into memory where mapping is not
// available): those are the page-cache pages just written, so the
// encoding, hundreds of MB at 10^5 layers, is never held in the heap.
// The staging folder is private to this process until it is published;
// the map is released before PublishEncoding returns.
func (p Publisher) PublishEncoding(d *contract.AnalyzeData, encode func(w io.Writer) (*contract.Index, error), analyzeMD []byte, t Target) (dir string, err error) {
	return p.publish(d, source{encode: encode}, analyzeMD, t)
}

// PublishFile publishes the analyze-data.json open in f as it is: f is
// copied into the staging folder (by the kernel where it can, so not
// through the heap), the copy is read back as PublishEncoding reads its
// file, and decode turns those bytes into the analysis and its index
// (contract.DecodeIndexed, plus any check of the caller's; its error is
// returned as it is, with nothing left behind). The copy is private to
// this process, so a change to f meanwhile cannot fault the map.
func (p Publisher) PublishFile(f *os.File, decode func(encoded []byte) (*contract.AnalyzeData, *contract.Index, error), analyzeMD []byte, t Target) (dir string, err error) {
	return p.publish(nil, source{copyFrom: f, decode: decode}, analyzeMD, t)
}

// source is the encoded analysis a report is published from: its bytes
// and index, the function that writes them (see PublishEncoding), or the
// file to copy and the function that decodes the copy (see PublishFile).
type source struct {
	encoded  []byte
	idx      *contract.Index
	encode   func(w io.Writer) (*contract.Index, error)
	copyFrom *os.File
	decode   func(encoded []byte) (*contract.AnalyzeData, *contract.Index, error)
}

// written says whether the source is written into the staging folder.
func (src *source) written() bool { return src.encode != nil || src.copyFrom != nil }

// publish publishes d (nil for a source that decodes it, set once stage
// has decoded it).
func (p Publisher) publish(d *contract.AnalyzeData, src source, analyzeMD []byte, t Target) (dir string, err error) {
	stamp := t.Timestamp
	if stamp == "" {
		now := time.Now
		if p.Now != nil {
			now = p.Now
		}
		stamp = now().Format("20060102_150405")
	} else if err := CheckTimestamp(stamp); err != nil {
		return "", err
	}

	parent := t.OutputParent
	if t.ReportDir != "" {
		t.ReportDir = filepath.Clean(t.ReportDir) // "DIR/" from tab completion names DIR
		parent = filepath.Dir(t.ReportDir)
		if err := checkEmptyOrAbsent(t.ReportDir); err != nil {
			return "", err
		}
	} else if parent == "" {
		parent = "."
	}
	// Cheap checks of the target come first. Validation reads the whole
	// analysis (about a second on a 10^5-layer engine), so it runs while
	// the report is built in the staging folder; nothing is renamed into
	// place unless it passed, and its verdict wins over any build error
	// (a failed contract is the reason to report, exit 1). An analysis
	// encoded into the staging folder is validated once it is written.
	validate := p.Validate
	if validate == nil {
		validate = func(encoded []byte) error { return ValidateContractData(d, encoded) }
	}
	verdict := make(chan error, 1)
	validating := false
	check := func(encoded []byte) {
		validating = true
		go func() { verdict <- validate(encoded) }()
	}
	if !src.written() {
		check(src.encoded)
	}
	staging, created, release, err := p.stage(parent, &d, src, analyzeMD, check)
	var verr error
	if validating {
		verr = <-verdict
	}
	if rerr := release(); rerr != nil && err == nil && verr == nil {
		err = fmt.Errorf("release the map of %s: %w", filepath.Join(staging, FileAnalyzeData), rerr)
		removeStaging(parent, staging, created)
	}
	if verr != nil {
		if err == nil {
			removeStaging(parent, staging, created)
		}
		return "", verr
	}
	if err != nil {
		return "", err
	}
	defer fsutil.Untrack(staging)
	defer func() {
		if err != nil {
			removeStaging(parent, staging, created)
		}
	}()
	// MkdirTemp makes the folder private; a report is meant to be shared.
	if err := os.Chmod(staging, 0o755); err != nil {
		return "", fmt.Errorf("set permissions of %s: %w", staging, err)
	}

	if t.ReportDir != "" {
		// os.Rename refuses an existing folder even when empty, so an empty
		// --report-dir is removed first (os.Remove fails if anything
		// appeared in it) and recreated if the rename then fails.
		restore := func() {}
		if st, err := os.Lstat(t.ReportDir); err == nil && st.IsDir() {
			if err := os.Remove(t.ReportDir); err != nil {
				return "", fmt.Errorf("%s: %w (it changed while the report was built); choose an empty or new report folder", t.ReportDir, ErrNotEmpty)
			}
			restore = func() { os.Mkdir(t.ReportDir, st.Mode().Perm()) }
		}
		if err := os.Rename(staging, t.ReportDir); err != nil {
			restore()
			if isNotEmpty(err) {
				return "", fmt.Errorf("%s: %w (it changed while the report was built); choose an empty or new report folder", t.ReportDir, ErrNotEmpty)
			}
			return "", fmt.Errorf("publish report to %s: %w", t.ReportDir, err)
		}
		return t.ReportDir, nil
	}
	model := t.ModelName
	if model == "" {
		model = d.ModelName
	}
	base := "report_" + SanitizeName(model) + "_" + stamp
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		target := filepath.Join(parent, name)
		if _, err := os.Lstat(target); err == nil {
			continue // taken, even if empty: auto names never reuse a folder
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("check %s: %w", target, err)
		}
		if err := os.Rename(staging, target); err != nil {
			if isNotEmpty(err) {
				continue // created meanwhile by someone else
			}
			return "", fmt.Errorf("publish report to %s: %w", target, err)
		}
		return target, nil
	}
}

// stage creates parent when missing (created is the topmost folder it
// made, "" when none) and a staging folder in it, and builds the report
// there. An analysis that src encodes is written there first and handed
// to check once complete; release frees what was read back for it (call
// it once check's validation is done). On error stage has removed what it
// created; release is never nil.
func (p Publisher) stage(parent string, d **contract.AnalyzeData, src source, analyzeMD []byte, check func(encoded []byte)) (staging, created string, release func() error, err error) {
	release = func() error { return nil }
	created, err = fsutil.EnsureDir(parent)
	if err != nil {
		return "", "", release, notWritable{err}
	}
	mkdirTemp := p.mkdirTemp
	if mkdirTemp == nil {
		mkdirTemp = func(dir, _ string) (string, error) { return fsutil.MkdirTemp(dir, "staging") }
	}
	staging, err = mkdirTemp(parent, fsutil.TempPattern("", "staging"))
	if err != nil {
		removeStaging(parent, "", created)
		return "", "", release, fmt.Errorf("cannot create the report in %s (%w): %w; choose a writable folder", parent, ErrNotWritable, err)
	}
	encoded, idx, writeData := src.encoded, src.idx, true
	if src.written() {
		encode := src.encode
		if src.copyFrom != nil {
			encode = func(w io.Writer) (*contract.Index, error) {
				if _, err := io.Copy(w, src.copyFrom); err != nil {
					return nil, fmt.Errorf("copy %s: %w", src.copyFrom.Name(), err)
				}
				return nil, nil
			}
		}
		var unmap func() error
		encoded, idx, unmap, err = writeEncoding(filepath.Join(staging, FileAnalyzeData), encode)
		if err == nil && src.decode != nil {
			if *d, idx, err = src.decode(encoded); err != nil {
				unmap()
			}
		}
		if err != nil {
			removeStaging(parent, staging, created)
			return "", "", release, err
		}
		release, writeData = unmap, false
		check(encoded)
	}
	if err := p.Builder.build(staging, *d, encoded, idx, analyzeMD, writeData); err != nil {
		removeStaging(parent, staging, created)
		return "", "", release, err
	}
	return staging, created, release, nil
}

// writeEncoding creates path, lets encode write the analysis into it and
// reads the file back (mapped where possible, see fsutil.ReadMapped).
func writeEncoding(path string, encode func(w io.Writer) (*contract.Index, error)) (encoded []byte, idx *contract.Index, release func() error, err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("create %s: %w", path, err)
	}
	idx, err = encode(f)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write %s: %w", path, cerr)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	encoded, release, err = fsutil.ReadMapped(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read back %s: %w", path, err)
	}
	return encoded, idx, release, nil
}

// removeStaging undoes stage: the staging folder (ours by its name), then
// the parents it created, each only while empty: another run may have
// published into them meanwhile.
func removeStaging(parent, staging, created string) {
	fsutil.Discard(staging)
	fsutil.RemoveCreated(parent, created)
}

// checkEmptyOrAbsent refuses a report folder that has anything in it.
func checkEmptyOrAbsent(dir string) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check report folder %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("report folder %s is a file, not a folder; choose a new or empty folder", dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("read report folder %s: %w", dir, err)
	}
	defer f.Close()
	if names, _ := f.Readdirnames(1); len(names) > 0 {
		return fmt.Errorf("report folder %s: %w; trtperf never writes into a non-empty folder, so choose a new or empty one, or let trtperf name a new folder", dir, ErrNotEmpty)
	}
	return nil
}

func isNotEmpty(err error) bool {
	return errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST)
}

// SanitizeName makes a model name safe as part of a folder name: letters,
// digits, '.', '-' and '_' are kept, runs of anything else become one '-',
// and the result is at most 64 bytes; an empty result is "model".
func SanitizeName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_')
		if ok {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 64 {
			break
		}
	}
	out := strings.Trim(b.String(), "-.")
	if out == "" {
		return "model"
	}
	return out
}

// IsReport reports whether dir holds a published report.
func IsReport(dir string) bool {
	for _, f := range []string{FileIndex, FileDataJS, FileAnalyzeData} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// UpdateAnalysis replaces analyze.md and its rendered HTML in an existing
// report and touches nothing else. Each file is written to a temporary file
// beside it and renamed, so a reader never sees a half-written file.
func UpdateAnalysis(reportDir string, analyzeMD []byte) error {
	if !IsReport(reportDir) {
		return fmt.Errorf("%s: %w (it lacks %s, %s or %s); package a folder first", reportDir, ErrNotAReport, FileIndex, FileDataJS, FileAnalyzeData)
	}
	script, err := analysisScript(analyzeMD)
	if err != nil {
		return err
	}
	files := []struct {
		name string
		data []byte
	}{{FileAnalysisJS, script}, {FileAnalyzeMD, analyzeMD}}
	temps := make([]string, 0, len(files))
	defer func() {
		for _, t := range temps {
			fsutil.Discard(t) // already renamed ones are gone; harmless
		}
	}()
	for _, f := range files {
		tmp, err := fsutil.CreateTemp(reportDir, f.name, "tmp")
		if err != nil {
			return fmt.Errorf("cannot write in %s: %w; check its permissions", reportDir, err)
		}
		temps = append(temps, tmp.Name())
		_, werr := tmp.Write(f.data)
		cerr := tmp.Close()
		if werr != nil || cerr != nil {
			return fmt.Errorf("write %s: %w", tmp.Name(), errors.Join(werr, cerr))
		}
		if err := os.Chmod(tmp.Name(), 0o644); err != nil {
			return fmt.Errorf("set permissions of %s: %w", tmp.Name(), err)
		}
	}
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(reportDir, f.name)); err != nil {
			return fmt.Errorf("replace %s in %s: %w", f.name, reportDir, err)
		}
	}
	return nil
}
