package dump

import "github.com/trtperf/trtperf/internal/engine"

// chunked collects values in fixed chunks so a list of unknown length never
// reallocates and copies while it grows (append on a 200k-layer slice would
// allocate four to five times its final size); flatten makes the one
// contiguous slice at the end.
type chunked[T any] struct {
	chunks [][]T
	cur    []T
	n      int
}

const maxChunk = 4096

// next returns a pointer to a new zero element.
func (c *chunked[T]) next() *T {
	if len(c.cur) == cap(c.cur) {
		size := 16
		if c.cur != nil {
			c.chunks = append(c.chunks, c.cur)
			size = min(2*cap(c.cur), maxChunk)
		}
		c.cur = make([]T, 0, size)
	}
	c.cur = c.cur[:len(c.cur)+1]
	c.n++
	return &c.cur[len(c.cur)-1]
}

// appendTo appends all elements to dst in order.
func (c *chunked[T]) appendTo(dst []T) []T {
	for _, ch := range c.chunks {
		dst = append(dst, ch...)
	}
	return append(dst, c.cur...)
}

// flattenLayers joins the layers decoded by the goroutines, in order, into
// one exactly-sized slice, renumbering each part after the first.
func flattenLayers(parts ...*chunked[engine.Layer]) []engine.Layer {
	total := 0
	for _, p := range parts {
		total += p.n
	}
	out := make([]engine.Layer, 0, total)
	for _, p := range parts {
		base := len(out)
		out = p.appendTo(out)
		if base > 0 {
			for i := base; i < len(out); i++ {
				out[i].Index += base
			}
		}
	}
	return out
}
