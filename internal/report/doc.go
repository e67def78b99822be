// Package report packages an analysis into a self-contained browser report
// and serves report folders.
//
// A report folder holds index.html (rendered with html/template), the
// embedded web app under assets/ (built from ../../web and committed), the
// complete analysis as analyze-data.json, the optional AI analysis
// (analyze.md, its sanitised HTML in analysis.js) and licenses/. The app's
// data is split so the first screen never waits for 10^5 layers (see
// view.go): data.js (everything but per-layer arrays), layers-<b>.js and
// sources-<b>.js (compact columns per backend) and details/<b>-<c>.js (full
// layer records in chunks, loaded when a layer is opened). All of them are
// plain scripts, so the page works from file:// as well as over HTTP.
//
// Publishing is all-or-nothing: the contract is validated, the folder is
// built in a staging folder beside the target and only then renamed into
// place; on any failure the file system is left as it was. NewServer serves
// one report folder and nothing else.
package report
