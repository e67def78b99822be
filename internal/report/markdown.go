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
// insert into the report: raw HTML is dropped, links are restricted, and
// images that are not relative to the report folder (remote or data: URLs,
// which could track or mislead the reader) are replaced by their alt text.
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
		return `<p class="md-plain-note"><em>This analysis is shown as plain text: ` + html.EscapeString(why) + `.</em></p><pre class="md-plain">` + html.EscapeString(string(src)) + "</pre>", nil
	}
	doc := markdown.Parser().Parse(text.NewReader(src))
	var images []*ast.Image
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if img, ok := n.(*ast.Image); ok && entering && !isRelativeURL(string(img.Destination)) {
			images = append(images, img)
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return "", fmt.Errorf("walk markdown: %w", err)
	}
	for _, img := range images {
		alt := plainText(img, src)
		note := fmt.Sprintf("[image not shown: %s (%s)]", alt, img.Destination)
		img.Parent().ReplaceChild(img.Parent(), img, ast.NewString([]byte(note)))
	}
	var buf bytes.Buffer
	if err := markdown.Renderer().Render(&buf, src, doc); err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	return sanitizer.Sanitize(buf.String()), nil
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
)

// plainReason scans src once and says why it must not go through the
// Markdown parser ("" when it may). Table pipes are not markup here: the
// cells of a table are parsed one by one.
func plainReason(src []byte) string {
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
