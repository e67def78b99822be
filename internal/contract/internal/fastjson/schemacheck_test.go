package fastjson

import (
	"slices"
	"testing"
)

func TestComparePointers(t *testing.T) {
	ps := []Problem{{Pointer: "/results/0/records/10"}, {Pointer: "/results/0/records/9/name"}, {Pointer: "/validation"}, {Pointer: ""}, {Pointer: "/results/0/layers/2"}}
	sortProblems(ps)
	want := []string{"", "/results/0/layers/2", "/results/0/records/9/name", "/results/0/records/10", "/validation"}
	var got []string
	for _, p := range ps {
		got = append(got, p.Pointer)
	}
	if !slices.Equal(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}
}
