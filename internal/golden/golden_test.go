package golden

import "testing"

func TestPosition(t *testing.T) {
	for _, tt := range []struct {
		a, b      string
		line, col int
	}{
		{"abc", "abd", 1, 3},
		{"a\nbc", "a\nbd", 2, 2},
		{"same", "same", 1, 5},
		{"short", "shorter", 1, 6},
	} {
		if l, c := position([]byte(tt.a), []byte(tt.b)); l != tt.line || c != tt.col {
			t.Errorf("position(%q, %q) = %d:%d, want %d:%d", tt.a, tt.b, l, c, tt.line, tt.col)
		}
	}
}
