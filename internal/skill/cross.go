package skill

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ModulePath is trtperf's Go module; FindSource looks for its go.mod.
const ModulePath = "github.com/trtperf/trtperf"

// versionVar is the variable -ldflags -X stamps the version into.
const versionVar = ModulePath + "/internal/cli.Version"

// crossBuilder runs `go build` for other platforms from the source.
type crossBuilder struct {
	goCmd, source, version string
	log                    io.Writer
}

// crossBuilder returns a builder, or nil and why cross-compiling is not
// possible (for the platforms left without a binary).
func (o Options) crossBuilder() (*crossBuilder, error) {
	if o.Cross == CrossOff {
		return nil, ErrCrossOff
	}
	src := o.Source
	if src == "" {
		wd, err := os.Getwd()
		if err == nil {
			src, _ = FindSource(wd)
		}
		if src == "" {
			return nil, fmt.Errorf("%w: run from a checkout of %s, or name the checkout", ErrNoSource, ModulePath)
		}
	} else if !isSource(src) {
		return nil, fmt.Errorf("%s is not a checkout of %s (no go.mod with that module and cmd/trtperf)", src, ModulePath)
	}
	goCmd := o.Go
	if goCmd == "" {
		p, err := exec.LookPath("go")
		if err != nil {
			return nil, errors.New("no Go toolchain on PATH (install Go from https://go.dev/dl/ to cross-compile)")
		}
		goCmd = p
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	return &crossBuilder{goCmd: goCmd, source: src, version: o.Version, log: log}, nil
}

// build writes the trtperf binary of p to dst: static (CGO_ENABLED=0),
// without local paths (-trimpath) or symbols (-s -w).
func (b *crossBuilder) build(p Platform, dst string) error {
	ldflags := "-s -w"
	if b.version != "" {
		ldflags += " -X " + versionVar + "=" + b.version
	}
	abs, err := filepath.Abs(dst)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", dst, err)
	}
	cmd := exec.Command(b.goCmd, "build", "-trimpath", "-ldflags", ldflags, "-o", abs, "./cmd/trtperf")
	cmd.Dir = b.source
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.GOOS, "GOARCH="+p.GOARCH)
	var out bytes.Buffer
	cmd.Stdout = io.MultiWriter(&out, b.log)
	cmd.Stderr = io.MultiWriter(&out, b.log)
	if err := cmd.Run(); err != nil {
		first := strings.TrimSpace(out.String())
		if i := strings.IndexByte(first, '\n'); i >= 0 {
			first = first[:i]
		}
		if first == "" {
			first = err.Error()
		}
		return fmt.Errorf("go build for %s failed: %s", p, first)
	}
	return nil
}

// FindSource looks in dir and its parents for the trtperf module root.
func FindSource(dir string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for d := abs; ; d = filepath.Dir(d) {
		if isSource(d) {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// isSource reports whether dir is the root of the trtperf module.
func isSource(dir string) bool {
	if st, err := os.Stat(filepath.Join(dir, "cmd", "trtperf")); err != nil || !st.IsDir() {
		return false
	}
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`) == ModulePath
		}
	}
	return false
}
