package mdcheck

import (
	"math"
	"strconv"
	"strings"
)

// unit of a quoted number. Every number written with one of these units
// is checked; a number without a unit (a count, a version) is the
// writer's.
type unit uint8

const (
	unitPct    unit = iota + 1
	unitMs          // ms, µs, us, ns (in ms)
	unitRatio       // 1.36×, 2.5x
	unitGBs         // GB/s, TB/s (in GB/s)
	unitTFLOPs      // TFLOP/s, TFLOPS, GFLOP/s (in TFLOP/s)
	unitBytes       // B, KiB, MiB, GiB, KB, MB, GB (in bytes)
	numUnits
)

// units lists the units in a fixed order, for loops over every unit.
var units = [...]unit{unitPct, unitMs, unitRatio, unitGBs, unitTFLOPs, unitBytes}

func (u unit) suffix() string {
	switch u {
	case unitPct:
		return "%"
	case unitRatio:
		return "×"
	case unitGBs:
		return " GB/s"
	case unitTFLOPs:
		return " TFLOP/s"
	case unitBytes:
		return " bytes"
	}
	return " ms"
}

// quote is a number with a unit found in prose: "25.4%", "1.096 ms",
// "95 µs" (converted to ms), "1.36×", "672 GB/s", "11.2 MiB".
type quote struct {
	text     string  // as written, for messages
	value    float64 // in the unit's base (%, ms, ×, GB/s, TFLOP/s, bytes)
	tol      float64 // half a unit of the last written digit, in the same base
	unit     unit
	pos, end int // byte offsets in the line
	// alt is a second reading of the value: decimal megabytes written for
	// binary ones ("11.2 MB" for 11.2 MiB) and the reverse; 0 when none.
	alt, altTol float64
}

// quotes finds the numbers with a unit in s (prose between code spans).
// A number glued to a letter, digit, '_' or '.' ("layer4.1", "Conv_9") is
// part of a name, not a quantity.
func quotes(s string, base int) []quote {
	var out []quote
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || (i > 0 && (isWordByte(s[i-1]) || s[i-1] == '.')) || strings.HasSuffix(s[:i], "×") {
			continue // part of a name ("layer4.1") or of a shape ("3×224")
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
		u, scale, alt, k := unitAfter(s, j)
		if u == 0 {
			i = j
			continue
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || math.IsInf(v*scale, 0) {
			i = j
			continue
		}
		half := 0.5 * math.Pow10(-decimals)
		q := quote{text: strings.TrimSpace(s[i:k]), value: v * scale, tol: half * scale, unit: u, pos: base + i, end: base + k}
		if alt != 0 {
			q.alt, q.altTol = v*alt, half*alt
		}
		out = append(out, q)
		i = k - 1
	}
	return out
}

// unitWords are the units read after a number, longest spelling first
// where one is the prefix of another. scale converts to the unit's base;
// alt, when set, is the other reading of an ambiguous byte unit.
var unitWords = []struct {
	word       string
	u          unit
	scale, alt float64
}{
	{"%", unitPct, 1, 0},
	{"ms", unitMs, 1, 0},
	{"µs", unitMs, 1e-3, 0},
	{"us", unitMs, 1e-3, 0},
	{"ns", unitMs, 1e-6, 0},
	{"×", unitRatio, 1, 0},
	{"GB/s", unitGBs, 1, 0},
	{"MB/s", unitGBs, 1e-3, 0},
	{"TB/s", unitGBs, 1e3, 0},
	{"TFLOP/s", unitTFLOPs, 1, 0},
	{"TFLOPS", unitTFLOPs, 1, 0},
	{"GFLOP/s", unitTFLOPs, 1e-3, 0},
	{"GFLOPS", unitTFLOPs, 1e-3, 0},
	{"KiB", unitBytes, 1 << 10, 1e3},
	{"MiB", unitBytes, 1 << 20, 1e6},
	{"GiB", unitBytes, 1 << 30, 1e9},
	{"KB", unitBytes, 1e3, 1 << 10},
	{"MB", unitBytes, 1e6, 1 << 20},
	{"GB", unitBytes, 1e9, 1 << 30},
}

// unitAfter reads an optional space and a unit at s[j:]. It returns the
// unit, the factor to its base, the alternative factor (0 when none) and
// the end. "x" counts as "×" only glued to the number ("2.5x"), so that
// "3 x 224" is not a ratio.
func unitAfter(s string, j int) (unit, float64, float64, int) {
	if j < len(s) && s[j] == 'x' && !wordAt(s, j+1) {
		return unitRatio, 1, 0, j + 1
	}
	if strings.HasPrefix(s[j:], "×") && j+len("×") < len(s) && isDigit(s[j+len("×")]) {
		return 0, 0, 0, j // a shape, "32×3×224×224"
	}
	k := j
	if k < len(s) && s[k] == ' ' {
		k++
	} else if strings.HasPrefix(s[k:], "\u00a0") {
		k += len("\u00a0")
	}
	rest := s[k:]
	for _, w := range unitWords {
		if strings.HasPrefix(rest, w.word) && (w.word == "%" || w.word == "×" || !wordAt(rest, len(w.word))) {
			return w.u, w.scale, w.alt, k + len(w.word)
		}
	}
	return 0, 0, 0, j
}

func wordAt(s string, i int) bool { return i < len(s) && isWordByte(s[i]) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return c == '_' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
