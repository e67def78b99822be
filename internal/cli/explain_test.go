package cli

import (
	"strings"
	"testing"
)

func TestExplain(t *testing.T) {
	code, out, errs := run(t, "explain", "qdq_placement")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"qdq_placement: Q/DQ placement leaves quantization unfused", "What it means:", "How it is priced:", "What would refute it:", "placement of Q/DQ in the model", "Pricing common to every finding:"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain qdq_placement lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = run(t, "explain")
	if code != ExitOK || !strings.Contains(out, "diagnosis rules") || !strings.Contains(out, "  fp32_engine ") || !strings.Contains(out, "How findings are priced:") {
		t.Errorf("explain: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "explain", "--format", "markdown")
	if code != ExitOK || !strings.Contains(out, "- **`reformat_overhead`** — ") {
		t.Errorf("explain --format markdown: exit %d\n%s", code, out)
	}
	code, _, errs = run(t, "explain", "qdq")
	wantError(t, code, errs, ExitCannotRun, `no finding has the id "qdq"`, "qdq_placement")
	code, _, errs = run(t, "explain", "--format", "html")
	wantError(t, code, errs, ExitCannotRun, "text or markdown")
}
