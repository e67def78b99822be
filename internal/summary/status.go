package summary

import (
	"fmt"

	"github.com/trtperf/trtperf/internal/contract"
)

// partial reports whether a backend failed the gate yet is analysed on
// what its files hold: a profile without layer info, or measured time
// without per-layer data. Its answers (timing, comparisons, causes guessed
// from names) are real; only the layer-by-layer reading is missing.
func partial(status, mode string) bool {
	return status == contract.StatusFailed && (mode == contract.ModeProfileOnly || mode == contract.ModeMeasuredOnly)
}

// statusWord is what the summary calls a backend's gate outcome: "partial"
// for a failed backend analysed on partial evidence, so a reader does not
// take its timing and causes for a failure.
func statusWord(status, mode string) string {
	if partial(status, mode) {
		return "partial"
	}
	return status
}

// partialNote says, after the folder's headline, how many backends are
// analysed on partial evidence; "" when none.
func partialNote(views []view) string {
	n := 0
	for _, v := range views {
		if partial(v.Status, v.Mode) {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d analysed on partial evidence (no layer info or no per-layer data): their timing, comparisons and causes below hold; the first error line of each says what would complete it", n)
}
