// Package discover decides which files of a folder (or of --data pairs)
// form which backend: conventional names first (layers_<label>.json with
// profile_<label>.json, latency_<label>.json, times_<label>.json,
// meta_<label>_*.json), then other JSON files recognised by content and
// paired by common stem.
//
// Stem rule for files recognised by content: the name without ".json" and
// without one trailing role word ("graph", "layers", "layer_info",
// "engine_layer_information", "profile", "latency", "times", ...) separated
// by '.', '_' or '-' is the stem; files with the same stem (any case) belong
// to one backend. Its label is the stem without a serialized-engine
// extension: x.engine.graph.json + x.engine.profile.json → stem "x.engine",
// label "x". If that label is already taken by a conventionally named
// backend the stem itself is the label ("x.engine"), then "-2", "-3", ...
package discover

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/fsutil"
)

// Backend is one engine's set of files.
type Backend struct {
	Label       string
	LayerPath   string // absolute, "" when none
	ProfilePath string // absolute, "" when none (trtexec profile or latency dict)
	TimesPath   string // trtexec --exportTimes companion, "" when none
	MetaPaths   []string
	LogPaths    []string // trtexec console logs (absolute, sorted)
	// FromLog is true for a backend that is a trtexec log alone (LogPaths
	// holds it): its per-layer table and layer information lines, when it
	// has them, are its profile and layer info.
	FromLog bool
	Notes   []string // how the files were recognised and paired
}

// Scope is what one analysis run looks at.
type Scope struct {
	Folder      string    // absolute folder, "" for --data mode
	Backends    []Backend // sorted by label
	EngineFiles []string  // *.engine, *.plan, *.trt in the folder (base names, sorted)
	ConfigFiles []string  // config.json, model_index.json, ... (absolute, sorted)
	Ignored     []string  // "name: reason" for files looked at and not used
	// Recast lists files read for what their content is, not for what
	// their conventional name says ("profile_a.json: trtexec profile
	// metadata (...): read as metadata of "a", not as its profile").
	Recast []string
}

// ComponentsError says a folder holds no dumps itself but has component
// subfolders that do (a diffusion pipeline's unet/, vae/, ...).
type ComponentsError struct {
	Parent     string   // absolute folder
	Components []string // base names of the component subfolders, sorted
}

func (e *ComponentsError) Error() string {
	return fmt.Sprintf("%s holds no dumps but component folders: %s; analyze one component folder at a time (e.g. %s), or package them all as one suite",
		e.Parent, strings.Join(e.Components, ", "), filepath.Join(e.Parent, e.Components[0]))
}

// ErrNoDumps is wrapped by the error of a folder without dump files.
var ErrNoDumps = errors.New("no TensorRT dumps found")

// MaxBackends is the most backends one folder may hold: the result keeps
// every backend's analysis (10,000 tiny backends took 4.9 GB), and a
// folder of more is a collection of runs, not one comparison.
const MaxBackends = 1000

// MaxFolderEntries is the most entries discovery looks at in a folder;
// each file is opened to read its head.
const MaxFolderEntries = 100_000

// ErrTooManyBackends is wrapped by the error of a folder over MaxBackends
// or MaxFolderEntries.
var ErrTooManyBackends = errors.New("too many files for one analysis")

// ErrNotFolder is wrapped by the error of Folder given a file.
var ErrNotFolder = errors.New("not a folder")

// ErrFolderGiven is wrapped by the error of Pairs given a folder where a
// file belongs.
var ErrFolderGiven = errors.New("is a folder, not a file")

// Folder discovers the backends of one folder.
func Folder(dir string) (*Scope, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("folder %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("folder %s does not exist; pass the folder that holds layers_<label>.json and profile_<label>.json: %w", abs, fs.ErrNotExist)
	case err != nil:
		return nil, fmt.Errorf("cannot read folder %s: %w", abs, err)
	case !st.IsDir():
		return nil, fmt.Errorf("%s: %w (it is a file); pass the folder that holds it, or give the file itself as a backend's layer info or profile", abs, ErrNotFolder)
	}
	sc, names, err := scan(abs)
	if err != nil {
		return nil, err
	}
	if len(sc.Backends) > 0 {
		return sc, nil
	}
	comps, err := FindComponents(abs)
	if err != nil {
		return nil, err
	}
	if len(comps) > 0 {
		ce := &ComponentsError{Parent: abs}
		for _, c := range comps {
			ce.Components = append(ce.Components, filepath.Base(c))
		}
		return nil, ce
	}
	found := "the folder is empty"
	if len(names) > 0 {
		if len(names) > 10 {
			names = append(names[:10], "...")
		}
		found = "found: " + strings.Join(names, ", ")
	}
	return nil, fmt.Errorf("%s: %w (%s); expected layers_<label>.json (trtexec --exportLayerInfo=F --profilingVerbosity=detailed) and profile_<label>.json (trtexec --exportProfile=F), or a trtexec console log (--dumpProfile table, performance summary, --verbose build)",
		abs, ErrNoDumps, found)
}

// FindComponents returns the subfolders of dir (absolute, sorted) that
// directly hold dumps.
func FindComponents(dir string) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("folder %s: %w", dir, err)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot list folder %s: %w", abs, err)
	}
	var comps []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		sub := filepath.Join(abs, e.Name())
		sc, _, err := scan(sub)
		if err != nil {
			continue // an unreadable subfolder is not a component
		}
		if len(sc.Backends) > 0 {
			comps = append(comps, sub)
		}
	}
	return comps, nil // ReadDir sorts by name
}

// group gathers the files of one backend while scanning.
type group struct {
	label    string
	layer    string
	profile  string
	latency  string
	times    string
	meta     []string
	logs     []string
	notes    []string
	byStem   bool
	stemName string
	fromLog  bool
}

// scan classifies the files of dir. names lists the regular files seen (for
// the no-dumps message).
func scan(dir string) (*Scope, []string, error) {
	entries, err := readDirLimit(dir, MaxFolderEntries)
	if err != nil {
		return nil, nil, err
	}
	sc := &Scope{Folder: dir}
	conv := map[string]*group{} // by lower-case label
	var metas, timesFiles, others, logs []string
	var names []string
	kinds := map[string]dump.Kind{}   // what the content of a file (not a log) is
	hints := map[string]string{}      // UTF-16 and other encodings to re-save
	descs := map[string]string{}      // what each file is (dump.Describe)
	metaLabels := map[string]string{} // label of a metadata file with another role's name
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if !e.Type().IsRegular() {
			// Folders (model components) and other special entries are
			// not dumps; one named like a dump is reported, not skipped
			// silently: the user meant it to be read.
			st, err := os.Stat(filepath.Join(dir, name))
			if err == nil && st.Mode().IsRegular() {
				// A symlink to a regular file is read like one.
			} else if r, _ := conventional(name); isJSONName(name) || r != roleNone {
				why := "a symlink to a missing file"
				if err == nil {
					why = "a " + fsutil.FileKind(st.Mode())
				} else if !errors.Is(err, fs.ErrNotExist) {
					why = fmt.Sprintf("unreadable (%v)", err)
				}
				sc.Ignored = append(sc.Ignored, fmt.Sprintf("%s: is %s, not a regular file, so it is not read; put the dump itself here", name, why))
				continue
			} else {
				continue
			}
		}
		names = append(names, name)
		path := filepath.Join(dir, name)
		if isEngineFile(name) {
			sc.EngineFiles = append(sc.EngineFiles, name)
			continue
		}
		// Every file is judged by its content first: a trtexec log is a
		// log under any name (run.json, layers_x.json), and JSON dumps
		// saved as .log, .txt, .profile or without an extension are dumps.
		// A .json name whose head cannot be sniffed keeps the role its
		// name gives (reading it reports the error on the backend).
		kind, hint, desc, err := sniffFile(path)
		if hint != "" {
			hints[name] = hint
		}
		descs[name] = desc
		switch {
		case err != nil && !isJSONName(name):
			sc.Ignored = append(sc.Ignored, fmt.Sprintf("%s: cannot be read (%v)", name, err))
			continue
		case err != nil:
			hints[name] = fmt.Sprintf(" (%v)", err)
		case placeOf(kind) == placeLog:
			logs = append(logs, name)
			continue
		case placeOf(kind) == placeIgnored && !isJSONName(name):
			sc.Ignored = append(sc.Ignored, name+": "+unknownReason(name, desc)+hint)
			continue
		default:
			kinds[name] = kind
		}
		if configNames[strings.ToLower(name)] {
			sc.ConfigFiles = append(sc.ConfigFiles, path)
			continue
		}
		r, label := conventional(name)
		if nr, ok := roleOfKind(kind); ok && r != roleNone && nr != r && !(timing(r) && timing(nr)) {
			// The content decides: metadata named profile_a.json is a's
			// metadata, never its profile; layer info named like a
			// profile is the layer info.
			sc.Recast = append(sc.Recast, fmt.Sprintf("%s: %s, so it is read as %s of %q, not as its name says (%s)", name, desc, nr, labelOr(label), r))
			r = nr
			if r == roleMeta {
				metaLabels[name] = labelOr(label)
			}
			if r == roleConfig {
				sc.ConfigFiles = append(sc.ConfigFiles, path)
				continue
			}
		}
		switch r {
		case roleMeta:
			metas = append(metas, name)
			continue
		case roleTimes:
			timesFiles = append(timesFiles, name)
			continue
		case roleNone:
			others = append(others, name)
			continue
		}
		if label == "" {
			label = defaultLabel
		}
		key := strings.ToLower(label)
		g := conv[key]
		if g == nil {
			g = &group{label: label}
			conv[key] = g
		}
		slot := map[role]*string{roleLayers: &g.layer, roleProfile: &g.profile, roleLatency: &g.latency}[r]
		if *slot != "" {
			sc.Ignored = append(sc.Ignored, fmt.Sprintf("%s: a second file for label %q (%s is used)", name, label, filepath.Base(*slot)))
			continue
		}
		*slot = path
		if r == roleLayers && label != g.label {
			g.label = label // the layer file's spelling names the backend
		}
	}

	groups := make([]*group, 0, len(conv))
	for _, g := range conv {
		groups = append(groups, g)
	}
	var orphans []orphan
	groups = append(groups, byContent(dir, others, kinds, hints, descs, conv, sc, &orphans)...)

	for _, g := range groups {
		if g.latency != "" {
			if g.profile != "" {
				sc.Ignored = append(sc.Ignored, fmt.Sprintf("%s: label %q also has the trtexec profile %s, which is used",
					filepath.Base(g.latency), g.label, filepath.Base(g.profile)))
			} else {
				g.profile = g.latency
				what := "per-layer latency samples"
				if kinds[filepath.Base(g.latency)] == dump.KindTimeTable {
					what = "a per-layer time table"
				}
				g.notes = append(g.notes, fmt.Sprintf("%s (%s) is the profile", filepath.Base(g.latency), what))
			}
		}
	}
	groups = pairByNames(groups)
	attachTimes(dir, timesFiles, groups, sc, &orphans)
	attachMeta(dir, metas, metaLabels, groups, sc)
	adopt(orphans, groups, sc)
	groups = append(groups, attachLogs(dir, logs, groups, sc)...)

	for _, g := range groups {
		if g.layer == "" && g.profile == "" && !g.fromLog {
			continue
		}
		sc.Backends = append(sc.Backends, Backend{
			Label: g.label, LayerPath: g.layer, ProfilePath: g.profile, TimesPath: g.times,
			MetaPaths: g.meta, LogPaths: g.logs, Notes: g.notes, FromLog: g.fromLog,
		})
	}
	if len(sc.Backends) > MaxBackends {
		return nil, nil, fmt.Errorf("%s holds %d backends, over the limit of %d one analysis reads (each is analysed and kept in the result): %w; put the backends to compare together in a folder of their own, or analyze the files of a few with their paths", dir, len(sc.Backends), MaxBackends, ErrTooManyBackends)
	}
	slices.SortFunc(sc.Backends, func(a, b Backend) int { return strings.Compare(a.Label, b.Label) })
	slices.Sort(sc.ConfigFiles)
	slices.Sort(sc.Ignored)
	slices.Sort(sc.Recast)
	return sc, names, nil
}

// byContent groups dumps with unconventional names (sniffed already:
// kinds) by stem (see the package comment). Configs and metadata are
// recorded too.
func byContent(dir string, names []string, kinds map[string]dump.Kind, hints, descs map[string]string, conv map[string]*group, sc *Scope, orphans *[]orphan) []*group {
	stems := map[string]*group{}
	var order []string
	var metaByStem = map[string][]string{}
	for _, name := range names {
		path := filepath.Join(dir, name)
		kind, ok := kinds[name]
		if !ok {
			sc.Ignored = append(sc.Ignored, name+": cannot be read"+hints[name])
			continue
		}
		base, _ := cutTableExt(trimExt(name))
		stem := stemOf(base)
		key := strings.ToLower(stem)
		var slot func(g *group) *string
		switch pl := placeOf(kind); pl {
		case placeConfig:
			sc.ConfigFiles = append(sc.ConfigFiles, path)
			continue
		case placeMeta:
			metaByStem[key] = append(metaByStem[key], path)
			continue
		case placeIgnored:
			sc.Ignored = append(sc.Ignored, name+": "+descs[name]+hints[name])
			continue
		case placeLog:
			// scan routes logs before byContent; a log is never a dump.
			sc.Ignored = append(sc.Ignored, name+": a trtexec log")
			continue
		case placeLayer:
			slot = func(g *group) *string { return &g.layer }
		case placeProfile:
			slot = func(g *group) *string { return &g.profile }
		case placeLatency:
			slot = func(g *group) *string { return &g.latency }
		case placeTimes:
			slot = func(g *group) *string { return &g.times }
		default:
			panic(fmt.Sprintf("discover: place %d of kind %v has no case", pl, kind)) // TestEveryKindHasAPlace
		}
		g := stems[key]
		if g == nil {
			g = &group{byStem: true, stemName: stem}
			stems[key] = g
			order = append(order, key)
		}
		s := slot(g)
		if *s != "" {
			sc.Ignored = append(sc.Ignored, fmt.Sprintf("%s: a second %s file with stem %q (%s is used)", name, kind, stem, filepath.Base(*s)))
			continue
		}
		*s = path
		g.notes = append(g.notes, fmt.Sprintf("%s recognised by content as %s", name, kind))
	}
	slices.Sort(order)
	taken := map[string]bool{}
	for k := range conv {
		taken[k] = true
	}
	var out []*group
	for _, key := range order {
		g := stems[key]
		if g.layer == "" && g.profile == "" && g.latency == "" {
			*orphans = append(*orphans, orphan{path: g.times, times: true, why: fmt.Sprintf("%s: %s, with no layer info or profile of stem %q to belong to", filepath.Base(g.times), descs[filepath.Base(g.times)], g.stemName)})
			continue
		}
		g.label = uniqueLabel(taken, labelOfStem(g.stemName), g.stemName)
		if g.label == "" {
			g.label = defaultLabel
		}
		g.notes = append(g.notes, fmt.Sprintf("paired by common stem %q", g.stemName))
		g.meta = metaByStem[key]
		delete(metaByStem, key)
		out = append(out, g)
	}
	for _, paths := range metaByStem {
		for _, p := range paths {
			*orphans = append(*orphans, orphan{path: p, why: filepath.Base(p) + ": " + descs[filepath.Base(p)] + ", with no dump of the same stem to belong to"})
		}
	}
	return out
}

// uniqueLabel returns label, or fallback, or label-2, label-3, ... whichever
// is not taken yet (case-insensitively), and marks it taken.
func uniqueLabel(taken map[string]bool, label, fallback string) string {
	pick := func(l string) string {
		taken[strings.ToLower(l)] = true
		return l
	}
	if !taken[strings.ToLower(label)] {
		return pick(label)
	}
	if fallback != "" && !taken[strings.ToLower(fallback)] {
		return pick(fallback)
	}
	for n := 2; ; n++ {
		if l := fmt.Sprintf("%s-%d", label, n); !taken[strings.ToLower(l)] {
			return pick(l)
		}
	}
}

// attachTimes gives times_<label>.json to the backend of that label.
func attachTimes(dir string, files []string, groups []*group, sc *Scope, orphans *[]orphan) {
	for _, name := range files {
		_, label := conventional(name)
		if label == "" {
			label = defaultLabel
		}
		g := findGroup(groups, label)
		switch {
		case g == nil && label == defaultLabel:
			// times.json names no label: the only backend's, if one.
			*orphans = append(*orphans, orphan{path: filepath.Join(dir, name), times: true, why: fmt.Sprintf("%s: trtexec --exportTimes records, with no layer info or profile with label %q to belong to", name, label)})
		case g == nil:
			sc.Ignored = append(sc.Ignored, fmt.Sprintf("%s: trtexec --exportTimes records, with no layer info or profile with label %q to belong to", name, label))
		case g.times != "":
			sc.Ignored = append(sc.Ignored, fmt.Sprintf("%s: label %q already has times %s", name, label, filepath.Base(g.times)))
		default:
			g.times = filepath.Join(dir, name)
		}
	}
}

// attachMeta gives meta_<label>_*.json to the backend whose label is the
// longest that fits; a meta file naming no backend (meta_device.json) is
// shared by all backends of the folder.
func attachMeta(dir string, files []string, labels map[string]string, groups []*group, sc *Scope) {
	for _, name := range files {
		if label, ok := labels[name]; ok {
			// Metadata under another role's name (profile_a.json) is a's.
			if g := findGroup(groups, label); g != nil && (g.layer != "" || g.profile != "" || g.latency != "") {
				g.meta = append(g.meta, filepath.Join(dir, name))
			} else {
				sc.Ignored = append(sc.Ignored, fmt.Sprintf("%s: metadata, with no layer info or profile of label %q to belong to", name, label))
			}
			continue
		}
		base := trimExt(name)
		rest := strings.ToLower(base[len("meta")+1:])
		var best *group
		for _, g := range groups {
			if g.layer == "" && g.profile == "" {
				continue
			}
			l := strings.ToLower(g.label)
			if rest == l || strings.HasPrefix(rest, l+"_") {
				if best == nil || len(g.label) > len(best.label) {
					best = g
				}
			}
		}
		path := filepath.Join(dir, name)
		switch {
		case best != nil:
			best.meta = append(best.meta, path)
		case !strings.ContainsAny(rest, "_"):
			n := 0
			for _, g := range groups {
				if g.layer != "" || g.profile != "" {
					g.meta = append(g.meta, path)
					n++
				}
			}
			if n == 0 {
				sc.Ignored = append(sc.Ignored, name+": metadata without any dump")
			}
		default:
			sc.Ignored = append(sc.Ignored, name+": metadata for a label with no layer info or profile")
		}
	}
	for _, g := range groups {
		slices.Sort(g.meta)
	}
}

// maxNamePairs and maxNamePairBytes bound the files pairByNames reads:
// it parses each candidate whole, which only a folder of a few unpaired
// files of modest size is worth.
const (
	maxNamePairs     = 8
	maxNamePairBytes = 64 << 20
)

// pairByNames joins a backend that has only layer info with one that has
// only per-layer times when their names are the same (every record names
// a layer, every layer has a record: the analysis' own name match), so
// layer info and times under unrelated names (model.json beside
// results.csv) are one backend. Two conventionally named files keep
// their labels apart (the user named them so), and a times file whose
// names match several layer files stays alone.
func pairByNames(groups []*group) []*group {
	var layerOnly, timesOnly []*group
	for _, g := range groups {
		switch {
		case g.layer != "" && g.profile == "" && !g.fromLog:
			layerOnly = append(layerOnly, g)
		case g.layer == "" && g.profile != "":
			timesOnly = append(timesOnly, g)
		}
	}
	if len(layerOnly) == 0 || len(timesOnly) == 0 || len(layerOnly) > maxNamePairs || len(timesOnly) > maxNamePairs {
		return groups
	}
	slices.SortFunc(layerOnly, func(a, b *group) int { return strings.Compare(a.layer, b.layer) })
	layerNames := map[*group]map[string]int{}
	used, merged := map[*group]bool{}, map[*group]bool{}
	for _, tg := range timesOnly {
		recs := namesOfProfile(tg.profile)
		if recs == nil {
			continue
		}
		var match *group
		n := 0
		for _, lg := range layerOnly {
			if used[lg] || !lg.byStem && !tg.byStem {
				continue
			}
			names, ok := layerNames[lg]
			if !ok {
				names = namesOfLayers(lg.layer)
				layerNames[lg] = names
			}
			if names != nil && maps.Equal(names, recs) {
				match, n = lg, n+1
			}
		}
		if n != 1 {
			continue
		}
		used[match], merged[tg] = true, true
		match.profile = tg.profile
		match.meta = append(match.meta, tg.meta...)
		if match.times == "" {
			match.times = tg.times
		}
		match.notes = append(match.notes, fmt.Sprintf("%s pairs with %s by layer names: every record names one of its layers and every layer has one", filepath.Base(tg.profile), filepath.Base(match.layer)))
	}
	if len(merged) == 0 {
		return groups
	}
	return slices.DeleteFunc(groups, func(g *group) bool { return merged[g] })
}

// namesOfLayers and namesOfProfile count the names of a file's layers or
// records (of the first optimization profile); nil when it cannot be read
// or is over maxNamePairBytes.
func namesOfLayers(path string) map[string]int {
	if st, err := os.Stat(path); err != nil || st.Size() > maxNamePairBytes {
		return nil
	}
	li, err := dump.ReadLayerInfo(path)
	if err != nil {
		return nil
	}
	out := map[string]int{}
	for _, l := range li.Layers {
		if l.OptProfile == 0 {
			out[l.Name]++
		}
	}
	return out
}

func namesOfProfile(path string) map[string]int {
	if st, err := os.Stat(path); err != nil || st.Size() > maxNamePairBytes {
		return nil
	}
	p, err := dump.ReadProfile(path)
	if err != nil {
		return nil
	}
	out := map[string]int{}
	for _, r := range p.Records {
		if r.OptProfile == 0 {
			out[r.Name]++
		}
	}
	return out
}

// orphan is a metadata or --exportTimes file whose name names no label
// (run_summary.json, times.json) and whose stem is no backend's; why says
// so, for when it stays unused. A file whose name names a label that has
// no backend (times_zz.json) is no orphan: its name says whose it is.
type orphan struct {
	path  string
	times bool
	why   string
}

// adopt gives orphans to the only backend of the folder (a folder of one
// engine's files: run_summary.json beside model.json), as logs are given;
// with several backends nothing says whose they are, and they are not
// used.
func adopt(orphans []orphan, groups []*group, sc *Scope) {
	var live []*group
	for _, g := range groups {
		if g.layer != "" || g.profile != "" || g.latency != "" {
			live = append(live, g)
		}
	}
	for _, o := range orphans {
		name := filepath.Base(o.path)
		switch {
		case len(live) != 1:
			sc.Ignored = append(sc.Ignored, o.why)
		case o.times && live[0].times != "":
			sc.Ignored = append(sc.Ignored, fmt.Sprintf("%s (its only backend %q has times %s)", o.why, live[0].label, filepath.Base(live[0].times)))
		case o.times:
			live[0].times = o.path
			live[0].notes = append(live[0].notes, name+" (trtexec --exportTimes) belongs to the only backend of the folder")
		default:
			live[0].meta = append(live[0].meta, o.path)
			slices.Sort(live[0].meta)
			live[0].notes = append(live[0].notes, name+" (metadata) belongs to the only backend of the folder")
		}
	}
}

// attachLogs gives each trtexec log to one backend: the one whose label
// the log's name carries (log_<label>.txt, <label>.log), else the one whose
// stem it shares (build.log with build_layer_info.json), else the only
// backend of the folder. A log that belongs to no dump is a backend of its
// own (returned): its per-layer table, layer information and measured
// timing are read from it, labelled by its name without "log_".
func attachLogs(dir string, files []string, groups []*group, sc *Scope) []*group {
	var live []*group
	taken := map[string]bool{}
	for _, g := range groups {
		if g.layer != "" || g.profile != "" {
			live = append(live, g)
			taken[strings.ToLower(g.label)] = true
		}
	}
	var own []*group
	for _, name := range files {
		base := trimExt(name)
		label := base
		for _, w := range []string{"trtexec_log", "trtexec", "logs", "log"} {
			if len(label) > len(w)+1 && strings.EqualFold(label[:len(w)], w) && (label[len(w)] == '_' || label[len(w)] == '-') {
				label = label[len(w)+1:]
				break
			}
		}
		stem := strings.ToLower(stemOf(base))
		var best *group
		how := ""
		for _, g := range live {
			switch {
			case strings.EqualFold(g.label, label) || strings.EqualFold(g.label, base):
				best, how = g, "its label"
			case best == nil && (g.byStem && strings.EqualFold(g.stemName, stem) || strings.EqualFold(g.label, stem)):
				best, how = g, "its stem"
			}
		}
		if best == nil && len(live) == 1 {
			best, how = live[0], "the only backend of the folder"
		}
		if best == nil {
			g := &group{label: uniqueLabel(taken, label, base), logs: []string{filepath.Join(dir, name)}, fromLog: true}
			why := "no dump of the folder"
			if len(live) > 0 {
				why = "no backend's label or stem"
			}
			g.notes = append(g.notes, fmt.Sprintf("%s (trtexec log) matches %s, so it is a backend of its own: its per-layer table, layer information lines and measured timing are read from it", name, why))
			own = append(own, g)
			continue
		}
		best.logs = append(best.logs, filepath.Join(dir, name))
		best.notes = append(best.notes, fmt.Sprintf("%s (trtexec log) belongs to %q by %s", name, best.label, how))
	}
	for _, g := range groups {
		slices.Sort(g.logs)
	}
	return own
}

func findGroup(groups []*group, label string) *group {
	for _, g := range groups {
		if !g.byStem && strings.EqualFold(g.label, label) {
			return g
		}
	}
	return nil
}

// place is where discovery puts a file of a kind.
type place int

const (
	placeIgnored place = iota
	placeLayer
	placeProfile
	placeLatency
	placeTimes
	placeConfig
	placeMeta
	placeLog
	numPlaces
)

// placeOf is the one switch over every dump.Kind; a kind without a case
// here fails TestEveryKindHasAPlace (and returns numPlaces).
func placeOf(k dump.Kind) place {
	switch k {
	case dump.KindUnknown:
		return placeIgnored
	case dump.KindLayerInfo:
		return placeLayer
	case dump.KindProfile:
		return placeProfile
	case dump.KindLatencyDict, dump.KindTimeTable:
		return placeLatency
	case dump.KindTimes:
		return placeTimes
	case dump.KindConfig:
		return placeConfig
	case dump.KindMetadata:
		return placeMeta
	case dump.KindTrtexecLog:
		return placeLog
	}
	return numPlaces
}

// sniffFile classifies a file by its first bytes. It refuses what is not
// a regular file before reading (a FIFO, device or /proc file named like a
// dump must not hang discovery).
//
// hint is fsutil.EncodingHint of the head (a UTF-16 file says so).
func sniffFile(path string) (kind dump.Kind, hint, desc string, err error) {
	f, _, err := fsutil.OpenRegular(path)
	if err != nil {
		return dump.KindUnknown, "", "", err
	}
	defer f.Close()
	buf := make([]byte, dump.SniffSize)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return dump.KindUnknown, "", "", err
	}
	head := buf[:n]
	kind = dump.Sniff(head)
	hint = fsutil.EncodingHint(head)
	if hint != "" {
		// UTF-16 and the like: the hint says how to re-save it; what
		// the bytes look like as UTF-8 says nothing.
		return kind, hint, "a file in another encoding", nil
	}
	return kind, hint, dump.Describe(head, kind), nil
}

// roleOfKind is the role a file's content gives it, whatever its name;
// ok is false for content that decides no role (unknown, a log).
func roleOfKind(k dump.Kind) (role, bool) {
	switch placeOf(k) {
	case placeLayer:
		return roleLayers, true
	case placeProfile:
		return roleProfile, true
	case placeLatency:
		return roleLatency, true
	case placeTimes:
		return roleTimes, true
	case placeMeta:
		return roleMeta, true
	case placeConfig:
		return roleConfig, true
	}
	return roleNone, false
}

// timing reports whether r is per-layer timing (a trtexec profile or
// latency samples: one file can be named as either).
func timing(r role) bool { return r == roleProfile || r == roleLatency }

func labelOr(label string) string {
	if label == "" {
		return defaultLabel
	}
	return label
}

// readDirLimit lists dir sorted by name, refusing one of more than limit
// entries before sniffing any.
func readDirLimit(dir string, limit int) ([]os.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot list folder %s: %w", dir, err)
	}
	defer f.Close()
	entries, err := f.ReadDir(limit + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("cannot list folder %s: %w", dir, err)
	}
	if len(entries) > limit {
		return nil, fmt.Errorf("%s holds more than %d files: %w; analyze a folder that holds the dumps of the engines to compare", dir, limit, ErrTooManyBackends)
	}
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}
