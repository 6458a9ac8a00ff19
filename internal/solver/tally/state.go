package tally

import (
	"fmt"
	"math/bits"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// A card's kind is what the tableau sees of it: 2·rank + red, 2 … 27.
// Kings are kinds 26 and 27.
const kinds = 28

// kindOf, hostOf and guestOf give each card's kind, the kind of the cards
// it builds on (rank+1, the other colour) and the kind of the cards that
// build on it (rank−1, the other colour); hostOf is 0 for kings, guestOf 0
// for aces.
var kindOf, hostOf, guestOf = func() (kd, ho, gu [2 * 52]uint8) {
	for c := range kd {
		card := cards.Card(c)
		red := uint8(0)
		if card.Red() {
			red = 1
		}
		r := uint8(card.Rank())
		kd[c] = 2*r + red
		if r < 13 {
			ho[c] = 2*(r+1) + 1 - red
		}
		if r > 1 {
			gu[c] = 2*(r-1) + 1 - red
		}
	}
	return kd, ho, gu
}()

// rankOf and suitOf are each card's rank and suit, for the hot paths.
var rankOf, suitOf = func() (r, s [2 * 52]uint8) {
	for c := range r {
		r[c], s[c] = uint8(cards.Card(c).Rank()), uint8(cards.Card(c).Suit())
	}
	return r, s
}()

// pair is a 128-bit key as two independent 64-bit halves.
type pair [2]uint64

func xor(a, b pair) pair { return pair{a[0] ^ b[0], a[1] ^ b[1]} }

// state is the abstract position. The cards of each column that have never
// left it, its face-down cards and the lowest face-up card above them, are
// "in place": col[i][:e[i]], the top one, col[i][e[i]-1], face up. Every
// other face-up tableau card is in the "pool", counted by face: it sits on
// a card of its host kind (or, a king, at the foot of a column that is
// otherwise empty), and which one does not matter (see the package
// comment). The talon is kept as in the solver package: tal[:tw] is the
// waste, top tal[tw-1], and tal[tw:tn] the stock, tal[tw] drawn next.
type state struct {
	col   [k.MaxColumns][k.MaxColumnCards]cards.Card
	e     [k.MaxColumns]uint8
	ncols int

	tal     [k.MaxStock]cards.Card
	tn, tw  int
	tidx    [2 * 52]uint8 // each talon card's place in the talon as loaded
	draw    int
	recycle bool

	slot [4][2]uint8 // the heights of each suit's two foundation slots

	pool  [52]uint8   // pool cards by face
	faces uint64      // the faces with a card in the pool (bit f for face f)
	inK   [kinds]int8 // pool cards by kind
	visK  [kinds]int8 // face-up tableau cards by kind: the pool's and the in-place tops
	empty int8        // columns with no card in place
	left  int         // cards not on the foundations (nor released, see free)

	// free, when above 1, relaxes the game: the cards below that rank
	// never need a host nor host anything; they leave a column as soon as
	// they are its top in place, and the talon as soon as they can be
	// drawn; and the cards of rank free may go up on a slot once every
	// lower rank of the suit has left its place for it (see Options.Free).
	free   uint8
	rel    [52]uint8 // free cards released, by face (the foundations' included)
	freed  [k.MaxStock]cards.Card
	nfreed int // the free cards drawn past, a stack (see passFree)

	keys *keySet
	h    pair // the position's key, less the talon boundary (see hash)
}

// keySet is the Zobrist keys of the abstract positions.
type keySet struct {
	col   [k.MaxColumns][k.MaxColumnCards + 1]pair // column, cards in place
	tal   [k.MaxStock]pair                         // a talon card still there, by its place as loaded
	bound [k.MaxStock + 1]pair                     // the talon boundary's class
	slot  [4][14][14]pair                          // suit, higher slot, lower slot
	pend  [52]pair                                 // a recovered card pending its use, by face
}

var keys = func() *keySet {
	ks := new(keySet)
	r := cards.NewSplitMix64(0x7a11_5017e5)
	next := func() pair { return pair{r.Next(), r.Next()} }
	for i := range ks.col {
		for j := range ks.col[i] {
			ks.col[i][j] = next()
		}
	}
	for i := range ks.tal {
		ks.tal[i] = next()
	}
	for i := range ks.bound {
		ks.bound[i] = next()
	}
	for s := range ks.slot {
		for a := range ks.slot[s] {
			for b := range ks.slot[s][a] {
				ks.slot[s][a][b] = next()
			}
		}
	}
	for i := range ks.pend {
		ks.pend[i] = next()
	}
	return ks
}()

// check reports why a position cannot be searched: a column whose face-up
// cards are not built down in alternating colours (no game position has
// one), or whose top is face down.
func check(b *k.Board) error {
	for i := 0; i < int(b.NCols); i++ {
		col := &b.Cols[i]
		if col.N > 0 && col.Down >= col.N {
			return fmt.Errorf("tally: column c%d has a face-down top", i+1)
		}
		for p := int(col.Down) + 1; p < int(col.N); p++ {
			if !cards.Builds(col.Cards[p], col.Cards[p-1]) {
				return fmt.Errorf("tally: column c%d has %s on %s", i+1, col.Cards[p], col.Cards[p-1])
			}
		}
	}
	return nil
}

// load builds the abstract position of a board and its foundations, with
// the cards below rank free (when above 1) free.
func (st *state) load(b *k.Board, f *k.Foundations, free int) {
	*st = state{keys: keys, ncols: int(b.NCols), draw: int(b.DrawCount), recycle: b.CanRecycle}
	if free > 1 {
		st.free = uint8(free)
	}
	for i := 0; i < st.ncols; i++ {
		col := &b.Cols[i]
		if col.N == 0 {
			st.empty++
		} else {
			n := int(col.Down) + 1
			copy(st.col[i][:n], col.Cards[:n])
			st.e[i] = uint8(n)
			st.visK[kindOf[col.Cards[n-1]]]++
			st.left += n
			for _, c := range col.Cards[n:col.N] {
				if st.isFree(c) {
					st.rel[c.Face()]++
					continue
				}
				st.joinPool(c)
				st.left++
			}
		}
		st.h = xor(st.h, keys.col[i][st.e[i]])
	}
	st.tw = int(b.NWaste)
	for _, c := range b.Waste[:b.NWaste] {
		st.tal[st.tn] = c
		st.tn++
	}
	for i := int(b.NStock) - 1; i >= 0; i-- {
		st.tal[st.tn] = b.Stock[i]
		st.tn++
	}
	for i, c := range st.tal[:st.tn] {
		st.tidx[c] = uint8(i)
		st.h = xor(st.h, keys.tal[i])
	}
	st.left += st.tn
	for s := 0; s < 4; s++ {
		st.slot[s] = [2]uint8{f.N[2*s], f.N[2*s+1]}
		if st.free > 0 {
			for sl, h := range st.slot[s] {
				for r := 1; r <= int(h) && r < free; r++ {
					st.rel[s*13+r-1]++
				}
				st.slot[s][sl] = max(h, st.free-1)
			}
		}
		st.h = xor(st.h, st.slotKey(s))
	}
}

// isFree reports whether c is below the free rank.
func (st *state) isFree(c cards.Card) bool { return c.Rank() < int(st.free) }

// spare returns how many of suit s's slots may still start on their free
// part: every free rank has a copy released for each slot, less the slots
// that hold a card of rank free or more.
func (st *state) spare(s int) int {
	n := 2
	for r := 1; r < int(st.free); r++ {
		n = min(n, int(st.rel[s*13+r-1]))
	}
	for _, h := range st.slot[s] {
		if h >= st.free {
			n--
		}
	}
	return n
}

// floor returns the height up to which every card of suit s is up on both
// slots (released, for the free ranks).
func (st *state) floor(s int) int {
	if st.free > 0 {
		for r := 1; r < int(st.free); r++ {
			if st.rel[s*13+r-1] < 2 {
				return r - 1
			}
		}
	}
	return int(min(st.slot[s][0], st.slot[s][1]))
}

// slotKey is suit s's share of the key: its two heights, in either order.
func (st *state) slotKey(s int) pair {
	a, b := st.slot[s][0], st.slot[s][1]
	if a < b {
		a, b = b, a
	}
	return st.keys.slot[s][a][b]
}

// hash returns the position's key with the recovered cards pending their
// use (see gen).
func (st *state) hash(pend uint64) pair {
	h := xor(st.h, st.keys.bound[st.boundaryClass()])
	for ; pend != 0; pend &= pend - 1 {
		h = xor(h, st.keys.pend[bits.TrailingZeros64(pend)])
	}
	return h
}

// boundaryClass names the waste boundary for the key, as the solver
// package does: with recycles the boundaries 0, d, 2d, … and tn reach each
// other and are one class; every other boundary stands alone.
func (st *state) boundaryClass() int {
	if !st.recycle {
		return st.tw
	}
	if st.tw%st.draw == 0 || st.tw == st.tn {
		return 0
	}
	return st.tw
}

// fits reports whether a card of c's kind may join the pool: a host of its
// kind is free (a king: a column is empty).
func (st *state) fits(c cards.Card) bool {
	if c.Rank() == 13 {
		return st.inK[26]+st.inK[27] < st.empty
	}
	return st.inK[kindOf[c]] < st.visK[hostOf[c]]
}

// canLeave reports whether a face-up card of c's kind may leave the
// tableau: the pool cards that build on its kind still have hosts without
// it.
func (st *state) canLeave(c cards.Card) bool {
	g := guestOf[c]
	return g == 0 || st.inK[g] < st.visK[kindOf[c]]
}

// upNext returns the faces that fit on a slot by their rank (bit f for
// face f): the rank above each slot's height.
func (st *state) upNext() uint64 {
	var m uint64
	for s := 0; s < 4; s++ {
		for _, h := range st.slot[s] {
			if h < 13 {
				m |= 1 << (13*s + int(h))
			}
		}
	}
	return m
}

// slotFor returns the first of suit s's slots whose height is rank−1, or −1.
// Free cards have none; a card of rank free needs a slot that may start.
func (st *state) slotFor(c cards.Card) int {
	s, h := suitOf[c], rankOf[c]-1
	if st.free > 0 && h+1 <= st.free && (h+1 < st.free || st.spare(int(s)) <= 0) {
		return -1
	}
	switch {
	case st.slot[s][0] == h:
		return 0
	case st.slot[s][1] == h:
		return 1
	}
	return -1
}

func (st *state) joinPool(c cards.Card) {
	st.faces |= 1 << c.Face()
	st.pool[c.Face()]++
	st.inK[kindOf[c]]++
	st.visK[kindOf[c]]++
}

func (st *state) leavePool(c cards.Card) {
	if st.pool[c.Face()]--; st.pool[c.Face()] == 0 {
		st.faces &^= 1 << c.Face()
	}
	st.inK[kindOf[c]]--
	st.visK[kindOf[c]]--
}

// popPlace takes column i's top card in place out of place; the card under
// it turns face up.
func (st *state) popPlace(i int) cards.Card {
	e := st.e[i]
	c := st.col[i][e-1]
	st.visK[kindOf[c]]--
	st.h = xor(xor(st.h, st.keys.col[i][e]), st.keys.col[i][e-1])
	st.e[i] = e - 1
	if e > 1 {
		st.visK[kindOf[st.col[i][e-2]]]++
	} else {
		st.empty++
	}
	return c
}

// pushPlace undoes popPlace.
func (st *state) pushPlace(i int) cards.Card {
	e := st.e[i]
	if e > 0 {
		st.visK[kindOf[st.col[i][e-1]]]--
	} else {
		st.empty--
	}
	st.h = xor(xor(st.h, st.keys.col[i][e]), st.keys.col[i][e+1])
	st.e[i] = e + 1
	c := st.col[i][e]
	st.visK[kindOf[c]]++
	return c
}

// raise puts a card of suit s on slot sl; lower takes one off.
func (st *state) raise(s, sl int) {
	st.h = xor(st.h, st.slotKey(s))
	st.slot[s][sl]++
	st.h = xor(st.h, st.slotKey(s))
	st.left--
}

func (st *state) lower(s, sl int) {
	st.h = xor(st.h, st.slotKey(s))
	st.slot[s][sl]--
	st.h = xor(st.h, st.slotKey(s))
	st.left++
}

// takeTalon removes the talon card at boundary q (tal[q-1]); the waste
// boundary becomes q-1.
func (st *state) takeTalon(q int) cards.Card {
	c := st.tal[q-1]
	copy(st.tal[q-1:st.tn-1], st.tal[q:st.tn])
	st.tn--
	st.tw = q - 1
	st.h = xor(st.h, st.keys.tal[st.tidx[c]])
	return c
}

// putTalon undoes takeTalon, restoring the boundary tw.
func (st *state) putTalon(q int, c cards.Card, tw int) {
	copy(st.tal[q:st.tn+1], st.tal[q-1:st.tn])
	st.tal[q-1] = c
	st.tn++
	st.tw = tw
	st.h = xor(st.h, st.keys.tal[st.tidx[c]])
}
