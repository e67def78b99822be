package layerfacts

// wordTable is a fixed, open-addressed hash set of lower-case words with a
// value each, for the per-word lookups of tags and data types: Derive looks
// up some 20 words per layer (most of them misses), and a Go map costs a full
// string hash and probe per word. Here the hash reads four bytes, a miss is
// usually one empty slot, and keys are compared case-insensitively in place.
// It is built once at init and read-only after, so it is safe for
// concurrent use.
type wordTable struct {
	keys [wordTableSize]string
	vals [wordTableSize]uint32
	// pairs has a bit per (first, second) byte pair of a key and lens a
	// bit per key length: most words are rejected by these two tests.
	pairs [256 * 256 / 64]uint64
	lens  uint64
}

const (
	wordTableBits = 10
	wordTableSize = 1 << wordTableBits
)

// charClass flags of every byte: the word scanners run once per character.
const (
	cAlnum = 1 << iota
	cUpper
	cLower
	cDigit
)

var charClass = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = cAlnum | cLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = cAlnum | cUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = cAlnum | cDigit
	}
	return t
}()

// foldAlnum lower-cases an ASCII letter; digits are unchanged (0x30-0x39
// already have bit 0x20). Only valid for letters and digits.
func foldAlnum(c byte) byte { return c | 0x20 }

// slot hashes a word of at least two letters/digits from its length, its
// first two and its last byte, case-folded.
func slot(w string) uint32 {
	h := uint32(len(w))*0x9E3779B1 ^
		uint32(foldAlnum(w[0]))*0x85EBCA77 ^
		uint32(foldAlnum(w[1]))*0xC2B2AE3D ^
		uint32(foldAlnum(w[len(w)-1]))*0x27D4EB2F
	h ^= h >> 15
	h *= 0x2C1B3C6D
	return h >> (32 - wordTableBits)
}

func newWordTable(words map[string]uint32) *wordTable {
	t := &wordTable{}
	for w, v := range words {
		i := slot(w)
		for t.keys[i] != "" {
			i = (i + 1) & (wordTableSize - 1)
		}
		t.keys[i], t.vals[i] = w, v
		if len(w) < 2 || len(w) > 63 || w != string(lowerInto(nil, w)) {
			panic("layerfacts: word table key " + w + " must be lower case, 2 to 63 bytes")
		}
		k := int(w[0])<<8 | int(w[1])
		t.pairs[k>>6] |= 1 << (k & 63)
		t.lens |= 1 << len(w)
	}
	return t
}

// get returns the value of w, a run of ASCII letters and digits of length
// ≥ 2, compared case-insensitively; 0, false when absent.
func (t *wordTable) get(w string) (uint32, bool) {
	if !t.mayHave(w) {
		return 0, false
	}
	i := slot(w)
	for {
		k := t.keys[i]
		if k == "" {
			return 0, false
		}
		if len(k) == len(w) && equalFold(k, w) {
			return t.vals[i], true
		}
		i = (i + 1) & (wordTableSize - 1)
	}
}

// mayHave is a quick test of w (≥ 2 bytes) against the keys' lengths and
// first two bytes: false means absent.
func (t *wordTable) mayHave(w string) bool {
	if len(w) > 63 || t.lens&(1<<len(w)) == 0 {
		return false
	}
	k := int(foldAlnum(w[0]))<<8 | int(foldAlnum(w[1]))
	return t.pairs[k>>6]&(1<<(k&63)) != 0
}

// equalFold compares a lower-case key with a word of letters and digits of
// the same length.
func equalFold(key, w string) bool {
	for i := 0; i < len(key); i++ {
		if key[i] != foldAlnum(w[i]) {
			return false
		}
	}
	return true
}
