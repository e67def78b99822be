package cli

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/analysis"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/fsutil"
	"github.com/trtperf/trtperf/internal/gpu"
	"github.com/trtperf/trtperf/internal/load"
)

func init() { register("analyze", newAnalyzeCmd) }

// modelNameFlag is recorded in analyze-data.json as the evidence of a
// model name the user gave.
const modelNameFlag = "--model-name"

// analyzeScope reads the files of sc (internal/load) and analyses them.
func analyzeScope(sc *discover.Scope, opt analysis.Options) (*contract.AnalyzeData, error) {
	return analysis.AnalyzeParsed(sc, load.Source(sc), opt)
}

// scopeFlags are the input flags shared by commands that read dumps.
type scopeFlags struct {
	data      dataPairs
	modelName string
	baseline  string
	gpu       string
	run       int
}

// gpuFlag is recorded in analyze-data.json as the source of the device
// facts of a GPU the user named.
const gpuFlag = "--gpu"

// gpuHint is how summary tells a user to name the GPU the cost model
// otherwise assumes.
const gpuHint = "give the GPU the engines ran on with --gpu NAME (e.g. --gpu 'RTX 3060 Laptop'; an unknown name lists the known ones)"

// options are the analysis options the flags set.
func (s *scopeFlags) options() analysis.Options {
	return analysis.Options{ModelName: s.modelName, ModelNameFrom: modelNameFlag, ToolVersion: ToolVersion(), Baseline: s.baseline, GPU: s.gpu, GPUFrom: gpuFlag, Run: s.run}
}

func (s *scopeFlags) add(c *cobra.Command) {
	c.Flags().Var(&s.data, "data", "a backend from explicit files: --data LAYERS [PROFILE] (repeatable; any file names)")
	c.Flags().Var(profileOfLast{&s.data}, "data-profile", "")
	_ = c.Flags().MarkHidden("data-profile")
	c.Flags().StringVar(&s.modelName, "model-name", "", "model name to record (wins over names inferred from configs, folder and file names)")
	c.Flags().StringVar(&s.baseline, "baseline", "", "label every backend is compared against in the comparison section (default: the fastest)")
	c.Flags().IntVar(&s.run, "run", 0, "for a profile file of several runs appended to one file (e.g. a batch sweep), the run to analyse layer by layer, 1-based (default: the run matching the layer info, else the first)")
	c.Flags().StringVar(&s.gpu, "gpu", "", "GPU the engines ran on, for backends whose files name none: the cost model predicts and prices for it instead of a default (a name of trtperf's GPU table, e.g. 'RTX 3060 Laptop', 'A10G', 'Orin Nano')")
}

// scope resolves the command's inputs: one folder, or --data pairs.
func (s *scopeFlags) scope(args []string) (*discover.Scope, error) {
	if s.run < 0 {
		return nil, cannotRun("--run %d: runs are numbered from 1 (the runs table of summary lists them)", s.run)
	}
	if s.gpu != "" {
		if _, err := gpu.Named(s.gpu); err != nil {
			return nil, cannotRun("--gpu: %v", err)
		}
	}
	switch {
	case len(args) > 0 && len(s.data.pairs) > 0:
		return nil, cannotRun("give either a FOLDER or --data pairs, not both (got folder %s and %d --data)", args[0], len(s.data.pairs))
	case len(args) > 1:
		return nil, cannotRun("one FOLDER at a time (got %d: %s); analyze each folder separately or use --data for explicit files", len(args), strings.Join(args, " "))
	case len(args) == 1:
		sc, err := discover.Folder(args[0])
		if err != nil {
			return nil, &ExitError{Code: ExitCannotRun, Err: withAdvice(componentsAdvice(err), folderAdvice)}
		}
		return sc, nil
	case len(s.data.pairs) > 0:
		sc, err := discover.Pairs(s.data.pairs)
		if err != nil {
			return nil, cannotRun("--data: %w", withAdvice(err, dataAdvice))
		}
		return sc, nil
	default:
		return nil, cannotRun("no input: give a FOLDER holding layers_<label>.json / profile_<label>.json, or --data LAYERS [PROFILE]")
	}
}

func newAnalyzeCmd(*deps) *cobra.Command {
	var sf scopeFlags
	var output string
	c := &cobra.Command{
		Use:   "analyze FOLDER | --data LAYERS [PROFILE] ...",
		Short: "Validate dumps and write analyze-data.json",
		Long: `analyze reads TensorRT dumps, runs the integrity gate on every backend and
writes analyze-data.json, the contract that validate, summary, package and AI
diagnosis read.

FOLDER holds layers_<label>.json and/or profile_<label>.json (latency_<label>.json
per-layer sample dicts also count as a profile); each label is one backend.
Other file names are recognised by content and paired by common stem. With
--data, give each backend's files explicitly.

analyze exits 0 whenever it wrote the JSON, even when every backend failed
validation: the JSON says why (results[].validation.messages). It exits 2 when
it could not run (missing folder, unreadable input, unwritable --output).`,
		Example: `  trtperf analyze dumps/ --output analyze-data.json
  trtperf analyze --data engine.graph.json engine.profile.json --model-name resnet50
  trtperf analyze --data a/layers.json a/profile.json --data b/layers.json b/profile.json`,
		RunE: func(c *cobra.Command, args []string) error {
			sc, err := sf.scope(args)
			if err != nil {
				return err
			}
			// --output is opened before the work so a bad path fails fast.
			// A regular file is written beside and renamed into place (a
			// failed run never leaves a partial file or destroys an earlier
			// output); a FIFO or device is written to, never replaced.
			// stdout gets the contract's bytes as they are (JSON escapes
			// control characters itself).
			w := rawWriter(c.OutOrStdout())
			var out *fsutil.Output
			fd, isFD := fsutil.DescriptorPath(output)
			switch {
			case output == "" || output == "-":
			case isFD && fd == 1:
				// /dev/stdout: the command's stdout as it is (a shell's
				// ">> log" appends), never reopened or truncated.
			case isFD && fd == 2:
				w = rawWriter(c.ErrOrStderr())
			default:
				// Never replace what the user keeps: an input of this run,
				// or a file the next run's discovery would read as a dump.
				if why := sc.Reads(output); why != "" {
					return cannotRun("--output %s: %s, and analyze never overwrites or adds to its inputs; write the analysis elsewhere, e.g. --output analyze-data.json", output, why)
				}
				out, err = fsutil.CreateOutput(output)
				if err != nil {
					if errors.Is(err, fsutil.ErrNotWritable) {
						return cannotRun("cannot write --output: %v", err)
					}
					return cannotRun("cannot write --output %s: %v; choose a writable path", output, unwrapPath(err))
				}
				defer out.Abort() // no-op once committed
				w = out
			}
			prepareForScopes(sc)
			d, err := analyzeScope(sc, sf.options())
			if err == nil {
				bw := bufio.NewWriterSize(w, 1<<20)
				if err = contract.Encode(bw, d); err == nil {
					err = bw.Flush()
				}
			}
			if out != nil && err == nil {
				err = out.Commit()
			}
			if err != nil {
				return cannotRun("analyze: %w", withAdvice(err, baselineAdvice, gpuAdvice))
			}
			if out != nil || isFD {
				fmt.Fprintln(c.ErrOrStderr(), verdictLine(output, d))
			}
			printAdvice(c.ErrOrStderr(), d)
			return nil
		},
	}
	sf.add(c)
	c.Flags().StringVarP(&output, "output", "o", "", "write analyze-data.json here (default: stdout)")
	return c
}

// verdictLine tells a person at a terminal what the JSON says, in one line.
func verdictLine(path string, d *contract.AnalyzeData) string {
	v := d.Validation
	s := fmt.Sprintf("wrote %s: %d backend(s), %d passed, %d failed (%s)", path, v.BackendCount, v.PassedCount, v.FailedCount, v.Status)
	for _, r := range d.Results {
		if r.Validation.Status != contract.StatusPassed {
			for _, m := range r.Validation.Messages {
				if m.Level == contract.LevelError {
					s += fmt.Sprintf("; %s: %s", r.Label, m.Code)
					break
				}
			}
		}
	}
	return s
}
