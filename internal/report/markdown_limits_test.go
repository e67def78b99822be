package report

import (
	"strings"
	"testing"
)

// pathologicalMarkdown are 400 KB documents on which the Markdown parser
// is superlinear, and the densest documents the guard still lets through
// (just under its limits), whose cost bounds the parser's work.
func pathologicalMarkdown() map[string]string {
	const size = 400 << 10
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	blocks := func(unit string, marks int) string {
		per := strings.Repeat(unit, maxMarkupPerBlock/marks)
		var b strings.Builder
		for total := 0; total+maxMarkupPerBlock <= maxMarkupTotal; total += maxMarkupPerBlock {
			b.WriteString(per + "\n\n")
		}
		for b.Len() < size { // plain prose up to the size
			b.WriteString("The layer takes most of the time because it runs in FP32.\n\n")
		}
		return b.String()
	}
	return map[string]string{
		"unclosed links":         fill("[a]("),
		"unclosed images":        fill("![a]("),
		"brackets":               fill("["),
		"emphasis":               fill("*a_"),
		"link references":        fill("[a]: b\n"),
		"nested quotes":          fill(">"),
		"nested lists":           fill("  - a\n"),
		"angle brackets":         fill("<a"),
		"at the limit: links":    blocks("[a](", 3),
		"at the limit: emphasis": blocks("*a_", 2),
		"at the limit: brackets": blocks("[", 1),
	}
}

// TestMarkdownGuard: past the guard a document is shown as escaped plain
// text; a normal analysis and documents at the limits still render as
// Markdown; past the size limit it is refused.
func TestMarkdownGuard(t *testing.T) {
	for name, md := range pathologicalMarkdown() {
		out, err := RenderMarkdown([]byte(md))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkSafe(t, out)
		plain := strings.Contains(out, `class="md-plain"`)
		if want := !strings.HasPrefix(name, "at the limit"); plain != want {
			t.Errorf("%s: plain text %v, want %v", name, plain, want)
		}
	}
	normal := "## Summary\n\nThe `conv1` layer takes **40%** of the time ([docs](https://example.com)).\n\n" +
		strings.Repeat("| `layer_"+"x` | 1.0 ms | *FP16* |\n", 400)
	if out, _ := RenderMarkdown([]byte(normal)); strings.Contains(out, "md-plain") || !strings.Contains(out, "<strong>40%</strong>") {
		t.Errorf("a normal analysis was not rendered as Markdown: %.200s", out)
	}
	if out, _ := RenderMarkdown([]byte("<script>alert(1)</script>" + strings.Repeat("[", 20000))); !strings.Contains(out, "&lt;script&gt;") {
		t.Errorf("plain text is not escaped: %.200s", out)
	}
	if _, err := RenderMarkdown([]byte(strings.Repeat("a", MaxAnalyzeMDBytes+1))); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("over the size limit: %v", err)
	}
}

// BenchmarkRenderMarkdownPathological: each 400 KB pathological document
// must render (or fall back to plain text) in well under a second.
func BenchmarkRenderMarkdownPathological(b *testing.B) {
	for name, md := range pathologicalMarkdown() {
		src := []byte(md)
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := RenderMarkdown(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
