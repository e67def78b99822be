package dump

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"sync/atomic"

	"github.com/trtperf/trtperf/internal/engine"
)

// parallelMin is the size of layer list below which one goroutine is used
// (a variable so tests can drive the parallel path with small inputs).
var parallelMin = 4 << 20

func workers() int { return runtime.GOMAXPROCS(0) }

// Values of split.start besides a byte offset.
const (
	splitPending = -1 // the helper is still looking for its start
	splitGaveUp  = -2 // the helper found no start; decode sequentially
)

// split is shared by the two goroutines decoding one layer list.
type split struct {
	start atomic.Int64 // offset of the '{' where the helper started, or splitPending/splitGaveUp
	stop  atomic.Bool  // set by the main goroutine when the helper's work is not needed
	// decided is closed once start leaves splitPending. The main goroutine
	// waits for it (microseconds: one search and one layer) so whether the
	// halves are joined never depends on scheduling.
	decided chan struct{}
}

func (sh *split) publish(v int64) {
	if sh.start.CompareAndSwap(splitPending, v) {
		close(sh.decided)
	}
}

// parallelJoins counts decodes that used the helper's half (for tests).
var parallelJoins atomic.Int64

type helperResult struct {
	layers *chunked[engine.Layer]
	end    int  // offset after the list's closing ']'
	ok     bool // the helper decoded to the end of the list without error
	// splitFormat: the helper met a tensor with split Format/Datatype keys.
	splitFormat bool
}

// layerObjectsParallel decodes a large layer list with two goroutines and
// no pre-scan. The helper guesses a layer boundary in the second half by
// looking for the bytes that separate layer 0 from layer 1 (for example
// "\n},{" in trtexec files, "\n        },\n        {" in indent=4 files)
// and decodes from there to the end of the list. The main goroutine decodes
// from the start and uses the helper's layers only if it reaches the guessed
// offset exactly at a layer boundary, which proves the guess; otherwise it
// carries on alone. The result is therefore always what a sequential decode
// gives; a bad guess only costs time.
func (d *decoder) layerObjectsParallel() []engine.Layer {
	var out chunked[engine.Layer]
	d.layer(out.next(), 0)
	mask := d.seen
	end0 := d.pos
	if !d.more(']') {
		return flattenLayers(&out)
	}
	if d.peek() != '{' {
		d.layerRun(&out, nil) // reports the error
	}
	next := d.pos
	ws := end0 - 1
	for ws > 0 && isSpace(d.data[ws-1]) {
		ws--
	}
	sig := d.data[ws : next+1]
	from := next + (len(d.data)-next)/2

	sh := split{decided: make(chan struct{})}
	sh.start.Store(splitPending)
	done := make(chan helperResult, 1)
	go func() {
		// d.data may be a mapped file (see parseInput): a fault reading it
		// must panic, which speculate recovers; the main goroutine then
		// meets the same fault and reports it.
		debug.SetPanicOnFault(true)
		h := newDecoder(d.data)
		h.depth = d.depth
		done <- h.speculate(sig, mask, from, &sh)
	}()
	defer func() {
		// Runs on return and on error unwinding: the helper must not outlive
		// the call.
		sh.stop.Store(true)
		if done != nil {
			<-done
		}
	}()

	<-sh.decided
	for {
		d.ws()
		p := d.pos
		switch s2 := int(sh.start.Load()); {
		case s2 == p:
			res := <-done
			done = nil
			if !res.ok {
				// A real error in the second half: decode sequentially so it
				// is reported exactly as a single pass would.
				d.layerRun(&out, nil)
				return flattenLayers(&out)
			}
			d.pos = res.end
			d.splitFormat = d.splitFormat || res.splitFormat
			d.depth--
			parallelJoins.Add(1)
			return flattenLayers(&out, res.layers)
		case s2 >= 0 && p > s2, s2 == splitGaveUp:
			sh.stop.Store(true)
			d.layerRun(&out, nil)
			return flattenLayers(&out)
		}
		if d.peek() != '{' {
			d.layerRun(&out, nil) // reports the error
		}
		d.layer(out.next(), out.n-1)
		if !d.more(']') {
			return flattenLayers(&out)
		}
	}
}

// speculate runs on the helper goroutine: it finds a plausible layer start
// at or after from, publishes it in sh.start and decodes to the end of the
// list. Any failure just reports ok=false.
func (h *decoder) speculate(sig []byte, mask uint32, from int, sh *split) (res helperResult) {
	defer func() {
		if r := recover(); r != nil {
			res = helperResult{}
			sh.publish(splitGaveUp)
		}
	}()
	const shape = seenType | seenInputs | seenOutputs
	limit := from + (len(h.data)-from)/2
	for tries := 0; tries < 64 && !sh.stop.Load(); tries++ {
		i := bytes.Index(h.data[from:], sig)
		if i < 0 || from+i > limit {
			break
		}
		cand := from + i + len(sig) - 1
		from = cand + 1
		out := new(chunked[engine.Layer])
		if !h.tryLayer(out, cand) || h.seen&shape != mask&shape {
			continue
		}
		sh.publish(int64(cand))
		if h.more(']') {
			h.layerRun(out, sh.stop.Load)
		}
		if sh.stop.Load() {
			return helperResult{}
		}
		return helperResult{layers: out, end: h.pos, ok: true, splitFormat: h.splitFormat}
	}
	sh.publish(splitGaveUp)
	return helperResult{}
}

// tryLayer decodes one layer at off into out, reporting failure instead of
// raising.
func (h *decoder) tryLayer(out *chunked[engine.Layer], off int) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(scanError); !is {
				panic(r)
			}
			ok = false
		}
	}()
	h.pos = off
	h.depth = 2
	h.layer(out.next(), 0)
	return true
}
