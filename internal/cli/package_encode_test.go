package cli

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestBlockWriter writes pieces of every size class across block
// boundaries and checks the joined bytes.
func TestBlockWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, total := range []int{0, 1, blockSize - 1, blockSize, 2*blockSize + 12345} {
		want := make([]byte, total)
		for i := range want {
			want[i] = byte(rng.Uint32())
		}
		var w blockWriter
		for rest := want; len(rest) > 0; {
			n := min(len(rest), []int{1, 7, 4096, blockSize + 3}[rng.IntN(4)])
			if k, err := w.Write(rest[:n]); k != n || err != nil {
				t.Fatalf("Write = %d, %v", k, err)
			}
			rest = rest[n:]
		}
		if got := w.bytes(); !bytes.Equal(got, want) {
			t.Errorf("total %d: joined bytes differ", total)
		}
	}
}
