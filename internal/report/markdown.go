package report

import (
	"bytes"
	"fmt"
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
func RenderMarkdown(src []byte) (string, error) {
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
