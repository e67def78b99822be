// Package layerfacts derives the facts trtperf reports about one fused
// TensorRT layer: derived type, compute precision, tensor data types, tactic
// family, source ops, Myelin graph, fused-op count and tags. Every function is
// a pure function of an engine.Layer; nothing here reads files or timings.
//
// Derive runs once per layer on engines of 10^5 layers, so the hot path uses
// no regular expressions and no per-call maps: strings are scanned in place
// and tag sets are bitmasks turned into shared, sorted slices.
package layerfacts
