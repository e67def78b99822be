//go:build !unix

package analysis

func cpuSeconds() (float64, bool) { return 0, false }
