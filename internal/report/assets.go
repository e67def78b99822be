package report

import (
	"embed"
	"io/fs"
)

// embedded holds the built web app; web/build.mjs writes it, and
// TestAssetsUpToDate checks it was rebuilt after the last source change.
//
//go:embed all:assets
var embedded embed.FS

// Names inside the asset file system.
const (
	assetTemplate = "index.html.tmpl"
	assetLicenses = "licenses"
	// assetSourceHash records the hash of web/ sources the bundle was built
	// from; it is not copied into reports.
	assetSourceHash = "SOURCES.sha256"
)

// shippedAssets are the built files copied into every report's assets/.
var shippedAssets = []string{"app.js", "app.css"}

// DefaultAssets returns the embedded web app.
func DefaultAssets() fs.FS {
	sub, err := fs.Sub(embedded, "assets")
	if err != nil {
		panic(err) // "assets" is a literal valid path; cannot fail
	}
	return sub
}
