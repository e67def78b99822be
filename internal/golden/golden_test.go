package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPosition(t *testing.T) {
	for _, tt := range []struct {
		a, b      string
		line, col int
	}{
		{"abc", "abd", 1, 3},
		{"a\nbc", "a\nbd", 2, 2},
		{"same", "same", 1, 5},
		{"short", "shorter", 1, 6},
	} {
		if l, c := position([]byte(tt.a), []byte(tt.b)); l != tt.line || c != tt.col {
			t.Errorf("position(%q, %q) = %d:%d, want %d:%d", tt.a, tt.b, l, c, tt.line, tt.col)
		}
	}
}

func TestDiff(t *testing.T) {
	for _, tt := range []struct{ want, got, out string }{
		{"a\nb\nc\nd\n", "a\nb\nX\nd\n", "--- 1 lines of the golden file, +++ 1 lines of the output, from line 3:\n  b\n- c\n+ X\n  d\n"},
		{"a\n", "a\nnew\n", "--- 0 lines of the golden file, +++ 1 lines of the output, from line 2:\n  a\n+ new\n  \n"},
		{`{"k":"` + strings.Repeat("x", 300) + `1` + strings.Repeat("y", 300) + `"}`, `{"k":"` + strings.Repeat("x", 300) + `2` + strings.Repeat("y", 300) + `"}`,
			"--- 1 lines of the golden file, +++ 1 lines of the output, from line 1:\n- …" + strings.Repeat("x", 80) + "1" + strings.Repeat("y", 79) + "…\n+ …" + strings.Repeat("x", 80) + "2" + strings.Repeat("y", 79) + "…\n"},
	} {
		if got := diff([]byte(tt.want), []byte(tt.got)); got != tt.out {
			t.Errorf("diff(%.40q, %.40q) =\n%s\nwant\n%s", tt.want, tt.got, got, tt.out)
		}
	}
}

func TestPrettyRoundTrip(t *testing.T) {
	long := strings.Repeat("word \\\"quoted\\\" ", 60)
	doc := `{"a":1.50,"b":[1,2,3],"c":[[0,1],[1,2]],"d":{"e":"` + long + `","f":[]},"g":[{"h":null}],"i":{}}`
	p, err := Pretty([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(p), "\n") {
		if len(l) > 200 {
			t.Errorf("line %d is %d bytes", i+1, len(l))
		}
	}
	for _, want := range []string{`"a": 1.50,`, `"b": [1, 2, 3],`, `"c": [[0, 1], [1, 2]],`, `"f": []`, `"i": {}`} {
		if !strings.Contains(string(p), want) {
			t.Errorf("pretty output lacks %s:\n%s", want, p)
		}
	}
	path := filepath.Join(t.TempDir(), "x.json")
	if err := os.WriteFile(path, p, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(back) != doc {
		t.Errorf("ReadJSON(Pretty(doc)) =\n%s\nwant\n%s", back, doc)
	}
}
