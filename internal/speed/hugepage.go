// Huge pages: the first write to each 4 KiB page of fresh memory is a page
// fault; on a 10^5-layer engine those faults cost more than the parsing
// itself on some machines (a virtual machine measured 4.3 s to touch 512 MB
// page by page, 0.08–1.4 s with huge pages, one fault per 2 MiB). Linux in
// its default "madvise" mode gives huge pages only to memory marked with
// madvise(MADV_HUGEPAGE), and the Go runtime does not mark its heap, so
// advise marks the buffers that matter and primeHeap the heap a run will
// grow into. Neither changes the memory's contents or lifetime; where the
// system has no transparent huge pages both are no-ops.

package speed

import (
	"runtime"
	"unsafe"
)

// minBytes is the smallest buffer worth advising: smaller ones hold at
// most one aligned huge page and are left alone.
const minBytes = 4 << 20

// advise marks the huge-page-aligned part of s's backing array (up to its
// capacity) for huge pages. Call it right after allocating s and before
// writing to it: pages already touched keep their size. Errors are
// ignored, as the advice is only a hint.
func advise[T any](s []T) {
	var zero T
	n := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if n < minBytes {
		return
	}
	adviseBytes(unsafe.Pointer(unsafe.SliceData(s)), n)
}

// primeHeap grows the Go heap by n bytes of address space marked for huge
// pages and frees it at once: the allocator hands out its lowest free
// addresses first, so the allocations that follow, small ones included,
// land in that space and are backed by huge pages when first touched.
// The space is never written, so it costs no memory until reused. Call it
// at the start of a run whose heap is expected to grow to about n bytes.
// It returns the bytes it allocated (0 when it did nothing).
func primeHeap(n int64) int64 {
	if n < minBytes || !available() {
		return 0
	}
	// Pieces, not one block: a block that overlaps memory the heap used
	// before is cleared by the runtime before it can be marked, one
	// 4 KiB fault at a time (the whole n). Only the first piece or two can
	// overlap; the rest is fresh and stays untouched.
	pieces := make([][]byte, n/minBytes)
	lo, hi := ^uintptr(0), uintptr(0)
	for i := range pieces {
		pieces[i] = make([]byte, minBytes)
		p := uintptr(unsafe.Pointer(unsafe.SliceData(pieces[i])))
		lo, hi = min(lo, p), max(hi, p+minBytes)
	}
	// The pieces are normally contiguous; anything between them is heap
	// memory too, for which the advice is as harmless.
	adviseRange(lo, hi-lo)
	runtime.KeepAlive(pieces)
	pieces = nil
	runtime.GC() // free them now, and forget them in the GC's pacing
	return n / minBytes * minBytes
}
