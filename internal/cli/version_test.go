package cli

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"tagged module", "v1.2.3", nil, "v1.2.3"},
		{"pseudo-version, dirty", "v0.0.0-20261130124857-8e9ddd53dc39+dirty", vcs("8e9ddd53dc3968c654f7fbc85abbd919eeaba712", "true"), "v0.0.0-20261130124857-8e9ddd53dc39+dirty"},
		{"devel with vcs", "(devel)", vcs("8e9ddd53dc3968c654f7fbc85abbd919eeaba712", "false"), "devel-8e9ddd53dc39"},
		{"devel with vcs, dirty", "(devel)", vcs("8e9ddd53dc3968c654f7fbc85abbd919eeaba712", "true"), "devel-8e9ddd53dc39-dirty"},
		{"no information", "(devel)", nil, ""},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/trtperf/trtperf", Version: tc.version}, Settings: tc.settings}
		if got := buildVersion(bi); got != tc.want {
			t.Errorf("%s: buildVersion = %q, want %q", tc.name, got, tc.want)
		}
	}
}
