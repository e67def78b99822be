package gpu

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func within(got *float64, want, rel float64) bool {
	return got != nil && math.Abs(*got-want) <= rel*want
}

// Datasheet figures (dense): NVIDIA A100 PCIe 80GB datasheet (1,935 GB/s;
// FP32 19.5, TF32 156, FP16 312, INT8 624), T4 datasheet (320 GB/s; FP32
// 8.1, FP16 65, INT8 130), L4 datasheet (300 GB/s; FP16 121, INT8 242.5),
// H100 SXM datasheet (3.35 TB/s; FP16 989.5), V100 SXM2 (900 GB/s; FP16 125).
func TestDeriveMatchesDatasheets(t *testing.T) {
	tests := []struct {
		name                       string
		dev                        Device
		bw, fp32, tf32, fp16, int8 float64 // 0: must be unknown (nil)
		bandwidthBasis, peakBasis  string
	}{
		{"A100 from its metadata", Device{Name: "NVIDIA A100 80GB PCIe", CCMajor: 8, CCMinor: 0, SMs: 108, ClockGHz: 1.41, MemClockGHz: 1.512, BusWidthBits: 5120},
			1935, 19.5, 156, 312, 624, "bus_width_x_memory_clock", "sm_count_x_clock"},
		{"T4 by name only", Device{Name: "Tesla T4", CCMajor: -1}, 320, 8.1, 0, 65, 130, "table", "table"},
		{"L4 by name only", Device{Name: "NVIDIA L4", CCMajor: -1}, 300, 30.3, 60, 121, 242.5, "table", "table"},
		{"H100 SXM by name", Device{Name: "NVIDIA H100 80GB HBM3", CCMajor: 9, CCMinor: 0}, 3350, 0, 494.7, 989.5, 1979, "table", "table"},
		{"V100 has no INT8 tensor cores", Device{Name: "Tesla V100-SXM2-16GB", CCMajor: 7, CCMinor: 0}, 900, 15.7, 0, 125, 0, "table", "table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := Derive(tt.dev)
			if !ok {
				t.Fatal("no facts")
			}
			if !within(f.MemoryBandwidthGBs, tt.bw, 0.02) || f.BandwidthBasis != tt.bandwidthBasis {
				t.Errorf("bandwidth %v (%s), want %v (%s)", f.MemoryBandwidthGBs, f.BandwidthBasis, tt.bw, tt.bandwidthBasis)
			}
			for _, p := range []struct {
				name string
				got  *float64
				want float64
			}{{"fp32", f.Peaks.FP32, tt.fp32}, {"tf32", f.Peaks.TF32, tt.tf32}, {"fp16", f.Peaks.FP16, tt.fp16}, {"int8", f.Peaks.INT8, tt.int8}} {
				if p.want == 0 {
					if p.got != nil && p.name == "int8" {
						t.Errorf("%s = %v, want unknown", p.name, *p.got)
					}
					continue
				}
				if !within(p.got, p.want, 0.03) {
					t.Errorf("%s peak %v, want %v within 3 %%", p.name, p.got, p.want)
				}
			}
			if f.PeakBasis != tt.peakBasis {
				t.Errorf("peak basis %q, want %q", f.PeakBasis, tt.peakBasis)
			}
		})
	}
}

func TestLookupWords(t *testing.T) {
	tests := []struct {
		name    string
		maj     int
		wantSMs int // 0: no row
	}{
		{"NVIDIA L40S", -1, 142},
		{"NVIDIA L4", -1, 58},
		{"NVIDIA A10", -1, 72},
		{"NVIDIA A100-SXM4-40GB", -1, 108},
		{"NVIDIA GeForce RTX 3060 Laptop GPU", -1, 30},
		{"NVIDIA GeForce RTX 3060 Ti", -1, 38},
		{"NVIDIA A100 80GB PCIe", 9, 0}, // compute capability disagrees
		{"Unknown Accelerator", -1, 0},
	}
	for _, tt := range tests {
		p := lookup(tt.name, tt.maj, 0)
		switch {
		case tt.wantSMs == 0 && p != nil:
			t.Errorf("%s: matched %v", tt.name, p.match)
		case tt.wantSMs != 0 && (p == nil || p.sms != tt.wantSMs):
			t.Errorf("%s: got %+v, want %d SMs", tt.name, p, tt.wantSMs)
		}
	}
}

func TestDeriveUnknown(t *testing.T) {
	if _, ok := Derive(Device{CCMajor: -1}); ok {
		t.Error("a device with nothing known gave facts")
	}
	f, ok := Derive(Device{Name: "Future GPU", CCMajor: 12, CCMinor: 0, SMs: 100, ClockGHz: 2})
	if !ok || f.Peaks.FP16 != nil || len(f.Notes) == 0 {
		t.Errorf("unknown architecture: %+v", f)
	}
}

func TestAttainable(t *testing.T) {
	// A100 FP16: 311.9 TFLOP/s over 1935 GB/s puts the ridge at 161 FLOP/byte.
	for _, tc := range []struct {
		name                string
		peak, bw, intensity float64
		want                float64
		computeBound        bool
	}{
		{"left of the ridge", 311.9, 1935, 16, 16 * 1935.0 / 1000, false},
		{"right of the ridge", 311.9, 1935, 287, 311.9, true},
		{"on the ridge", 100, 1000, 100, 100, true},
		{"zero intensity", 100, 1000, 0, 0, false},
	} {
		got, cb := Attainable(tc.peak, tc.bw, tc.intensity)
		if math.Abs(got-tc.want) > 1e-9 || cb != tc.computeBound {
			t.Errorf("%s: Attainable(%v, %v, %v) = %v, %v; want %v, %v", tc.name, tc.peak, tc.bw, tc.intensity, got, cb, tc.want, tc.computeBound)
		}
	}
}

// Tensor-core precisions, device class and DLA cores from the table
// (architecture whitepapers; Jetson module data sheets for the DLA count).
func TestCapabilities(t *testing.T) {
	tests := []struct {
		dev       Device
		tc        []string
		class     string
		dla       int
		fp16, fp8 bool // a peak is known
	}{
		{Device{Name: "NVIDIA GeForce GTX 1080", CCMajor: -1}, nil, ClassConsumer, 0, true, false}, // FP16 at 1/64 of FP32
		{Device{Name: "NVIDIA GeForce GTX 1660 SUPER", CCMajor: 7, CCMinor: 5}, nil, ClassConsumer, 0, true, false},
		{Device{Name: "Tesla T4", CCMajor: -1}, []string{"FP16", "INT8"}, ClassDataCentre, 0, true, false},
		{Device{Name: "Tesla V100-SXM2-16GB", CCMajor: 7, CCMinor: 0}, []string{"FP16"}, ClassDataCentre, 0, true, false},
		{Device{Name: "NVIDIA L4", CCMajor: -1}, []string{"TF32", "FP16", "BF16", "INT8", "FP8"}, ClassDataCentre, 0, true, true},
		{Device{Name: "NVIDIA GeForce RTX 3060 Laptop GPU", CCMajor: 8, CCMinor: 6}, []string{"TF32", "FP16", "BF16", "INT8"}, ClassConsumer, 0, true, false},
		{Device{Name: "Orin NX 16GB", CCMajor: -1}, []string{"TF32", "FP16", "BF16", "INT8"}, ClassJetson, 1, true, false},
		{Device{Name: "Jetson Orin Nano", CCMajor: 8, CCMinor: 7}, []string{"TF32", "FP16", "BF16", "INT8"}, ClassJetson, 0, true, false},
		{Device{Name: "Jetson AGX Xavier", CCMajor: -1}, []string{"FP16", "INT8"}, ClassJetson, 2, true, false},
		{Device{Name: "NVIDIA RTX A5000", CCMajor: -1}, []string{"TF32", "FP16", "BF16", "INT8"}, ClassWorkstation, 0, true, false},
	}
	for _, tt := range tests {
		f, ok := Derive(tt.dev)
		if !ok {
			t.Fatalf("%s: no facts", tt.dev.Name)
		}
		if !slices.Equal(f.TensorCores, tt.tc) || f.Class != tt.class || f.DLACores != tt.dla {
			t.Errorf("%s: tensor cores %v class %s dla %d, want %v %s %d", tt.dev.Name, f.TensorCores, f.Class, f.DLACores, tt.tc, tt.class, tt.dla)
		}
		if (f.Peaks.FP16 != nil) != tt.fp16 || (f.Peaks.FP8 != nil) != tt.fp8 {
			t.Errorf("%s: fp16 peak %v fp8 peak %v, want known %v %v", tt.dev.Name, f.Peaks.FP16, f.Peaks.FP8, tt.fp16, tt.fp8)
		}
	}
}

func TestDefaultFor(t *testing.T) {
	for _, cc := range [][2]int{{7, 0}, {7, 5}, {8, 0}, {8, 6}, {8, 7}, {8, 9}, {9, 0}, {6, 1}} {
		f, ok := DefaultFor(cc[0], cc[1])
		if !ok || f.CCMajor != cc[0] || f.CCMinor < cc[1] || f.MemoryBandwidthGBs == nil || f.Peaks.FP32 == nil {
			t.Errorf("DefaultFor(%d.%d) = %+v, %v", cc[0], cc[1], f, ok)
		}
	}
	if _, ok := DefaultFor(3, 0); ok {
		t.Error("DefaultFor(3.0) found a product")
	}
}

// Named finds a GPU by the words a user types and refuses a name the
// table does not hold, listing the ones it does.
func TestNamed(t *testing.T) {
	for _, tt := range []struct {
		name    string
		sms     int
		bw      float64
		unknown bool
	}{
		{"RTX 3060 Laptop", 30, 336, false},
		{"NVIDIA GeForce RTX 3060", 28, 360, false},
		{"a10g", 80, 600, false},
		{"A10", 72, 600, false},
		{"Jetson Orin Nano", 8, 68, false},
		{"Radeon RX 7900", 0, 0, true},
		{"", 0, 0, true},
	} {
		f, err := Named(tt.name)
		if tt.unknown {
			if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "rtx 3060 laptop") {
				t.Errorf("%q: %v, want ErrUnknown listing the known names", tt.name, err)
			}
			continue
		}
		if err != nil || f.SMs != tt.sms || f.MemoryBandwidthGBs == nil || *f.MemoryBandwidthGBs != tt.bw || f.Peaks.FP32 == nil {
			t.Errorf("%q: %+v, %v; want %d SMs, %g GB/s and peaks", tt.name, f, err, tt.sms, tt.bw)
		}
	}
	if n := Names(); len(n) != len(products) || n[0] != "h200" {
		t.Errorf("Names() = %v", n)
	}
}

// Which precisions a GPU computes faster than FP32, and the CUDA-core FP16
// rate where it differs from the tensor-core one (CUDA C++ Programming
// Guide throughput table: 2× FP32 on P100 and Jetson TX2, 1/64 on GP10x).
func TestFastPaths(t *testing.T) {
	tests := []struct {
		name        string
		fp16, int8  bool
		fp16PerFP32 float64 // FP16 peak ÷ FP32 peak; 0: no FP16 peak
		offers      string
	}{
		{"GTX 1080", false, true, 1.0 / 64, "INT8 by DP4A at 4× the FP32 rate"},
		{"Tesla P4", false, true, 1.0 / 64, "INT8 by DP4A at 4× the FP32 rate"},
		{"Tesla P100", true, false, 2, "FP16 at 2× the FP32 rate"},
		{"Jetson TX2", true, false, 2, "FP16 at 2× the FP32 rate"},
		{"Jetson Nano", true, false, 2, "FP16 at 2× the FP32 rate"},
		{"GTX 1660 Ti", true, true, 2, "FP16 at 2× the FP32 rate; INT8 by DP4A at 4× the FP32 rate"},
		{"Tesla V100", true, true, 8, "FP16 on tensor cores; INT8 by DP4A at 4× the FP32 rate"},
		{"Tesla T4", true, true, 8, "FP16, INT8 on tensor cores"},
		{"L4", true, true, 4, "TF32, FP16, BF16, INT8, FP8 on tensor cores"},
	}
	for _, tt := range tests {
		f, err := Named(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := FastFP16(f.CCMajor, f.CCMinor); got != tt.fp16 {
			t.Errorf("%s: FastFP16 %v, want %v", tt.name, got, tt.fp16)
		}
		if got := FastINT8(f.CCMajor, f.CCMinor); got != tt.int8 {
			t.Errorf("%s: FastINT8 %v, want %v", tt.name, got, tt.int8)
		}
		ratio := 0.0
		if f.Peaks.FP16 != nil && f.Peaks.FP32 != nil {
			ratio = *f.Peaks.FP16 / *f.Peaks.FP32
		}
		if math.Abs(ratio-tt.fp16PerFP32) > 0.01*tt.fp16PerFP32 {
			t.Errorf("%s: FP16/FP32 peak %.4g, want %.4g", tt.name, ratio, tt.fp16PerFP32)
		}
		if got := Offers(f.CCMajor, f.CCMinor, f.TensorCores); got != tt.offers {
			t.Errorf("%s: offers %q, want %q", tt.name, got, tt.offers)
		}
	}
	// Maxwell 5.2 has no FP16 arithmetic and no DP4A: nothing is faster.
	if FastFP16(5, 2) || FastINT8(5, 2) || Offers(5, 2, nil) != "" {
		t.Errorf("Maxwell 5.2: fast FP16 %v INT8 %v offers %q, want none", FastFP16(5, 2), FastINT8(5, 2), Offers(5, 2, nil))
	}
}
