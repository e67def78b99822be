package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/dump"
)

// Pairs builds the scope of repeatable --data LAYERS [PROFILE] arguments.
//
// Labels come from the layer file's name (the profile's when there is no
// layer file): a conventional prefix (layers_, profile_, ...) is stripped,
// otherwise the stem rule of Folder applies; no name left gives "default".
// When several pairs get the same label, each of them is labelled
// "<parent folder>-<label>" if that makes them distinct (run_a/layers_fp16.json
// and run_b/layers_fp16.json → "run_a-fp16", "run_b-fp16"); otherwise the
// first keeps the label and the others get "-2", "-3", ... in --data order.
//
// Files are checked by content: two files given in the order PROFILE LAYERS
// are swapped, and a single file that is a profile becomes a backend
// without layer info; each such decision is noted on the backend.
func Pairs(pairs [][]string) (*Scope, error) {
	if len(pairs) == 0 {
		return nil, errors.New("no files given: give each backend's layer info and, optionally, its profile, or a folder")
	}
	sc := &Scope{}
	for _, p := range pairs {
		if len(p) < 1 || len(p) > 2 {
			return nil, fmt.Errorf("a backend takes one or two files (layer info, then profile), got %d: %s", len(p), strings.Join(p, " "))
		}
		var abs [2]string
		var kinds [2]dump.Kind
		for i, path := range p {
			a, err := checkFile(path, [2]string{"layer-info", "profile"}[i])
			if err != nil {
				return nil, err
			}
			abs[i] = a
			if kinds[i], _, _, err = sniffFile(a); err != nil {
				return nil, fmt.Errorf("cannot read %s: %w", a, err)
			}
		}
		b := Backend{LayerPath: abs[0], ProfilePath: abs[1]}
		// A trtexec log is the backend's log whatever its place in the
		// pair; the other file keeps the role of the first.
		for i := len(p) - 1; i >= 0; i-- {
			if placeOf(kinds[i]) != placeLog {
				continue
			}
			b.LogPaths = append(b.LogPaths, abs[i])
			b.Notes = append(b.Notes, fmt.Sprintf("%s is a trtexec log by its content; it is read as the backend's log", filepath.Base(abs[i])))
			if i == 0 {
				b.LayerPath, b.ProfilePath = b.ProfilePath, ""
				abs[0], abs[1], kinds[0], kinds[1] = abs[1], "", kinds[1], dump.KindUnknown
			} else {
				b.ProfilePath, abs[1], kinds[1] = "", "", dump.KindUnknown
			}
		}
		if b.LayerPath == "" && b.ProfilePath == "" {
			return nil, fmt.Errorf("%s is a trtexec console log, not layer info or a profile; give the backend's layer info (trtexec --exportLayerInfo) or profile (--exportProfile) with it", strings.Join(b.LogPaths, " and "))
		}
		slices.Sort(b.LogPaths)
		n := len(p)
		if abs[1] == "" {
			n = 1
		}
		switch {
		case n == 2 && kinds[0].IsProfile() && kinds[1] == dump.KindLayerInfo:
			b.LayerPath, b.ProfilePath = abs[1], abs[0]
			b.Notes = append(b.Notes, fmt.Sprintf("the profile was given first; %s is used as the layer info by its content", filepath.Base(abs[1])))
		case n == 1 && kinds[0].IsProfile():
			b.LayerPath, b.ProfilePath = "", abs[0]
			b.Notes = append(b.Notes, fmt.Sprintf("%s is a profile by its content; no layer info was given", filepath.Base(abs[0])))
		}
		if b.LayerPath != "" {
			b.Label = labelFromFile(b.LayerPath)
		} else {
			b.Label = labelFromFile(b.ProfilePath)
		}
		sc.Backends = append(sc.Backends, b)
	}
	distinctLabels(sc.Backends)
	slices.SortStableFunc(sc.Backends, func(a, b Backend) int { return strings.Compare(a.Label, b.Label) })
	return sc, nil
}

// checkFile makes path absolute and checks that it is a readable file.
func checkFile(path, what string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("%s file %s: %w", what, path, err)
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s file %s does not exist; check the path: %w", what, abs, fs.ErrNotExist)
	case err != nil:
		return "", fmt.Errorf("cannot read %s file %s: %w", what, abs, err)
	case st.IsDir():
		return "", fmt.Errorf("%s path %s %w; give the files, or analyze the folder itself", what, abs, ErrFolderGiven)
	}
	return abs, nil
}

// labelFromFile names a backend after one of its files.
func labelFromFile(path string) string {
	name := filepath.Base(path)
	label := ""
	if r, l := conventional(name); r != roleNone {
		label = l
	} else {
		label = labelOfStem(stemOf(trimExt(name)))
	}
	if label == "" {
		label = defaultLabel
	}
	return label
}

// distinctLabels applies the rule documented on Pairs.
func distinctLabels(bs []Backend) {
	byLabel := map[string][]int{}
	var order []string
	for i, b := range bs {
		if byLabel[b.Label] == nil {
			order = append(order, b.Label)
		}
		byLabel[b.Label] = append(byLabel[b.Label], i)
	}
	taken := map[string]bool{}
	for _, b := range bs {
		taken[strings.ToLower(b.Label)] = true
	}
	for _, label := range order {
		idx := byLabel[label]
		if len(idx) < 2 {
			continue
		}
		byParent := map[string]bool{}
		ok := true
		for _, i := range idx {
			l := strings.ToLower(parentName(bs[i]) + "-" + label)
			if byParent[l] || taken[l] {
				ok = false
			}
			byParent[l] = true
		}
		for k, i := range idx {
			old := bs[i].Label
			switch {
			case ok:
				bs[i].Label = parentName(bs[i]) + "-" + label
				taken[strings.ToLower(bs[i].Label)] = true
			case k > 0:
				bs[i].Label = uniqueLabel(taken, label, "")
			default:
				continue
			}
			bs[i].Notes = append(bs[i].Notes, fmt.Sprintf("label %q is shared by several backends given as files; this one is labelled %q", old, bs[i].Label))
		}
	}
}

// parentName is the name of the folder holding a backend's first file.
func parentName(b Backend) string {
	p := b.LayerPath
	if p == "" {
		p = b.ProfilePath
	}
	return filepath.Base(filepath.Dir(p))
}
