package dump

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

var layerSeeds = []string{
	`{"Layers": [{"Name": "a", "LayerType": "Shuffle", "Inputs": [{"Name": "x", "Dimensions": [1,-1], "Format/Datatype": "Half"}], "Outputs": [{"Name": "y"}], "Kernel": [3,3]}], "Bindings": ["x", "y"]}`,
	`{"Layers": ["a", "b [profile 1]"], "Bindings": ["x"]}`,
	`[{"Name": "a\u001e", "_subgraph": 1, "StreamId": 2, "Metadata": "m\u001f"}]`,
	`{"Layers": [{"Name": "g", "Inputs": [{"Name": "x", "Format": "Row major linear", "Datatype": "FP16", "Strides": [1]}]}], "I/O Tensors": [{"Name": "x", "IOMode": "Input"}]}`,
	"{\"Layers\": [{\"Name\": \"a\"}]}\n{\"Layers\": []}",
	`[{"Name": "a", "P": NaN}]`,
	`{"a": [1, 2]}`,
	"{\"Layers\": [{\n  \"Name\": \"a\",\n  \"Outputs\": [{\"Name\": \"t\"}]\n},{\n  \"Name\": \"b\"\n},{\n  \"Name\": \"c\"\n},{\n  \"Name\": \"d\", \"Inputs\": [{\"Name\": \"t\"}]\n}]}",
}

// validJSON reports whether data (minus a BOM) is one valid JSON document.
func validJSON(data []byte) bool {
	return json.Valid(bytes.TrimPrefix(data, []byte("\ufeff")))
}

func FuzzParseLayerInfo(f *testing.F) {
	for _, s := range layerSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		li, err := ParseLayerInfo(data)
		if workers() > 1 {
			// The two-goroutine path must agree exactly with the single pass.
			par, perr := parseWith(t, data, true)
			if (err == nil) != (perr == nil) || err != nil && err.Error() != perr.Error() || !reflect.DeepEqual(li, par) {
				t.Fatalf("parallel decode differs: %v / %v", err, perr)
			}
		}
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Code == "" || fe.Detail == "" {
				t.Fatalf("error is not a complete *FormatError: %v", err)
			}
			return
		}
		if !validJSON(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		for i, l := range li.Layers {
			if l.Index != i {
				t.Fatalf("layer %d has Index %d", i, l.Index)
			}
			for _, p := range l.Params {
				if !json.Valid(p.Value) {
					t.Fatalf("param %s is not valid JSON: %q", p.Key, p.Value)
				}
			}
		}
	})
}

func FuzzParseProfile(f *testing.F) {
	for _, s := range []string{
		`[{"count": 10}, {"name": "a", "timeMs": 1, "averageMs": 0.1, "medianMs": 0.1, "percentage": 100}]`,
		`[{"name": "a", "timeMs": 1, "averageMs": 0.1, "percentage": 100}]`,
		`{"a": [0.1, 0.2], "b": [[0.3, "t"]]}`,
		"[{\"count\": 1}]\n[{\"count\": 2}]",
		`[{"name": "a", "timeMs": Infinity, "averageMs": 1}]`,
		`{"Layers": []}`,
		`[{"layer": "conv1", "avg_ms": 0.5, "median_ms": 0.4}, {"layerName": "fc", "mean_ms": 1}]`,
		`{"conv1": 0.12, "fc": 0.5, "Total": 0.62}`,
		`{"unit": "us", "iterations": 10, "layers": {"a": [100, 300], "b": {"mean_us": 5e307, "median_us": 4}}}`,
		`{"layer_times_ns": [{"name": "a", "times": [1, 2]}, {"name": "b", "total": 3, "calls": 2}]}`,
		`{"name": {"0": "a", "1": "b"}, "avg_us": {"0": 1, "1": 2.5}, "calls": {"0": 3, "1": 3}}`,
		`{"batch": 1, "workspace": 4096}`,
		`[{"Layer": "a", "Time (us)": 12.5, "Time %": 40}, {"Layer": "b", "Time (us)": 1e308}]`,
		"layer,avg_us\nconv1,120\n\"fc, x\",1e3\nTotal,1120\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProfile(data)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Code == "" || fe.Detail == "" {
				t.Fatalf("error is not a complete *FormatError: %v", err)
			}
			return
		}
		_, pasted := recordLines(bytes.TrimPrefix(data, []byte("\ufeff")))
		if _, _, table := findHeader(data); !validJSON(data) && !pasted && !table {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		if len(p.Records) == 0 {
			t.Fatal("success without records")
		}
		for _, r := range p.Records {
			for _, v := range [...]float64{r.AverageMs, r.TimeMs, r.MedianMs, r.Percentage} {
				if math.IsInf(v, 0) || math.IsNaN(v) {
					t.Fatalf("record %+v holds a non-finite number", r)
				}
			}
		}
		if p.Kind != engine.ProfileTrtexec && p.Kind != engine.ProfileLatencyDict {
			t.Fatalf("kind %q", p.Kind)
		}
	})
}

func FuzzSniff(f *testing.F) {
	for _, s := range layerSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"conv1": 0.12, "fc": 0.5}`,
		`{"unit": "us", "layers": [{"name": "a", "avg": 1}, {"name": "b", "avg": 2}]}`,
		`[{"name": "a", "times": [0.1, 0.2]}, {"name": "b", "times": [0.3]}]`,
		"layer\tavg_ms\nconv1\t0.1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		k := Sniff(data)
		if Describe(data, k) == "" {
			t.Fatalf("no description of %q (%v)", data, k)
		}
	})
}

func FuzzParseCSVTable(f *testing.F) {
	for _, s := range []string{
		"layer,avg_ms,median_ms\nconv1,0.12,0.11\nfc,0.5,0.45\n",
		"\ufeffLayer Name,Time (us),Time %\r\n\"Conv_0 + Relu_1, fused\",120.5,60\r\n\"say \"\"hi\"\"\",80,40\r\nTotal,200.5,100\r\n",
		"name\tmean_ns\tmax_ns\tcalls\nconv1\t120000\t900000\t10\n",
		"# title\nLayer;Time (ms);Avg. Time (ms);Median Time (ms);Time %\nconv1;12;0.12;0.11;70\n",
		",avg_us\nconv1,120\n",
		"Format,Caffe\r\n ,Throughput,Latency(Mean)\r\nBatch: 1,479.452 qps,2.06069 ms\r\n",
		"layer,total_ms,count\na,1e308,0.5\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parseCSVTable(data)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Code == "" || fe.Detail == "" {
				t.Fatalf("error is not a complete *FormatError: %v", err)
			}
			return
		}
		if len(p.Records) == 0 || p.Read == "" {
			t.Fatalf("success without records or without saying how it was read: %+v", p)
		}
		for _, r := range p.Records {
			if r.Name == "" || r.AverageMs < 0 || math.IsInf(r.AverageMs, 0) || math.IsNaN(r.AverageMs) || math.IsInf(r.TimeMs, 0) || math.IsNaN(r.TimeMs) {
				t.Fatalf("record %+v", r)
			}
		}
		if Sniff(data) == KindUnknown && len(data) < SniffSize && !bytes.Contains(data, []byte{0}) {
			// A table read whole is recognised from its head.
			if _, _, ok := findHeader(data); ok {
				t.Fatalf("read as a table, sniffed as unknown: %q", data)
			}
		}
	})
}
