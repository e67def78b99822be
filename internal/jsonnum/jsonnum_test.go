package jsonnum

import (
	"math/big"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		lit string
		ok  bool
	}{
		{"0", true}, {"-0", true}, {"0.0", true}, {"1", true}, {"-1.5e3", true}, {"1.7976931348623157e308", true},
		{"2.2250738585072014e-308", true}, {"0e0", true}, {"0.000e-5", true}, {"1e-300", true},
		{"1e999", false}, {"-1e999", false}, {"1.8e308", false},
		{"-1e-99999999", false}, {"1e-400", false}, {"5e-324", false}, {"1e-310", false},
		{"0e99999999", false}, {"1e+00000000000000000001", true}, {"1e10000", false},
		{"1." + strings.Repeat("0", 500), false}, {"", false}, {"abc", false}, {"NaN", false}, {"Inf", false},
	} {
		if _, ok := Parse(tt.lit); ok != tt.ok {
			t.Errorf("Parse(%.40q) ok %v, want %v", tt.lit, ok, tt.ok)
		}
		if InRange(tt.lit) != tt.ok && tt.lit != "abc" && tt.lit != "NaN" && tt.lit != "Inf" {
			t.Errorf("InRange(%.40q) != %v", tt.lit, tt.ok)
		}
	}
}

// FuzzParse: a literal Parse accepts is one big.Rat (what the schema
// library uses) can hold, and its float is finite.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1", "-1e-99999999", "0e999999", "1.5e308", "1e-320"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		v, ok := Parse(lit)
		if !ok {
			return
		}
		if !Finite(v) {
			t.Fatalf("%q → %v", lit, v)
		}
		if _, ok := new(big.Rat).SetString(lit); !ok && strings.IndexFunc(lit, func(r rune) bool {
			return r == 'x' || r == 'X' || r == '_' || r == 'p' || r == 'P' || r == 'i' || r == 'I' || r == 'n' || r == 'N'
		}) < 0 {
			t.Fatalf("%q is in range but big.Rat cannot hold it", lit)
		}
	})
}
