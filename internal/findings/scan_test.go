package findings

import (
	"cmp"
	"math/bits"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// The name scans are tuned for 10^5 layers; these tests hold them to the
// plain strings functions they replace.

func scanSoup(r *rand.Rand, n int) string {
	pieces := []string{
		"/model/layers.3/self_attn/", "q_proj", "K_PROJ", "Value", "to_v", "/", ".", " ", "attn", "ATTENTION",
		"mha", "lm_head", "Past_Key", "rope", "down_blocks", "time_embed", "nms", "yolo", "patch_embed", "ln_",
		"layer_norm", "x", "_", "1", "\u212a", "İ", "é", "\xff", "Ω",
	}
	var b strings.Builder
	for range r.Intn(n) {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.String()
}

func TestCategoryScanMatchesContains(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 20000 {
		s := scanSoup(r, 12)
		low := strings.ToLower(s)
		var want uint64
		for i, w := range categoryScan.words {
			if strings.Contains(low, w) {
				want |= 1 << i
			}
		}
		if got := categoryScan.matches(s); got != want {
			t.Fatalf("matches(%q) = %b, want %b (first difference: %q)", s, got, want, categoryScan.words[bits.TrailingZeros64(got^want)])
		}
	}
}

func TestContainsFold(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for range 20000 {
		s := scanSoup(r, 8) + []string{"", "GEMV", "sImT", "gem", "simt_"}[r.Intn(5)]
		for _, w := range []string{"gemv", "simt"} {
			if got, want := containsFold(s, w), strings.Contains(strings.ToLower(s), w); got != want {
				t.Fatalf("containsFold(%q, %q) = %v, want %v", s, w, got, want)
			}
		}
	}
}

func TestPathSegmentsAndRoles(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for range 20000 {
		s := scanSoup(r, 10)
		var got []string
		for rest := s; ; {
			seg, more := nextPathSeg(&rest)
			if !more {
				break
			}
			got = append(got, seg)
		}
		want := splitPath(s)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("segments of %q = %q, splitPath %q", s, got, want)
		}
		for _, seg := range want {
			if role, ref := qkvRole(seg), refQKVRole(seg); role != ref {
				t.Fatalf("qkvRole(%q) = %q, want %q", seg, role, ref)
			}
		}
	}
}

func refQKVRole(seg string) string {
	switch strings.ToLower(seg) {
	case "query", "q_proj", "to_q", "q", "wq", "q_lin":
		return "q"
	case "key", "k_proj", "to_k", "k", "wk", "k_lin":
		return "k"
	case "value", "v_proj", "to_v", "v", "wv", "v_lin":
		return "v"
	}
	return ""
}

func TestSortTimedKeys(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for _, n := range []int{0, 1, 5, 511, 512, 3000} {
		keys := make([]timedKey, n)
		for i := range keys {
			// Few distinct hi values, so lo decides often.
			keys[i] = timedKey{hi: uint64(r.Intn(50)) << uint(r.Intn(60)), lo: uint64(r.Intn(1000))<<32 | uint64(i)}
		}
		want := slices.Clone(keys)
		slices.SortFunc(want, func(a, b timedKey) int {
			if a.hi != b.hi {
				return cmp.Compare(a.hi, b.hi)
			}
			return cmp.Compare(a.lo, b.lo)
		})
		sortTimedKeys(keys)
		if !slices.Equal(keys, want) {
			t.Fatalf("n=%d: radix order differs from comparison order", n)
		}
	}
}
