//go:build unix

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// inputHostileCases are the input-side attacks of issue 24 (bounds,
// sizes, encodings) in the hostile catalogue; TestHostileInputCatalogue
// runs them with the others.
func inputHostileCases() []hostile {
	var cs []hostile
	add := func(h ...hostile) { cs = append(cs, h...) }

	// 16k profile documents appended to one file: split in linear time
	// (39 s and 890 MB before; BenchmarkConcatenatedProfiles).
	add(analyzeCase("16k concatenated profile documents", okLayers, strings.Repeat(okProfile+"\n", 16384), 0, "profile_json_concatenated"))
	// A GFM table padded to n × n cells from 6n bytes (12 KB: 8.8 s,
	// 1.25 GB and a 124 MB analysis.js before; 36 KB: out of memory):
	// shown as plain text, analysis.js bounded by the input.
	for _, n := range []int{2000, 6000} {
		md := strings.Repeat("|a", n) + "|\n" + strings.Repeat("|-", n) + "|\n" + strings.Repeat("a\n", n)
		add(hostile{name: fmt.Sprintf("markdown/padded table %dx%d, package", n, n), code: 0, msg: "analyze_md:", setup: func(e *env) []string {
			p, _ := e.analyzeData()
			return []string{"package", "--analyze-data", p, "--report-dir", filepath.Join(e.out, "r"), "--analyze-md", e.write("analyze.md", md)}
		}, check: func(e *env, _, _ string) {
			st, err := os.Stat(filepath.Join(e.out, "r", "analysis.js"))
			if err != nil {
				e.t.Fatal(err)
			}
			if limit := int64(16*len(md) + 1<<20); st.Size() > limit {
				e.t.Errorf("analysis.js is %d bytes from %d bytes of Markdown", st.Size(), len(md))
			}
		}})
		add(hostile{name: fmt.Sprintf("markdown/padded table %dx%d, validate", n, n), code: 0, msg: "", setup: func(e *env) []string {
			p, _ := e.analyzeData()
			return []string{"validate", p, "--analyze-md", e.write("analyze.md", "## Summary\n\n"+md+"\n## Details\n\nThe table above is padding.\n")}
		}})
	}
	return cs
}
