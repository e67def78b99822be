// Package dump reads TensorRT dump files of every era into the engine model:
// layer-info files (trtexec --exportLayerInfo, IEngineInspector JSON and the
// re-dumps of front ends) and per-layer profiles (trtexec --exportProfile and
// latency-sample dictionaries written by IProfiler scripts).
//
// The JSON is read by a hand-written, validating byte scanner rather than a
// generic decoder: layer-info dumps of LLM engines reach hundreds of MB and
// this is the hot path of the tool. Large layer lists are decoded by two
// goroutines (see parallel.go); strings are copied into per-worker arenas and
// the few strings that repeat thousands of times (types, formats, tactics,
// keys) are interned.
//
// Every failure is a *FormatError with a stable Code and a message that says
// how to fix the input.
package dump
