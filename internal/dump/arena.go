package dump

import "unsafe"

// arenaBlock is the size of the byte blocks strings and raw values are
// copied into once the arena has grown (blocks start at 1 KB and double):
// one allocation per block instead of one per string.
const arenaBlock = 64 << 10

// arena hands out immutable byte slices and strings carved from large
// blocks. Blocks are never written after a slice of them is handed out, so
// strings made from them with unsafe.String stay immutable.
type arena struct{ buf []byte }

func (a *arena) bytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	if len(b) > arenaBlock/4 {
		return append([]byte(nil), b...)
	}
	if cap(a.buf)-len(a.buf) < len(b) {
		// Blocks grow from 1 KB to arenaBlock: a small document (one of
		// 16k concatenated profiles) must not hold a 64 KB block each.
		n := min(arenaBlock, max(2*cap(a.buf), 1<<10))
		for n < len(b) {
			n *= 2
		}
		a.buf = make([]byte, 0, n)
	}
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	return a.buf[start:len(a.buf):len(a.buf)]
}

func (a *arena) string(b []byte) string {
	c := a.bytes(b)
	if len(c) == 0 {
		return ""
	}
	return unsafe.String(&c[0], len(c))
}

// slab hands out small slices carved from larger backing arrays, with their
// capacity clipped so appends by a caller cannot overwrite a neighbour.
type slab[T any] struct {
	buf  []T
	size int
}

func (s *slab[T]) take(src []T) []T {
	if len(src) == 0 {
		return nil
	}
	if cap(s.buf)-len(s.buf) < len(src) {
		n := s.size
		if n == 0 {
			n = 1024
		}
		if len(src) > n/4 {
			return append([]T(nil), src...)
		}
		s.buf = make([]T, 0, n)
	}
	start := len(s.buf)
	s.buf = append(s.buf, src...)
	return s.buf[start:len(s.buf):len(s.buf)]
}
