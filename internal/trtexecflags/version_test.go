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
