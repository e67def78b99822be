// Package jsonnum is the one range rule for numbers read from JSON (dumps,
// companions, analyze-data.json): a number is usable when it is a finite
// 64-bit float that keeps its value's magnitude. Beyond float64
// (overflow, 1e999), a non-zero literal that rounds to zero or to a
// subnormal (underflow, -1e-99999999), and a literal too long or with an
// exponent too large for exact arithmetic (json.Number → big.Rat, which
// gives up beyond about 10^6 digits) are all out of range.
package jsonnum

import (
	"math"
	"strconv"
)

// MaxLen is the longest number literal accepted: float64 needs 17
// significant digits, and a longer literal is no measurement.
const MaxLen = 400

// MaxExp bounds the decimal exponent written in a literal (float64 spans
// 10^-324 .. 10^308).
const MaxExp = 9999

// MayBeOutOfRange is the cheap test: a literal without an exponent and
// shorter than 300 bytes is always in range, so most are never parsed.
func MayBeOutOfRange(lit string) bool {
	if len(lit) >= 300 {
		return true
	}
	for i := 0; i < len(lit); i++ {
		if c := lit[i]; c == 'e' || c == 'E' {
			return true
		}
	}
	return false
}

// Parse converts a JSON number literal; ok is false when it is out of
// range (see the package comment) or not a number.
func Parse(lit string) (f float64, ok bool) {
	if len(lit) == 0 || len(lit) > MaxLen {
		return 0, false
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	if f == 0 || math.Abs(f) < 0x1p-1022 { // zero or subnormal: the literal must be a zero
		if nonZeroMantissa(lit) {
			return 0, false
		}
	}
	if exponentTooLarge(lit) {
		return 0, false
	}
	return f, true
}

// InRange reports whether Parse accepts lit.
func InRange(lit string) bool {
	if !MayBeOutOfRange(lit) {
		return len(lit) > 0
	}
	_, ok := Parse(lit)
	return ok
}

// Finite reports whether f is usable: not NaN, not ±Inf.
func Finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// nonZeroMantissa reports whether a digit before the exponent is not 0.
func nonZeroMantissa(lit string) bool {
	for i := 0; i < len(lit); i++ {
		switch c := lit[i]; {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}

// exponentTooLarge reports whether the literal's exponent has more
// significant digits than MaxExp allows or exceeds it.
func exponentTooLarge(lit string) bool {
	for i := 0; i < len(lit); i++ {
		if c := lit[i]; c != 'e' && c != 'E' {
			continue
		}
		j := i + 1
		if j < len(lit) && (lit[j] == '+' || lit[j] == '-') {
			j++
		}
		for j < len(lit) && lit[j] == '0' {
			j++
		}
		if len(lit)-j > 4 {
			return true
		}
		n, _ := strconv.Atoi(lit[j:])
		return n > MaxExp
	}
	return false
}
