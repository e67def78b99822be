package analysis

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/trtperf/trtperf/internal/engine"
)

func TestRawObjectMakesParametersSafe(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    []engine.Param
		want  string
		fixes int
	}{
		{"clean, kept byte for byte", []engine.Param{{Key: "a", Value: []byte(`{"x": 1e30, "y":[1,2]}`)}}, `{"a":{"x": 1e30, "y":[1,2]}}`, 0},
		{"repeated top-level key: last wins", []engine.Param{{Key: "a", Value: []byte(`1`)}, {Key: "b", Value: []byte(`2`)}, {Key: "a", Value: []byte(`3`)}}, `{"b":2,"a":3}`, 1},
		{"repeated nested key", []engine.Param{{Key: "a", Value: []byte(`{"k":1,"j":[{"m":1,"m":2}],"k":2}`)}}, `{"a":{"k":2,"j":[{"m":2}]}}`, 1},
		{"lone surrogate", []engine.Param{{Key: "a", Value: []byte(`"x\ud800y"`)}}, `{"a":"x` + "\uFFFD" + `y"}`, 1},
		{"invalid UTF-8 key", []engine.Param{{Key: "k\xff", Value: []byte(`1`)}}, `{"k` + "\uFFFD" + `":1}`, 1},
		{"number beyond float64", []engine.Param{{Key: "a", Value: []byte(`[1e999,-2E+400,3]`)}}, `{"a":["1e999","-2E+400",3]}`, 1},
		{"not JSON at all", []engine.Param{{Key: "a", Value: []byte(`{"x":`)}}, `{"a":"{\"x\":"}`, 1},
	} {
		var pf paramFixer
		got := pf.rawObject("L", tc.in)
		if string(got) != tc.want || pf.fixes != tc.fixes {
			t.Errorf("%s: got %s (%d fixes), want %s (%d)", tc.name, got, pf.fixes, tc.want, tc.fixes)
		}
		if !jsontext.Value(got).IsValid() {
			t.Errorf("%s: %s is not valid I-JSON", tc.name, got)
		}
	}
}
