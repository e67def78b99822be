// Package findings turns one analysed backend (contract.Backend with its
// layers, records, graph and timing) into ranked findings and positives, and
// infers a model category from op patterns. It reads only the contract types:
// every number a finding states can be recomputed from analyze-data.json.
//
// Rules are data: rules.go holds the one table of rules (id, title,
// evaluator, next check); each family of rules lives in its own file.
package findings
