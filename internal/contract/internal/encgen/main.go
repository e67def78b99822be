package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	in := flag.String("types", "types.go", "the contract's type declarations")
	encOut := flag.String("enc", "encode_gen.go", "encoder file to write")
	decOut := flag.String("dec", "decode_gen.go", "decoder file to write")
	flag.Parse()
	err := run(*in, *encOut, *decOut)
	if err != nil {
		fmt.Fprintln(os.Stderr, "encgen:", err)
		os.Exit(1)
	}
}

func run(in, encOut, decOut string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	enc, dec, err := Generate(src)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if err := os.WriteFile(encOut, enc, 0o644); err != nil {
		return err
	}
	return os.WriteFile(decOut, dec, 0o644)
}
