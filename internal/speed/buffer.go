package speed

import (
	"runtime"
	"sync"
)

// Buffer collects written bytes in one buffer reserved at the expected
// size and, when that is exceeded, in fixed-size blocks after it, joined
// once at the end: a bytes.Buffer grown to hundreds of MB copies and clears
// its contents several times over on the way, and joining blocks holds the
// output twice (the 200k-layer package peaked 270 MB higher).
type Buffer struct {
	first  []byte // reserved buffer, filled first
	blocks [][]byte
	n      int
}

const blockSize = 4 << 20

// maxHint bounds the reservation (a wrong hint must not ask for terabytes).
const maxHint = 8 << 30

// NewBuffer returns a Buffer for about hint bytes (0 when unknown).
// Reserving too much costs nothing resident (untouched pages); too little
// costs one copy at the end.
func NewBuffer(hint int64) *Buffer {
	w := &Buffer{}
	if hint > 0 {
		w.first = make([]byte, 0, min(hint, maxHint))
		advise(w.first)
	}
	return w
}

func (w *Buffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(w.blocks) == 0 {
		k := copy(w.first[len(w.first):cap(w.first)], p)
		w.first = w.first[:len(w.first)+k]
		p = p[k:]
	}
	for len(p) > 0 {
		if len(w.blocks) == 0 || len(w.blocks[len(w.blocks)-1]) == blockSize {
			w.blocks = append(w.blocks, make([]byte, 0, blockSize))
		}
		b := &w.blocks[len(w.blocks)-1]
		k := copy((*b)[len(*b):blockSize], p)
		*b = (*b)[:len(*b)+k]
		p = p[k:]
	}
	w.n += n
	return n, nil
}

// Bytes returns everything written, in one slice, and empties w.
func (w *Buffer) Bytes() []byte {
	if len(w.blocks) == 0 {
		out := w.first
		w.first = nil
		return out
	}
	// Filling fresh memory is bound by page faults, so the blocks (all
	// full but the last) are copied by one goroutine per core.
	out := make([]byte, w.n)
	base := copy(out, w.first)
	w.first = nil
	workers := max(1, runtime.GOMAXPROCS(0))
	per := (len(w.blocks) + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < len(w.blocks); lo += per {
		wg.Go(func() {
			for i := lo; i < min(lo+per, len(w.blocks)); i++ {
				copy(out[base+i*blockSize:], w.blocks[i])
			}
		})
	}
	wg.Wait()
	w.blocks = nil
	return out
}
