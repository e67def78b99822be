// Package skill writes a ready agent-skill folder: the embedded
// trt-perf-analysis files (SKILL.md, scripts, examples) plus trtperf
// binaries under bin/<goos>-<goarch>/ for the wrappers to find.
package skill

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/trtperf/trtperf/internal/fsutil"
	skillfiles "github.com/trtperf/trtperf/skill"
)

// Platform is one GOOS/GOARCH pair the skill can ship a binary for.
type Platform struct{ GOOS, GOARCH string }

func (p Platform) String() string { return p.GOOS + "-" + p.GOARCH }

// BinPath is the binary's path inside the skill folder, slash-separated.
func (p Platform) BinPath() string {
	name := "trtperf"
	if p.GOOS == "windows" {
		name += ".exe"
	}
	return path.Join("bin", p.String(), name)
}

// AllPlatforms are the platforms a full skill ships.
var AllPlatforms = []Platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// CrossMode says whether to cross-compile the other platforms' binaries.
type CrossMode int

const (
	CrossAuto CrossMode = iota // when a Go toolchain and the source are found
	CrossOn                    // required: fail before writing when impossible
	CrossOff                   // only the running executable
)

// Options tune Install.
type Options struct {
	// Force replaces an existing skill folder (one holding SKILL.md).
	Force bool
	// Executable is copied as the binary of ExecutablePlatform; "" ships
	// none (the wrappers then fall back to PATH or a source build).
	Executable         string
	ExecutablePlatform Platform
	Cross              CrossMode
	// Source is the trtperf module root to cross-compile; "" looks upward
	// from the working folder (FindSource).
	Source string
	// Go is the go command; "" looks it up on PATH.
	Go string
	// Version is stamped into cross-compiled binaries ("" leaves "dev").
	Version string
	// Platforms to ship; nil means AllPlatforms.
	Platforms []Platform
	// Log receives the output of go build (nil discards it).
	Log io.Writer
}

// PlatformResult says whether a platform's binary was written, and how or
// why not.
type PlatformResult struct {
	Platform Platform
	Written  bool
	How      string // "this executable" or "go build" when written
	Why      string // the reason when not written (Err's text)
	Err      error  // the reason when not written; may wrap ErrCrossOff or ErrNoSource
}

// Result is what Install did.
type Result struct {
	Dir       string
	Platforms []PlatformResult
	// Backup is where the replaced skill was kept ("" when it was removed):
	// it held files edited since trtperf installed them (Edited), or files
	// added while the new skill was being written (Added).
	Backup        string
	Edited, Added []string
}

// Errors callers map to messages, exit codes and advice in their own
// terms (a command line names its flags; this package names none).
var (
	ErrNotEmpty         = errors.New("folder is not empty")
	ErrCrossUnavailable = errors.New("cannot cross-compile")
	// ErrCrossOff: Options.Cross is CrossOff, so no platform was built.
	ErrCrossOff = errors.New("not requested")
	// ErrNoSource: no trtperf source checkout was given or found.
	ErrNoSource = errors.New("the trtperf source was not found")
)

// Install writes the skill into dir: it is built in a staging folder beside
// dir and renamed into place, so a failure leaves nothing behind and a
// reader never sees a half-written skill.
func Install(dir string, o Options) (res *Result, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", dir, err)
	}
	replace, err := checkTarget(abs, o.Force)
	if err != nil {
		return nil, err
	}
	plats := o.Platforms
	if plats == nil {
		plats = AllPlatforms
	}
	builder, why := o.crossBuilder()
	if builder == nil && o.Cross == CrossOn {
		return nil, fmt.Errorf("%w: %w", ErrCrossUnavailable, why)
	}

	parent := filepath.Dir(abs)
	created, err := fsutil.EnsureDir(parent)
	if err != nil {
		return nil, err
	}
	staging, err := fsutil.MkdirTemp(parent, "skill-staging")
	if err != nil {
		fsutil.RemoveCreated(parent, created)
		return nil, fmt.Errorf("cannot create the skill in %s: %w; choose a writable folder", parent, err)
	}
	defer fsutil.Untrack(staging)
	defer func() {
		if err != nil {
			fsutil.Discard(staging)
			fsutil.RemoveCreated(parent, created)
		}
	}()
	if err := writeFiles(staging, skillfiles.Files()); err != nil {
		return nil, err
	}
	res = &Result{Dir: abs}
	for _, p := range plats {
		dst := filepath.Join(staging, filepath.FromSlash(p.BinPath()))
		pr := PlatformResult{Platform: p}
		switch {
		case o.Executable != "" && p == o.ExecutablePlatform:
			if err := copyExecutable(o.Executable, dst); err != nil {
				return nil, err
			}
			pr.Written, pr.How = true, "this executable"
		case builder != nil:
			if err := builder.build(p, dst); err != nil {
				if o.Cross == CrossOn {
					return nil, err
				}
				pr.Err, pr.Why = err, err.Error()
				break
			}
			pr.Written, pr.How = true, "go build"
		default:
			pr.Err, pr.Why = why, why.Error()
		}
		res.Platforms = append(res.Platforms, pr)
	}
	if err := writeMarker(staging); err != nil {
		return nil, err
	}
	// MkdirTemp makes the folder private; a skill is meant to be read.
	if err := os.Chmod(staging, 0o755); err != nil {
		return nil, fmt.Errorf("set permissions of %s: %w", staging, err)
	}
	if beforePublish != nil {
		beforePublish()
	}
	if err := publish(staging, abs, replace, res); err != nil {
		return nil, err
	}
	return res, nil
}

// beforePublish, when set (tests), runs between writing the new skill and
// replacing the old one: the window a user's edit can fall into.
var beforePublish func()

// checkTarget accepts a new or empty dir, and with force an existing skill
// folder (which it then replaces). It never replaces other folders: --force
// must not turn a typo into deleting someone's files.
func checkTarget(dir string, force bool) (replace bool, err error) {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("check %s: %w", dir, err)
	}
	if !st.IsDir() {
		return false, fmt.Errorf("%s is a file; choose a new or empty folder for the skill", dir)
	}
	names, err := readNames(dir)
	if err != nil {
		return false, err
	}
	if len(names) == 0 {
		return false, nil
	}
	if !force {
		edits := ""
		if edited, _, err := inspectInstalled(dir); err == nil && len(edited) > 0 {
			edits = fmt.Sprintf(" (it is a skill trtperf installed, and %s changed since: replacing it keeps the old folder as a backup)", strings.Join(edited, ", "))
		}
		return false, fmt.Errorf("%s: %w%s; choose a new or empty folder, or allow replacing a skill trtperf installed there before", dir, ErrNotEmpty, edits)
	}
	if _, added, err := inspectInstalled(dir); err != nil {
		return false, err
	} else if len(added) > 0 {
		return false, fmt.Errorf("%s: %w: it holds %s, which trtperf did not install; replacing a skill never deletes other files, so move it out or choose another folder", dir, ErrNotInstalled, added[0])
	}
	return true, nil
}

// MarkerFile, written last into every installed skill, lists the paths
// install wrote. --force replaces a folder only when it has the marker and
// holds nothing else, so it never deletes another skill or a file the user
// put there.
const MarkerFile = ".trtperf-skill"

const markerHeader = "trtperf skill install: the files below were written by trtperf; 'skill install --force' replaces this folder only while it holds nothing else\n"

// ErrNotInstalled says --force was refused: the folder is not (only) a
// skill trtperf installed.
var ErrNotInstalled = errors.New("not a skill folder installed by trtperf")

// writeMarker lists every entry of dir, a file with the SHA-256 of its
// content ("path\tHEX"), so a later install can tell an edited file.
func writeMarker(dir string) error {
	paths, err := listTree(dir)
	if err != nil {
		return err
	}
	lines := make([]string, 0, len(paths)+1)
	for _, p := range paths {
		if sum, ok, err := fileSum(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			return err
		} else if ok {
			p += "\t" + sum
		}
		lines = append(lines, p)
	}
	body := markerHeader + strings.Join(append(lines, MarkerFile), "\n") + "\n"
	return os.WriteFile(filepath.Join(dir, MarkerFile), []byte(body), 0o644)
}

// fileSum is the SHA-256 of a regular file; ok is false for a folder.
func fileSum(p string) (sum string, ok bool, err error) {
	st, err := os.Lstat(p)
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", p, err)
	}
	if !st.Mode().IsRegular() {
		return "", false, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", p, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", false, fmt.Errorf("read %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), true, nil
}

// listTree lists every file and folder under dir, slash-separated and
// sorted (WalkDir's order).
func listTree(dir string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		paths = append(paths, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	return paths, nil
}

// inspectInstalled compares dir with its marker: edited are the files
// trtperf wrote whose content changed since (or whose checksum an older
// trtperf did not record), added the entries trtperf did not write. The
// error says dir is no skill trtperf installed (no valid marker).
func inspectInstalled(dir string) (edited, added []string, err error) {
	marker, err := os.ReadFile(filepath.Join(dir, MarkerFile))
	if err != nil || !strings.HasPrefix(string(marker), markerHeader) {
		return nil, nil, fmt.Errorf("%s: %w (it lacks a valid %s); only a skill that trtperf installed is replaced, so move its files elsewhere or choose another folder", dir, ErrNotInstalled, MarkerFile)
	}
	known := map[string]string{} // path -> checksum ("" unknown or a folder)
	for _, l := range strings.Split(strings.TrimPrefix(string(marker), markerHeader), "\n") {
		p, sum, _ := strings.Cut(l, "\t")
		known[p] = sum
	}
	paths, err := listTree(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range paths {
		want, ok := known[p]
		if !ok {
			added = append(added, p)
			continue
		}
		if p == MarkerFile {
			continue
		}
		got, isFile, err := fileSum(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, nil, err
		}
		if isFile && got != want {
			edited = append(edited, p)
		}
	}
	return edited, added, nil
}

func readNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	return names, nil
}

// publish renames staging to dir. An empty dir is removed first; a skill
// being replaced is moved aside to a visible backup name beside dir (one
// atomic rename: from then on nothing can be added to it by its path),
// checked again against its marker, and deleted only when it still holds
// exactly what trtperf wrote; otherwise the backup stays (res.Backup) and
// nothing is lost. If the new skill cannot be put in place the old one moves back.
func publish(staging, dir string, replace bool, res *Result) error {
	if replace {
		// The old skill moves to a visible name, so that even a crash
		// from here on leaves it where the user can find it.
		old, err := backupName(dir)
		if err != nil {
			return fmt.Errorf("cannot replace %s: %w", dir, err)
		}
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("cannot replace %s: %w", dir, err)
		}
		edited, added, ierr := inspectInstalled(old)
		if err := os.Rename(staging, dir); err != nil {
			os.Rename(old, dir)
			return fmt.Errorf("publish the skill to %s: %w", dir, err)
		}
		if ierr != nil || len(edited) > 0 || len(added) > 0 {
			res.Backup, res.Edited, res.Added = old, edited, added
			return nil
		}
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("the skill is in %s, but the previous one could not be removed from %s: %w", dir, old, err)
		}
		return nil
	}
	if st, err := os.Lstat(dir); err == nil && st.IsDir() {
		if err := os.Remove(dir); err != nil {
			return fmt.Errorf("%s: %w (it changed while the skill was written); choose a new or empty folder", dir, ErrNotEmpty)
		}
	}
	if err := os.Rename(staging, dir); err != nil {
		return fmt.Errorf("publish the skill to %s: %w", dir, err)
	}
	return nil
}

// writeFiles copies the embedded skill into dst; scripts/*.sh become
// executable (embed keeps no modes).
func writeFiles(dst string, src fs.FS) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("read embedded skill %s: %w", p, err)
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		if d.IsDir() {
			if p == "." {
				return nil
			}
			if err := os.Mkdir(target, 0o755); err != nil {
				return fmt.Errorf("create %s: %w", target, err)
			}
			return nil
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return fmt.Errorf("read embedded skill %s: %w", p, err)
		}
		mode := fs.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(target, data, mode); err != nil {
			return fmt.Errorf("write %s: %w", target, err)
		}
		return os.Chmod(target, mode) // WriteFile's mode is filtered by umask
	})
}

// backupName is a new visible name beside dir for a replaced skill that
// held edits: DIR.backup-YYYYMMDD-HHMMSS (with -N when taken).
func backupName(dir string) (string, error) {
	base := dir + ".backup-" + time.Now().Format("20060102-150405")
	for i := 0; i < 100; i++ {
		p := base
		if i > 0 {
			p = fmt.Sprintf("%s-%d", base, i)
		}
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
	}
	return "", fmt.Errorf("no free backup name beside %s", dir)
}

func copyExecutable(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("read the trtperf executable %s: %w", src, err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(dst), err)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return fmt.Errorf("create %s: %w", dst, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return os.Chmod(dst, 0o755)
}
