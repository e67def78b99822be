package fastjson

import "testing"

func TestScanString(t *testing.T) {
	for _, tc := range []struct {
		in      string // from the opening quote
		raw     string
		end     int
		escapes bool
	}{
		{`"abc",1`, `abc`, 5, false},
		{`""`, ``, 2, false},
		{`"a\"b"x`, `a\"b`, 6, true},
		{`"a\\"x`, `a\\`, 5, true},
		{`"\\\""`, `\\\"`, 6, true},
		{`"no end`, `no end`, 7, false},
		{`"esc \" no end`, `esc \" no end`, 14, true},
		{`"é€"`, `é€`, 7, false},
	} {
		raw, end, esc := ScanString([]byte(tc.in), 0)
		if string(raw) != tc.raw || end != tc.end || esc != tc.escapes {
			t.Errorf("ScanString(%q) = %q, %d, %v; want %q, %d, %v", tc.in, raw, end, esc, tc.raw, tc.end, tc.escapes)
		}
	}
}

func TestNumberShape(t *testing.T) {
	for _, tc := range []struct {
		num  string
		want numberShape
	}{
		{"0", numberShape{whole: true}},
		{"123", numberShape{whole: true}},
		{"-7", numberShape{negative: true, whole: true}},
		{"-0", numberShape{negative: true, whole: true}},
		{"1.5", numberShape{}},
		{"-0.25", numberShape{negative: true}},
		{"1e3", numberShape{mayOverflow: true}},
		{"-2E-3", numberShape{negative: true, mayOverflow: true}},
		{"-", numberShape{negative: true}},
	} {
		if got := numberShapeOf([]byte(tc.num)); got != tc.want {
			t.Errorf("numberShapeOf(%q) = %+v, want %+v", tc.num, got, tc.want)
		}
	}
}
