package discover

import (
	"os"
	"path/filepath"
)

// Inputs returns every file the scope reads (absolute paths): each
// backend's layer info, profile, times, metadata and logs, and the config
// files.
func (sc *Scope) Inputs() []string {
	var out []string
	for _, b := range sc.Backends {
		for _, p := range []string{b.LayerPath, b.ProfilePath, b.TimesPath} {
			if p != "" {
				out = append(out, p)
			}
		}
		out = append(out, b.MetaPaths...)
		out = append(out, b.LogPaths...)
	}
	return append(out, sc.ConfigFiles...)
}

// Reads says why writing path would replace or feed this scope's input:
// it is (or links to) a file the scope reads, or it lies in the scope's
// folder under a name discovery reads as a dump (layers_X.json,
// profile_X.json, ...) — the next run would analyse it. "" when neither.
func (sc *Scope) Reads(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	st, statErr := os.Stat(abs)
	real := abs
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		real = r
	}
	for _, in := range sc.Inputs() {
		if in == abs || in == real {
			return "it is one of this run's inputs"
		}
		if statErr == nil {
			if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
				return "it is one of this run's inputs (" + in + ")"
			}
		}
	}
	if sc.Folder != "" {
		if dir, err := filepath.EvalSymlinks(filepath.Dir(real)); err == nil {
			folder, ferr := filepath.EvalSymlinks(sc.Folder)
			if ferr == nil && dir == folder {
				if r, _ := conventional(filepath.Base(real)); r != roleNone {
					return "its name makes it a dump of the input folder, which the next run would read"
				}
			}
		}
	}
	return ""
}
