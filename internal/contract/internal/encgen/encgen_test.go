package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedIsCommitted keeps the encoder and the decoder in step with
// types.go: a field added to a struct without `go generate
// ./internal/contract` fails here (and the contract tests then pin the
// generated code to encoding/json/v2 and the schema).
func TestGeneratedIsCommitted(t *testing.T) {
	dir := filepath.Join("..", "..")
	src, err := os.ReadFile(filepath.Join(dir, "types.go"))
	if err != nil {
		t.Fatal(err)
	}
	enc, dec, err := Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"encode_gen.go": enc, "decode_gen.go": dec} {
		got, err := os.ReadFile(filepath.Join(dir, name))
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
			t.Errorf("internal/contract/%s is stale: run `go generate ./internal/contract`.\nfirst difference, line %d:\ncommitted: %s\ntypes.go:  %s", name, i+1, line(gl), line(wl))
		}
	}
}

func TestGenerate(t *testing.T) {
	const root = "package contract\ntype AnalyzeData struct {\n\tA string `json:\"a\"`\n\tX X `json:\"x\"`\n}\n"
	enc, _, err := Generate([]byte(root + "type Layer struct{ N string `json:\"n\" contract:\"intern\"` }\ntype Record struct{}\n" +
		"type X struct {\n\tF float64 `json:\"f\"`\n\tP *float64 `json:\"p\"`\n\tS []string `json:\"s\" contract:\"null\"`\n\tO string `json:\"o,omitempty\"`\n\tZ int `json:\"z,omitzero\"`\n\tM map[string]float64 `json:\"m\"`\n\tE [][2]int `json:\"e\"`\n\tQ []Q `json:\"q\"`\n\tR *Q `json:\"r\"`\n}\ntype Q struct{ I int64 `json:\"i\"` }\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`e.Float("x.f", v.F)`, `e.OptFloat("x.p", v.P)`,
		"if v.S == nil {\n\t\te.Null()\n\t} else {\n\t\te.Strs(v.S)\n\t}",
		"if v.O != \"\" {\n\t\te.Key(false, \"o\")", "if v.Z != 0 {",
		`e.floatMap("x.m", v.M)`, "for i1 := range v.E[i0] {", "e.q(&v.Q[i0])",
		"if v.R == nil {\n\t\te.Null()\n\t} else {\n\t\te.q(v.R)\n\t}",
		"func (e enc) analyzeData(v *AnalyzeData) {",
	} {
		if !strings.Contains(string(enc), want) {
			t.Errorf("encoder lacks %q:\n%s", want, enc)
		}
	}
	for _, bad := range []string{
		"package contract\ntype AnalyzeData struct{ C chan int `json:\"c\"` }\n",
		"package contract\ntype AnalyzeData struct{ O string `json:\"o,omitempty\"` }\n",
		"package contract\ntype AnalyzeData struct{ O string `json:\"o,string\"` }\n",
		"package contract\ntype AnalyzeData struct{ O string `json:\"o\" contract:\"fast\"` }\n",
		"package contract\ntype Other struct{}\n",
	} {
		if _, _, err := Generate([]byte(bad)); err == nil {
			t.Errorf("Generate(%q): no error", bad)
		}
	}
}
