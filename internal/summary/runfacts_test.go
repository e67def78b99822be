package summary

import (
	"reflect"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

func TestInventoryOfLayerOnly(t *testing.T) {
	b := &contract.Backend{Validation: contract.BackendValidation{AnalysisMode: contract.ModeLayerOnly}, Layers: []contract.Layer{
		{Name: "conv", LayerType: "CaskConvolution", TacticName: "sm80_conv", Outputs: []contract.Tensor{{Format: "FP16 NHWC8"}}},
		{Name: "conv2", LayerType: "CaskConvolution", TacticName: "sm80_conv", Outputs: []contract.Tensor{{Format: "FP16 NHWC8"}}},
		{Name: "{ForeignNode[a...b]}", LayerType: "Myelin", Outputs: []contract.Tensor{{Format: "FP32"}}},
	}}
	inv := inventoryOf(b)
	want := &inventory{
		Types:   []count{{"CaskConvolution", 2}, {"Myelin", 1}},
		Formats: []count{{"FP16 NHWC8", 2}, {"FP32", 1}},
		Tactics: []count{{"sm80_conv", 2}},
		Myelin:  1,
	}
	if !reflect.DeepEqual(inv, want) {
		t.Errorf("inventory %+v, want %+v", inv, want)
	}
	b.Validation.AnalysisMode = contract.ModeLayerProfile
	if inventoryOf(b) != nil {
		t.Error("a timed backend got an inventory")
	}
}

func TestDeviceAndBuildLines(t *testing.T) {
	cc, sms, bw, fp16 := "8.0", 108, 1935.36, 311.869
	d := &contract.Device{Name: "NVIDIA A100 80GB PCIe", ComputeCapability: &cc, SMCount: &sms, MemoryBandwidthGBs: &bw,
		PeakTFLOPS: contract.Peaks{FP16: &fp16}, Source: "meta_device.json"}
	if got := deviceLine(d); !strings.Contains(got, "NVIDIA A100 80GB PCIe") || !strings.Contains(got, "1935 GB/s") || !strings.Contains(got, "FP16 311.9") || !strings.HasSuffix(got, "from meta_device.json") {
		t.Errorf("device line %q", got)
	}
	v, p := "8.6.1", "FP32+FP16"
	b := &contract.Build{TensorRTVersion: &v, Precision: &p, PrecisionFlags: []string{"--fp16"}, Sources: []string{"log.txt"}}
	if got := buildLine(b); got != "build TensorRT 8.6.1, precision FP32+FP16 (--fp16) from log.txt" {
		t.Errorf("build line %q", got)
	}
	if deviceLine(nil) != "" || buildLine(nil) != "" {
		t.Error("nil facts printed a line")
	}
}
