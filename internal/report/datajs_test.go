package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestWriteJSAssignment(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", `{"a":1}`, "window.X = {\"a\":1};\n"},
		{"script close", `{"n":"</script><script>x()</script>"}`, `window.X = {"n":"\u003c/script\u003e\u003cscript\u003ex()\u003c/script\u003e"};` + "\n"},
		{"comment open", `["<!--"]`, `window.X = ["\u003c!--"];` + "\n"},
		{"ampersand", `"a&b"`, `window.X = "a\u0026b";` + "\n"},
		{"line separators", "\"a\u2028b\u2029c\"", `window.X = "a\u2028b\u2029c";` + "\n"},
		{"every other non-ASCII character escaped", `"é—€×µ"`, `window.X = "\u00e9\u2014\u20ac\u00d7\u00b5";` + "\n"},
		{"beyond U+FFFF as a surrogate pair", `"a😀b"`, `window.X = "a\ud83d\ude00b";` + "\n"},
		{"invalid UTF-8 as U+FFFD", "\"a\xffb\"", `window.X = "a\ufffdb";` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := writeJSAssignment(&buf, "X", []byte(tt.in)); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tt.want {
				t.Errorf("got  %q\nwant %q", buf.String(), tt.want)
			}
		})
	}
}

// FuzzWriteEscapedJSON: for any JSON document, the escaped form holds none of
// the dangerous characters and still decodes to the same value.
func FuzzWriteEscapedJSON(f *testing.F) {
	for _, s := range []string{`{"a":"</script>"}`, "\"\u2028\"", `[1,2,"<&>"]`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want any
		if json.Unmarshal(data, &want) != nil {
			return
		}
		var buf bytes.Buffer
		if err := writeJSAssignment(&buf, "X", data); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		body := strings.TrimSuffix(strings.TrimPrefix(out, "window.X = "), ";\n")
		for _, c := range []byte(body) {
			if c == '<' || c == '>' || c == '&' || c >= 0x80 {
				t.Fatalf("unescaped character %q left in %q", c, body)
			}
		}
		var got any
		if err := json.Unmarshal([]byte(body), &got); err != nil {
			t.Fatalf("escaped JSON no longer parses: %v", err)
		}
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(got)
		if !bytes.Equal(a, b) {
			t.Fatalf("value changed: %s vs %s", a, b)
		}
	})
}

func BenchmarkWriteJSAssignment(b *testing.B) {
	data := bytes.Repeat([]byte(`{"Name":"/model/layers.1/self_attn/q_proj/MatMul","LayerType":"gemm","x":"<&>"},`), 100000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var buf bytes.Buffer
		buf.Grow(len(data) + len(data)/8)
		if err := writeJSAssignment(&buf, "X", data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEscapeAtEveryPosition puts each character that needs (or looks like
// it needs) escaping at every offset of a plain run, so that both the
// eight-byte scan and the byte loop meet it at every alignment.
func TestEscapeAtEveryPosition(t *testing.T) {
	ref := strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "\u2028", `\u2028`, "\u2029", `\u2029`,
		"—", `\u2014`, "€", `\u20ac`, "é", `\u00e9`, "😀", `\ud83d\ude00`, "\x7f", "\x7f")
	for _, c := range []string{"<", ">", "&", "\u2028", "\u2029", "—", "€", "é", "😀", "\x7f"} {
		for n := range 20 {
			for _, tail := range []int{0, 3, 11} {
				s := strings.Repeat("a", n) + c + strings.Repeat("b", tail)
				var buf bytes.Buffer
				w := bufio.NewWriter(&buf)
				if err := writeEscapedJSON(w, []byte(s)); err != nil {
					t.Fatal(err)
				}
				w.Flush()
				if want := ref.Replace(s); buf.String() != want {
					t.Fatalf("escape(%q) = %q, want %q", s, buf.String(), want)
				}
			}
		}
	}
}

// BenchmarkWriteJSPlain is the common case: layer JSON with nothing to
// escape, where the eight-byte scan copies whole runs.
func BenchmarkWriteJSPlain(b *testing.B) {
	data := bytes.Repeat([]byte(`{"Name":"/model/layers.1/self_attn/q_proj/MatMul","LayerType":"gemm","Dimensions":[1,128,4096]},`), 100000)
	b.SetBytes(int64(len(data)))
	var buf bytes.Buffer
	buf.Grow(len(data) + 64)
	for b.Loop() {
		buf.Reset()
		if err := writeJSAssignment(&buf, "X", data); err != nil {
			b.Fatal(err)
		}
	}
}
