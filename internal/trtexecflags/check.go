package trtexecflags

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Severity says whether a Problem stops the command (Error) or only draws
// a warning from trtexec or needs the reader's attention (Warning).
type Severity uint8

const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Kind classifies a Problem.
type Kind uint8

const (
	// KindShell: the text is not a plain shell command (unbalanced quote,
	// command substitution, a <placeholder> read as a redirection).
	KindShell Kind = iota + 1
	// KindNotTrtexec: no command in the text runs trtexec.
	KindNotTrtexec
	// KindVersionNotCovered: the version is older than Oldest.
	KindVersionNotCovered
	// KindUnknownFlag: no trtexec release has this option.
	KindUnknownFlag
	// KindNotInVersion: the option exists, but not in this release.
	KindNotInVersion
	// KindVersionSpecific: the version is unknown and the option or value
	// works only in some releases from 8.0 on (a Warning).
	KindVersionSpecific
	// KindDeprecated: trtexec accepts it with a deprecation warning.
	KindDeprecated
	// KindMissingValue: the option needs --flag=value.
	KindMissingValue
	// KindUnexpectedValue: a switch was given =value; trtexec ignores the
	// value and turns the switch on.
	KindUnexpectedValue
	// KindBadValue: trtexec rejects or misreads the value.
	KindBadValue
	// KindStrayArgument: a word that is no option; trtexec fails with
	// "Unknown option".
	KindStrayArgument
	// KindDuplicate: a non-repeatable option given twice; trtexec reads
	// one and fails on the other as "Unknown option".
	KindDuplicate
)

var problemKindNames = [...]string{"", "shell", "not-trtexec", "version-not-covered", "unknown-flag", "not-in-version", "version-specific", "deprecated", "missing-value", "unexpected-value", "bad-value", "stray-argument", "duplicate"}

func (k Kind) String() string {
	if int(k) < len(problemKindNames) && k > 0 {
		return problemKindNames[k]
	}
	return "kind?"
}

// Problem is one reason a trtexec command would not run as printed.
type Problem struct {
	// Arg is the argument as trtexec would receive it ("" for problems
	// of the whole command).
	Arg      string
	Flag     string
	Kind     Kind
	Severity Severity
	// Message says what is wrong and how to fix it.
	Message string
}

func (p Problem) String() string { return p.Severity.String() + ": " + p.Message }

// Supported reports whether release v's trtexec accepts flag, given as
// "--name" or "--name=value" (the value is checked too). ok is false
// when trtexec would fail or misread it; why explains a false ok, a
// deprecation, or — for the zero (unknown) Version — that the option
// works only in some releases.
func Supported(flag string, v Version) (ok bool, why string) {
	if !v.IsZero() && v.Less(Oldest) {
		return false, notCovered(v).Message
	}
	ps := checkArgs([]shellToken{{text: flag}}, v, false)
	ok = true
	msgs := make([]string, 0, len(ps))
	for _, p := range ps {
		if p.Severity == Error {
			ok = false
		}
		msgs = append(msgs, p.Message)
	}
	return ok, strings.Join(msgs, "; ")
}

// CheckCommand checks a shell command line that runs trtexec against
// release v's option parser. It finds every simple command whose program
// is trtexec (a path such as /usr/src/tensorrt/bin/trtexec is fine;
// pipes, && chains and redirections around it are allowed) and reports,
// in argument order: unknown options, options not in release v, options
// given as "--flag value" (trtexec only reads "--flag=value"), switches
// given a value, values trtexec rejects or misreads, stray words,
// repeated options, and deprecations (as Warnings).
//
// Unknown version (zero v): an option or value is accepted when every
// release from 8.0 to Latest accepts it; when only some do, the Problem
// is a KindVersionSpecific Warning naming the releases that accept it;
// when none do, it is an Error. 8.0 is the floor because trtperf reads
// profiles that trtexec wrote from 8.0 on (--exportLayerInfo needs 8.2).
//
// A version newer than Latest is checked against the table as it stands
// (options present in Latest are assumed to still exist; removals after
// Latest cannot be known).
func CheckCommand(cmd string, v Version) []Problem {
	if !v.IsZero() && v.Less(Oldest) {
		return []Problem{notCovered(v)}
	}
	toks, err := shellWords(cmd)
	if err != nil {
		return []Problem{{Kind: KindShell, Severity: Error, Message: err.Error()}}
	}
	runs, _ := trtexecInvocations(toks)
	if len(runs) == 0 {
		return []Problem{{Kind: KindNotTrtexec, Severity: Error, Message: "the command does not run trtexec"}}
	}
	var out []Problem
	for _, args := range runs {
		out = append(out, checkArgs(args, v, true)...)
	}
	return out
}

func notCovered(v Version) Problem {
	return Problem{Kind: KindVersionNotCovered, Severity: Error,
		Message: fmt.Sprintf("TensorRT %s is older than the oldest trtexec this table was read from (%s); its options cannot be checked", v, Oldest)}
}

func isShapeFlag(name string) bool {
	return name == "--minShapes" || name == "--optShapes" || name == "--maxShapes"
}

// checkArgs checks trtexec's argv[1:]. whole says the list is a complete
// command (duplicates and stray words are then meaningful).
func checkArgs(args []shellToken, v Version, whole bool) []Problem {
	var out []Problem
	counts := map[string]int{}
	var order []string
	profiles := 0
	for _, a := range args {
		if key, _, _ := strings.Cut(a.text, "="); key == "--profile" {
			profiles++
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		key, val, hasEq := strings.Cut(a.text, "=")
		if !strings.HasPrefix(key, "-") || key == "-" {
			out = append(out, Problem{Arg: a.text, Kind: KindStrayArgument, Severity: Error,
				Message: fmt.Sprintf("%q is not an option; trtexec takes no positional arguments and fails with \"Unknown option\"", a.text)})
			continue
		}
		f := byName[key]
		if f == nil {
			out = append(out, Problem{Arg: a.text, Flag: key, Kind: KindUnknownFlag, Severity: Error, Message: unknownMessage(key, v)})
			continue
		}
		if counts[key] == 0 {
			order = append(order, key)
		}
		counts[key]++
		// "--flag value": trtexec reads --flag with an empty value and
		// then fails on "value" as an unknown option.
		if !hasEq && whole && i+1 < len(args) && !strings.HasPrefix(args[i+1].text, "-") && needsValue(f, v) {
			next := args[i+1]
			out = append(out, Problem{Arg: a.text, Flag: key, Kind: KindMissingValue, Severity: Error,
				Message: fmt.Sprintf("trtexec reads option values only as %s=value: write %s=%s, not \"%s %s\"", key, key, ShellQuote(next.text), key, next.text)})
			a = shellToken{text: key + "=" + next.text, expanded: next.expanded}
			val, hasEq = next.text, true
			i++
		}
		out = append(out, checkFlag(f, a.text, val, hasEq, a.expanded, !whole && !hasEq, v)...)
	}
	if whole {
		for _, key := range order {
			f := byName[key]
			n := counts[key]
			if n < 2 || f.Repeatable || (isShapeFlag(key) && n <= profiles) {
				continue
			}
			fix := "give it once"
			if needsValue(f, v) {
				fix = "merge the values into one " + key + "=…"
			}
			out = append(out, Problem{Arg: key, Flag: key, Kind: KindDuplicate, Severity: Error,
				Message: fmt.Sprintf("%s is given %d times; trtexec reads it once and fails on the rest with \"Unknown option\" (%s)", key, n, fix)})
		}
	}
	return out
}

// needsValue reports whether the option takes a value in v (for the zero
// Version: in any release from 8.0 on).
func needsValue(f *Flag, v Version) bool {
	if !v.IsZero() {
		k := f.Value(v).Kind
		return k != Switch && k != OptionalText
	}
	for _, s := range f.Values {
		if s.Kind != Switch && s.Kind != OptionalText {
			return true
		}
	}
	return false
}

// checkFlag checks one known option at v; the zero Version tries every
// release from 8.0 on. nameOnly skips the value (Supported("--onnx")).
func checkFlag(f *Flag, arg, val string, hasEq, expanded, nameOnly bool, v Version) []Problem {
	if !v.IsZero() {
		return checkFlagAt(f, arg, val, hasEq, expanded, nameOnly, v)
	}
	var ok, present []Version
	var lastFail, lastFailPresent []Problem
	total := 0
	for _, r := range Releases {
		if r.Less(V(8, 0)) {
			continue
		}
		total++
		if f.In(r) {
			present = append(present, r)
		}
		ps := checkFlagAt(f, arg, val, hasEq, expanded, nameOnly, r)
		if hasError(ps) {
			lastFail = ps
			if f.In(r) {
				lastFailPresent = ps
			}
		} else {
			ok = append(ok, r)
		}
	}
	switch {
	case len(ok) == total:
		return nil
	case len(present) == 0:
		return []Problem{{Arg: arg, Flag: f.Name, Kind: KindNotInVersion, Severity: Error,
			Message: fmt.Sprintf("%s exists only in trtexec before TensorRT 8.0 (removed in %s)%s", f.Name, f.Removed, instead(f))}}
	case len(ok) == 0:
		return errorsOnly(lastFailPresent)
	}
	first := errorsOnly(lastFail)[0]
	return []Problem{{Arg: arg, Flag: f.Name, Kind: KindVersionSpecific, Severity: Warning,
		Message: fmt.Sprintf("%s works only with TensorRT %s and the backend's TensorRT version is unknown (elsewhere: %s)", arg, releaseRanges(ok), first.Message)}}
}

func hasError(ps []Problem) bool {
	for _, p := range ps {
		if p.Severity == Error {
			return true
		}
	}
	return false
}

func errorsOnly(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if p.Severity == Error {
			out = append(out, p)
		}
	}
	return out
}

func instead(f *Flag) string {
	if f.Instead == "" {
		return ""
	}
	return "; instead: " + f.Instead
}

// checkFlagAt checks one known option against release v (not zero).
func checkFlagAt(f *Flag, arg, val string, hasEq, expanded, nameOnly bool, v Version) []Problem {
	p := Problem{Arg: arg, Flag: f.Name, Severity: Error}
	if !f.In(v) {
		p.Kind = KindNotInVersion
		switch {
		case v.Less(f.Added):
			p.Message = fmt.Sprintf("%s is not in TensorRT %s's trtexec: it was added in %s", f.Name, v, f.Added)
		case !f.Removed.IsZero() && !v.Less(f.Removed):
			p.Message = fmt.Sprintf("%s is not in TensorRT %s's trtexec: it was removed in %s%s", f.Name, v, f.Removed, instead(f))
		default:
			p.Message = fmt.Sprintf("%s is not in TensorRT %s's trtexec", f.Name, v)
			for _, s := range f.Absent {
				if !v.Less(s.From) && v.Less(s.To) {
					p.Message += fmt.Sprintf(" (it is missing from %s until %s)", s.From, s.To)
				}
			}
		}
		return []Problem{p}
	}
	var out []Problem
	spec := f.Value(v)
	switch {
	case spec.Kind == Switch && hasEq:
		p.Kind = KindUnexpectedValue
		p.Message = fmt.Sprintf("%s takes no value: trtexec ignores \"=%s\" and turns the option on; write plain %s (or leave it out)", f.Name, val, f.Name)
		out = append(out, p)
	case spec.Kind == Switch || spec.Kind == OptionalText || nameOnly:
	case !hasEq || val == "":
		p.Kind = KindMissingValue
		p.Message = fmt.Sprintf("%s needs a value (%s): write %s=<value>", f.Name, spec.Kind, f.Name)
		out = append(out, p)
	case !expanded:
		if msg, warn := checkValue(spec, val, v); msg != "" {
			p.Kind = KindBadValue
			p.Message = fmt.Sprintf("%s=%s: %s", f.Name, val, msg)
			if warn {
				p.Kind, p.Severity = KindDeprecated, Warning
			}
			out = append(out, p)
		}
	}
	if !f.Deprecated.IsZero() && !v.Less(f.Deprecated) {
		out = append(out, Problem{Arg: arg, Flag: f.Name, Kind: KindDeprecated, Severity: Warning,
			Message: fmt.Sprintf("%s is deprecated since TensorRT %s%s", f.Name, f.Deprecated, instead(f))})
	}
	return out
}

// checkValue checks a non-empty value against spec at v. It returns ""
// when trtexec reads the value as meant, else what is wrong; warn marks
// a value trtexec accepts with a deprecation warning.
func checkValue(spec ValueSpec, val string, v Version) (msg string, warn bool) {
	switch spec.Kind {
	case Text:
		return "", false
	case Int:
		return checkInt(val, v), false
	case Number:
		return checkNumber(val), false
	case Numbers:
		for _, item := range splitList(val) {
			if m := checkNumber(item); m != "" {
				return m, false
			}
		}
	case Enum:
		return checkWord(spec, val, "")
	case Toggles:
		for _, item := range splitList(val) {
			if item == "" || (item[0] != '+' && item[0] != '-') {
				return fmt.Sprintf("each entry must start with + (enable) or - (disable), as in +%s", firstOr(spec.Words, "NAME")), false
			}
			if m, w := checkWord(spec, item[1:], "entry "); m != "" {
				return m, w
			}
		}
	case IOFormats:
		for _, item := range splitList(val) {
			if m := checkIOFormat(item, v); m != "" {
				return m, false
			}
		}
	case Shapes:
		for _, item := range splitList(val) {
			if m := checkShape(item, v); m != "" {
				return m, false
			}
		}
	case LayerTypes, LayerOutputTypes, LayerDevices:
		settings, err := ParseLayerSpec(val)
		if err != nil {
			return err.Error(), false
		}
		for _, s := range settings {
			if m := checkLayerValue(spec.Kind, s.Value, v); m != "" {
				return m, false
			}
		}
	case MemPools:
		for _, item := range splitList(val) {
			if m := checkMemPool(spec, item); m != "" {
				return m, false
			}
		}
	}
	return "", false
}

// splitList splits a comma list as trtexec's splitToStringVec does
// (empty input gives no items; a trailing comma gives an empty item).
func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func firstOr(ws []string, def string) string {
	if len(ws) > 0 {
		return ws[0]
	}
	return def
}

func checkWord(spec ValueSpec, w, what string) (string, bool) {
	eq := func(a, b string) bool {
		if spec.Fold {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	for _, x := range spec.Words {
		if eq(x, w) {
			return "", false
		}
	}
	for _, x := range spec.Deprecated {
		if eq(x, w) {
			return fmt.Sprintf("%s%q is deprecated (trtexec warns)%s", what, w, alternatives(spec.Words)), true
		}
	}
	return fmt.Sprintf("%s%q is not accepted%s", what, w, alternatives(spec.Words)), false
}

func alternatives(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	return "; use one of " + strings.Join(ws, "|")
}

func checkInt(s string, v Version) string {
	if _, err := strconv.ParseInt(s, 10, 32); err != nil {
		if _, ferr := strconv.ParseFloat(s, 64); ferr == nil {
			return fmt.Sprintf("TensorRT %s's trtexec reads this option as a whole number (std::stoi would drop the fraction)", v)
		}
		return "not a whole number (32-bit)"
	}
	return ""
}

func checkNumber(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != f {
		return fmt.Sprintf("%q is not a number", s)
	}
	return ""
}

func checkIOFormat(item string, v Version) string {
	fmts := item
	if v.Less(V(11, 0)) {
		typ, rest, ok := strings.Cut(item, ":")
		if !ok {
			return fmt.Sprintf("%q must be type:format (e.g. fp16:chw)", item)
		}
		if !slices.Contains(wordsAt(dataTypes, v), typ) {
			return fmt.Sprintf("type %q is not accepted by TensorRT %s's trtexec; use one of %s", typ, v, strings.Join(wordsAt(dataTypes, v), "|"))
		}
		fmts = rest
	} else if strings.Contains(item, ":") {
		return fmt.Sprintf("%q: from TensorRT 11.0 trtexec takes only the format (e.g. chw or hwc8), no type", item)
	}
	for _, fm := range strings.Split(fmts, "+") {
		if !slices.Contains(wordsAt(tensorFormats, v), fm) {
			return fmt.Sprintf("format %q is not accepted by TensorRT %s's trtexec; use one of %s", fm, v, strings.Join(wordsAt(tensorFormats, v), "|"))
		}
	}
	return ""
}

func checkShape(item string, v Version) string {
	s, err := splitNameValue(item)
	if err != nil {
		return err.Error()
	}
	if s.Name == "" {
		return fmt.Sprintf("%q names no tensor (write name:dims, e.g. input:1x3x224x224)", item)
	}
	if s.Value == "scalar" && !v.Less(V(10, 0)) {
		return ""
	}
	for _, d := range strings.Split(s.Value, "x") {
		n, err := strconv.ParseInt(d, 10, 32)
		if err != nil || n < 0 {
			return fmt.Sprintf("dims %q of %q must be non-negative whole numbers joined by x (e.g. 1x3x224x224)", s.Value, s.Name)
		}
	}
	return ""
}

func checkLayerValue(k ValueKind, val string, v Version) string {
	types := wordsAt(dataTypes, v)
	switch k {
	case LayerDevices:
		if !slices.Contains(deviceTypes, val) {
			return fmt.Sprintf("device %q is not accepted; use GPU or DLA", val)
		}
	case LayerOutputTypes:
		for _, t := range strings.Split(val, "+") {
			if !slices.Contains(types, t) {
				return fmt.Sprintf("type %q is not accepted by TensorRT %s's trtexec; use one of %s", t, v, strings.Join(types, "|"))
			}
		}
	default:
		if !slices.Contains(types, val) {
			return fmt.Sprintf("precision %q is not accepted by TensorRT %s's trtexec; use one of %s", val, v, strings.Join(types, "|"))
		}
	}
	return ""
}

func checkMemPool(spec ValueSpec, item string) string {
	s, err := splitNameValue(item)
	if err != nil {
		return err.Error()
	}
	if !slices.Contains(spec.Words, s.Name) {
		return fmt.Sprintf("memory pool %q is not accepted; use one of %s (as pool:size)", s.Name, strings.Join(spec.Words, "|"))
	}
	size := s.Value
	if spec.Units && size != "" {
		switch size[len(size)-1] {
		case 'B', 'b', 'K', 'k', 'M', 'm', 'G', 'g':
			size = size[:len(size)-1]
		}
	}
	f, err := strconv.ParseFloat(size, 64)
	if err != nil || f < 0 || f != f {
		if spec.Units {
			return fmt.Sprintf("size %q of pool %s must be a non-negative number, optionally ending in B, K, M or G (default M)", s.Value, s.Name)
		}
		return fmt.Sprintf("size %q of pool %s must be a non-negative number of MiB (unit suffixes arrived in TensorRT 10.0)", s.Value, s.Name)
	}
	return ""
}

// unknownMessage explains an option no release has, with a suggestion.
func unknownMessage(key string, v Version) string {
	if hint, ok := unknownHints[key]; ok {
		return fmt.Sprintf("trtexec has no %s option: %s", key, hint)
	}
	msg := fmt.Sprintf("trtexec has no %s option (in no release from %s to %s)", key, Oldest, Latest)
	if s := suggest(key, v); s != "" {
		msg += "; did you mean " + s + "?"
	}
	return msg
}

var unknownHints = map[string]string{
	"--tf32":          "TF32 is on by default; only --noTF32 (turn it off) exists",
	"--fp32":          "FP32 is always allowed; --noTF32 forbids TF32 for FP32 layers",
	"--workspaceSize": "use --memPoolSize=workspace:<MiB> (8.4 and later) or --workspace=<MiB> (before 10.0)",
}

// suggest returns the closest option name present in v (any release for
// the zero Version), or "".
func suggest(key string, v Version) string {
	best, bestD := "", 3
	for i := range table {
		f := &table[i]
		if !v.IsZero() && !f.In(v) {
			continue
		}
		if strings.EqualFold(f.Name, key) {
			return f.Name
		}
		if d := editDistance(strings.ToLower(f.Name), strings.ToLower(key)); d < bestD {
			best, bestD = f.Name, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// releaseRanges renders releases (a subsequence of Releases) as
// contiguous ranges, e.g. "8.2–10.3 and 10.13–11.1".
func releaseRanges(rs []Version) string {
	idx := func(v Version) int { return slices.Index(Releases, v) }
	var parts []string
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && idx(rs[j+1]) == idx(rs[j])+1 {
			j++
		}
		switch {
		case rs[j] == Latest && i != j:
			parts = append(parts, rs[i].String()+" and later")
		case i == j:
			parts = append(parts, rs[i].String())
		default:
			parts = append(parts, rs[i].String()+"–"+rs[j].String())
		}
		i = j + 1
	}
	return strings.Join(parts, " and ")
}

// presentEverywhere reports whether f is in every release from 8.0 on.
func presentEverywhere(f *Flag) bool {
	for _, r := range Releases {
		if !r.Less(V(8, 0)) && !f.In(r) {
			return false
		}
	}
	return true
}
