// Command trtperf turns TensorRT layer-info and profile dumps into a
// validated analysis (analyze-data.json), a terminal summary, and a
// browser report.
package main

import (
	"os"

	"github.com/trtperf/trtperf/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
