package mdcheck

import (
	"math"
	"strconv"
	"strings"
)

// unit of a quoted number.
type unit uint8

const (
	unitPct unit = iota + 1
	unitMs
)

// quote is a number with a unit found in prose: "25.4%", "1.096 ms",
// "95 µs" (converted to ms).
type quote struct {
	text     string  // as written, for messages
	value    float64 // in % or ms
	tol      float64 // half a unit of the last written digit, in % or ms
	unit     unit
	pos, end int // byte offsets in the line
}

// quotes finds the numbers with a unit in s (prose between code spans).
// A number glued to a letter, digit, '_' or '.' ("layer4.1", "Conv_9") is
// part of a name, not a quantity.
func quotes(s string, base int) []quote {
	var out []quote
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || (i > 0 && (isWordByte(s[i-1]) || s[i-1] == '.')) {
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		decimals := 0
		if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
			k := j + 1
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			decimals = k - j - 1
			j = k
		}
		num := s[i:j]
		u, scale, k := unitAfter(s, j)
		if u == 0 {
			i = j
			continue
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			i = j
			continue
		}
		half := 0.5 * math.Pow10(-decimals)
		out = append(out, quote{text: strings.TrimSpace(s[i:k]), value: v * scale, tol: half * scale, unit: u, pos: base + i, end: base + k})
		i = k - 1
	}
	return out
}

// unitAfter reads an optional space and a unit at s[j:]: "%", "ms", "µs"
// or "us". It returns the unit, the factor to % or ms, and the end.
func unitAfter(s string, j int) (unit, float64, int) {
	k := j
	if k < len(s) && s[k] == ' ' {
		k++
	} else if strings.HasPrefix(s[k:], "\u00a0") {
		k += len("\u00a0")
	}
	rest := s[k:]
	switch {
	case strings.HasPrefix(rest, "%"):
		return unitPct, 1, k + 1
	case strings.HasPrefix(rest, "ms") && !wordAt(rest, 2):
		return unitMs, 1, k + 2
	case strings.HasPrefix(rest, "µs") && !wordAt(rest, len("µs")):
		return unitMs, 1e-3, k + len("µs")
	case strings.HasPrefix(rest, "us") && !wordAt(rest, 2):
		return unitMs, 1e-3, k + 2
	}
	return 0, 0, j
}

func wordAt(s string, i int) bool { return i < len(s) && isWordByte(s[i]) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return c == '_' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
