package trtexecflags

import (
	"reflect"
	"testing"
)

func TestParseLayerSpec(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []LayerSetting
		bad  bool
	}{
		{in: "", want: nil},
		{in: "conv1:fp16", want: []LayerSetting{{"conv1", "fp16"}}},
		{in: "*:fp16,conv1:fp32", want: []LayerSetting{{"*", "fp16"}, {"conv1", "fp32"}}},
		// Split at the last ':' — colons in names work unquoted.
		{in: "a:b:fp16", want: []LayerSetting{{"a:b", "fp16"}}},
		{in: "/model/Conv_0:0:int8", want: []LayerSetting{{"/model/Conv_0:0", "int8"}}},
		// Quoted names: exactly two quotes, ':' right after.
		{in: "'a:b':fp16", want: []LayerSetting{{"a:b", "fp16"}}},
		{in: "x'a b':fp16", want: []LayerSetting{{"xa b", "fp16"}}},
		{in: "name with spaces:fp16", want: []LayerSetting{{"name with spaces", "fp16"}}},
		{in: "a=b:fp16", want: []LayerSetting{{"a=b", "fp16"}}},
		{in: "n:fp16+fp32", want: []LayerSetting{{"n", "fp16+fp32"}}},
		{in: "'it's':fp16", bad: true},
		{in: "'a':", bad: true},
		{in: "'a'fp16", bad: true},
		{in: "'a'", bad: true},
		{in: "conv1", bad: true},
		{in: "conv1:", bad: true},
		{in: "a:fp16,", bad: true},
		{in: "a:fp16,,b:fp32", bad: true},
		{in: "a,b:fp16", bad: true}, // "a" has no ':' — the comma cannot be part of a name
	} {
		got, err := ParseLayerSpec(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("ParseLayerSpec(%q) = %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseLayerSpec(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func TestAddressableLayerName(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"conv1", true},
		{"/model/layer.0/attn/MatMul", true},
		{"a:b", true},
		{"name with spaces", true},
		{"a=b", true},
		{"{ForeignNode[/a/b.../c/d]}", true},
		{"", false},
		{"a,b", false},
		{"it's", false},
		{"*", false},
		{"Conv*", false},
		{"a\x00b", false},
	} {
		if got := AddressableLayerName(c.name); got != c.want {
			t.Errorf("AddressableLayerName(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestFormatLayerSpec(t *testing.T) {
	in := []LayerSetting{{"a:b", "fp16"}, {"x y", "fp32"}, {"{ForeignNode[a...b]}", "int8"}}
	s, err := FormatLayerSpec(in)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseLayerSpec(s)
	if err != nil || !reflect.DeepEqual(back, in) {
		t.Errorf("round trip of %v via %q = %v, %v", in, s, back, err)
	}
	if ps := CheckCommand(QuoteCommand([]string{"trtexec", "--onnx=m.onnx", "--precisionConstraints=obey", "--layerPrecisions=" + s}), V(10, 0)); len(ps) != 0 {
		t.Errorf("formatted spec rejected: %v", ps)
	}
	for _, bad := range [][]LayerSetting{{{"a,b", "fp16"}}, {{"it's", "fp16"}}, {{"*", "fp16"}}, {{"a", "fp16,fp32"}}, {{"a", ""}}} {
		if s, err := FormatLayerSpec(bad); err == nil {
			t.Errorf("FormatLayerSpec(%v) = %q, want an error", bad, s)
		}
	}
}
