package report

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// checkSafe is the property every rendering must have, checked on the
// parsed HTML (not on its text, where an alt text or code span may say
// "onerror=" harmlessly): no event handler attribute, no active element, no
// script or data URL, no remote image.
func checkSafe(t *testing.T, out string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(out))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		switch tok.Data {
		case "script", "iframe", "object", "embed", "style", "svg", "math", "form", "textarea", "base", "meta", "link":
			t.Errorf("active element <%s> in rendered HTML:\n%s", tok.Data, out)
		}
		for _, a := range tok.Attr {
			key := strings.ToLower(a.Key)
			if strings.HasPrefix(key, "on") || key == "style" || key == "srcset" {
				t.Errorf("attribute %s on <%s> in rendered HTML:\n%s", key, tok.Data, out)
			}
			if key != "href" && key != "src" {
				continue
			}
			v := strings.ToLower(strings.Map(func(r rune) rune {
				if r <= ' ' {
					return -1
				}
				return r
			}, a.Val))
			for _, scheme := range []string{"javascript:", "vbscript:", "data:"} {
				if strings.HasPrefix(v, scheme) {
					t.Errorf("script URL %q in rendered HTML:\n%s", a.Val, out)
				}
			}
			if tok.Data == "img" && !fromReportFolder(v) {
				t.Errorf("remote image %q in rendered HTML:\n%s", a.Val, out)
			}
		}
	}
}

// fromReportFolder is the oracle's own reading of an image source, by
// the URL standard's rules rather than the renderer's: v (spaces and
// controls already removed) is fetched from outside the report when, with
// backslashes read as slashes as browsers do, it starts with "//" or
// with a scheme (a letter, then letters, digits, '+', '-' or '.', then
// ':'). A colon later in a relative path, query or fragment
// ("plots/a:b.png", "p.png?t=1:2") stays in the report folder; the old
// oracle, which flagged any colon, called those remote (a false
// positive).
func fromReportFolder(v string) bool {
	v = strings.ReplaceAll(v, `\`, "/")
	if strings.HasPrefix(v, "//") {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return false // a scheme
		default:
			return true
		}
	}
	return true
}

func TestFromReportFolder(t *testing.T) {
	for v, want := range map[string]bool{
		"plots/c.png": true, "p.png?x:y": true, "dir/a:b.png": true, "p.png#t=1:2": true, "./x:y.png": true, "a%20b.png": true,
		"https://x/y.png": false, "//x/y.png": false, `\\x\y.png`: false, "data:image/png;base64,AA": false, "javascript:x": false, "c:/x.png": false, "a+b.c-d:x": false,
	} {
		if got := fromReportFolder(v); got != want {
			t.Errorf("fromReportFolder(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestRenderMarkdown(t *testing.T) {
	tests := []struct {
		name, md string
		want     []string // substrings that must be present
		notWant  []string
	}{
		{"heading and emphasis", "# Title\n\nSome **bold** text.", []string{"<h1", "Title</h1>", "<strong>bold</strong>"}, nil},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |\n", []string{"<table>", "<td>1</td>"}, nil},
		{"raw script dropped", "hi <script>alert(1)</script>", []string{"hi"}, []string{"alert(1)</script>"}},
		{"img onerror dropped", `<img src=x onerror="alert(1)">`, nil, []string{"onerror"}},
		{"javascript link removed", "[x](javascript:alert(1))", []string{"<p>x</p>"}, []string{"javascript:", "<a"}},
		{"raw javascript link dropped", `<a href="javascript:alert(1)">x</a>`, nil, []string{"javascript:"}},
		{"remote image replaced", "![chart](https://example.com/c.png)", []string{"image not shown: chart (https://example.com/c.png)"}, []string{"<img"}},
		{"protocol-relative image replaced", "![c](//example.com/c.png)", []string{"image not shown"}, []string{"<img"}},
		{"data image replaced", "![c](data:image/png;base64,AAAA)", []string{"image not shown"}, []string{"<img"}},
		{"relative image kept", "![c](plots/c.png)", []string{`<img src="plots/c.png" alt="c"`}, nil},
		{"relative image with a colon kept", "![c](plots/a:b.png?t=1:2)", []string{`<img src="plots/a:b.png?t=1:2" alt="c"`}, nil},
		{"image out of the report replaced", "![c](../../secret.png)", []string{"image not shown"}, []string{"<img"}},
		{"link out of the report is text", "[up](../../../etc/passwd)", []string{"<p>up</p>"}, []string{"<a", "passwd"}},
		{"percent-encoded .. link is text", "[up](%2e%2e/%2E%2E/x)", []string{"<p>up</p>"}, []string{"<a"}},
		{"backslash .. link is text", `[up](a\..\..\x)`, []string{"<p>up</p>"}, []string{"<a"}},
		{"file link is text", "[f](file:///etc/passwd)", []string{"<p>f</p>"}, []string{"<a", "file:"}},
		{"http link is text", "[h](http://example.com/)", []string{"<p>h</p>"}, []string{"<a"}},
		{"mailto link is text", "[m](mailto:a@example.com)", []string{"<p>m</p>"}, []string{"<a"}},
		{"absolute path link is text", "[p](/etc/passwd)", []string{"<p>p</p>"}, []string{"<a"}},
		{"http autolink is text", "see http://example.com/x now", []string{"http://example.com/x"}, []string{"<a"}},
		{"relative link inside the report kept", "[d](details.html#conv)", []string{`href="details.html#conv"`}, nil},
		{"https link kept, no referrer", "[docs](https://example.com/)", []string{`href="https://example.com/"`, "noreferrer"}, nil},
		{"textarea breakout is text", "</textarea><b>x</b>", nil, []string{"</textarea>"}},
		{"code keeps tags as text", "`<script>`", []string{"<code>&lt;script&gt;</code>"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html, err := RenderMarkdown([]byte(tt.md))
			if err != nil {
				t.Fatal(err)
			}
			checkSafe(t, html)
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("missing %q in %s", w, html)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(html, w) {
					t.Errorf("unexpected %q in %s", w, html)
				}
			}
		})
	}
}

func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range []string{
		"# x", "<script>alert(1)</script>", "[a](javascript:alert(1))", "![i](http://x/y.png)",
		"<img src=x onerror=alert(1)>", "<a href=\"jav&#x09;ascript:alert(1)\">x</a>", "<svg onload=alert(1)>",
		"![a onerror=alert(1)](p.png)", "`src=data:x`", strings.Repeat("[a](", 64),
		"![c](plots/a:b.png?t=1:2)", "|a|b|\n|-|-|\nx\n", "[r]: /x\n\n[r] [r]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, md []byte) {
		html, err := RenderMarkdown(md)
		if err != nil {
			t.Fatal(err)
		}
		checkSafe(t, html)
	})
}
