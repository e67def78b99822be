//go:build !unix

package cli

type rusage struct {
	ok     bool
	cpu    float64
	faults int64
}

func usage() rusage { return rusage{} }
