package findings

// CheckFindings lets the corpus tests (package findings_test, which must
// import the analysis, itself importing findings) reuse the recomputation.
var CheckFindings = checkFindings
