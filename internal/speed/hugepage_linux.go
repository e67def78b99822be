package speed

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// size is the kernel's transparent huge page size, 0 when it has none.
var size = sync.OnceValue(func() uintptr {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")
	if err != nil {
		return 0
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n == 0 || n&(n-1) != 0 {
		return 0
	}
	return uintptr(n)
})

func adviseBytes(p unsafe.Pointer, n uintptr) {
	h := size()
	if h == 0 {
		return
	}
	// [skip, skip+length) is the part of [p, p+n) made of whole huge pages.
	a := uintptr(p)
	skip := (a+h-1)&^(h-1) - a
	if n < skip+h {
		return
	}
	length := (n - skip) &^ (h - 1)
	// The range lies inside the caller's allocation: madvise only tells
	// the kernel which page size to use when it is first touched.
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, skip)), length), syscall.MADV_HUGEPAGE)
}

// available reports whether advised memory gets huge pages: the kernel
// has them and its mode is not "never".
var available = sync.OnceValue(func() bool {
	if size() == 0 {
		return false
	}
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && !strings.Contains(string(b), "[never]")
})

// adviseRange is advise for an address range that spans several live
// allocations (no single Go pointer covers it).
func adviseRange(p, n uintptr) {
	h := size()
	start := (p + h - 1) &^ (h - 1)
	end := (p + n) &^ (h - 1)
	if h == 0 || end <= start {
		return
	}
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_HUGEPAGE)
}
