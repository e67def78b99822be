// Package layerfacts derives the facts trtperf reports about one fused
// TensorRT layer: derived type, compute precision, tensor data types, tactic
// family, source ops, Myelin graph, fused-op count and tags. Every function is
// a pure function of an engine.Layer; nothing here reads files or timings.
//
// Derive runs once per layer on engines of 10^5 layers, so the hot path uses
// no regular expressions and no per-call maps: strings are scanned once in
// place (words looked up in fixed hash tables, tactic patterns found in one
// pass, source ops sharing a module path scanned once), tag sets are
// bitmasks, and what repeats across layers (tactics, layer types, tag and
// data-type lists) comes from bounded lock-free caches as shared slices.
package layerfacts
