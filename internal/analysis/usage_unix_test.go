//go:build unix

package analysis

import (
	"syscall"
	"time"
)

// cpuSeconds is the process's user + system CPU time so far; ok is false
// where it cannot be read. On a shared machine CPU time is steadier than
// wall time, and it counts every goroutine and the garbage collector.
func cpuSeconds() (float64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return (time.Duration(ru.Utime.Nano()) + time.Duration(ru.Stime.Nano())).Seconds(), true
}
