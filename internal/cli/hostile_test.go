//go:build unix

package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode/utf16"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/fsutil"
	"github.com/trtperf/trtperf/internal/trtexecflags"
)

// The hostile-input catalogue: what an attacker or a careless user gives
// trtperf (broken, huge, special or malicious dumps, output paths, analyses,
// Markdown and folders). Every case states the exit code and the message
// code (or message words) it must produce, and each run must not panic,
// must leave the input folder exactly as it was, must keep an earlier
// output byte for byte when it fails, must print no raw control character,
// and, when analyze exits 0, must have written a file validate accepts.

const (
	previous = "PREVIOUS OUTPUT\n"
)

// env is one case's sandbox: in is the input folder (hashed before and
// after), out a folder for outputs holding prev, an earlier output.
type env struct {
	t            *testing.T
	in, out      string
	prev         string
	stdinFIFOOut chan string
}

func (e *env) write(name, content string) string {
	p := filepath.Join(e.in, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

func (e *env) pair(layers, profile string) {
	e.write("layers_x.json", layers)
	e.write("profile_x.json", profile)
}

type hostile struct {
	name  string
	setup func(e *env) []string // returns the arguments
	code  int
	msg   string // must appear in stdout, stderr or the written output
	check func(e *env, stdout, stderr string)
}

func analyzeCase(name, layers, profile string, code int, msg string) hostile {
	return hostile{name: "dump/" + name, code: code, msg: msg, setup: func(e *env) []string {
		e.pair(layers, profile)
		return []string{"analyze", e.in, "--output", e.prev}
	}}
}

func layerOf(extra string) string {
	return `{"Layers":[{"Name":"a","LayerType":"CaskConvolution","Inputs":[{"Name":"x","Dimensions":[1,3],"Format/Datatype":"Half"}],"Outputs":[{"Name":"y","Dimensions":[1,3],"Format/Datatype":"Half"}]` + extra + `},{"Name":"b","LayerType":"CaskConvolution","Inputs":[{"Name":"y","Dimensions":[1,3],"Format/Datatype":"Half"}],"Outputs":[{"Name":"z","Dimensions":[1,3],"Format/Datatype":"Half"}]}],"Bindings":["x","z"]}`
}

func profileOf(a, b string) string {
	return `[{"count":10},{"name":"a","timeMs":` + a + `,"averageMs":` + a + `,"percentage":50},{"name":"b","timeMs":` + b + `,"averageMs":` + b + `,"percentage":50}]`
}

// analyzeData writes an analyze-data.json of the good pair into out and
// returns its bytes.
func (e *env) analyzeData() (string, []byte) {
	dir := filepath.Join(e.out, "src")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "layers_x.json"), []byte(okLayers), 0o644)
	os.WriteFile(filepath.Join(dir, "profile_x.json"), []byte(okProfile), 0o644)
	p := filepath.Join(e.out, "good.json")
	if code, _, errs := run(e.t, "analyze", dir, "--output", p); code != 0 {
		e.t.Fatal(errs)
	}
	b, _ := os.ReadFile(p)
	return p, b
}

// tamperedData writes the good analysis with old replaced by new into in.
func (e *env) tamperedData(old, new string) string {
	_, b := e.analyzeData()
	if !bytes.Contains(b, []byte(old)) {
		e.t.Fatalf("tamper: %q not in the analysis", old)
	}
	return e.write("analyze-data.json", strings.Replace(string(b), old, new, 1))
}

func hostileCases() []hostile {
	var cs []hostile
	add := func(h ...hostile) { cs = append(cs, h...) }

	// Dumps that are broken, hostile or huge: analyze exits 0 and the
	// JSON says why (the backend fails or is warned about).
	deep := strings.Repeat("[", 200000)
	add(
		analyzeCase("good pair", okLayers, okProfile, 0, `"status":"passed"`),
		analyzeCase("empty layer info", "", okProfile, 0, "layer_info_empty"),
		analyzeCase("white space only", " \n\t ", okProfile, 0, "layer_info_empty"),
		analyzeCase("text, not JSON", "hello world", okProfile, 0, "layer_info_json_malformed"),
		analyzeCase("NUL bytes", "\x00\x00\x00\x00", okProfile, 0, "layer_info_json_malformed"),
		analyzeCase("UTF-16", "\xff\xfe{\x00}\x00", okProfile, 0, "layer_info_json_malformed"),
		analyzeCase("truncated", okLayers[:len(okLayers)/2], okProfile, 0, "layer_info_json_malformed"),
		analyzeCase("concatenated documents", okLayers+okLayers, okProfile, 0, "layer_info_json_concatenated"),
		analyzeCase("nesting 200k deep", deep, okProfile, 0, "layer_info_"),
		analyzeCase("nesting 200k deep objects", strings.Repeat(`{"a":`, 200000), okProfile, 0, "layer_info_"),
		analyzeCase("Layers not a list", `{"Layers":5}`, okProfile, 0, "layer_info_"),
		analyzeCase("no layers", `{"Layers":[],"Bindings":[]}`, okProfile, 0, "no_layers"),
		analyzeCase("names only", `{"Layers":["a","b"],"Bindings":[]}`, okProfile, 0, "names_only_layer_info"),
		analyzeCase("BOM", "\xef\xbb\xbf"+okLayers, okProfile, 0, `"status":"passed"`),
		analyzeCase("repeated parameter keys", layerOf(`,"P":{"k":1,"k":2},"P":3`), okProfile, 0, "layer_parameters_normalised"),
		analyzeCase("lone surrogate in a parameter", layerOf(`,"P":"\ud800"`), okProfile, 0, "layer_parameters_normalised"),
		analyzeCase("number beyond float64 in a parameter", layerOf(`,"P":[1e999]`), okProfile, 0, "layer_parameters_normalised"),
		analyzeCase("number beyond float64 in a tensor", strings.Replace(okLayers, `"Dimensions":[1,3]`, `"Dimensions":[1,3],"Odd":-1e999`, 1), okProfile, 0, "layer_parameters_normalised"),
		analyzeCase("dimension beyond int64", strings.Replace(okLayers, `[1,3]`, `[1,1e30]`, 1), okProfile, 0, ""),
		analyzeCase("lone surrogate in a name", strings.Replace(okLayers, `"Name":"a"`, `"Name":"a\ud800"`, 1), strings.Replace(okProfile, `"name":"a"`, `"name":"a\ud800"`, 1), 0, ""),
		analyzeCase("StreamId beyond int64", layerOf(`,"StreamId":1e999`), okProfile, 0, ""),
		analyzeCase("1 MB layer name", strings.Replace(okLayers, `"Name":"a"`, `"Name":"`+strings.Repeat("n", 1<<20)+`"`, 1), okProfile, 0, "name_mismatch"),
		analyzeCase("escape sequences in names", strings.Replace(okLayers, `"Name":"a"`, `"Name":"a\u001b]52;c;aGk=\u0007\u001b[2J"`, 1), strings.Replace(okProfile, `"name":"a"`, `"name":"a\u001b]52;c;aGk=\u0007\u001b[2J"`, 1), 0, `"status":"passed"`),
		analyzeCase("count 1e30", okLayers, strings.Replace(okProfile, `"count":10`, `"count":1e30`, 1), 0, "profile_missing_field"),
		analyzeCase("count negative", okLayers, strings.Replace(okProfile, `"count":10`, `"count":-1`, 1), 0, "profile_missing_field"),
		analyzeCase("count fractional", okLayers, strings.Replace(okProfile, `"count":10`, `"count":1.5`, 1), 0, "profile_missing_field"),
		analyzeCase("negative times", okLayers, profileOf("-1", "0.1"), 0, "profile_bad_times"),
		analyzeCase("times near float64 max", okLayers, profileOf("1.7e308", "1.7e308"), 0, "profile_bad_times"),
		analyzeCase("times beyond float64", okLayers, profileOf("1e999", "1"), 0, "profile_"),
		analyzeCase("NaN literal", okLayers, profileOf("NaN", "1"), 0, "profile_non_finite"),
		analyzeCase("all zero times", okLayers, profileOf("0", "0"), 0, "all_zero_times"),
		analyzeCase("profile names differ", okLayers, strings.Replace(okProfile, `"name":"b"`, `"name":"c"`, 1), 0, "name_mismatch"),
		analyzeCase("profile not JSON", okLayers, "\x00ELF", 0, "profile_json_malformed"),
		analyzeCase("profile empty list", okLayers, "[]", 0, "profile_empty"),
		analyzeCase("profile concatenated", okLayers, okProfile+okProfile, 0, "profile_json_concatenated"),
		analyzeCase("cycle", strings.Replace(okLayers, `"Inputs":[{"Name":"x"`, `"Inputs":[{"Name":"z"`, 1), okProfile, 0, "graph_not_dag"),
		analyzeCase("latency dict, huge values", okLayers, `{"a":[1e308,1e308],"b":[0.1]}`, 0, "profile_"),
	)

	// Files that are not regular files, or too big.
	special := func(name string, mk func(e *env), msg string) hostile {
		return hostile{name: "special/" + name, code: 0, msg: msg, setup: func(e *env) []string {
			e.write("layers_x.json", okLayers)
			mk(e)
			return []string{"analyze", e.in, "--output", e.prev}
		}}
	}
	add(
		special("FIFO named as a profile", func(e *env) { syscall.Mkfifo(filepath.Join(e.in, "profile_x.json"), 0o644) }, "FIFO (named pipe), not a regular file"),
		special("dangling symlink", func(e *env) { os.Symlink("missing.json", filepath.Join(e.in, "profile_x.json")) }, "symlink to a missing file"),
		special("folder named as a profile", func(e *env) { os.Mkdir(filepath.Join(e.in, "profile_x.json"), 0o755) }, "is a folder, not a regular file"),
		special("symlink to a device", func(e *env) { os.Symlink("/dev/zero", filepath.Join(e.in, "profile_x.json")) }, "device, not a regular file"),
		special("2 GB sparse non-JSON file", func(e *env) {
			f, _ := os.Create(filepath.Join(e.in, "profile_x.json"))
			f.Truncate(2 << 30)
			f.Close()
		}, "profile_json_malformed"),
		special("symlink to a regular file outside", func(e *env) {
			p := filepath.Join(e.out, "elsewhere.json")
			os.WriteFile(p, []byte(okProfile), 0o644)
			os.Symlink(p, filepath.Join(e.in, "profile_x.json"))
		}, `"status":"passed"`),
	)
	// An analyze-data.json that is a FIFO with no writer, or a device: the
	// commands that read one refuse it at once (they used to block).
	for _, c := range []struct{ cmd, what string }{
		{"validate", "FIFO"}, {"summary", "FIFO"}, {"compare", "FIFO"}, {"package", "FIFO"},
		{"validate", "device"}, {"summary", "device"},
	} {
		msg := "FIFO (named pipe), not a regular file"
		if c.what == "device" {
			msg = "character device, not a regular file"
		}
		add(hostile{name: "special/analyze-data.json a " + c.what + ", " + c.cmd, code: 2, msg: msg, setup: func(e *env) []string {
			p := filepath.Join(e.in, "analyze-data.json")
			if c.what == "FIFO" {
				syscall.Mkfifo(p, 0o644)
			} else {
				os.Symlink("/dev/zero", p)
			}
			if c.cmd == "package" {
				return []string{"package", "--analyze-data", p, "--report-dir", filepath.Join(e.out, "report")}
			}
			return []string{c.cmd, p}
		}})
	}
	add(hostile{name: "special/over --max-input-bytes", code: 0, msg: "layer_info_too_large", setup: func(e *env) []string {
		e.pair(okLayers, okProfile)
		return []string{"analyze", e.in, "--output", e.prev, "--max-input-bytes", "100"}
	}})

	// Hostile names: backend labels from file names, model names from
	// config.json, metadata; everything printed must be escaped.
	hostileName := "x\x1b]52;c;aGk=\x07\x1b[2J\u202e"
	for _, cmd := range []string{"analyze", "summary", "compare"} {
		msg := `\x1b]52;c;aGk=\x07` // escaped on the terminal
		if cmd == "analyze" {
			msg = `\u001b]52;c;aGk=\u0007` // escaped in the JSON
		}
		add(hostile{name: "names/label with escapes, " + cmd, code: 0, msg: msg, setup: func(e *env) []string {
			e.write("layers_"+hostileName+".json", okLayers)
			e.write("profile_"+hostileName+".json", okProfile)
			e.write("layers_b.json", okLayers)
			e.write("profile_b.json", okProfile)
			if cmd == "analyze" {
				return []string{"analyze", e.in, "--output", e.prev}
			}
			return []string{cmd, e.in}
		}})
	}
	// Labels that differ only by an invisible character: both shown, told
	// apart (the invisible one escaped), nothing invisible printed raw.
	for _, inv := range []string{"\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u00a0", "\U000e0041"} {
		for _, cmd := range []string{"summary", "compare"} {
			add(hostile{name: fmt.Sprintf("names/labels differing by U+%04X, %s", []rune(inv)[0], cmd), code: 0, msg: "fp16" + escapeForTest(inv), setup: func(e *env) []string {
				e.pair(okLayers, okProfile)
				e.write("layers_fp16.json", okLayers)
				e.write("profile_fp16.json", okProfile)
				e.write("layers_fp16"+inv+".json", okLayers)
				e.write("profile_fp16"+inv+".json", okProfile)
				return []string{cmd, e.in}
			}, check: func(e *env, stdout, stderr string) {
				if strings.Contains(stdout+stderr, inv) {
					e.t.Errorf("U+%04X printed raw", []rune(inv)[0])
				}
			}})
		}
	}
	for _, cmd := range []string{"summary", "package"} {
		msg := `\x1b[2J`
		if cmd == "package" {
			msg = "report_evil-2J-0-title" // the folder name keeps only safe characters
		}
		add(hostile{name: "names/model name with escapes, " + cmd, code: 0, msg: msg, setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			e.write("config.json", `{"_name_or_path":"evil\u001b[2J\u001b]0;title\u0007","hidden_size":1e30,"num_hidden_layers":1e300}`)
			if cmd == "package" {
				return []string{"package", e.in, "--output-parent", e.out}
			}
			return []string{"summary", e.in}
		}})
	}
	add(hostile{name: "names/layer name with escapes, summary", code: 0, msg: `a\u001b[2J`, setup: func(e *env) []string {
		e.pair(strings.Replace(okLayers, `"Name":"a"`, `"Name":"a\u001b[2J"`, 1), strings.Replace(okProfile, `"name":"a"`, `"name":"a\u001b[2J"`, 1))
		return []string{"summary", e.in, "--format", "csv"}
	}})
	add(hostile{name: "names/model name is a path, package", code: 0, msg: "report_", setup: func(e *env) []string {
		e.pair(okLayers, okProfile)
		return []string{"package", e.in, "--output-parent", e.out, "--model-name", "../../../etc/x"}
	}, check: func(e *env, stdout, _ string) {
		entries, _ := os.ReadDir(e.out)
		for _, en := range entries {
			if strings.HasPrefix(en.Name(), "report_") {
				return
			}
		}
		e.t.Errorf("the report is not inside --output-parent: %s", stdout)
	}})

	// A trtexec console log under a name discovery sniffs (run.json, a
	// dump's name): it is the backend's log, never a nil dump slot.
	for _, cmd := range []string{"analyze", "summary", "compare", "package"} {
		for _, name := range []string{"run.json", "x_profile.json"} {
			add(hostile{name: "names/trtexec log named " + name + ", " + cmd, code: 0, msg: "", setup: func(e *env) []string {
				e.pair(okLayers, okProfile)
				e.write("layers_y.json", okLayers)
				e.write("profile_y.json", okProfile)
				e.write(name, "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx\n[I] === Model Options ===\n")
				switch cmd {
				case "analyze":
					return []string{"analyze", e.in, "--output", e.prev}
				case "package":
					return []string{"package", e.in, "--output-parent", e.out}
				}
				return []string{cmd, e.in}
			}})
		}
	}

	// Layer names holding shell code reach a pasteable command only as one
	// single-quoted word (precision_fallback's --layerPrecisions).
	for _, name := range []string{"Conv_1$(touch${IFS}PWNED)", "Conv_1`id`", "Conv_1;id", "Conv_1|id", "Conv_1&&id"} {
		for _, cmd := range []string{"analyze", "summary"} {
			add(hostile{name: "commands/layer name " + name + ", " + cmd, code: 0, msg: "--layerPrecisions=", setup: func(e *env) []string {
				e.write("layers_fp16.json", fallbackLayers(name))
				e.write("profile_fp16.json", fallbackProfile(name))
				if cmd == "analyze" {
					return []string{"analyze", e.in, "--output", e.prev}
				}
				return []string{"summary", e.in}
			}, check: func(e *env, stdout, _ string) {
				text := stdout
				if cmd == "analyze" {
					b, _ := os.ReadFile(e.prev)
					var d contract.AnalyzeData
					if err := json.Unmarshal(b, &d); err != nil || len(d.Results) == 0 || len(d.Results[0].Issues) == 0 {
						e.t.Fatalf("no finding: %v", err)
					}
					text = d.Results[0].Issues[0].NextCheck
				}
				i := strings.Index(text, "--layerPrecisions=") - 1
				if i < 0 || text[i] != '\'' && text[i] != '"' {
					e.t.Fatalf("no quoted --layerPrecisions in %q", text)
				}
				end := strings.Index(text[i:], ":fp16"+text[i:i+1]) + len(":fp16'")
				args, err := trtexecflags.ShellArgs(text[i : i+end])
				if err != nil || len(args) != 1 || args[0] != "--layerPrecisions="+name+":fp16" {
					e.t.Errorf("the printed word %s reads back as %q (%v)", text[i:i+end], args, err)
				}
			}})
		}
	}
	// Device facts out of physical range (a trtexec log's device section,
	// TREx device attributes) and fractional config counts: dropped with
	// a note, and the analysis still validates (exit 0 ⇒ valid).
	devLog := func(line string) string {
		return "&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx\n[I] === Device Information ===\n[I] Selected Device: NVIDIA L4\n" + line + "\n"
	}
	for _, c := range []struct{ name, file, content, msg string }{
		{"SM count 1e30", "log_x.txt", devLog("[I] Compute Capability: 8.9\n[I] SMs: 1e30\n[I] Compute Clock Rate: 2.04 GHz"), "SM count 1e+30 is not a plausible count"},
		{"compute capability 0.0", "log_x.txt", devLog("[I] Compute Capability: 0.0\n[I] SMs: 58"), "compute capability 0.0 is outside the physical range"},
		{"clock 1e-300", "log_x.txt", devLog("[I] Compute Capability: 8.9\n[I] SMs: 58\n[I] Compute Clock Rate: 1e-300 GHz\n[I] Memory Bus Width: 192 bits\n[I] Memory Clock Rate: 1e-300 GHz"), "compute clock 1e-300 GHz is outside the physical range"},
		{"memory 1e308 MiB", "log_x.txt", devLog("[I] Compute Capability: 8.9\n[I] Device Global Memory: 1e308 MiB"), "device memory 1e+308 MiB is outside the physical range"},
		{"TREx attributes out of range", "meta_x_device.json", `[{"Name":"NVIDIA L4","COMPUTE_CAPABILITY_MAJOR":0,"COMPUTE_CAPABILITY_MINOR":0,"MULTIPROCESSOR_COUNT":1e30,"CLOCK_RATE":1e-300,"MEMORY_CLOCK_RATE":1e30,"GLOBAL_MEMORY_BUS_WIDTH":-1e-99999999}]`, "is not a plausible count"},
		{"config num_hidden_layers 0.5", "config.json", `{"_name_or_path":"m","model_type":"llama","num_hidden_layers":0.5,"hidden_size":0.5,"num_attention_heads":1e-300}`, `"status":"passed"`},
	} {
		add(hostile{name: "numbers/" + c.name, code: 0, msg: c.msg, setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			e.write(c.file, c.content)
			return []string{"analyze", e.in, "--output", e.prev}
		}})
	}
	add(hostile{name: "numbers/parameter -1e-99999999", code: 0, msg: "layer_parameters_normalised", setup: func(e *env) []string {
		e.pair(layerOf(`,"P":[-1e-99999999]`), okProfile)
		return []string{"analyze", e.in, "--output", e.prev}
	}})
	add(hostile{name: "numbers/profile time -1e-99999999", code: 0, msg: "profile_", setup: func(e *env) []string {
		e.pair(okLayers, profileOf("-1e-99999999", "1"))
		return []string{"analyze", e.in, "--output", e.prev}
	}})

	// A sweep of thousands of runs in one file: summary lists a bounded
	// number of them and counts the rest.
	for _, format := range []string{"text", "json"} {
		add(hostile{name: "output/summary of 3000 runs, " + format, code: 0, msg: "3000", setup: func(e *env) []string {
			e.pair(okLayers, strings.Repeat(okProfile+"\n", 3000))
			return []string{"summary", e.in, "--format", format}
		}, check: func(e *env, stdout, _ string) {
			if n := strings.Count(stdout, "\n"); format == "text" && (n > 150 || !strings.Contains(stdout, "2980 of 3000 runs not listed")) {
				e.t.Errorf("summary printed %d lines for 3000 runs:\n%.600s", n, stdout)
			}
			if n := strings.Count(stdout, `"profile_records"`); format == "json" && (n == 0 || n > 20 || !strings.Contains(stdout, `"runs_omitted": 2980`) && !strings.Contains(stdout, `"runs_omitted":2980`)) {
				e.t.Errorf("summary --format json lists %d runs", n)
			}
		}})
	}

	// Inputs that cannot be analysed: exit 2, nothing written.
	add(
		hostile{name: "scope/missing folder", code: 2, msg: "error:", setup: func(e *env) []string {
			return []string{"analyze", filepath.Join(e.in, "nope"), "--output", e.prev}
		}},
		hostile{name: "scope/empty folder", code: 2, msg: "error:", setup: func(e *env) []string { return []string{"analyze", e.in, "--output", e.prev} }},
		hostile{name: "scope/a file as folder", code: 2, msg: "error:", setup: func(e *env) []string {
			return []string{"analyze", e.write("f.json", okLayers), "--output", e.prev}
		}},
		hostile{name: "scope/model components", code: 2, msg: "unet", setup: func(e *env) []string {
			e.write("unet/layers_x.json", okLayers)
			e.write("unet/profile_x.json", okProfile)
			e.write("vae/layers_x.json", okLayers)
			e.write("vae/profile_x.json", okProfile)
			return []string{"analyze", e.in, "--output", e.prev}
		}},
	)

	// Output paths: regular files are replaced atomically keeping their
	// mode, streams written through, anything else refused.
	add(
		hostile{name: "output/a folder", code: 2, msg: "is a folder", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"analyze", e.in, "--output", e.out}
		}},
		hostile{name: "output/dangling symlink", code: 2, msg: "symlink to a missing file", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			l := filepath.Join(e.out, "link.json")
			os.Symlink("missing", l)
			return []string{"analyze", e.in, "--output", l}
		}},
		hostile{name: "output/missing folder", code: 2, msg: "--output", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"analyze", e.in, "--output", filepath.Join(e.out, "no", "such", "f.json")}
		}},
		hostile{name: "output/a socket", code: 2, msg: "socket", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			p := filepath.Join(e.out, "s.sock")
			fd, _ := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
			syscall.Bind(fd, &syscall.SockaddrUnix{Name: p})
			syscall.Close(fd)
			return []string{"analyze", e.in, "--output", p}
		}},
		hostile{name: "output/dev null stays a device", code: 0, msg: "wrote /dev/null", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"analyze", e.in, "--output", "/dev/null"}
		}, check: func(e *env, _, _ string) {
			if st, err := os.Stat("/dev/null"); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
				e.t.Error("/dev/null is no longer a device")
			}
		}},
		hostile{name: "output/FIFO written through", code: 0, msg: "wrote", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			p := filepath.Join(e.out, "fifo")
			syscall.Mkfifo(p, 0o644)
			e.stdinFIFOOut = make(chan string, 1)
			go func() { b, _ := os.ReadFile(p); e.stdinFIFOOut <- string(b) }()
			return []string{"analyze", e.in, "--output", p}
		}, check: func(e *env, _, _ string) {
			if got := <-e.stdinFIFOOut; !strings.Contains(got, `"schema_version"`) {
				e.t.Errorf("FIFO reader got %.80q", got)
			}
			if st, _ := os.Lstat(filepath.Join(e.out, "fifo")); st.Mode()&fs.ModeNamedPipe == 0 {
				e.t.Error("the FIFO was replaced")
			}
		}},
		hostile{name: "output/private file keeps its mode", code: 0, msg: "wrote", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			os.Chmod(e.prev, 0o600)
			return []string{"analyze", e.in, "--output", e.prev}
		}, check: func(e *env, _, _ string) {
			if st, _ := os.Stat(e.prev); st.Mode().Perm() != 0o600 {
				e.t.Errorf("mode %v, want 0600", st.Mode().Perm())
			}
		}},
		hostile{name: "output/symlink stays a symlink", code: 0, msg: "wrote", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			l := filepath.Join(e.out, "link.json")
			os.Symlink(e.prev, l)
			return []string{"analyze", e.in, "--output", l}
		}, check: func(e *env, _, _ string) {
			if st, _ := os.Lstat(filepath.Join(e.out, "link.json")); st.Mode()&fs.ModeSymlink == 0 {
				e.t.Error("the symlink was replaced")
			}
			if b, _ := os.ReadFile(e.prev); !bytes.Contains(b, []byte(`"schema_version"`)) {
				e.t.Error("the link's target was not written")
			}
		}},
		hostile{name: "output/stale temp debris removed", code: 0, msg: "wrote", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			os.WriteFile(filepath.Join(e.out, "."+filepath.Base(e.prev)+".trtperf-tmp-"+strconv.Itoa(deadPID(e.t))+"."+hostTagForTest()+"-1"), []byte("debris"), 0o644)
			return []string{"analyze", e.in, "--output", e.prev}
		}, check: func(e *env, _, _ string) { noDebris(e) }},
		hostile{name: "output/one of the inputs", code: 2, msg: "one of this run's inputs", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"analyze", e.in, "--output", filepath.Join(e.in, "profile_x.json")}
		}},
		hostile{name: "output/a symlink to one of the inputs", code: 2, msg: "one of this run's inputs", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			l := filepath.Join(e.out, "link.json")
			os.Symlink(filepath.Join(e.in, "layers_x.json"), l)
			return []string{"analyze", e.in, "--output", l}
		}},
		hostile{name: "output/an input given with --data", code: 2, msg: "one of this run's inputs", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"analyze", "--data", filepath.Join(e.in, "layers_x.json"), filepath.Join(e.in, "profile_x.json"), "--output", filepath.Join(e.in, "layers_x.json")}
		}},
		hostile{name: "output/a dump name in the input folder", code: 2, msg: "the next run would read", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"analyze", e.in, "--output", filepath.Join(e.in, "profile_new.json")}
		}, check: func(e *env, _, _ string) {
			if _, err := os.Stat(filepath.Join(e.in, "profile_new.json")); err == nil {
				e.t.Error("an analysis was written into the input folder under a dump's name")
			}
		}},
		hostile{name: "output/dev stdout is the command's stdout", code: 0, msg: `"schema_version"`, setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"analyze", e.in, "--output", "/dev/stdout"}
		}},
		hostile{name: "output/an append-mode descriptor appends", code: 0, msg: "wrote", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			log := filepath.Join(e.out, "log")
			os.WriteFile(log, []byte("KEEP\n"), 0o644)
			f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				e.t.Fatal(err)
			}
			e.t.Cleanup(func() { f.Close() })
			return []string{"analyze", e.in, "--output", "/dev/fd/" + strconv.Itoa(int(f.Fd()))}
		}, check: func(e *env, _, _ string) {
			b, _ := os.ReadFile(filepath.Join(e.out, "log"))
			if !bytes.HasPrefix(b, []byte("KEEP\n{")) || !bytes.Contains(b, []byte(`"schema_version"`)) {
				e.t.Errorf("the log was not appended to: %.60q", b)
			}
		}},
		hostile{name: "output/umask 077 makes a private file", code: 0, msg: "wrote", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			old := syscall.Umask(0o077)
			e.t.Cleanup(func() { syscall.Umask(old) })
			return []string{"analyze", e.in, "--output", filepath.Join(e.out, "new.json")}
		}, check: func(e *env, _, _ string) {
			if st, err := os.Stat(filepath.Join(e.out, "new.json")); err != nil || st.Mode().Perm() != 0o600 {
				e.t.Errorf("new output under umask 077: %v %v, want -rw-------", st.Mode(), err)
			}
		}},
		hostile{name: "output/temp file of a run in another PID namespace kept", code: 0, msg: "wrote", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			// The tag a run sharing only the host name would write (the
			// host-name hash), with a PID that is dead here but may be
			// alive in its own PID namespace.
			h, _ := os.Hostname()
			f := fnv.New32a()
			f.Write([]byte(h))
			os.WriteFile(filepath.Join(e.out, "."+filepath.Base(e.prev)+".trtperf-tmp-"+strconv.Itoa(deadPID(e.t))+"."+fmt.Sprintf("%08x", f.Sum32())+"-1"), []byte("live"), 0o644)
			return []string{"analyze", e.in, "--output", e.prev}
		}, check: func(e *env, _, _ string) {
			entries, _ := os.ReadDir(e.out)
			for _, en := range entries {
				if fsutil.IsTempName(en.Name()) {
					return
				}
			}
			e.t.Error("another namespace's live temp file was swept")
		}},
		hostile{name: "output/stdout", code: 0, msg: `"schema_version"`, setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"analyze", e.in, "--output", "-"}
		}},
	)

	// Analyses handed to validate, summary and compare.
	bad := []struct{ name, old, new string }{
		{"number beyond float64", `"time_ms":`, `"time_ms":1e9999999999,"x":`},
		{"number below float64", `"time_ms":`, `"time_ms":-1e-99999999,"x":`},
		{"results null", `"results":[`, `"results":null,"r":[`},
		{"schema version 9", `"schema_version":"1.`, `"schema_version":"9.`},
		{"lone surrogate", `"label":"x"`, `"label":"\udc00"`},
		{"duplicate key", `"label":"x"`, `"label":"x","label":"y"`},
		{"negative percentage", `"percentage":50`, `"percentage":-50`},
	}
	for _, b := range bad {
		for _, cmd := range []string{"validate", "summary", "compare"} {
			add(hostile{name: "analysis/" + b.name + ", " + cmd, code: 1, msg: refusal(cmd), setup: func(e *env) []string {
				return []string{cmd, e.tamperedData(b.old, b.new)}
			}})
		}
	}
	for _, raw := range []struct{ name, data string }{
		{"empty", ""}, {"not JSON", "\x00\x01"}, {"truncated", `{"schema_version":"1.0","results":[`},
		{"deep nesting", strings.Repeat("[", 100000)}, {"a list", "[]"},
	} {
		for _, cmd := range []string{"validate", "summary"} {
			add(hostile{name: "analysis/" + raw.name + ", " + cmd, code: 1, msg: refusal(cmd), setup: func(e *env) []string {
				return []string{cmd, e.write("analyze-data.json", raw.data)}
			}})
		}
	}
	add(hostile{name: "analysis/validate a folder", code: 2, msg: "error:", setup: func(e *env) []string {
		os.Mkdir(filepath.Join(e.in, "d.json"), 0o755)
		return []string{"validate", filepath.Join(e.in, "d.json")}
	}})

	// AI-written Markdown.
	mdCase := func(name, md string, code int, msg string, check func(e *env, stdout, stderr string)) hostile {
		return hostile{name: "markdown/" + name, code: code, msg: msg, check: check, setup: func(e *env) []string {
			p, _ := e.analyzeData()
			return []string{"package", "--analyze-data", p, "--report-dir", filepath.Join(e.out, "r"), "--analyze-md", e.write("analyze.md", md)}
		}}
	}
	noScript := func(e *env, _, _ string) {
		b, _ := os.ReadFile(filepath.Join(e.out, "r", "analysis.js"))
		for _, bad := range []string{"<script", "onerror=\\\"", "javascript:"} {
			if bytes.Contains(b, []byte(bad)) {
				e.t.Errorf("analysis.js holds %q", bad)
			}
		}
	}
	add(
		mdCase("script and handlers", "## Summary\n<script>alert(1)</script><img src=x onerror=alert(1)>[x](javascript:alert(1))\n## Details\n", 0, "analyze_md:", noScript),
		mdCase("400 KB of unclosed links", strings.Repeat("[a](", 100000), 0, "analyze_md:", func(e *env, _, _ string) {
			b, _ := os.ReadFile(filepath.Join(e.out, "r", "analysis.js"))
			if !bytes.Contains(b, []byte("md-plain")) {
				e.t.Error("pathological Markdown was not shown as plain text")
			}
		}),
		mdCase("links out of the report", "## Summary\n[a](../../etc/passwd) [b](file:///etc/passwd) [c](%2e%2e/x) [d](http://example.com/) [e](/etc/passwd) [ok](https://example.com/ok) [in](#top)\n## Details\n", 0, "analyze_md:", func(e *env, _, _ string) {
			b, _ := os.ReadFile(filepath.Join(e.out, "r", "analysis.js"))
			for _, bad := range []string{"passwd", "file:", "%2e%2e", "http://example.com", `href=\"../`, `href=\"/`} {
				if bytes.Contains(b, []byte(bad)) {
					e.t.Errorf("analysis.js holds %q", bad)
				}
			}
			for _, good := range []string{"https://example.com/ok", `#top`} {
				if !bytes.Contains(b, []byte(good)) {
					e.t.Errorf("analysis.js lost the allowed link %q", good)
				}
			}
		}),
		mdCase("400 KB of nested quotes", strings.Repeat(">", 400000), 0, "analyze_md:", nil),
		mdCase("over 1 MiB", strings.Repeat("a", 1<<20+1), 2, "size limit", nil),
		hostile{name: "markdown/validate 400 KB of unclosed links", code: 1, msg: "ANALYZE-MD FAIL", setup: func(e *env) []string {
			p, _ := e.analyzeData()
			return []string{"validate", p, "--analyze-md", e.write("analyze.md", strings.Repeat("[a](", 100000))}
		}},
	)

	// Report folders.
	add(
		hostile{name: "package/--report-dir with a trailing slash", code: 0, msg: "report_dir:", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"package", e.in, "--report-dir", filepath.Join(e.out, "r") + "/"}
		}},
		hostile{name: "package/--report-dir not empty", code: 2, msg: "not empty", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"package", e.in, "--report-dir", e.out}
		}},
		hostile{name: "package/--report-dir is the input folder", code: 2, msg: "not empty", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"package", e.in, "--report-dir", e.in}
		}},
		hostile{name: "package/--report-dir is an input file", code: 2, msg: "is a file", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"package", e.in, "--report-dir", filepath.Join(e.in, "profile_x.json")}
		}},
		hostile{name: "package/--report-dir is a file", code: 2, msg: "is a file", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"package", e.in, "--report-dir", e.prev}
		}},
		hostile{name: "package/--output-parent is a file", code: 2, msg: "error:", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"package", e.in, "--output-parent", e.prev}
		}},
		hostile{name: "package/bad --timestamp", code: 2, msg: "YYYYMMDD_HHMMSS", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"package", e.in, "--output-parent", e.out, "--timestamp", "../../x"}
		}},
		hostile{name: "package/invalid --analyze-data", code: 1, msg: "error:", setup: func(e *env) []string {
			return []string{"package", "--analyze-data", e.tamperedData(`"time_ms":`, `"time_ms":1e999,"x":`), "--report-dir", filepath.Join(e.out, "r")}
		}},
		hostile{name: "package/--analyze-data with a number below float64", code: 1, msg: "error:", setup: func(e *env) []string {
			return []string{"package", "--analyze-data", e.tamperedData(`"time_ms":`, `"time_ms":-1e-99999999,"x":`), "--report-dir", filepath.Join(e.out, "r")}
		}},
		hostile{name: "package/suite page has the report's CSP", code: 0, msg: "", setup: func(e *env) []string {
			for _, c := range []string{"unet", "vae"} {
				e.write(c+"/layers_x.json", okLayers)
				e.write(c+"/profile_x.json", okProfile)
			}
			return []string{"package", "--suite", e.in, "--output-parent", e.out}
		}, check: func(e *env, _, _ string) {
			m, _ := filepath.Glob(filepath.Join(e.out, "suite_*", "index.html"))
			if len(m) != 1 {
				e.t.Fatalf("suite page: %v", m)
			}
			b, _ := os.ReadFile(m[0])
			if !bytes.Contains(b, []byte(`http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;self&#39;`)) {
				e.t.Errorf("the suite page has no CSP:\n%.400s", b)
			}
		}},
		hostile{name: "package/stale staging debris removed", code: 0, msg: "report_dir:", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			d := filepath.Join(e.out, ".trtperf-staging-"+strconv.Itoa(deadPID(e.t))+"."+hostTagForTest()+"-1")
			os.MkdirAll(filepath.Join(d, "assets"), 0o755)
			return []string{"package", e.in, "--output-parent", e.out}
		}, check: func(e *env, _, _ string) { noDebris(e) }},
	)

	// Skill folders: --force never deletes what trtperf did not install.
	add(
		hostile{name: "skill/--force over a user's folder", code: 2, msg: "not a skill folder installed by trtperf", setup: func(e *env) []string {
			d := filepath.Join(e.out, "skill")
			os.MkdirAll(d, 0o755)
			os.WriteFile(filepath.Join(d, "notes.txt"), []byte("mine"), 0o644)
			return []string{"skill", "install", d, "--force", "--no-cross"}
		}, check: func(e *env, _, _ string) {
			if _, err := os.Stat(filepath.Join(e.out, "skill", "notes.txt")); err != nil {
				e.t.Error("a user's file was deleted")
			}
		}},
		hostile{name: "skill/--force over another skill", code: 2, msg: "not a skill folder installed by trtperf", setup: func(e *env) []string {
			d := filepath.Join(e.out, "other-skill")
			os.MkdirAll(d, 0o755)
			os.WriteFile(filepath.Join(d, "SKILL.md"), []byte("# another skill"), 0o644)
			return []string{"skill", "install", d, "--force", "--no-cross"}
		}},
		hostile{name: "skill/--force over an edited skill keeps a backup", code: 0, msg: "backup_dir:", setup: func(e *env) []string {
			d := filepath.Join(e.out, "skill")
			if code, _, errs := run(e.t, "skill", "install", d, "--no-cross"); code != 0 {
				e.t.Fatal(errs)
			}
			os.WriteFile(filepath.Join(d, "SKILL.md"), []byte("my edits"), 0o644)
			return []string{"skill", "install", d, "--force", "--no-cross"}
		}, check: func(e *env, stdout, stderr string) {
			if !strings.Contains(stderr, "SKILL.md") {
				e.t.Errorf("the edit is not named: %q", stderr)
			}
			m, _ := filepath.Glob(filepath.Join(e.out, "skill.backup-*", "SKILL.md"))
			if len(m) != 1 {
				e.t.Fatalf("no backup of the edited skill: %v", m)
			}
			if b, _ := os.ReadFile(m[0]); string(b) != "my edits" {
				e.t.Errorf("the backup lost the edit: %q", b)
			}
		}},
		hostile{name: "skill/edited skill without --force names the edit", code: 2, msg: "SKILL.md changed", setup: func(e *env) []string {
			d := filepath.Join(e.out, "skill")
			if code, _, errs := run(e.t, "skill", "install", d, "--no-cross"); code != 0 {
				e.t.Fatal(errs)
			}
			os.WriteFile(filepath.Join(d, "SKILL.md"), []byte("my edits"), 0o644)
			return []string{"skill", "install", d, "--no-cross"}
		}},
		hostile{name: "skill/into a file", code: 2, msg: "is a file", setup: func(e *env) []string {
			return []string{"skill", "install", e.prev, "--no-cross"}
		}},
	)

	// CI gates that would silently never fire.
	for _, v := range []string{"NaN", "nan", "+Inf", "Inf", "-Inf", "-1", "1e999"} {
		add(hostile{name: "compare/--fail-above " + v, code: 2, msg: "--fail-above", setup: func(e *env) []string {
			p, _ := e.analyzeData()
			return []string{"compare", p + "#x", p + "#x", "--fail-above", v}
		}})
	}

	// Two different models: no confident layer-by-layer story, only the
	// end-to-end numbers; two builds of one model stay comparable.
	genModel := func(e *env, shape, precision, out string) string {
		if code, _, errs := run(e.t, "gen", "--shape", shape, "--layers", "60", "--seed", "1", "--precision", precision, "--out", out); code != 0 {
			e.t.Fatal(errs)
		}
		return out
	}
	add(hostile{name: "compare/two different models", code: 0, msg: "not comparable layer by layer", setup: func(e *env) []string {
		return []string{"compare", genModel(e, "cnn", "fp16", filepath.Join(e.out, "a")), genModel(e, "bert", "fp16", filepath.Join(e.out, "b")), "--format", "json"}
	}, check: func(e *env, stdout, _ string) {
		var c contract.Comparison
		if err := json.Unmarshal([]byte(stdout), &c); err != nil || len(c.Pairs) != 1 {
			e.t.Fatalf("compare json: %v", err)
		}
		if p := c.Pairs[0]; len(p.Rows) != 0 || len(p.Reasons) != 0 || len(p.ByType) != 0 {
			e.t.Errorf("a layer-by-layer story for two different models: %d rows, reasons %q", len(p.Rows), p.Reasons)
		}
	}})
	add(hostile{name: "compare/two builds of one model stay comparable", code: 0, msg: "", setup: func(e *env) []string {
		return []string{"compare", genModel(e, "cnn", "fp16", filepath.Join(e.out, "a")), genModel(e, "cnn", "int8", filepath.Join(e.out, "b"))}
	}, check: func(e *env, stdout, _ string) {
		if strings.Contains(stdout, "not comparable") || !strings.Contains(stdout, "Aligned layers") {
			e.t.Errorf("two builds of one model were called incomparable:\n%.400s", stdout)
		}
	}})

	// serve refusals (the server itself is tested in serve_test.go and
	// internal/report).
	add(
		hostile{name: "serve/all interfaces without --allow-remote", code: 2, msg: "--allow-remote", setup: func(e *env) []string {
			p, _ := e.analyzeData()
			r := filepath.Join(e.out, "r")
			run(e.t, "package", "--analyze-data", p, "--report-dir", r)
			return []string{"serve", r, "--addr", "0.0.0.0:0"}
		}},
		hostile{name: "serve/not a report", code: 2, msg: "not a trtperf report", setup: func(e *env) []string {
			e.pair(okLayers, okProfile)
			return []string{"serve", e.in}
		}},
	)
	add(inputHostileCases()...)
	return cs
}

// fallbackLayers is an FP16 engine whose second convolution, called name,
// runs in FP32 (precision_fallback names it in --layerPrecisions).
func fallbackLayers(name string) string {
	const f16, f32 = "Channel major FP16 format where channel % 8 == 0", "Row major linear FP32"
	layer := func(n, tactic, in, out, format string) map[string]any {
		return map[string]any{"Name": n, "LayerType": "CaskConvolution", "TacticName": tactic, "OutMaps": 64, "Groups": 1,
			"Inputs":  []any{map[string]any{"Name": in, "Dimensions": []int{1, 64, 56, 56}, "Format/Datatype": format}},
			"Outputs": []any{map[string]any{"Name": out, "Dimensions": []int{1, 64, 56, 56}, "Format/Datatype": format}}}
	}
	b, _ := json.Marshal(map[string]any{"Bindings": []string{"x", "z"}, "Layers": []any{
		layer("Conv_0", "sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16", "x", "y", f16),
		layer(name, "ampere_scudnn_128x64_relu_small_nn_v1", "y", "z", f32),
	}})
	return string(b)
}

func fallbackProfile(name string) string {
	b, _ := json.Marshal([]any{map[string]any{"count": 10},
		map[string]any{"name": "Conv_0", "timeMs": 30, "averageMs": 3, "medianMs": 3, "percentage": 75},
		map[string]any{"name": name, "timeMs": 10, "averageMs": 1, "medianMs": 1, "percentage": 25}})
	return string(b)
}

// refusal is what validate, summary and compare say about a broken
// analysis.
func refusal(cmd string) string {
	if cmd == "validate" {
		return " FAIL"
	}
	return "is not a valid analyze-data.json"
}

// escapeForTest is how the terminal shows an invisible character: \uXXXX,
// a surrogate pair above U+FFFF.
func escapeForTest(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xffff {
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func hostTagForTest() string {
	p := fsutil.TempPattern("", "x")
	// .trtperf-x-PID.HOST-*
	dot := strings.LastIndexByte(p, '.')
	return p[dot+1 : dot+9]
}

func deadPID(t *testing.T) int {
	t.Helper()
	p, err := os.StartProcess("/bin/true", []string{"true"}, &os.ProcAttr{})
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()
	return p.Pid
}

func noDebris(e *env) {
	entries, _ := os.ReadDir(e.out)
	for _, en := range entries {
		if fsutil.IsTempName(en.Name()) {
			e.t.Errorf("debris left: %s", en.Name())
		}
	}
}

// treeHash describes every entry under dir: path, type, permission bits,
// content hash of regular files (special files are never opened) and link
// targets.
func treeHash(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", p, err)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		fmt.Fprintf(&b, "%s %v", p, info.Mode())
		switch {
		case info.Mode().IsRegular():
			f, err := os.Open(p)
			if err == nil {
				h := sha256.New()
				buf := make([]byte, 1<<20)
				for n := int64(0); n < info.Size() && n < 64<<20; { // a sparse 2 GB file: the first 64 MB and its size
					k, err := f.Read(buf)
					h.Write(buf[:k])
					n += int64(k)
					if err != nil {
						break
					}
				}
				f.Close()
				fmt.Fprintf(&b, " %d %s", info.Size(), hex.EncodeToString(h.Sum(nil)))
			}
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			fmt.Fprintf(&b, " -> %s", target)
		}
		b.WriteByte('\n')
		return nil
	})
	return b.String()
}

// TestHostileStdoutFull: a command whose stdout cannot be written (a full
// disk: /dev/full) exits 2 and says so, instead of exiting 0 with nothing
// written.
func TestHostileStdoutFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "layers_x.json"), []byte(okLayers), 0o644)
	os.WriteFile(filepath.Join(dir, "profile_x.json"), []byte(okProfile), 0o644)
	data := filepath.Join(t.TempDir(), "a.json")
	if code, _, errs := run(t, "analyze", dir, "--output", data); code != 0 {
		t.Fatal(errs)
	}
	for _, args := range [][]string{
		{"version"}, {"explain"}, {"explain", "precision_fallback"}, {"validate", data}, {"summary", data},
		{"summary", dir}, {"compare", data + "#x", data + "#x"}, {"analyze", dir}, {"gen", "--help"},
	} {
		var errb bytes.Buffer
		code := Main(args, full, &errb)
		if code != ExitCannotRun || !strings.Contains(errb.String(), "no space left") {
			t.Errorf("%v > /dev/full: exit %d, stderr %q; want exit 2 naming the write error", args, code, errb.String())
		}
	}
}

func TestHostileInputCatalogue(t *testing.T) {
	cases := hostileCases()
	if len(cases) < 80 {
		t.Errorf("the catalogue has %d cases, want at least 80", len(cases))
	}
	hd := skillDeps("/bin/true")
	for _, h := range cases {
		t.Run(h.name, func(t *testing.T) {
			root := t.TempDir()
			e := &env{t: t, in: filepath.Join(root, "in"), out: filepath.Join(root, "out")}
			os.MkdirAll(e.in, 0o755)
			os.MkdirAll(e.out, 0o755)
			e.prev = filepath.Join(e.out, "analyze-data.json")
			os.WriteFile(e.prev, []byte(previous), 0o644)
			args := h.setup(e)
			before := treeHash(t, e.in)

			var code int
			var stdout, stderr string
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panic: %v\n%s", r, debug.Stack())
					}
				}()
				code, stdout, stderr = runWith(t, hd, args...)
			}()

			if code != h.code {
				t.Errorf("exit %d, want %d\nstdout %.300q\nstderr %.300q", code, h.code, stdout, stderr)
			}
			hay := stdout + stderr
			if b, err := os.ReadFile(e.prev); err == nil && len(b) < 64<<20 {
				hay += string(b)
			}
			if h.msg != "" && !strings.Contains(hay, h.msg) {
				t.Errorf("no %q in the output\nstdout %.300q\nstderr %.300q", h.msg, stdout, stderr)
			}
			if strings.ContainsAny(stdout+stderr, "\x1b\x07\u009b") || strings.Contains(stdout+stderr, "\u202e") {
				t.Errorf("raw control characters printed:\nstdout %.300q\nstderr %.300q", stdout, stderr)
			}
			if after := treeHash(t, e.in); after != before {
				t.Errorf("the input folder changed:\nbefore\n%s\nafter\n%s", before, after)
			}
			if code != 0 {
				if b, err := os.ReadFile(e.prev); err == nil && string(b) != previous {
					t.Errorf("a failed run changed the earlier output")
				}
			}
			// analyze exit 0 ⇒ validate passes.
			if args[0] == "analyze" && code == 0 && !strings.HasPrefix(filepath.Base(args[len(args)-1]), "fifo") {
				if b, err := os.ReadFile(e.prev); err == nil && string(b) != previous {
					if r := contract.Validate(b); !r.SchemaOK() || !r.SemanticOK() {
						t.Errorf("analyze wrote a file validate rejects: %v %v", r.Schema, r.Semantic)
					}
				}
			}
			if h.check != nil {
				h.check(e, stdout, stderr)
			}
		})
	}
}
