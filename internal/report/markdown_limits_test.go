package report

import (
	"strconv"
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
		"padded table 2000x2000": paddedTable(2000),
		"padded table 6000x6000": paddedTable(6000),
		"link reference copied":  "[r]: /" + strings.Repeat("a", 100<<10) + "\n\n" + strings.Repeat("[r] ", 2000) + "\n",
		"at the limit: table":    wideTable(size),
	}
}

// paddedTable is a GFM table of n columns whose n rows hold one cell
// each: 6n bytes that render to n × n cells (2000: 12 KB, 6000: 36 KB).
func paddedTable(n int) string {
	return strings.Repeat("|a", n) + "|\n" + strings.Repeat("|-", n) + "|\n" + strings.Repeat("a\n", n)
}

// wideTable is a real analysis table of size bytes (three columns).
func wideTable(size int) string {
	var b strings.Builder
	b.WriteString("| layer | time | precision |\n|---|---:|:---:|\n")
	for i := 0; b.Len() < size; i++ {
		b.WriteString("| conv" + strconv.Itoa(i) + " + relu | 1.0 ms | FP16 |\n")
	}
	return b.String()
}

// TestMarkdownOutputBounded: whatever the document, the HTML is at most
// maxHTMLPerByte times its size plus maxHTMLSlack (analysis.js carries
// it).
func TestMarkdownOutputBounded(t *testing.T) {
	docs := pathologicalMarkdown()
	for _, extra := range []string{
		strings.Repeat(">\n\n", 1000), strings.Repeat("- \n", 5000), strings.Repeat("www.a.co ", 5000),
		strings.Repeat("# \n", 5000), strings.Repeat("|a|\n|-|\n\n", 2000),
	} {
		docs[extra[:4]] = extra
	}
	for name, md := range docs {
		out, err := RenderMarkdown([]byte(md))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(out) > maxHTMLSize(len(md)) {
			t.Errorf("%s: %d bytes of HTML from %d bytes", name, len(out), len(md))
		}
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
// must render (or fall back to plain text) in well under a second; so
// must the padded tables (issue 24: the 12 KB one took 8.8 s and 1.25 GB,
// the 36 KB one ran out of memory; target < 1 s and < 200 MB).
func BenchmarkRenderMarkdownPathological(b *testing.B) {
	for name, md := range pathologicalMarkdown() {
		src := []byte(md)
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := RenderMarkdown(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
