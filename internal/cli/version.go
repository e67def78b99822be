package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Version is set at build time with -ldflags "-X github.com/trtperf/trtperf/internal/cli.Version=v1.2.3".
var Version = "dev"

// ToolVersion is the version written into analyze-data.json.
func ToolVersion() string {
	if Version != "dev" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return Version
}

func init() {
	register("version", func() *cobra.Command {
		return &cobra.Command{
			Use:   "version",
			Short: "Print trtperf's version",
			Args:  cobra.NoArgs,
			RunE: func(c *cobra.Command, _ []string) error {
				fmt.Fprintf(c.OutOrStdout(), "trtperf %s %s/%s %s\n", ToolVersion(), runtime.GOOS, runtime.GOARCH, runtime.Version())
				return nil
			},
		}
	})
}
