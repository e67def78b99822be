package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Version is set at build time with -ldflags "-X github.com/trtperf/trtperf/internal/cli.Version=v1.2.3".
var Version = "dev"

// ToolVersion is the version written into analyze-data.json and printed
// by `trtperf version`: the -X stamped Version, else what the build info
// says (see buildVersion), else "dev".
func ToolVersion() string {
	if Version != "dev" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := buildVersion(bi); v != "" {
			return v
		}
	}
	return Version
}

// buildVersion is the module version the go command stamped (a tag, or a
// pseudo-version such as v0.0.0-20261130124857-8e9ddd53dc39, +dirty when
// the tree had changes), else the VCS revision (12 hex digits, -dirty when
// modified) for builds that stamp VCS data but no module version; "" when
// the build info has neither (go run, or -buildvcs=false).
func buildVersion(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "-dirty"
	}
	return "devel-" + rev
}

func init() {
	register("version", func(*deps) *cobra.Command {
		return &cobra.Command{
			Use:   "version",
			Short: "Print trtperf's version",
			Args:  argCount(0, 0),
			RunE: func(c *cobra.Command, _ []string) error {
				fmt.Fprintf(c.OutOrStdout(), "trtperf %s %s/%s %s\n", ToolVersion(), runtime.GOOS, runtime.GOARCH, runtime.Version())
				return nil
			},
		}
	})
}
