package dump

import (
	"errors"
	"strings"
	"testing"
)

// TestCSVTables reads CSV/TSV tables of per-layer times: header words in
// any naming, units from the header, quoted names with commas and
// quotes, a BOM, CRLF, a total row, percent and spread columns ignored.
func TestCSVTables(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		names     []string
		avg, med  []float64
		count     int64
		avgOnly   bool
		read      string
	}{
		{"plain", "layer,avg_ms,median_ms\nconv1,0.12,0.11\nfc,0.5,0.45\n", []string{"conv1", "fc"}, []float64{0.12, 0.5}, []float64{0.11, 0.45}, 0, true, "a CSV table (layer column \"layer\"); times in ms"},
		{"BOM, CRLF, quotes, total, percent", "\ufeffLayer Name,Time (us),Time %\r\n\"Conv_0 + Relu_1, fused\",120.5,60\r\n\"say \"\"hi\"\"\",80,40\r\nTotal,200.5,100\r\n", []string{"Conv_0 + Relu_1, fused", `say "hi"`}, []float64{0.1205, 0.08}, nil, 0, true, `"Total" row left out`},
		{"tsv in ns with counts", "name\tmean_ns\tmax_ns\tcalls\nconv1\t120000\t900000\t10\nfc\t50000\t60000\t10\n", []string{"conv1", "fc"}, []float64{0.12, 0.05}, nil, 10, false, "a tab-separated table"},
		{"title line and trtexec columns", "# per-layer profile\nLayer;Time (ms);Avg. Time (ms);Median Time (ms);Time %\nconv1;12;0.12;0.11;70\nfc;5;0.05;0.05;30\n", []string{"conv1", "fc"}, []float64{0.12, 0.05}, []float64{0.11, 0.05}, 0, false, "';'-separated"},
		{"pandas index", ",avg_us\nconv1,120\nfc,50\n", []string{"conv1", "fc"}, []float64{0.12, 0.05}, nil, 0, true, "µs"},
		{"no unit", "layer|avg\nconv1|0.12\nfc|0.5\n", []string{"conv1", "fc"}, []float64{0.12, 0.5}, nil, 0, true, "no unit named, so ms assumed"},
		{"seconds", "op,duration_s\nconv1,0.00012\nfc,0.0005\n", []string{"conv1", "fc"}, []float64{0.12, 0.5}, nil, 0, true, "times in s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if k := Sniff([]byte(tc.src)); k != KindTimeTable {
				t.Errorf("sniffed %v", k)
			}
			p := mustProfile(t, tc.src)
			if len(p.Records) != len(tc.names) {
				t.Fatalf("%+v", p)
			}
			if !strings.Contains(p.Read, tc.read) {
				t.Errorf("Read = %q, want it to say %q", p.Read, tc.read)
			}
			if tc.count != 0 && (!p.HasCount || p.Count != tc.count) || tc.count == 0 && p.HasCount || p.AveragesOnly != tc.avgOnly {
				t.Errorf("count %d %v, averages only %v", p.Count, p.HasCount, p.AveragesOnly)
			}
			for i, r := range p.Records {
				if r.Name != tc.names[i] || !near(r.AverageMs, tc.avg[i]) || r.HasMedian != (tc.med != nil) || tc.med != nil && !near(r.MedianMs, tc.med[i]) || r.HasPercent {
					t.Errorf("record %d = %+v", i, r)
				}
			}
		})
	}
}

// TestCSVNotTimes: delimited text that is not per-layer times is refused
// and says why; Sniff never calls it a table.
func TestCSVNotTimes(t *testing.T) {
	for _, tc := range []struct{ name, src, code, detail string }{
		{"per-run summary", "Format,Caffe\r\nPrecision,FP32+INT8\r\n ,Throughput,Latency(Mean)\r\nBatch: 1,479.452 qps,2.06069 ms\r\n", CodeNotProfile, `"Throughput"`},
		{"no time column", "layer,type\nconv1,Convolution\n", CodeNotProfile, "no time column"},
		{"no layer column", "avg_ms,median_ms\n0.1,0.2\n", CodeNotProfile, "no layer column"},
		{"text in a time cell", "layer,avg_ms\nconv1,fast\n", CodeNotProfile, `line 2: "fast" in column "avg_ms" is not a number`},
		{"NaN", "layer,avg_ms\nconv1,NaN\n", CodeNonFinite, "line 2"},
		{"negative", "layer,avg_ms\nconv1,-1\n", CodeNotProfile, "negative"},
		{"empty name", "layer,avg_ms\n,0.1\n", CodeMissingField, "line 2 has an empty layer name"},
		{"open quote", "layer,avg_ms\n\"conv1,0.1\n", CodeMalformed, "line 2"},
		{"header only", "layer,avg_ms\n", CodeEmpty, "no layer rows"},
		{"total without count", "layer,total_ms\nconv1,1\n", CodeMissingField, "no count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if k := Sniff([]byte(tc.src)); k == KindTimeTable || k.IsProfile() {
				t.Errorf("sniffed %v", k)
			}
			_, err := ParseProfile([]byte(tc.src))
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Code != tc.code || !strings.Contains(fe.Detail, tc.detail) {
				t.Errorf("err %v, want %s saying %q", err, tc.code, tc.detail)
			}
		})
	}
}
