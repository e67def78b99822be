package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profiling adds hidden --cpuprofile / --memprofile flags to every command,
// so the cost of a real run can be read with `go tool pprof` (see
// BENCHMARKS.md).
type profiling struct {
	cpu, mem string
	cpuFile  *os.File
}

func (p *profiling) add(root *cobra.Command) {
	f := root.PersistentFlags()
	f.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile to this file")
	f.StringVar(&p.mem, "memprofile", "", "write a heap profile to this file at exit")
	_ = f.MarkHidden("cpuprofile")
	_ = f.MarkHidden("memprofile")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if p.cpu == "" {
			return nil
		}
		fh, err := os.Create(p.cpu)
		if err != nil {
			return cannotRun("cannot write --cpuprofile %s: %v", p.cpu, err)
		}
		p.cpuFile = fh
		return pprof.StartCPUProfile(fh)
	}
}

// stop ends profiling; Main calls it whatever the command's outcome.
func (p *profiling) stop() error {
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		p.cpuFile.Close()
	}
	if p.mem != "" {
		fh, err := os.Create(p.mem)
		if err != nil {
			return fmt.Errorf("write --memprofile %s: %w", p.mem, err)
		}
		defer fh.Close()
		runtime.GC()
		return pprof.WriteHeapProfile(fh)
	}
	return nil
}
