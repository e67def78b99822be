// Package skill embeds the agent skill folder trt-perf-analysis/ so that
// `trtperf skill install` writes exactly what the repository holds: this
// folder is the single source (go:embed cannot reach parent folders, hence
// the package lives beside it).
package skill

import (
	"embed"
	"io/fs"
)

// Name is the skill's name, its folder and its SKILL.md front matter name.
const Name = "trt-perf-analysis"

//go:embed trt-perf-analysis
var files embed.FS

// Files returns the skill folder's files (SKILL.md, scripts/, examples/),
// rooted at the skill folder.
func Files() fs.FS {
	sub, err := fs.Sub(files, Name)
	if err != nil {
		panic(err) // the embed pattern above guarantees the folder
	}
	return sub
}
