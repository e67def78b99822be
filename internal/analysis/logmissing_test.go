package analysis

import (
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/dump"
	"github.com/trtperf/trtperf/internal/engine"
	"github.com/trtperf/trtperf/internal/inputs"
)

// TestMissingItem: a pasted run whose command asked for a per-layer table
// and an --exportTimes file that the folder does not hold says exactly
// that; with no other build it says a comparison lacks that build too, and
// how an INT8 build must be made. Twins: the table is there and nothing
// else was asked; another build is in the folder.
func TestMissingItem(t *testing.T) {
	// A TensorRT 7 paste, written by the test: the command and the GPU
	// Compute block.
	log := "./trtexec --onnx=m.onnx --fp16 --saveEngine=m.trt --dumpProfile --exportTimes=m_fp16.json\n" +
		"[06/17/2021-18:54:01] [I] GPU Compute\n[06/17/2021-18:54:01] [I] min: 9.04 ms\n[06/17/2021-18:54:01] [I] median: 9.17 ms\n"
	runs, err := dump.ParseTrtexecLog([]byte(log))
	if err != nil {
		t.Fatal(err)
	}
	lr := logRun{"log_fp16.txt", &runs[0]}
	items := missingItem(lr, inputs.Backend{}, 0)
	if len(items) != 1 {
		t.Fatalf("items %+v, want one", items)
	}
	for _, want := range []string{"FP16 run", "per-layer table of --dumpProfile", "m_fp16.json of --exportTimes", "nor is any other build's log", "--int8 --fp16"} {
		if !strings.Contains(items[0].Title, want) {
			t.Errorf("title %q lacks %q", items[0].Title, want)
		}
	}
	if items := missingItem(lr, inputs.Backend{}, 1); len(items) != 1 || strings.Contains(items[0].Title, "other build") {
		t.Errorf("with another build in the folder: %+v", items)
	}
	// The twin: the table is read and no file was asked for.
	runs, _ = dump.ParseTrtexecLog([]byte(strings.Replace(log, " --exportTimes=m_fp16.json", "", 1)))
	if items := missingItem(logRun{"log_fp16.txt", &runs[0]}, inputs.Backend{Profile: &engine.Profile{}}, 0); len(items) != 0 {
		t.Errorf("nothing is missing, yet %+v", items)
	}
}

// TestAloneTable: a partial TensorRT 8.2 table with a Total row, the only
// build of its folder, says the rest of the rows and any other build's
// table are missing, and whether quantize layers are among the rows read.
func TestAloneTable(t *testing.T) {
	table := func(row string) *engine.ProfileTable {
		log := "[I]                      Layer   Time (ms)   Avg. Time (ms)   Time %\n" +
			"[I]            Conv_0 + Relu_1       78.41           0.0181      3.9\n" +
			"[I] " + row + "\n" +
			"[I]                      Total     2007.66           0.4630    100.0\n"
		runs, err := dump.ParseTrtexecLog([]byte(log))
		if err != nil || runs[0].Log == nil || len(runs[0].Log.Tables) == 0 {
			t.Fatalf("generated table not read: %v", err)
		}
		return &runs[0].Log.Tables[0]
	}
	plain := table("               PWN(Add_53)       22.04           0.0051      1.1")
	item, coverage := tableItem("log_x.txt", plain)
	if coverage >= 50 || plain.Total == nil {
		t.Fatalf("coverage %v, total %v", coverage, plain.Total)
	}
	aloneTable(&item, plain)
	if !strings.Contains(item.Title, "none of them a quantize layer") || !strings.Contains(item.Title, "any other build's table are not in the paste") {
		t.Errorf("title %q", item.Title)
	}
	qdq := table("QuantizeLinear_2_quantize_scale_node       22.04           0.0051      1.1")
	item, _ = tableItem("log_x.txt", qdq)
	aloneTable(&item, qdq)
	if strings.Contains(item.Title, "none of them a quantize layer") {
		t.Errorf("a quantize row read, yet %q", item.Title)
	}
}
