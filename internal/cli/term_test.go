package cli

import (
	"bytes"
	"testing"
)

func TestTermWriter(t *testing.T) {
	for _, tc := range []struct {
		in    []string // successive writes
		color bool
		want  string
	}{
		{[]string{"plain text\n\tindented ✓ ␞\n"}, false, "plain text\n\tindented ✓ ␞\n"},
		{[]string{"clip\x1b]52;c;aGk=\x07 end"}, false, `clip\x1b]52;c;aGk=\x07 end`},
		{[]string{"clear\x1b[2J\x1b[H"}, false, `clear\x1b[2J\x1b[H`},
		{[]string{"cr\rdel\x7fnul\x00"}, false, `cr\x0ddel\x7fnul\x00`},
		{[]string{"c1 \u009b31m bidi \u202egnp.exe"}, false, `c1 \u009b31m bidi \u202egnp.exe`},
		{[]string{"raw8bit \x9b2J"}, false, `raw8bit \x9b2J`},
		{[]string{"\x1b[1mbold\x1b[0m"}, false, `\x1b[1mbold\x1b[0m`},
		{[]string{"\x1b[1mbold\x1b[0m \x1b[2J"}, true, "\x1b[1mbold\x1b[0m \\x1b[2J"},
		{[]string{"\x1b[3", "2mgreen\x1b", "[0m"}, true, "\x1b[32mgreen\x1b[0m"}, // split colour
		{[]string{"split \xe2\x80", "\xae rune"}, false, `split \u202e rune`},    // split U+202E
		{[]string{"tail \x1b["}, true, `tail \x1b\x5b`},                          // flushed at the end
	} {
		var buf bytes.Buffer
		w := newTermWriter(&buf)
		w.color = tc.color
		for _, s := range tc.in {
			if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
				t.Errorf("Write(%q) = %d, %v", s, n, err)
			}
		}
		w.flushPending()
		if got := buf.String(); got != tc.want {
			t.Errorf("%q (color %v):\n got %q\nwant %q", tc.in, tc.color, got, tc.want)
		}
	}
}
