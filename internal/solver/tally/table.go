package tally

// table is the set of positions visited, by their 128-bit keys, with open
// addressing. It never forgets a position during a search, so it grows
// instead, at half full. Entries of earlier searches are told apart by a
// generation stamp, so that starting a search clears nothing. Two positions
// are taken for one only if both halves of their keys agree: for the tens of
// millions of positions of a search, a chance of about 2^-128 · n².
type table struct {
	slots  []pair
	stamps []uint32
	gen    uint32
	n      int
}

const minTableBits = 16

// reset starts a new search: every entry becomes stale.
func (t *table) reset() {
	if t.slots == nil {
		t.slots = make([]pair, 1<<minTableBits)
		t.stamps = make([]uint32, 1<<minTableBits)
	}
	t.gen++
	if t.gen == 0 {
		clear(t.stamps)
		t.gen = 1
	}
	t.n = 0
}

// insert adds h and reports whether it was new.
func (t *table) insert(h pair) bool {
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
func (t *table) grow() {
	old, oldStamps := t.slots, t.stamps
	t.slots = make([]pair, 2*len(old))
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
