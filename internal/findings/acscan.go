package findings

import "strings"

// acMatcher finds which of a set of lower-case words occur in the lower case
// of a string, in one pass over it (an Aho–Corasick automaton): Category
// looks for some 60 words in every one of 10^5 layer names.
type acMatcher struct {
	words  []string
	class  [256]uint16 // byte → input class; 0 for bytes no word has
	nClass int
	delta  []uint16 // state*nClass + class → next state
	out    []uint64 // state → bits of the words that end there
}

func newACMatcher(words []string) *acMatcher {
	if len(words) > 64 {
		panic("findings: acMatcher takes at most 64 words")
	}
	m := &acMatcher{words: words, nClass: 1}
	for _, w := range words {
		if w == "" || w != strings.ToLower(w) || !isASCII(w) {
			panic("findings: acMatcher words must be non-empty lower-case ASCII: " + w)
		}
		for i := 0; i < len(w); i++ {
			if m.class[w[i]] == 0 {
				m.class[w[i]] = uint16(m.nClass)
				m.nClass++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ { // ASCII case folding
		m.class[c] = m.class[c+'a'-'A']
	}
	// The trie; -1 marks a missing edge.
	next := [][]int32{make([]int32, m.nClass)}
	for i := range next[0] {
		next[0][i] = -1
	}
	m.out = []uint64{0}
	for wi, w := range words {
		s := int32(0)
		for i := 0; i < len(w); i++ {
			c := m.class[w[i]]
			if next[s][c] < 0 {
				row := make([]int32, m.nClass)
				for j := range row {
					row[j] = -1
				}
				next = append(next, row)
				m.out = append(m.out, 0)
				next[s][c] = int32(len(next) - 1)
			}
			s = next[s][c]
		}
		m.out[s] |= 1 << wi
	}
	if len(next) > 1<<16 {
		panic("findings: acMatcher words too long")
	}
	// Failure links, breadth first, folded into a full transition table.
	fail := make([]int32, len(next))
	m.delta = make([]uint16, len(next)*m.nClass)
	queue := []int32{}
	for c := 0; c < m.nClass; c++ {
		if t := next[0][c]; t > 0 {
			fail[t] = 0
			m.delta[c] = uint16(t)
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		m.out[s] |= m.out[fail[s]]
		for c := 0; c < m.nClass; c++ {
			t := next[s][c]
			if t < 0 {
				m.delta[int(s)*m.nClass+c] = m.delta[int(fail[s])*m.nClass+c]
				continue
			}
			fail[t] = int32(m.delta[int(fail[s])*m.nClass+c])
			m.delta[int(s)*m.nClass+c] = uint16(t)
			queue = append(queue, t)
		}
	}
	return m
}

// matches returns bit i set when words[i] occurs in strings.ToLower(s).
func (m *acMatcher) matches(s string) uint64 {
	if !isASCII(s) {
		s = strings.ToLower(s) // Unicode case folding, as ToLower gives it
	}
	var found uint64
	state := 0
	for i := 0; i < len(s); i++ {
		state = int(m.delta[state*m.nClass+int(m.class[s[i]])])
		found |= m.out[state]
	}
	return found
}
