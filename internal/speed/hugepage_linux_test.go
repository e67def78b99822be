package speed

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestAdviseMarksMemory reads /proc/self/smaps: after advise the mapping
// holding the middle of a 16 MB buffer carries the "hg" (MADV_HUGEPAGE)
// flag, and a small buffer is left alone.
func TestAdviseMarksMemory(t *testing.T) {
	if size() == 0 {
		t.Skip("this kernel has no transparent huge pages")
	}
	big := make([]byte, 16<<20)
	advise(big)
	mid := uintptr(unsafe.Pointer(&big[len(big)/2]))
	if !flagged(t, mid) {
		t.Errorf("the middle of an advised 16 MB buffer is not marked for huge pages")
	}
	big[0], big[len(big)-1] = 1, 2 // still ordinary memory
	if big[0]+big[len(big)-1] != 3 {
		t.Fatal("memory changed")
	}
	advise(big[: 0 : minBytes-1]) // below minBytes: no effect, no failure
}

// flagged reports whether the mapping containing addr has the hg flag.
func flagged(t *testing.T, addr uintptr) bool {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("cannot read smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line + " ")[0], "-"); ok && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= a && uint64(addr) < b
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.Contains(line+" ", " hg ")
		}
	}
	return false
}

// TestPrimeHeap: a buffer allocated after primeHeap lies in memory marked
// for huge pages although nobody advised it.
func TestPrimeHeap(t *testing.T) {
	if size() == 0 {
		t.Skip("this kernel has no transparent huge pages")
	}
	primeHeap(128 << 20)
	b := make([]byte, 8<<20)
	if !flagged(t, uintptr(unsafe.Pointer(&b[len(b)/2]))) {
		t.Errorf("an 8 MB buffer allocated after primeHeap is not in memory marked for huge pages")
	}
}
