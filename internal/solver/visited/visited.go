// Package visited is a search's transposition table: the set of positions
// it visited, by their 128-bit keys, with open addressing. It never forgets
// a position during a search (a forgotten one could be searched again and
// again), so it grows instead, at half full. Entries of earlier searches
// are told apart by a generation stamp, so that starting a search clears
// nothing.
//
// Two different positions are taken for one only if both 64-bit halves of
// their keys agree; with halves from independent keys and finalisers, for
// the tens of millions of positions of a search the chance is about
// 2^-128 · n², far below any other source of error.
package visited

// Key is a position's 128-bit key.
type Key = [2]uint64

// Set is the positions visited; the zero value is ready after Reset.
type Set struct {
	slots  []Key
	stamps []uint32
	gen    uint32
	n      int
}

const minTableBits = 16

// Reset starts a new search: every entry becomes stale.
func (t *Set) Reset() {
	if t.slots == nil {
		t.slots = make([]Key, 1<<minTableBits)
		t.stamps = make([]uint32, 1<<minTableBits)
	}
	t.gen++
	if t.gen == 0 {
		clear(t.stamps)
		t.gen = 1
	}
	t.n = 0
}

// Insert adds h and reports whether it was new.
func (t *Set) Insert(h Key) bool {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := h[0] & mask; ; i = (i + 1) & mask {
		if t.stamps[i] != t.gen {
			t.stamps[i], t.slots[i] = t.gen, h
			t.n++
			return true
		}
		if t.slots[i] == h {
			return false
		}
	}
}

// grow doubles the table and moves the current entries over.
func (t *Set) grow() {
	old, oldStamps := t.slots, t.stamps
	t.slots = make([]Key, 2*len(old))
	t.stamps = make([]uint32, 2*len(old))
	mask := uint64(len(t.slots) - 1)
	for j, h := range old {
		if oldStamps[j] != t.gen {
			continue
		}
		i := h[0] & mask
		for t.stamps[i] == t.gen {
			i = (i + 1) & mask
		}
		t.stamps[i], t.slots[i] = t.gen, h
	}
}
