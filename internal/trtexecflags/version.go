package trtexecflags

import (
	"fmt"
	"regexp"
	"strconv"
)

// Version is a TensorRT release as major.minor. Patch levels are not
// modelled: within one minor release trtexec's option set did not change
// between the GA tags read for this table (8.4.1/8.4.3, 8.5.1–8.5.3,
// 10.0.0/10.0.1, 10.13.0–10.13.3), and early-access builds (8.2.0 EA,
// 8.6.0 EA) are treated as their GA release. The zero Version means
// "unknown"; see CheckCommand for what is accepted then.
type Version struct {
	Major, Minor int
}

// V returns the Version major.minor.
func V(major, minor int) Version { return Version{Major: major, Minor: minor} }

// IsZero reports whether v is the unknown version.
func (v Version) IsZero() bool { return v == Version{} }

// Less reports whether v is an older release than w.
func (v Version) Less(w Version) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	return v.Minor < w.Minor
}

// String formats v as "major.minor", or "unknown" for the zero Version.
func (v Version) String() string {
	if v.IsZero() {
		return "unknown"
	}
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor)
}

// versionRE finds the first major.minor in free text such as
// "TensorRT 8.5.1.7", "TensorRT-10.0.1.6", "v10.4" or "8.6.1", or a
// release family "7.x".
var versionRE = regexp.MustCompile(`(?:^|[^0-9.])(\d{1,3})\.(\d{1,3}|x\b)(?:[^0-9]|$)`)

// ParseVersion reads a TensorRT version from strings such as "8.6.1",
// "10.4", "TensorRT 8.5.1.7" or "TensorRT-v10.0.1". Only major.minor is
// kept. A bare major ("10") is rejected because trtexec's options differ
// between minor releases. A release family ("7.x", what a log's layout
// tells when it prints no version) reads as its first minor release, so
// advice names only flags that every release of the family has.
func ParseVersion(s string) (Version, error) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return Version{}, fmt.Errorf("trtexecflags: no TensorRT version (major.minor) in %q; pass e.g. \"10.4\" or \"TensorRT 8.6.1\"", s)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2]) // "x": 0
	if major == 0 {
		return Version{}, fmt.Errorf("trtexecflags: %q is not a TensorRT version (major 0)", s)
	}
	return Version{Major: major, Minor: minor}, nil
}

// Range is the releases Lo ≤ v ≤ Hi a backend's files fit when no log or
// metadata names its TensorRT version: what the file formats imply (a
// profile without medianMs was written before 8.4, "I/O Tensors" from
// 11.0 on, …). A zero Hi means no newest release is known (any release
// from Lo on, including releases newer than Latest); the zero Range means
// nothing is known.
type Range struct{ Lo, Hi Version }

// Exactly is the Range of one known release.
func Exactly(v Version) Range { return Range{Lo: v, Hi: v} }

// IsZero reports whether nothing is known.
func (r Range) IsZero() bool { return r.Lo.IsZero() && r.Hi.IsZero() }

// Contains reports whether release v is in r.
func (r Range) Contains(v Version) bool {
	return !v.Less(r.Lo) && (r.Hi.IsZero() || !r.Hi.Less(v))
}

// Intersect is the releases in both r and o; ok is false when none are.
func (r Range) Intersect(o Range) (Range, bool) {
	out := r
	if out.Lo.Less(o.Lo) {
		out.Lo = o.Lo
	}
	if !o.Hi.IsZero() && (out.Hi.IsZero() || o.Hi.Less(out.Hi)) {
		out.Hi = o.Hi
	}
	return out, out.Hi.IsZero() || !out.Hi.Less(out.Lo)
}

// String is "8.6", "7.0–8.2", "8.4 or newer" or "unknown".
func (r Range) String() string {
	switch {
	case r.IsZero():
		return "unknown"
	case r.Hi.IsZero():
		return r.Lo.String() + " or newer"
	case r.Lo == r.Hi:
		return r.Lo.String()
	}
	return r.Lo.String() + "–" + r.Hi.String()
}

// releasesIn are the releases of the table in r (the oldest release of a
// range below Oldest counts as Oldest).
func releasesIn(r Range) []Version {
	var out []Version
	for _, v := range Releases {
		if r.Contains(v) {
			out = append(out, v)
		}
	}
	if len(out) == 0 && !r.Lo.IsZero() {
		out = append(out, r.Lo) // a release the table does not list: check it as given
	}
	return out
}

// SupportedIn reports whether every release in r accepts flag ("--name" or
// "--name=value"), so that advice naming it runs whichever release of the
// range wrote the files. The zero Range is the unknown version (see
// Supported). why names the releases that reject it.
func SupportedIn(flag string, r Range) (ok bool, why string) {
	if r.IsZero() {
		return Supported(flag, Version{})
	}
	var bad []Version
	first := ""
	for _, v := range releasesIn(r) {
		if ok, w := Supported(flag, v); !ok {
			bad = append(bad, v)
			if first == "" {
				first = w
			}
		}
	}
	if len(bad) == 0 {
		return true, ""
	}
	return false, fmt.Sprintf("%s is not accepted by TensorRT %s (of %s): %s", flag, releaseRanges(bad), r, first)
}
