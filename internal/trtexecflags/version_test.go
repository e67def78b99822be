package trtexecflags

import "testing"

func TestParseVersion(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Version
		bad  bool
	}{
		{in: "8.6.1", want: V(8, 6)},
		{in: "10.4", want: V(10, 4)},
		{in: "TensorRT 8.5.1.7", want: V(8, 5)},
		{in: "TensorRT-10.0.1.6", want: V(10, 0)},
		{in: "v10.13.3", want: V(10, 13)},
		{in: "[TRT] TensorRT version: 10.16.0", want: V(10, 16)},
		{in: "7.x", want: V(7, 0)}, // a release family reads as its first release
		{in: "TensorRT 7.x", want: V(7, 0)},
		{in: "7.xyz", bad: true},
		{in: "10", bad: true},
		{in: "", bad: true},
		{in: "TensorRT", bad: true},
		{in: "0.9", bad: true},
	} {
		got, err := ParseVersion(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("ParseVersion(%q) = %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func TestVersionOrder(t *testing.T) {
	if !V(8, 6).Less(V(10, 0)) || !V(10, 2).Less(V(10, 10)) || V(10, 10).Less(V(10, 2)) || V(9, 0).Less(V(9, 0)) {
		t.Error("Less is not release order")
	}
	if V(10, 10).String() != "10.10" || (Version{}).String() != "unknown" {
		t.Error("String")
	}
}

func TestRange(t *testing.T) {
	trt7 := Range{Lo: V(7, 0), Hi: V(8, 2)}
	for _, c := range []struct {
		flag string
		r    Range
		ok   bool
	}{
		{"--exportLayerInfo", trt7, false}, // came with 8.2: not in 7.0–8.0
		{"--profilingVerbosity=detailed", trt7, false},
		{"--exportProfile", trt7, true},
		{"--exportTimes", Range{Lo: V(7, 0), Hi: V(7, 2)}, true},
		{"--separateProfileRun", Range{Lo: V(7, 0), Hi: V(7, 2)}, false}, // 7.2 only
		{"--exportLayerInfo", Range{Lo: V(8, 2), Hi: V(10, 16)}, true},
		{"--fp16", Range{Lo: V(8, 4)}, false}, // 11.0 has none
		{"--fp16", Range{Lo: V(8, 4), Hi: V(10, 16)}, true},
		{"--fp16", Exactly(V(10, 4)), true},
		{"--exportLayerInfo", Range{}, true}, // unknown: every release from 8.0 on but 8.0, a warning only
	} {
		if ok, why := SupportedIn(c.flag, c.r); ok != c.ok {
			t.Errorf("SupportedIn(%s, %s) = %v (%s), want %v", c.flag, c.r, ok, why, c.ok)
		}
	}
	if r, ok := trt7.Intersect(Range{Lo: V(8, 0)}); !ok || r != (Range{Lo: V(8, 0), Hi: V(8, 2)}) {
		t.Errorf("intersect = %v %v", r, ok)
	}
	if _, ok := trt7.Intersect(Range{Lo: V(8, 4)}); ok {
		t.Error("7.0–8.2 and 8.4+ intersect")
	}
	for r, want := range map[Range]string{trt7: "7.0–8.2", {Lo: V(8, 4)}: "8.4 or newer", Exactly(V(10, 4)): "10.4", {}: "unknown"} {
		if got := r.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", r, got, want)
		}
	}
}
