// Package findings turns one analysed backend (contract.Backend with its
// layers, records, graph and timing) into ranked findings and positives, and
// infers a model category from op patterns. It reads only the contract types:
// every number a finding states can be recomputed from analyze-data.json.
//
// The package has two halves.
//
// The rule catalogue says what is diagnosed: rules.go holds the one table of
// rules (id, title, meaning, price, refutation, evaluator, next check),
// thresholds.go the one table of their numbers, and each family of rules
// lives in its own file (tensorcore.go, qdq.go, precision.go, transformer.go,
// epilogue.go, norm.go, gemv.go, reformat.go, prologue.go, partition.go,
// launch.go, dynamic.go, int8gemm.go, sibling.go, profileonly.go,
// profilecauses.go), with
// positives.go and overview.go for what is good and where the time goes.
//
// The data model is what every rule reads: an evaluation (evaluation.go) is
// one backend being diagnosed — the backend, the indexes built once over it
// (timed records, data-flow neighbours, the target precision, the reference
// time prices are stated on) and which layers findings already own. Each
// record is classified once (class.go) into a compact table gathered in
// record order, because engines have 10^5 records and rules walk them some
// 20 times; rules test its bits and touch records, names and layers only for
// the few they keep. price.go turns owned time into recoverable time,
// advice.go and device.go shape the commands a finding prints, kin.go and
// model.go hold the sibling and cost-model evidence, acscan.go matches op
// names in bulk, category.go infers the model category.
package findings
