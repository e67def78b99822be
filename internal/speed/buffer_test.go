package speed

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestBuffer writes pieces of every size class across block
// boundaries, with no, too small and big enough reservations, and checks
// the joined bytes.
func TestBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ total, hint int }{
		{0, 0}, {1, 0}, {blockSize - 1, 0}, {blockSize, 0}, {2*blockSize + 12345, 0},
		{0, 10}, {1000, 1000}, {1000, 5000}, {2*blockSize + 12345, 3000}, {2*blockSize + 12345, blockSize + 1},
	} {
		total := c.total
		want := make([]byte, total)
		for i := range want {
			want[i] = byte(rng.Uint32())
		}
		w := NewBuffer(int64(c.hint))
		for rest := want; len(rest) > 0; {
			n := min(len(rest), []int{1, 7, 4096, blockSize + 3}[rng.IntN(4)])
			if k, err := w.Write(rest[:n]); k != n || err != nil {
				t.Fatalf("Write = %d, %v", k, err)
			}
			rest = rest[n:]
		}
		if got := w.Bytes(); !bytes.Equal(got, want) {
			t.Errorf("total %d, hint %d: joined bytes differ", total, c.hint)
		}
	}
}
