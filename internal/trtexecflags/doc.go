// Package trtexecflags knows which command-line options each TensorRT
// release's trtexec accepts, so that every command trtperf prints as
// advice runs on the backend's TensorRT version.
//
// It holds one table of options (table.go) read from trtexec's option
// parser in NVIDIA/TensorRT at every release tag from 7.0 to 11.1 — see
// the provenance comment there — with the release each option appeared
// in, was deprecated in and was removed in, how its value is read, and
// the accepted words of enumerated values.
//
// CheckCommand checks a whole shell command line; Supported checks one
// option; ParseLayerSpec, FormatLayerSpec and AddressableLayerName
// handle trtexec's per-layer option syntax; ShellQuote/QuoteCommand
// write commands that reach trtexec unchanged.
//
// Facts about trtexec's command line this package relies on (all from
// sampleOptions.cpp/trtexec.cpp of every tag read):
//   - each argv entry is split at its first '=': values are only ever
//     given as --flag=value; "--flag value" leaves --flag empty and makes
//     "value" an unknown option, which is fatal;
//   - any option left unparsed is fatal ("Unknown option");
//   - a switch ignores its value: --fp16=false turns FP16 on;
//   - an option given twice is read once; the other copy is left
//     unparsed and therefore fatal (except the plugin options and
//     --profile, which are read in a loop).
package trtexecflags
