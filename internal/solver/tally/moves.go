package tally

import (
	"math/bits"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// The kinds of abstract move.
const (
	placeToF    uint8 = iota // column from's top in place to its suit's slot to (0 or 1)
	placeToPool              // column from's top in place to the pool
	talonToF                 // the talon card at boundary from to its suit's slot to
	talonToPool              // the talon card at boundary from to the pool
	poolToF                  // a pool card of face from to its suit's slot to
	recover                  // the top of suit from's slot to, back to the pool
	placeFree                // column from's top in place, a free card, leaves
	talonFree                // the talon card at boundary from, a free card, leaves
)

// move is one abstract move.
type move struct {
	kind, from, to uint8
}

// rec is a move made, with what undoing it needs.
type rec struct {
	m    move
	card cards.Card // the card moved (for talon moves, the physical card)
	tw   uint8      // the waste boundary before a talon move
	// passed, in a relaxed search with draw 1, marks the free cards that a
	// talon move drew past, by their place after the boundary: they left
	// as they were drawn.
	passed uint64
}

// do makes m and returns its record.
func (st *state) do(m move) rec {
	r := rec{m: m, tw: uint8(st.tw)}
	switch m.kind {
	case placeToF:
		r.card = st.popPlace(int(m.from))
		st.raise(int(r.card.Suit()), int(m.to))
	case placeToPool:
		r.card = st.popPlace(int(m.from))
		st.joinPool(r.card)
	case talonToF:
		r.passed = st.passFree(int(m.from))
		r.card = st.takeTalon(int(m.from) - bits.OnesCount64(r.passed))
		st.raise(int(r.card.Suit()), int(m.to))
	case talonToPool:
		r.passed = st.passFree(int(m.from))
		r.card = st.takeTalon(int(m.from) - bits.OnesCount64(r.passed))
		st.joinPool(r.card)
	case poolToF:
		r.card = cards.Card(m.from)
		st.leavePool(r.card)
		st.raise(int(r.card.Suit()), int(m.to))
	case recover:
		s, sl := int(m.from), int(m.to)
		r.card = cards.New(0, cards.Suit(s), int(st.slot[s][sl]))
		st.lower(s, sl)
		st.joinPool(r.card)
	case placeFree:
		r.card = st.popPlace(int(m.from))
		st.rel[r.card.Face()]++
		st.left--
	case talonFree:
		r.passed = st.passFree(int(m.from))
		r.card = st.takeTalon(int(m.from) - bits.OnesCount64(r.passed))
		st.rel[r.card.Face()]++
		st.left--
	}
	return r
}

// undo reverses do.
func (st *state) undo(r rec) {
	m := r.m
	switch m.kind {
	case placeToF:
		st.lower(int(r.card.Suit()), int(m.to))
		st.pushPlace(int(m.from))
	case placeToPool:
		st.leavePool(r.card)
		st.pushPlace(int(m.from))
	case talonToF:
		st.lower(int(r.card.Suit()), int(m.to))
		st.putTalon(int(m.from)-bits.OnesCount64(r.passed), r.card, int(r.tw))
		st.unpassFree(r.passed)
	case talonToPool:
		st.leavePool(r.card)
		st.putTalon(int(m.from)-bits.OnesCount64(r.passed), r.card, int(r.tw))
		st.unpassFree(r.passed)
	case poolToF:
		st.lower(int(r.card.Suit()), int(m.to))
		st.joinPool(r.card)
	case recover:
		st.leavePool(r.card)
		st.raise(int(m.from), int(m.to))
	case placeFree:
		st.rel[r.card.Face()]--
		st.left++
		st.pushPlace(int(m.from))
	case talonFree:
		st.rel[r.card.Face()]--
		st.left++
		st.putTalon(int(m.from)-bits.OnesCount64(r.passed), r.card, int(r.tw))
		st.unpassFree(r.passed)
	}
}

// passFree, in a relaxed search with draw 1, takes out of the stock the
// free cards that a move of the talon card at boundary q draws past (they
// leave as they are drawn) and returns which: bit o for the card that was
// at place tw+o. Otherwise it does nothing and returns 0.
func (st *state) passFree(q int) uint64 {
	if st.free == 0 || st.draw != 1 {
		return 0
	}
	var passed uint64
	for i := q - 2; i >= st.tw; i-- {
		if c := st.tal[i]; st.isFree(c) {
			passed |= 1 << (i - st.tw)
			copy(st.tal[i:st.tn-1], st.tal[i+1:st.tn])
			st.tn--
			st.h = xor(st.h, st.keys.tal[st.tidx[c]])
			st.rel[c.Face()]++
			st.left--
			st.freed[st.nfreed] = c
			st.nfreed++
		}
	}
	return passed
}

// unpassFree undoes passFree.
func (st *state) unpassFree(passed uint64) {
	for passed != 0 {
		o := bits.TrailingZeros64(passed)
		passed &= passed - 1
		st.nfreed--
		c := st.freed[st.nfreed]
		i := st.tw + o
		copy(st.tal[i+1:st.tn+1], st.tal[i:st.tn])
		st.tal[i] = c
		st.tn++
		st.h = xor(st.h, st.keys.tal[st.tidx[c]])
		st.rel[c.Face()]--
		st.left++
	}
}

// safe reports whether card c, which fits on one of its suit's slots, may
// go up at once without losing a win: every card of the other colour up to
// rank−1 and of its own colour up to rank−2 is up, and both of its suit's
// slots are at rank−1 or more. The proof is the solver package's (its
// safeSlot): no card that matters can ever build on c, and nothing is ever
// built on the cards below it. It holds for every face-up card of the
// tableau here (the pool's as the in-place tops'), and for the top of the
// waste when taking it changes no other card's reach (see autoPlay).
func (st *state) safe(c cards.Card) bool {
	r := c.Rank()
	su := int(c.Suit())
	if st.floor(su) != r-1 {
		return false
	}
	for o := 0; o < 4; o++ {
		if o == su {
			continue
		}
		need := r - 2
		if cards.Suit(o).Red() != c.Red() {
			need = r - 1
		}
		if st.floor(o) < need {
			return false
		}
	}
	return true
}

// reversible reports whether, after m (a move of card c to a foundation),
// c could come straight back to the pool: then the position after m
// reaches every position that keeping c (in the pool, or moving it there
// instead) reaches, and is at least as good.
func (st *state) reversible(m move, c cards.Card) bool {
	r := st.do(m)
	ok := st.fits(c)
	st.undo(r)
	return ok
}

// talonSafe reports whether the top of the waste may go up by the safe
// rule: with draw 1, or without recycles, taking it changes no other talon
// card's reach (the stock's draws are the same, and the card under it is
// reachable after); with draw 3 and recycles it changes which cards later
// passes turn up.
func (st *state) talonSafe() bool {
	return st.draw == 1 || !st.recycle
}

// autoPlay makes the forced moves until there are none and appends their
// records to log: safe foundation plays of face-up tableau cards and of the
// waste top (see safe), and the pool cards' foundation plays that are
// reversible (see reversible).
func (s *Solver) autoPlay() {
	st := &s.st
	for changed := true; changed; {
		changed = false
		for i := 0; st.free > 0 && i < st.ncols; i++ {
			for st.e[i] > 0 && st.isFree(st.col[i][st.e[i]-1]) {
				s.log = append(s.log, st.do(move{kind: placeFree, from: uint8(i)}))
				changed = true
			}
		}
		for st.free > 0 && st.tw > 0 && st.isFree(st.tal[st.tw-1]) {
			s.log = append(s.log, st.do(move{kind: talonFree, from: uint8(st.tw)}))
			changed = true
		}
		for i := 0; i < st.ncols; i++ {
			for st.e[i] > 0 {
				c := st.col[i][st.e[i]-1]
				sl := st.slotFor(c)
				if sl < 0 || !st.safe(c) || !st.canLeave(c) {
					break
				}
				s.log = append(s.log, st.do(move{kind: placeToF, from: uint8(i), to: uint8(sl)}))
				changed = true
			}
		}
		for st.tw > 0 && st.talonSafe() {
			c := st.tal[st.tw-1]
			sl := st.slotFor(c)
			if sl < 0 || !st.safe(c) {
				break
			}
			s.log = append(s.log, st.do(move{kind: talonToF, from: uint8(st.tw), to: uint8(sl)}))
			changed = true
		}
		for fs := st.upNext() & st.faces; fs != 0; fs &= fs - 1 {
			f := bits.TrailingZeros64(fs)
			c := cards.Card(f)
			sl := st.slotFor(c)
			if sl < 0 || !st.canLeave(c) {
				continue
			}
			m := move{kind: poolToF, from: uint8(f), to: uint8(sl)}
			if st.safe(c) || (!s.opt.keep && st.reversible(m, c)) {
				s.log = append(s.log, st.do(m))
				changed = true
			}
		}
	}
}

// gen appends the moves of the current position, foundation plays first,
// then the in-place tops and the talon cards to the pool, then recoveries.
//
// pend is the set of recovered cards not used yet (bit f for face f): a
// recovered card matters only as a host or by what it uncovers, so a
// recovery is made only for a move that uses it. Any winning line can be
// put in this form: a recovery can be made later, just before its first
// use, past any move that does not use it (the move is legal with the card
// still up, since it needs the card neither as a host nor out of its slot;
// and the recovery is legal after the move, since the position after both
// is the same), except past a recovery that it uncovers. In the line so
// formed, the recoveries come in runs, each recovery used by a later one of
// its run or by the move that ends the run; so after a run of recoveries
// the next move is another recovery, or one that uses every recovered card
// not used yet (see uses). (Runs of several are needed: two kings recovered
// to host each other's queens must both be down first.)
//
// Moves that never help are left out: a king alone in a column to the
// pool (it trades places with an empty column), an ace recovered (it hosts
// nothing), the second of two slots of one height (the first gives the
// same position), and a card to the pool when it may go to a foundation
// reversibly (see reversible). Exact searches keep them all and make no
// recovery wait for its use.
func (s *Solver) gen(pend uint64) {
	st := &s.st
	exact := s.opt.Exact
	if exact {
		pend = 0
	}
	// ok reports whether a move other than a recovery, of card c, uses
	// every pending card.
	ok := func(kind uint8, c cards.Card) bool {
		return pend == 0 || usesAll(kind, c, pend)
	}
	toF := func(kind, from uint8, c cards.Card) {
		su := c.Suit()
		h := uint8(c.Rank() - 1)
		for sl := uint8(0); sl < 2; sl++ {
			if st.slot[su][sl] == h {
				s.moves = append(s.moves, move{kind: kind, from: from, to: sl})
				if !exact {
					return
				}
			}
		}
	}
	for i := 0; i < st.ncols; i++ {
		if e := st.e[i]; e > 0 {
			if c := st.col[i][e-1]; st.slotFor(c) >= 0 && st.canLeave(c) && ok(placeToF, c) {
				toF(placeToF, uint8(i), c)
			}
		}
	}
	for fs := st.upNext() & st.faces; fs != 0; fs &= fs - 1 {
		f := bits.TrailingZeros64(fs)
		if c := cards.Card(f); st.slotFor(c) >= 0 && st.canLeave(c) && ok(poolToF, c) {
			toF(poolToF, uint8(f), c)
		}
	}
	nt := k.Reachable(st.tw, st.tn, st.draw, st.recycle, &s.tops)
	tops := s.tops[:nt]
	for _, q := range tops {
		if c := st.tal[q-1]; st.slotFor(c) >= 0 && ok(talonToF, c) {
			toF(talonToF, q, c)
		}
	}
	// The tops in place to the pool: with recycles, those that turn a card
	// over first, and those that empty their column after the talon's cards
	// (Normal deals are won sooner so); in a single pass, all in column
	// order first (Vegas deals are won sooner so).
	toPool := func(i int) {
		e := st.e[i]
		c := st.col[i][e-1]
		if st.isFree(c) || !st.fits(c) || !ok(placeToPool, c) || (!exact && e == 1 && c.Rank() == 13) {
			return
		}
		if sl := st.slotFor(c); !s.opt.keep && !exact && sl >= 0 && st.canLeave(c) &&
			st.reversible(move{kind: placeToF, from: uint8(i), to: uint8(sl)}, c) {
			return
		}
		s.moves = append(s.moves, move{kind: placeToPool, from: uint8(i)})
	}
	for i := 0; i < st.ncols; i++ {
		if st.e[i] > 1 || (st.e[i] == 1 && !st.recycle) {
			toPool(i)
		}
	}
	for _, q := range tops {
		c := st.tal[q-1]
		if st.isFree(c) {
			if pend == 0 {
				s.moves = append(s.moves, move{kind: talonFree, from: q})
			}
			continue
		}
		if !st.fits(c) || !ok(talonToPool, c) {
			continue
		}
		if sl := st.slotFor(c); !s.opt.keep && !exact && sl >= 0 && st.reversible(move{kind: talonToF, from: q, to: uint8(sl)}, c) {
			continue
		}
		s.moves = append(s.moves, move{kind: talonToPool, from: q})
	}
	for i := 0; i < st.ncols; i++ {
		if st.e[i] == 1 && st.recycle {
			toPool(i)
		}
	}
	for su := 0; su < 4; su++ {
		for sl := 0; sl < 2; sl++ {
			h := st.slot[su][sl]
			if h == 0 || h < st.free || (!exact && (h == 1 || (sl == 1 && st.slot[su][0] == h))) {
				continue
			}
			c := cards.New(0, cards.Suit(su), int(h))
			if !st.fits(c) {
				continue
			}
			s.moves = append(s.moves, move{kind: recover, from: uint8(su), to: uint8(sl)})
		}
	}
}

// uses reports whether a move of card c (a recovery's card for a
// recovery) uses the recovered card y: c builds on y's kind and joins the
// pool (y can host it), c is of y's kind and leaves the tableau (its guests
// can move onto y) or has y's face and goes up (onto the slot y left), or
// c is recovered from under y (y uncovered it). It errs on the side of yes.
func uses(kind uint8, c, y cards.Card) bool {
	switch kind {
	case placeToPool, talonToPool:
		return c.Rank() < 13 && hostOf[c] == kindOf[y]
	case recover:
		return (c.Rank() < 13 && hostOf[c] == kindOf[y]) || (c.Suit() == y.Suit() && c.Rank() == y.Rank()-1)
	}
	return kindOf[c] == kindOf[y] || c.Face() == y.Face()
}

// usesAll reports whether a move of card c uses every card of pend.
func usesAll(kind uint8, c cards.Card, pend uint64) bool {
	for p := pend; p != 0; p &= p - 1 {
		if !uses(kind, c, cards.Card(bits.TrailingZeros64(p))) {
			return false
		}
	}
	return true
}

// after returns the pending recoveries after move m of card c: a recovery
// adds its card and clears the ones it uses; any other move uses them all.
func after(m move, c cards.Card, pend uint64) uint64 {
	if m.kind != recover {
		return 0
	}
	for p := pend; p != 0; p &= p - 1 {
		if y := cards.Card(bits.TrailingZeros64(p)); uses(recover, c, y) {
			pend &^= 1 << y
		}
	}
	return pend | 1<<c.Face()
}

// tops is room for the reachable talon boundaries.
type tops = [k.MaxStock + 1]uint8
