package tally

import (
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
)

// move is one abstract move.
type move struct {
	kind, from, to uint8
	// must is what the move leaves pending: after a recovery, the face of
	// the recovered card +1, which the next move must use (see gen); 0:
	// nothing.
	must uint8
}

// rec is a move made, with what undoing it needs.
type rec struct {
	m    move
	card cards.Card // the card moved (for talon moves, the physical card)
	tw   uint8      // the waste boundary before a talon move
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
		r.card = st.takeTalon(int(m.from))
		st.raise(int(r.card.Suit()), int(m.to))
	case talonToPool:
		r.card = st.takeTalon(int(m.from))
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
		st.putTalon(int(m.from), r.card, int(r.tw))
	case talonToPool:
		st.leavePool(r.card)
		st.putTalon(int(m.from), r.card, int(r.tw))
	case poolToF:
		st.lower(int(r.card.Suit()), int(m.to))
		st.joinPool(r.card)
	case recover:
		st.leavePool(r.card)
		st.raise(int(m.from), int(m.to))
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
	r := uint8(c.Rank())
	su := int(c.Suit())
	if min(st.slot[su][0], st.slot[su][1]) != r-1 {
		return false
	}
	for o := 0; o < 4; o++ {
		if o == su {
			continue
		}
		need := int(r) - 2
		if cards.Suit(o).Red() != c.Red() {
			need = int(r) - 1
		}
		if int(min(st.slot[o][0], st.slot[o][1])) < need {
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
		for f := 0; f < 52; f++ {
			if st.pool[f] == 0 {
				continue
			}
			c := cards.Card(f)
			sl := st.slotFor(c)
			if sl < 0 || !st.canLeave(c) {
				continue
			}
			m := move{kind: poolToF, from: uint8(f), to: uint8(sl)}
			if st.safe(c) || st.reversible(m, c) {
				s.log = append(s.log, st.do(m))
				changed = true
			}
		}
	}
}

// gen appends the moves of the current position, foundation plays first,
// then the in-place tops and the talon cards to the pool, then recoveries.
//
// must is what a recovery just made leaves pending (0: nothing; else the
// recovered card's face +1): the next move must be another recovery or use
// the recovered card y: a card that builds on y's kind joining the pool
// (y hosts it), a card of y's kind leaving the tableau (its guests move
// onto y), or a card of y's face going up (onto the slot y left). Any
// winning line can be put in that form: a recovery followed by a move that
// does not use it can be made after that move instead (the move is legal
// with y still up, since it needs neither y as a host nor y's slot lower,
// and the recovery is legal after it, since the position after both is the
// same), and moving recoveries later past other moves ends. So only such
// lines are searched. (A recovery followed by a recovery stays: two kings
// recovered to host each other's queens need both up first.)
//
// Moves that never help are left out: a king alone in a column to the
// pool (it trades places with an empty column), an ace recovered (it hosts
// nothing), the second of two slots of one height (the first gives the
// same position), and a card to the pool when it may go to a foundation
// reversibly (see reversible). Exact searches keep them all and make no
// recovery wait for its use.
func (s *Solver) gen(must uint8) {
	st := &s.st
	exact := s.opt.Exact
	if exact {
		must = 0
	}
	var yKind uint8
	var yFace cards.Card
	if must > 0 {
		yFace = cards.Card(must - 1)
		yKind = kindOf[yFace]
	}
	joins := func(c cards.Card) bool { return must == 0 || (c.Rank() < 13 && hostOf[c] == yKind) }
	leaves := func(c cards.Card) bool { return must == 0 || kindOf[c] == yKind || c.Face() == yFace }
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
			if c := st.col[i][e-1]; st.slotFor(c) >= 0 && st.canLeave(c) && leaves(c) {
				toF(placeToF, uint8(i), c)
			}
		}
	}
	for f := 0; f < 52; f++ {
		if c := cards.Card(f); st.pool[f] > 0 && st.slotFor(c) >= 0 && st.canLeave(c) && leaves(c) {
			toF(poolToF, uint8(f), c)
		}
	}
	nt := st.reachable(&s.tops)
	tops := s.tops[:nt]
	for _, q := range tops {
		if c := st.tal[q-1]; st.slotFor(c) >= 0 && (must == 0 || c.Face() == yFace) {
			toF(talonToF, q, c)
		}
	}
	for i := 0; i < st.ncols; i++ {
		e := st.e[i]
		if e == 0 {
			continue
		}
		c := st.col[i][e-1]
		if !st.fits(c) || !joins(c) || (!exact && e == 1 && c.Rank() == 13) {
			continue
		}
		if sl := st.slotFor(c); !exact && sl >= 0 && st.canLeave(c) &&
			st.reversible(move{kind: placeToF, from: uint8(i), to: uint8(sl)}, c) {
			continue
		}
		s.moves = append(s.moves, move{kind: placeToPool, from: uint8(i)})
	}
	for _, q := range tops {
		c := st.tal[q-1]
		if !st.fits(c) || !joins(c) {
			continue
		}
		if sl := st.slotFor(c); !exact && sl >= 0 && st.reversible(move{kind: talonToF, from: q, to: uint8(sl)}, c) {
			continue
		}
		s.moves = append(s.moves, move{kind: talonToPool, from: q})
	}
	for su := 0; su < 4; su++ {
		for sl := 0; sl < 2; sl++ {
			h := st.slot[su][sl]
			if h == 0 || (!exact && (h == 1 || (sl == 1 && st.slot[su][0] == h))) {
				continue
			}
			c := cards.New(0, cards.Suit(su), int(h))
			if !st.fits(c) {
				continue
			}
			m := move{kind: recover, from: uint8(su), to: uint8(sl)}
			if !exact {
				m.must = uint8(c) + 1
			}
			s.moves = append(s.moves, m)
		}
	}
}

// tops is room for the reachable talon boundaries.
type tops = [k.MaxStock + 1]uint8
