package fsutil

import (
	"strings"
	"testing"
	"unicode/utf16"
)

func utf16le(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xff, 0xfe)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func TestEncodingHint(t *testing.T) {
	be := func(b []byte) []byte { // swap the bytes of each unit
		c := append([]byte(nil), b...)
		for i := 0; i+1 < len(c); i += 2 {
			c[i], c[i+1] = c[i+1], c[i]
		}
		return c
	}
	for _, tt := range []struct {
		name string
		head []byte
		want string // "" for no hint
	}{
		{"UTF-16 LE with BOM", utf16le(`{"Layers":[]}`, true), "UTF-16 (little-endian)"},
		{"UTF-16 LE without BOM", utf16le(`[{"count":1}]`, false), "UTF-16 (little-endian)"},
		{"UTF-16 BE with BOM", be(utf16le(`{"a":1}`, true)), "UTF-16 (big-endian)"},
		{"UTF-16 BE without BOM", be(utf16le(`&&&& RUNNING`, false)), "UTF-16 (big-endian)"},
		{"UTF-32 LE", []byte{0xff, 0xfe, 0, 0, '{', 0, 0, 0}, "UTF-32"},
		{"UTF-8", []byte(`{"Layers":[]}`), ""},
		{"UTF-8 with BOM", []byte("\xef\xbb\xbf{}"), ""},
		{"NUL bytes", []byte{0, 0, 0, 0}, ""},
		{"empty", nil, ""},
	} {
		got := EncodingHint(tt.head)
		if tt.want == "" && got != "" || tt.want != "" && (!strings.Contains(got, tt.want) || !strings.Contains(got, "re-save it as UTF-8")) {
			t.Errorf("%s: %q", tt.name, got)
		}
	}
}
