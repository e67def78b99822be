// Package namehash answers two questions about many names without indexing
// the names themselves: are they all distinct, and may a given name be one
// of them. It keeps the sorted 64-bit hashes of the names: equal names hash
// alike, so distinct hashes prove the names distinct and a missing hash
// proves a name absent. Hashing reads each name once and sorts 8-byte keys,
// which at 10^5 names costs a fraction of sorting the names (long shared
// module-path prefixes compared again at each step) or of a map from names.
// A collision (two names, one hash) can only send the caller down its
// exact path, never give a wrong answer.
package namehash

import (
	"hash/maphash"
	"iter"
	"slices"
)

// Set is the sorted hashes of a list of names.
type Set struct {
	seed   maphash.Seed
	sorted []uint64
}

// Of hashes the names; n is how many there are (a capacity hint).
func Of(names iter.Seq[string], n int) Set {
	s := Set{seed: maphash.MakeSeed(), sorted: make([]uint64, 0, n)}
	for name := range names {
		s.sorted = append(s.sorted, maphash.String(s.seed, name))
	}
	slices.Sort(s.sorted)
	return s
}

// Distinct reports whether no two names hash alike, which proves them
// distinct (false: two names may be equal).
func (s Set) Distinct() bool {
	for i := 1; i < len(s.sorted); i++ {
		if s.sorted[i] == s.sorted[i-1] {
			return false
		}
	}
	return true
}

// MayContain reports whether name may be one of the names (false: it is
// none of them).
func (s Set) MayContain(name string) bool {
	_, ok := slices.BinarySearch(s.sorted, maphash.String(s.seed, name))
	return ok
}
