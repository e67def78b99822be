package dump

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trtperf/trtperf/internal/corpustest"
	"github.com/trtperf/trtperf/internal/engine"
)

// issueLog is what one pasted log of ../shared/issues holds, read from the
// file by hand (rows counted, averages summed, summary lines copied).
type issueLog struct {
	runs       int
	tables     [][2]float64 // per table: rows read, sum of their averages (ms)
	header     []bool       // per table: column header read
	total      []bool       // per table: Total row read
	gpuMedian  float64      // GPU compute median (ms), 0 when the log has none
	hostMedian float64      // host latency median (ms), 0 when none
	d2hMedian  float64
	trace      int      // trace lines
	layers     int      // engine layer information lines
	version    string   // TensorRT version, "" when the log names none
	facts      []string // fact keys the log must give ("key=value" for an exact value)
}

var issueLogs = map[string]issueLog{
	"issue-laugh12321-tensorrt-yolo-160-seg-host-latency-double-gpu-latency/log_yolo11s-seg.txt": {
		runs: 1, gpuMedian: (3.38749 + 3.38872) / 2, hostMedian: (6.97959 + 7.00952) / 2, trace: 22, facts: []string{"plugin=EfficientIdxNMS_TRT"}},
	"issue-nvidia-tensorrt-1293-qat-slower-than-ptq-residual-without-qdq/log_ptq-int8.txt": {
		runs: 1, tables: [][2]float64{{6, 0.0326 + 0.1569 + 0.0519 + 0.0232 + 0.0425 + 0.0479}}, header: []bool{true}, total: []bool{false}},
	"issue-nvidia-tensorrt-1293-qat-slower-than-ptq-residual-without-qdq/log_qat-int8.txt": {
		runs: 1, tables: [][2]float64{{2, 0.0342 + 0.0210}}, header: []bool{true}, total: []bool{false}},
	"issue-nvidia-tensorrt-1310-hrnet-int8-built-without-fp16-rtx2080/log_fp16.txt": {
		runs: 1, gpuMedian: 9.17056, facts: []string{"precision=flags: --fp16", "command"}},
	"issue-nvidia-tensorrt-1862-qdq-twice-slower-than-implicit-int8-total-row/log_int8-implicit.txt": {
		runs: 1, tables: [][2]float64{{10, 0.0106 + 0.0181 + 0.0107 + 0.0119 + 0.0060 + 0.0051 + 0.0118 + 0.0071 + 0.0054 + 0.0047}}, header: []bool{true}, total: []bool{true}},
	"issue-nvidia-tensorrt-2377-trt84-80ms-app-timing-not-engine/log_trt82.txt": {
		runs: 1, gpuMedian: 3.73242, facts: []string{"precision=flags: --best", "gpu_compute"}},
	"issue-nvidia-tensorrt-2377-trt84-80ms-app-timing-not-engine/log_trt84.txt": {
		runs: 1, gpuMedian: 3.52051, version: "8.4.2", facts: []string{"precision=flags: --best"}},
	"issue-nvidia-tensorrt-2592-qdq-between-pad-and-conv/log_int8-after-fix.txt": {
		runs: 1, layers: 1, facts: []string{"engine_layers"}},
	"issue-nvidia-tensorrt-3747-python-timing-misses-async-compute/log_trt863-rtx2080.txt": {
		runs: 1, gpuMedian: 197.253, d2hMedian: 2.85107, version: "8.6.3", facts: []string{"gpu_compute", "d2h"}},
	"issue-nvidia-tensorrt-3842-profile-columns-meaning-resnet50-trt10-format/log_resnet50-profile.txt": {
		runs: 1, tables: [][2]float64{{6, 0.0077 + 0.0228 + 0.0067 + 0.0071 + 0.0189 + 0.0107}}, header: []bool{true}, total: []bool{false}},
	"issue-nvidia-tensorrt-3962-trt10-instancenorm-native-slower-than-plugin/log_trt86-verbose-parse.txt": {
		runs: 1, facts: []string{"instancenorm_import=node /encoder/0/resnets.0/norm1/InstanceNormalization"}},
	"issue-nvidia-tensorrt-4026-huge-fp32-inputs-h2d-as-long-as-compute/log_trt102-fp16-engine.txt": {
		runs: 1, version: "10.2.0", facts: []string{"load_engine=FM_P_D_fp16.engine", "input_shape=c1=1x48x1600x2560"}},
	"issue-nvidia-tensorrt-4026-huge-fp32-inputs-h2d-as-long-as-compute/log_trt102-int8-fp16io.txt": {
		runs: 1, version: "10.2.0", facts: []string{"io_formats=--inputIOFormats=fp16:chw16", "load_engine=FM_P_D_int8.engine"}},
	"issue-nvidia-tensorrt-4714-custom-conv-plugin-slower-than-native-gtx1650/log_build-verbose.txt": {
		runs: 1, facts: []string{"autotune_formats=Float(102400,400,20,1) -> Float(102400,400,20,1)", "plugin=MultiConvPlugin"}},
	"issue-wang-xinyu-tensorrtx-592-rcnn-r50-jetson-nx-profile/log_frcnn-r50-nx.txt": {
		runs: 1, tables: [][2]float64{{13, 5.83 + 5.81 + 7.13 + 5.83 + 3.11 + 8.29 + 323.16 + 157.87 + 300.75 + 116.42 + 114.19 + 254.07 + 116.35}}, header: []bool{false}, total: []bool{false}},
}

// TestIssueLogs reads every log pasted in ../shared/issues and checks what
// it holds against the counts above.
func TestIssueLogs(t *testing.T) {
	dir := corpustest.IssuesDir(t, corpustest.Issues)
	logs, err := filepath.Glob(filepath.Join(dir, "*", "log_*.txt"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no logs in %s (%v)", dir, err)
	}
	for _, path := range logs {
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		t.Run(rel, func(t *testing.T) {
			want, ok := issueLogs[rel]
			if !ok {
				t.Fatalf("no expectation for %s: add one to issueLogs", rel)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := ParseTrtexecLog(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != want.runs {
				t.Fatalf("%d runs, want %d", len(runs), want.runs)
			}
			r := runs[0]
			if len(r.Log.Tables) != len(want.tables) {
				t.Fatalf("%d tables, want %d", len(r.Log.Tables), len(want.tables))
			}
			for i, tb := range r.Log.Tables {
				sum := 0.0
				for _, rec := range tb.Profile.Records {
					sum += rec.AverageMs
				}
				if float64(len(tb.Profile.Records)) != want.tables[i][0] || math.Abs(sum-want.tables[i][1]) > 1e-9 {
					t.Errorf("table %d: %d rows, sum of averages %.6f; want %v rows, %.6f", i, len(tb.Profile.Records), sum, want.tables[i][0], want.tables[i][1])
				}
				if tb.Header != want.header[i] || (tb.Total != nil) != want.total[i] {
					t.Errorf("table %d: header %v total %v, want %v %v", i, tb.Header, tb.Total != nil, want.header[i], want.total[i])
				}
				if len(tb.Partial) == 0 {
					t.Errorf("table %d of a pasted fragment says it is complete", i)
				}
				if len(tb.RowLines) != len(tb.Profile.Records) || tb.RowLines[0] < tb.Line {
					t.Errorf("table %d: row lines %v from line %d", i, tb.RowLines, tb.Line)
				}
			}
			med := func(s engine.Stats) float64 {
				if s.Median == nil {
					return 0
				}
				return *s.Median
			}
			var gpu, host, d2h float64
			if r.Perf != nil {
				gpu, host, d2h = med(r.Perf.GPUCompute), med(r.Perf.Latency), med(r.Perf.D2H)
			}
			if math.Abs(gpu-want.gpuMedian) > 1e-9 || math.Abs(host-want.hostMedian) > 1e-9 || math.Abs(d2h-want.d2hMedian) > 1e-9 {
				t.Errorf("medians gpu %v host %v d2h %v, want %v %v %v", gpu, host, d2h, want.gpuMedian, want.hostMedian, want.d2hMedian)
			}
			traces := 0
			if r.Log.Trace != nil {
				traces = r.Log.Trace.Lines
			}
			if traces != want.trace || len(r.Log.Layers) != want.layers || r.Version != want.version {
				t.Errorf("trace %d layers %d version %q, want %d %d %q", traces, len(r.Log.Layers), r.Version, want.trace, want.layers, want.version)
			}
			for _, f := range want.facts {
				got := false
				for _, x := range r.Log.Facts {
					if x.Key == f || x.Key+"="+x.Value == f {
						got = got || x.Line > 0
					}
				}
				if !got {
					var have []string
					for _, x := range r.Log.Facts {
						have = append(have, x.Key+"="+x.Value)
					}
					t.Errorf("fact %q missing; have %q", f, have)
				}
			}
			if !slices.IsSortedFunc(r.Log.Facts, func(a, b engine.LogFact) int { return a.Line - b.Line }) {
				t.Errorf("facts out of line order")
			}
		})
	}
}

// TestProfileRecordLines reads exported profile records pasted one per
// line without the list brackets (pytorch/TensorRT#3715's pastes), with and
// without trtexec's leading ", ".
func TestProfileRecordLines(t *testing.T) {
	for _, in := range []string{
		`{ "name" : "a", "timeMs" : 1.10378, "averageMs" : 0.00951531, "medianMs" : 0.009216, "percentage" : 0.0934733 }` + "\n" +
			`{ "name" : "b", "timeMs" : 0, "averageMs" : 0, "medianMs" : 0, "percentage" : 0 }` + "\n",
		`, { "name" : "a", "timeMs" : 1.10378, "averageMs" : 0.00951531, "medianMs" : 0.009216, "percentage" : 0.0934733 }` + "\n" +
			`, { "name" : "b", "timeMs" : 0, "averageMs" : 0, "medianMs" : 0, "percentage" : 0 }` + "\n",
	} {
		p, err := ParseProfile([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != engine.ProfileTrtexec || len(p.Records) != 2 || p.Records[0].AverageMs != 0.00951531 || p.Records[1].Name != "b" {
			t.Errorf("%+v", p)
		}
	}
	if _, err := ParseProfile([]byte(`{"a": [1, 2]}` + "\n" + `{"b": [1]}`)); err == nil {
		t.Error("two latency dictionaries read as records")
	}
}
