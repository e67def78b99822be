package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/ruledoc"
)

func init() { register("explain", newExplainCmd) }

func newExplainCmd(*deps) *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "explain [FINDING_ID]",
		Short: "Explain a finding: what it means, how it is priced, what would refute it",
		Long: `explain prints what a finding (issues[].id in analyze-data.json) means, how
its price (the time it puts at stake, issues[].share) is estimated, and what
evidence would show it wrong. Without an id it lists every rule and how
findings are priced and ranked. --format markdown prints the section that
SKILL.md carries.`,
		Example: `  trtperf explain
  trtperf explain qdq_placement`,
		Args: argCount(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			docs := ruledoc.Docs()
			w := c.OutOrStdout()
			switch format {
			case "text":
			case "markdown":
				if len(args) > 0 {
					return cannotRun("--format markdown prints every rule; drop the id %s", args[0])
				}
				fmt.Fprint(w, ruledoc.Markdown(docs))
				return nil
			default:
				return cannotRun("--format %q: use text or markdown", format)
			}
			if len(args) == 0 {
				ruledoc.WriteList(w, docs)
				return nil
			}
			d, ok := ruledoc.Lookup(docs, args[0])
			if !ok {
				ids := make([]string, len(docs))
				for i, d := range docs {
					ids[i] = d.ID
				}
				return cannotRun("no finding has the id %q; the ids are %s (issues[].id in analyze-data.json)", args[0], strings.Join(ids, ", "))
			}
			ruledoc.WriteText(w, d)
			return nil
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or markdown")
	return c
}
