//go:build unix

package cli

import (
	"syscall"
	"time"
)

type rusage struct {
	ok     bool
	cpu    float64 // user + system seconds
	faults int64   // minor page faults
}

func usage() rusage {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return rusage{}
	}
	cpu := time.Duration(ru.Utime.Nano()) + time.Duration(ru.Stime.Nano())
	return rusage{ok: true, cpu: cpu.Seconds(), faults: int64(ru.Minflt)}
}
