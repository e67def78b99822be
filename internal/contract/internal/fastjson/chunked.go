package fastjson

import (
	"bufio"
	"fmt"
	"runtime"
	"sync"
)

// Span is one array element's bytes: data[Start:End] is the complete JSON
// value, without the separating comma or whitespace.
type Span struct {
	Start, End int64
}

// ChunkLen is the number of elements one worker encodes at a time: large
// enough to amortise the hand-off, small enough to bound memory.
const ChunkLen = 4096

// EncodeChunked writes v as a JSON array. Small slices are encoded inline;
// big ones in chunks, GOMAXPROCS at a time, each into its own buffer, the
// buffers written in order so the bytes do not depend on scheduling. A
// non-nil spans (len(v) long) gets each element's offsets in the output.
func EncodeChunked[T any](w *CountingWriter, v []T, spans []Span, one func(*Writer, *T)) error {
	if len(v) <= ChunkLen {
		e := &Writer{Buf: make([]byte, 0, 256*len(v)+2)}
		e.Buf = append(e.Buf, '[')
		appendElems(e, v, 0, len(v), spans, one, false)
		e.Buf = append(e.Buf, ']')
		if e.Err != nil {
			return e.Err
		}
		shift(spans, w.N)
		_, err := w.Write(e.Buf)
		return err
	}
	if _, err := w.Write([]byte{'['}); err != nil {
		return err
	}
	// Chunks are encoded concurrently while earlier ones are written, in
	// order. A small pool of buffers bounds how far encoding runs ahead, so
	// memory stays a few chunks whatever the engine's size.
	chunks := (len(v) + ChunkLen - 1) / ChunkLen
	workers := max(1, runtime.GOMAXPROCS(0))
	pool := make(chan *Writer, workers+2)
	for range cap(pool) {
		pool <- chunkWriters.Get().(*Writer)
	}
	defer func() {
		for range cap(pool) {
			chunkWriters.Put(<-pool)
		}
	}()
	done := make([]chan *Writer, chunks)
	for k := range done {
		done[k] = make(chan *Writer, 1)
	}
	go func() {
		for k := range chunks {
			e := <-pool
			go func() {
				appendElems(e, v, k*ChunkLen, min((k+1)*ChunkLen, len(v)), spans, one, true)
				done[k] <- e
			}()
		}
	}()
	var firstErr error
	for k := range chunks {
		e := <-done[k]
		lo, hi := k*ChunkLen, min((k+1)*ChunkLen, len(v))
		switch {
		case firstErr != nil:
			// drain: every started chunk must hand its buffer back
		case e.Err != nil:
			firstErr = fmt.Errorf("element %d..%d: %w", lo, hi-1, e.Err)
		default:
			if spans != nil {
				shift(spans[lo:hi], w.N)
			}
			if _, err := w.Write(e.Buf); err != nil {
				firstErr = err
			}
		}
		e.Buf, e.Err = e.Buf[:0], nil
		pool <- e
	}
	if firstErr != nil {
		return firstErr
	}
	_, err := w.Write([]byte{']'})
	return err
}

// chunkWriters keeps the chunk buffers of EncodeChunked for the next
// array (layers, then records, then the next backend's) instead of growing
// new ones: a buffer grown by append to a chunk's 5 MB allocates about five
// times that on the way, 170 MB per 200k-layer encoding.
var chunkWriters = sync.Pool{New: func() any { return &Writer{} }}

// Chunk buffers start at minChunkBuf and double whenever less than
// chunkSlack is left before an element (a bigger element grows the buffer
// by append).
const (
	minChunkBuf = 256 << 10
	chunkSlack  = 64 << 10
)

// roomFor makes sure e.Buf has chunkSlack bytes free, doubling it when not.
func (e *Writer) roomFor() {
	if cap(e.Buf)-len(e.Buf) >= chunkSlack {
		return
	}
	b := make([]byte, len(e.Buf), max(minChunkBuf, 2*cap(e.Buf)))
	copy(b, e.Buf)
	e.Buf = b
}

// appendElems appends v[lo:hi] to e.Buf, each after a comma unless it is
// the array's first, recording their offsets in e.Buf into spans; with
// grow, e.Buf grows by doubling (see roomFor).
func appendElems[T any](e *Writer, v []T, lo, hi int, spans []Span, one func(*Writer, *T), grow bool) {
	for i := lo; i < hi; i++ {
		if grow {
			e.roomFor()
		}
		if i > 0 {
			e.Buf = append(e.Buf, ',')
		}
		start := len(e.Buf)
		one(e, &v[i])
		if spans != nil {
			spans[i] = Span{Start: int64(start), End: int64(len(e.Buf))}
		}
	}
}

func shift(spans []Span, by int64) {
	for i := range spans {
		spans[i].Start += by
		spans[i].End += by
	}
}

// CountingWriter counts the bytes written so far, the base of the spans.
type CountingWriter struct {
	W *bufio.Writer
	N int64
}

func (c *CountingWriter) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N += int64(n)
	return n, err
}
