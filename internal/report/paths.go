package report

import (
	"path/filepath"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// ShareablePaths rewrites the input paths an analysis records so that a
// report does not leak where the dumps lay (a home directory, a user name):
// the folder becomes its base name, source paths become relative to it
// (base/file), and the folder's full path is replaced by its base name in
// validation messages. Paths outside the folder keep only their file name.
func ShareablePaths(d *contract.AnalyzeData) {
	if d.Folder == nil || *d.Folder == "" {
		return
	}
	root := filepath.Clean(*d.Folder)
	base := filepath.Base(root)
	d.Folder = &base
	short := func(p *string) *string {
		if p == nil {
			return nil
		}
		s := filepath.Clean(*p)
		if rel, err := filepath.Rel(root, s); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			s = filepath.ToSlash(filepath.Join(base, rel))
		} else {
			s = filepath.Base(s)
		}
		return &s
	}
	hide := func(s string) string { return strings.ReplaceAll(s, root, base) }
	for i := range d.Validation.Warnings {
		d.Validation.Warnings[i] = hide(d.Validation.Warnings[i])
	}
	for bi := range d.Results {
		b := &d.Results[bi]
		b.Validation.SourcePaths.Layer = short(b.Validation.SourcePaths.Layer)
		b.Validation.SourcePaths.Profile = short(b.Validation.SourcePaths.Profile)
		for mi := range b.Validation.Messages {
			b.Validation.Messages[mi].Message = hide(b.Validation.Messages[mi].Message)
		}
	}
}
