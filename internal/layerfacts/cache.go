package layerfacts

import (
	"hash/maphash"
	"sync/atomic"
)

// The caches below are direct-mapped and lock-free: Derive runs on several
// goroutines at once over 10^5 layers, and a slot holds an immutable entry
// swapped in atomically, so readers never wait and a collision only costs a
// recomputation (never a wrong answer: the full key is compared). They are
// bounded, so a dump of 10^5 distinct keys cannot grow them.

const cacheSlots = 1024

// sliceCache maps small integer keys (tag sets, packed data-type lists) to
// shared, read-only string slices.
type sliceCache struct {
	slots [cacheSlots]atomic.Pointer[sliceEntry]
}

type sliceEntry struct {
	key uint64
	val []string
}

func sliceSlot(key uint64) uint64 { return (key * 0x9E3779B97F4A7C15) >> (64 - 10) }

func (c *sliceCache) load(key uint64) ([]string, bool) {
	if e := c.slots[sliceSlot(key)].Load(); e != nil && e.key == key {
		return e.val, true
	}
	return nil, false
}

func (c *sliceCache) store(key uint64, val []string) {
	c.slots[sliceSlot(key)].Store(&sliceEntry{key, val})
}

// strCache maps strings (tactic names, layer types) to computed values.
type strCache[V any] struct {
	slots [cacheSlots]atomic.Pointer[strEntry[V]]
}

type strEntry[V any] struct {
	key string
	val V
}

var cacheSeed = maphash.MakeSeed()

func strSlot(key string) uint64 { return maphash.String(cacheSeed, key) & (cacheSlots - 1) }

func (c *strCache[V]) load(key string) (V, bool) {
	if e := c.slots[strSlot(key)].Load(); e != nil && e.key == key {
		return e.val, true
	}
	var zero V
	return zero, false
}

func (c *strCache[V]) store(key string, val V) {
	c.slots[strSlot(key)].Store(&strEntry[V]{key, val})
}
