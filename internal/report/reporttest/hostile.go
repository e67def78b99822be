package reporttest

import (
	"fmt"
	"strings"

	"github.com/trtperf/trtperf/internal/contract"
)

// Payloads are strings that execute script if a page inserts them as HTML,
// each setting window.__pwned. A report must show them as text.
var Payloads = []string{
	`<script>window.__pwned="script"</script>`,
	`<img src=x onerror="window.__pwned='img'">`,
	`</textarea><svg onload="window.__pwned='svg'">`,
	`</script><script>window.__pwned="close-script"</script>`,
	`"><iframe src="javascript:window.top.__pwned='iframe'"></iframe>`,
	`javascript:window.__pwned='href'`,
	"\u2028</script>\u2029<!--<script>window.__pwned='comment'</script>",
	`{{.Title}}${window.__pwned='template'}`,
}

// Hostile returns a valid document whose layer names, tactics, metadata,
// model name, messages and findings carry Payloads (and one very long
// string), and an analyze.md full of the same.
func Hostile() (*contract.AnalyzeData, []byte) {
	long := strings.Repeat("A very long layer name segment/", 400) // ~12k chars
	name := func(i int) string {
		switch {
		case i == 1:
			return long
		case i < len(Payloads)+2 && i >= 2:
			return fmt.Sprintf("%s #%d", Payloads[i-2], i)
		}
		return defaultName(i)
	}
	strs := func(i int) (string, string) {
		p := Payloads[i%len(Payloads)]
		return "tactic " + p, "[ONNX Layer: " + p + "]"
	}
	d := Synthetic(Options{Layers: 40, Model: Payloads[1], Name: name, Strings: strs, WithFailed: true})
	d.ModelComponents = []string{Payloads[0]}
	b := &d.Results[0]
	b.Validation.Messages = append(b.Validation.Messages, contract.Message{Level: contract.LevelWarning, Code: "hostile", Message: Payloads[3]})
	b.Issues[0].Title = Payloads[2]
	b.Issues[0].Evidence = append(b.Issues[0].Evidence, Payloads[4])
	b.Issues[0].NextCheck = Payloads[5]
	b.Positives[0].Title = Payloads[6]
	d.Results[1].Validation.Messages[0].Message = Payloads[1] + " " + long
	md := "# Analysis <script>window.__pwned='md-script'</script>\n\n" +
		"A [link](javascript:window.__pwned='md-link') and <a href=\"javascript:window.__pwned=1\">raw</a>.\n\n" +
		"<img src=x onerror=\"window.__pwned='md-img'\">\n\n" +
		"![remote](https://example.invalid/track.png) ![data](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)\n\n" +
		"</textarea></script><svg onload=\"window.__pwned='md-svg'\">\n\n" +
		"| a | b |\n|---|---|\n| <b onmouseover=\"window.__pwned=2\">x</b> | `<script>` |\n\n" +
		"[ok](https://example.invalid/docs) " + long[:500] + "\n"
	return d, []byte(md)
}
