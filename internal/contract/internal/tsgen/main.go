package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/trtperf/trtperf/internal/contract"
)

func main() {
	out := flag.String("o", "", "file to write (default: standard output)")
	flag.Parse()
	src, err := Generate(contract.SchemaJSON)
	if err == nil {
		if *out == "" {
			_, err = os.Stdout.Write(src)
		} else {
			err = os.WriteFile(*out, src, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
}
