// Package summary renders analyze-data.json as a terminal view in the spirit
// of `pprof -top`: backend status lines, totals, the top layers with share
// and cumulative share, breakdown tables and the ranked findings, as text,
// markdown, CSV or JSON. It only reads the contract; it computes nothing the
// analysis did not already state except sorting, cumulative sums and
// shortening names.
package summary
