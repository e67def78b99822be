package gen

import (
	"bytes"
	"github.com/trtperf/trtperf/internal/golden"
	"os"
	"path/filepath"
	"testing"
)

// exampleDir is the shipped example a new user runs trtperf analyze on.
const exampleDir = "../../examples/bert-base"

// exampleBackends are the options examples/README.md's commands pass:
// BERT-base (12 encoder layers) exactly, fp16 and int8.
var exampleBackends = map[string]Options{
	"fp16": {Shape: "bert", Layers: 161, Seed: 1, Precision: "fp16"},
	"int8": {Shape: "bert", Layers: 173, Seed: 1, Precision: "int8"},
}

// TestExampleIsRegenerable regenerates the shipped example and checks it is
// byte-identical to the committed files (with -update, rewrites them).
func TestExampleIsRegenerable(t *testing.T) {
	for label, o := range exampleBackends {
		dir := t.TempDir()
		if golden.Update() {
			dir = exampleDir
		}
		lp, pp, err := WriteFolder(dir, label, o)
		if err != nil {
			t.Fatal(err)
		}
		if golden.Update() {
			continue
		}
		for _, p := range []string{lp, pp} {
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			committed := filepath.Join(exampleDir, filepath.Base(p))
			want, err := os.ReadFile(committed)
			if err != nil {
				t.Fatalf("read %s: %v (regenerate with the commands in examples/README.md)", committed, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s is not what the generator writes for %+v; regenerate it with the commands in examples/README.md", committed, o)
			}
			if len(want) > 500<<10 {
				t.Errorf("%s is %d bytes; keep shipped examples under 500 KB", committed, len(want))
			}
		}
		// The example is a whole BERT-base: 12 encoder layers, no 13th.
		lb, _ := os.ReadFile(lp)
		if !bytes.Contains(lb, []byte("/bert/encoder/layer.11/output/LayerNorm")) || bytes.Contains(lb, []byte("/bert/encoder/layer.12/")) {
			t.Errorf("%s: want exactly 12 complete encoder layers", lp)
		}
	}
}
