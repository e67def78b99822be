package report

import (
	"bytes"
	"fmt"
	"html"
	"net/url"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// markdown renders GitHub-flavoured Markdown. Raw HTML is dropped (goldmark's
// default without html.WithUnsafe) and dangerous link schemes are removed;
// the sanitiser below is a second, independent line of defence.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// sanitizer is a user-generated-content policy: no script, style, event
// handler or form; links only to http, https, mailto and relative URLs,
// opened without referrer.
var sanitizer = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}()

// RenderMarkdown turns an AI-written analyze.md into HTML that is safe to
// insert into the report: raw HTML is dropped; a link stays a link only
// when it is https or relative inside the report folder (no scheme, not
// absolute, no ".." segment, also percent-encoded), else only its text is
// shown; images that are not inside the
// report folder (remote or data: URLs, which could track or mislead the
// reader) are replaced by their alt text.
//
// Markdown parsing is superlinear on some inputs (hundreds of thousands of
// unclosed links or emphasis delimiters take minutes), so a document over
// MaxAnalyzeMDBytes is refused and one whose markup is denser than a
// person writes (see plainReason) is shown as plain text with a note.
func RenderMarkdown(src []byte) (string, error) {
	if len(src) > MaxAnalyzeMDBytes {
		return "", fmt.Errorf("the analysis is %d bytes, over the %d-byte limit for analyze.md; shorten it", len(src), MaxAnalyzeMDBytes)
	}
	if why := plainReason(src); why != "" {
		return plainHTML(src, why), nil
	}
	doc := markdown.Parser().Parse(text.NewReader(src))
	var images []*ast.Image
	var links []ast.Node
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Image:
			if !insideReport(string(l.Destination)) {
				images = append(images, l)
			}
		case *ast.Link:
			if !allowedLink(string(l.Destination)) {
				links = append(links, l)
			}
		case *ast.AutoLink:
			if !allowedLink(string(l.URL(src))) {
				links = append(links, l)
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return "", fmt.Errorf("walk markdown: %w", err)
	}
	for _, n := range links {
		var note string
		switch l := n.(type) {
		case *ast.Link:
			note = plainText(l, src)
		case *ast.AutoLink:
			note = string(l.Label(src))
		}
		n.Parent().ReplaceChild(n.Parent(), n, ast.NewString([]byte(note)))
	}
	for _, img := range images {
		alt := plainText(img, src)
		note := fmt.Sprintf("[image not shown: %s (%s)]", alt, img.Destination)
		img.Parent().ReplaceChild(img.Parent(), img, ast.NewString([]byte(note)))
	}
	budget := maxHTMLSize(len(src))
	buf := budgetWriter{limit: budget}
	if err := markdown.Renderer().Render(&buf, src, doc); err != nil {
		if buf.over {
			return plainHTML(src, fmt.Sprintf("it would render to more than %d times its size", maxHTMLPerByte)), nil
		}
		return "", fmt.Errorf("render markdown: %w", err)
	}
	out := sanitizer.Sanitize(buf.b.String())
	if len(out) > budget {
		return plainHTML(src, fmt.Sprintf("it would render to more than %d times its size", maxHTMLPerByte)), nil
	}
	return out, nil
}

// The rendered HTML of an analyze.md is at most maxHTMLPerByte times its
// size plus maxHTMLSlack bytes; a document that would render to more (a
// table padded to millions of empty cells, a long link reference used
// thousands of times) is shown as plain text, which escaping makes at
// most 6 times its size. analysis.js carries this HTML, so its size is
// bounded by the input's.
const (
	maxHTMLPerByte = 16
	maxHTMLSlack   = 64 << 10
)

func maxHTMLSize(n int) int { return maxHTMLPerByte*n + maxHTMLSlack }

// plainHTML shows src as escaped plain text with the reason.
func plainHTML(src []byte, why string) string {
	return `<p class="md-plain-note"><em>This analysis is shown as plain text: ` + html.EscapeString(why) + `.</em></p><pre class="md-plain">` + html.EscapeString(string(src)) + "</pre>"
}

// budgetWriter keeps up to limit bytes and fails every write after that.
type budgetWriter struct {
	b     bytes.Buffer
	limit int
	over  bool
}

var errOverBudget = fmt.Errorf("rendered Markdown over its size budget")

func (w *budgetWriter) Write(p []byte) (int, error) {
	if w.over || w.b.Len()+len(p) > w.limit {
		w.over = true
		return 0, errOverBudget
	}
	return w.b.Write(p)
}

// MaxAnalyzeMDBytes is the largest analyze.md package accepts (an
// analysis is a few pages; 1 MiB is far beyond one).
const MaxAnalyzeMDBytes = 1 << 20

// Limits of the markup a document may carry to be rendered as Markdown.
// They bound the parser's superlinear cases (it is quadratic in the
// delimiters and brackets of one block, in nesting depth, and slow on
// very long lists) while leaving
// room for long tables and many short paragraphs.
const (
	maxMarkupPerBlock = 2048  // link/emphasis/code/HTML markup characters in one block
	maxMarkupTotal    = 16384 // in the whole document
	maxNesting        = 16    // '>' quotes or list indentation levels on one line
	// The cells of every table (columns of its delimiter row × its
	// rows, header included: short rows are padded to the full width),
	// per byte of the document, plus a constant; a 12 KB table of
	// 2000 × 2000 cells rendered to 124 MB.
	maxCellsPerByte = 1
	maxCellsSlack   = 4096
	// Link reference definitions are copied at every use: their length
	// times the brackets that may use them, per byte of the document.
	maxRefCopyPerByte = 16
)

// plainReason scans src once and says why it must not go through the
// Markdown parser ("" when it may). Table pipes are not markup here: the
// cells of a table are parsed one by one.
func plainReason(src []byte) string {
	if why := tableAndRefReason(src); why != "" {
		return why
	}
	total, block := 0, 0
	lineStart := true
	quotes, indent := 0, 0
	blank := true // the current line has only spaces so far
	for _, c := range src {
		if lineStart {
			switch c {
			case '>':
				quotes++
			case ' ':
				indent++
			case '\t':
				indent += 4
			case '-', '+': // a list item: each costs the parser as much as a link
				total++
				block++
				lineStart = false
			default:
				lineStart = false
			}
			if quotes > maxNesting || indent > 4*maxNesting {
				return fmt.Sprintf("it nests quotes or lists deeper than %d levels", maxNesting)
			}
		}
		switch c {
		case '\n':
			if blank {
				block = 0 // a blank line ends the block
			}
			lineStart, blank, quotes, indent = true, true, 0, 0
			continue
		case '[', ']', '(', ')', '*', '_', '`', '<', '>', '!', '~', '\\', '&':
			total++
			block++
		}
		if c != ' ' && c != '\t' && c != '\r' {
			blank = false
		}
		if block > maxMarkupPerBlock {
			return fmt.Sprintf("one paragraph holds more than %d link, emphasis or code marks", maxMarkupPerBlock)
		}
		if total > maxMarkupTotal {
			return fmt.Sprintf("it holds more than %d link, emphasis or code marks", maxMarkupTotal)
		}
	}
	return ""
}

// tableAndRefReason counts, line by line, the cells GFM tables would
// render and the bytes link references would copy, and says why the
// document must be plain text when either is out of proportion to its
// size ("" otherwise). It over-counts (any line after a delimiter row up
// to a blank line is a row), which only makes the guard stricter.
func tableAndRefReason(src []byte) string {
	cells, cols := 0, 0 // cols > 0 inside a table
	prevCells := 0      // cells of the previous line (a header candidate)
	refLen, brackets := 0, 0
	for rest := src; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		brackets += bytes.Count(line, []byte("["))
		trimmed := bytes.TrimSpace(line)
		switch {
		case len(trimmed) == 0:
			cols, prevCells = 0, 0
			continue
		case cols > 0:
			cells += cols
		default:
			if n := delimiterCells(trimmed); n > 0 && prevCells > 0 {
				cols = n
				cells += 2 * n // the header and the delimiter row
			}
		}
		prevCells = bytes.Count(trimmed, []byte("|")) + 1
		if trimmed[0] == '[' && bytes.Contains(trimmed, []byte("]:")) {
			refLen = max(refLen, len(trimmed))
		}
		if cells > maxCellsPerByte*len(src)+maxCellsSlack {
			return fmt.Sprintf("its tables would expand to more than %d cells", maxCellsPerByte*len(src)+maxCellsSlack)
		}
	}
	if refLen*brackets > maxRefCopyPerByte*len(src)+maxHTMLSlack {
		return "its link references would be copied into more than " + fmt.Sprint(maxRefCopyPerByte) + " times its size"
	}
	return ""
}

// delimiterCells is the number of columns of a GFM table delimiter row
// ("|---|:-:|", "--- | ---"), 0 when line is not one.
func delimiterCells(line []byte) int {
	line = bytes.TrimPrefix(line, []byte("|"))
	line = bytes.TrimSuffix(line, []byte("|"))
	for n := 1; ; n++ {
		cell, rest, more := bytes.Cut(line, []byte("|"))
		cell = bytes.TrimSpace(cell)
		cell = bytes.TrimPrefix(cell, []byte(":"))
		cell = bytes.TrimSuffix(cell, []byte(":"))
		if len(cell) == 0 || len(bytes.Trim(cell, "-")) != 0 {
			return 0
		}
		if !more {
			return n
		}
		line = rest
	}
}

// isRelativeURL reports whether u names a file relative to the report
// folder: no scheme, no host, not protocol-relative, not absolute.
func isRelativeURL(u string) bool {
	u = strings.TrimSpace(u)
	if u == "" || strings.HasPrefix(u, "/") || strings.HasPrefix(u, `\`) {
		return false
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return false
	}
	return parsed.Scheme == "" && parsed.Host == "" && parsed.Opaque == ""
}

// insideReport reports whether u names a file inside the report folder:
// relative (isRelativeURL) with no ".." path segment, whether written
// plainly, percent-encoded or with backslashes.
func insideReport(u string) bool {
	if !isRelativeURL(u) {
		return false
	}
	parsed, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return false
	}
	p := strings.ReplaceAll(parsed.Path, `\`, "/")
	if dec, err := url.PathUnescape(p); err == nil {
		p = strings.ReplaceAll(dec, `\`, "/")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}

// allowedLink: an analysis may link inside the report folder or to an
// https address; nothing else (no javascript:, file:, http:, data:, mailto:,
// absolute paths or ".." out of the report).
func allowedLink(u string) bool {
	if insideReport(u) {
		return true
	}
	parsed, err := url.Parse(strings.TrimSpace(u))
	return err == nil && parsed.Scheme == "https" && parsed.Host != "" && parsed.User == nil
}

// plainText collects the text of n's descendants (an image's alt text).
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
