// Package findings turns one analysed backend (contract.Backend with its
// layers, records, graph and timing) into ranked findings and positives, and
// infers a model category from op patterns. It reads only the contract types:
// every number a finding states can be recomputed from analyze-data.json.
//
// Rules are data: rules.go holds the one table of rules (id, title,
// evaluator, next check); each family of rules lives in its own file.
//
// Engines have 10^5 records and rules walk them some 20 times, so each
// record is classified once (class.go) into a compact table gathered in
// record order; rules test its bits and touch records, names and layers
// only for the few they keep, reading layers in layer order.
package findings
