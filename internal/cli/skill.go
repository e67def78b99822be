package cli

import (
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/skill"
)

func init() { register("skill", newSkillCmd) }

func newSkillCmd(d *deps) *cobra.Command {
	c := &cobra.Command{
		Use:   "skill",
		Short: "Install the AI-agent skill (SKILL.md, wrappers, binaries)",
		Args:  argCount(0, 0),
		RunE: func(c *cobra.Command, _ []string) error {
			return cannotRun("give a subcommand: trtperf skill install DIR")
		},
	}
	c.AddCommand(newSkillInstallCmd(d))
	return c
}

func newSkillInstallCmd(d *deps) *cobra.Command {
	var force, cross, noCross bool
	var source string
	c := &cobra.Command{
		Use:   "install DIR",
		Short: "Write a ready trt-perf-analysis skill folder to DIR",
		Long: `install writes the trt-perf-analysis agent skill to DIR: SKILL.md (the
workflow an AI assistant follows), scripts/run.sh and scripts/run.cmd (they
find and run trtperf on any machine), examples/, and trtperf binaries in
bin/<os>-<arch>/ for the wrappers to use:

  - this trtperf executable, for its own platform;
  - linux, darwin and windows x amd64, arm64 cross-compiled with the Go
    toolchain, when Go is on PATH and the trtperf source is found (the
    current folder is inside a checkout, or --source DIR). --cross makes
    them required, --no-cross skips them.

It prints which platforms were written and why others were not. DIR must be
new or empty; --force replaces a skill that trtperf installed there before
(its .trtperf-skill marker lists what it wrote) and refuses when the folder
holds anything else, such as another skill or a file you added. The skill is written beside DIR and
renamed into place, so a failure leaves nothing behind.

Point your assistant's skills folder at DIR (e.g. ~/.claude/skills/trt-perf-analysis).`,
		Example: `  trtperf skill install ~/.claude/skills/trt-perf-analysis
  trtperf skill install dist/trt-perf-analysis --no-cross --force`,
		Args: argCount(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			if cross && noCross {
				return cannotRun("give either --cross or --no-cross, not both")
			}
			exe, err := d.executable()
			if err != nil {
				return cannotRun("cannot find the trtperf executable to copy (%v); run trtperf from a file on disk", err)
			}
			o := skill.Options{
				Force:              force,
				Executable:         exe,
				ExecutablePlatform: skill.Platform{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH},
				Source:             source,
				Log:                c.ErrOrStderr(),
			}
			if v := ToolVersion(); v != "dev" {
				o.Version = v
			}
			switch {
			case cross:
				o.Cross = skill.CrossOn
			case noCross:
				o.Cross = skill.CrossOff
			}
			res, err := skill.Install(args[0], o)
			if err != nil {
				if errors.Is(err, skill.ErrCrossUnavailable) {
					return cannotRun("%v; drop --cross to install only this platform's binary", withAdvice(err, skillSkipAdvice...))
				}
				return &ExitError{Code: ExitCannotRun, Err: withAdvice(err, skillAdvice)}
			}
			w := c.OutOrStdout()
			fmt.Fprintf(w, "skill_dir: %s\n", res.Dir)
			for _, p := range res.Platforms {
				if p.Written {
					fmt.Fprintf(w, "  %-14s written (%s)\n", p.Platform, p.How)
				} else {
					fmt.Fprintf(w, "  %-14s not written: %v\n", p.Platform, withAdvice(p.Err, skillSkipAdvice...))
				}
			}
			if res.Backup != "" {
				fmt.Fprintf(w, "backup_dir: %s\n", res.Backup)
				var what []string
				if len(res.Edited) > 0 {
					what = append(what, "edited since trtperf installed them: "+strings.Join(res.Edited, ", "))
				}
				if len(res.Added) > 0 {
					what = append(what, "added while the new skill was written: "+strings.Join(res.Added, ", "))
				}
				fmt.Fprintf(c.ErrOrStderr(), "skill: the replaced skill held files %s; it is kept in %s (copy your changes into the new skill, then delete it)\n", strings.Join(what, "; "), res.Backup)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.BoolVar(&force, "force", false, "replace a skill trtperf installed in DIR before (never other files)")
	fl.BoolVar(&cross, "cross", false, "require binaries for every platform (needs Go and the trtperf source)")
	fl.BoolVar(&noCross, "no-cross", false, "ship only this executable, do not cross-compile")
	fl.StringVar(&source, "source", "", "trtperf source checkout to cross-compile (default: the checkout holding the current folder)")
	return c
}
