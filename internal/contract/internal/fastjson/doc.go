// Package fastjson is the byte-level JSON machinery behind package
// contract: an appending writer and parallel chunked array encoding, a
// reader for syntactically valid JSON with a parallel array decoder, the
// boundary scanners both use, and a schema checker that validates the
// elements of big arrays without building a generic value tree.
//
// It knows nothing of analyze-data.json's types: package contract holds
// the model (types, schema, semantic checks) and the code, generated from
// its types, that says which member is written and read how
// (encode_gen.go, decode_gen.go); every fast
// path here is tested there against a plain reference (encoding/json/v2
// for the codec, the generic validator for the schema checker).
package fastjson
