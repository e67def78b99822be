//go:build unix

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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
	// Bounded before reading: the kind, the size and the head of a file
	// are checked before its bulk is read or mapped.
	sparse := func(e *env, name string, size int64) {
		f, err := os.Create(filepath.Join(e.in, name))
		if err != nil {
			e.t.Fatal(err)
		}
		f.Truncate(size)
		f.Close()
	}
	for _, c := range []struct {
		name, file string
		size       int64
		msg        string
	}{
		// 4.6 s and 2.1 GB when it was mapped and scanned whole.
		{"2 GB sparse layer file", "layers_x.json", 2 << 30, "not a JSON dump nor per-layer inspector output"},
		{"300 MB sparse log", "log_x.txt", 300 << 20, ""},
		{"65 MB sparse metadata", "meta_x_device.json", 65 << 20, ""},
		{"513 MB sparse times", "times_x.json", 513 << 20, ""},
		{"17 MB sparse config.json", "config.json", 17 << 20, `"status":"passed"`},
	} {
		add(hostile{name: "bounds/" + c.name, code: 0, msg: c.msg, setup: func(e *env) []string {
			if c.file != "layers_x.json" {
				e.write("layers_x.json", okLayers)
			}
			e.write("profile_x.json", okProfile)
			sparse(e, c.file, c.size)
			return []string{"analyze", e.in, "--output", e.prev}
		}})
	}
	add(hostile{name: "bounds/analyze-data.json over 3 GiB, validate", code: 2, msg: "over the size limit", setup: func(e *env) []string {
		sparse(e, "analyze-data.json", 3<<30+1)
		return []string{"validate", filepath.Join(e.in, "analyze-data.json")}
	}})
	add(hostile{name: "bounds/analyze-data.json over 3 GiB, package", code: 2, msg: "over the size limit", setup: func(e *env) []string {
		sparse(e, "analyze-data.json", 3<<30+1)
		return []string{"package", "--analyze-data", filepath.Join(e.in, "analyze-data.json"), "--report-dir", filepath.Join(e.out, "r")}
	}})
	// A kernel pseudo-file looks regular: /proc/kmsg blocks and drains the
	// kernel log when read. It is refused by its file system, unopened
	// (/proc/self/status stands in for it: harmless if a regression opens
	// it).
	if runtime.GOOS == "linux" {
		for _, name := range []string{"profile_x.json", "run.json", "log_x.txt"} {
			add(hostile{name: "special/proc file named " + name, code: 0, msg: "kernel pseudo-file (/proc)", setup: func(e *env) []string {
				e.pair(okLayers, okProfile)
				os.Remove(filepath.Join(e.in, name))
				os.Symlink("/proc/self/status", filepath.Join(e.in, name))
				return []string{"analyze", e.in, "--output", e.prev}
			}})
		}
		add(hostile{name: "special/proc file as analyze-data.json, validate", code: 2, msg: "kernel pseudo-file (/proc)", setup: func(e *env) []string {
			return []string{"validate", "/proc/self/status"}
		}})
	}

	// Counts bounded as well as bytes: layers per dump (a names-only dump
	// of 13M short names ran out of memory), backends per folder (10,000
	// took 4.9 GB), layers gen makes (2e9 ran out of memory).
	add(analyzeCase("names-only dump of 13M short names", `{"Layers":[`+strings.Repeat(`"a",`, 13_000_000)+`"a"]}`, okProfile, 0, "layer_info_too_many_layers"))
	add(hostile{name: "bounds/1001 backends in a folder", code: 2, msg: "over the limit of 1000", setup: func(e *env) []string {
		for i := range 1001 {
			e.write(fmt.Sprintf("layers_b%d.json", i), okLayers)
		}
		return []string{"analyze", e.in, "--output", e.prev}
	}})
	for _, n := range []string{"2000000000", "2097153"} {
		add(hostile{name: "bounds/gen --layers " + n, code: 2, msg: "at most 2097152 layers", setup: func(e *env) []string {
			return []string{"gen", "--shape", "llm", "--layers", n, "--out", filepath.Join(e.out, "g")}
		}})
	}

	// UTF-16 inputs (PowerShell's > writes them) say what they are and
	// how to re-save them.
	utf16 := func(s string, bom bool) string {
		var b []byte
		if bom {
			b = append(b, 0xff, 0xfe)
		}
		for _, r := range s {
			b = append(b, byte(r), 0)
		}
		return string(b)
	}
	add(
		analyzeCase("UTF-16 layer info with BOM", utf16(okLayers, true), okProfile, 0, "re-save it as UTF-8"),
		analyzeCase("UTF-16 layer info without BOM", utf16(okLayers, false), okProfile, 0, "re-save it as UTF-8"),
		analyzeCase("UTF-16 profile", okLayers, utf16(okProfile, true), 0, "re-save it as UTF-8"),
		hostile{name: "names/UTF-16 file of an unknown name", code: 0, msg: "re-save it as UTF-8", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			e.write("run.json", utf16(okProfile, true))
			return []string{"summary", e.in}
		}},
		hostile{name: "analysis/UTF-16 analyze-data.json, validate", code: 1, msg: "re-save it as UTF-8", setup: func(e *env) []string {
			_, b := e.analyzeData()
			return []string{"validate", e.write("analyze-data.json", utf16(string(b), true))}
		}},
	)
	return cs
}
