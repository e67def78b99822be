package corpustest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestCapabilitiesUsed keeps the note honest: every capability it lists is
// named by at least one corpus test, and every corpus test names one.
func TestCapabilitiesUsed(t *testing.T) {
	root := ModuleRoot(t)
	used := map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Dir" && sel.Sel.Name != "IssuesDir" {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "corpustest" {
				return true
			}
			if len(call.Args) != 2 {
				t.Errorf("%s: corpustest.%s needs a capability", fset.Position(call.Pos()), sel.Sel.Name)
				return true
			}
			c, ok := call.Args[1].(*ast.SelectorExpr)
			if !ok {
				t.Errorf("%s: name the capability as corpustest.X", fset.Position(call.Pos()))
				return true
			}
			used[c.Sel.Name]++
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	names := map[Capability]string{
		Parsing: "Parsing", Companions: "Companions", Discovery: "Discovery", LayerFacts: "LayerFacts",
		Verdicts: "Verdicts", Comparison: "Comparison", Summary: "Summary", AgentChecks: "AgentChecks", Reports: "Reports",
		Issues:    "Issues",
		CostModel: "CostModel",
	}
	if len(names) != int(numCapabilities) {
		t.Fatalf("names table has %d entries, want %d", len(names), numCapabilities)
	}
	for c := range numCapabilities {
		if capabilityText[c] == "" {
			t.Errorf("capability %d has no text", c)
		}
		if used[names[c]] == 0 {
			t.Errorf("capability %s is listed in the note but no test names it", names[c])
		}
	}
	if len(used) == 0 {
		t.Fatal("found no corpustest.Dir calls")
	}
}

func TestNoteLine(t *testing.T) {
	line := noteLine("/x/../shared/corpus")
	if strings.Contains(line, "\n") {
		t.Errorf("note is more than one line: %q", line)
	}
	for c := range numCapabilities {
		if !strings.Contains(line, c.describe()) {
			t.Errorf("note lacks %q", c.describe())
		}
	}
}
