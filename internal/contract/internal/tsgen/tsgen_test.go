package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
)

// TestGeneratedIsCommitted fails when web/src/contract.ts is not what the
// schema gives: the schema was changed without `go generate`, or the
// generated file was edited by hand.
func TestGeneratedIsCommitted(t *testing.T) {
	want, err := Generate(contract.SchemaJSON)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "..", "..", "web", "src", "contract.ts")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		i := 0
		for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
			i++
		}
		line := func(ls []string) string {
			if i < len(ls) {
				return ls[i]
			}
			return "(end of file)"
		}
		t.Errorf("%s is stale: run `go generate ./internal/contract` and rebuild the web app (scripts/build-web.sh).\nfirst difference, line %d:\ncommitted: %s\nschema:    %s", path, i+1, line(gl), line(wl))
	}
}

func TestGenerate(t *testing.T) {
	for _, tc := range []struct{ name, schema, want string }{
		{"required, optional, nullable and quoted members",
			`{"type":"object","additionalProperties":false,"required":["a","b/c"],"properties":{"a":{"description":"A.","type":["integer","null"]},"b/c":{"type":"string"},"d":{"type":"boolean"}}}`,
			"export interface AnalyzeData {\n  /** A. */\n  a: number | null;\n  \"b/c\": string;\n  d?: boolean;\n}\n"},
		{"nullable object def: interface, null at the reference",
			`{"type":"object","additionalProperties":false,"required":["t"],"properties":{"t":{"$ref":"#/$defs/end_to_end"}},"$defs":{"end_to_end":{"type":["object","null"],"additionalProperties":false,"required":["x"],"properties":{"x":{"type":"number"}}}}}`,
			"  t: EndToEnd | null;\n}\n\nexport interface EndToEnd {\n  x: number;\n}\n"},
		{"enum, tuple, map, open object",
			`{"type":"object","additionalProperties":false,"properties":{"e":{"enum":["a","b",""]},"p":{"type":"array","prefixItems":[{"type":"integer"},{"type":"string"}],"items":false},"m":{"type":"object","additionalProperties":{"type":"number"}},"o":{"type":"object"},"u":{"type":"array","items":{"type":["string","null"]}}}}`,
			"  e?: \"a\" | \"b\" | \"\";\n  p?: [number, string];\n  m?: { [key: string]: number };\n  o?: { [key: string]: unknown };\n  u?: (string | null)[];\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Generate([]byte(tc.schema))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(string(got), tc.want) {
				t.Errorf("got\n%s\nwant it to end with\n%s", got, tc.want)
			}
		})
	}
	for _, bad := range []string{`{"$ref":"#/definitions/x"}`, `{"type":"tuple"}`, `{"properties":`} {
		if _, err := Generate([]byte(bad)); err == nil {
			t.Errorf("Generate(%s): no error", bad)
		}
	}
}
