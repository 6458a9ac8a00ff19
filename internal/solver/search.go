package solver

import (
	"time"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// frame is one position on the search path: its moves are
// s.moves[lo:hi], cur the next to try, and entry the length of the log
// before the move that led to it (undoing down to entry leaves it).
type frame struct {
	lo, hi, cur, entry int32
}

// search is the depth-first search over positions. It returns Won with the
// winning line in s.log, Unwinnable when every reachable position was
// visited, or Unknown when the budget ran out. It allocates nothing except
// when a stack or the table has to grow.
func (s *Solver) search() Verdict {
	st := &s.st
	s.moves, s.frames, s.log = s.moves[:0], s.frames[:0], s.log[:0]
	s.autoPlay()
	s.tt.Insert(st.hash())
	s.visited++
	s.note()
	if st.left == 0 {
		return Won
	}
	if s.spent() {
		return Unknown
	}
	s.gen()
	s.frames = append(s.frames, frame{lo: 0, hi: int32(len(s.moves))})
	for len(s.frames) > 0 {
		fr := &s.frames[len(s.frames)-1]
		if fr.cur == fr.hi {
			s.undoTo(int(fr.entry))
			s.moves = s.moves[:fr.lo]
			s.frames = s.frames[:len(s.frames)-1]
			continue
		}
		m := s.moves[fr.cur]
		fr.cur++
		entry := int32(len(s.log))
		s.log = append(s.log, st.do(m))
		s.autoPlay()
		if !s.tt.Insert(st.hash()) {
			s.undoTo(int(entry))
			continue
		}
		s.visited++
		s.note()
		if st.left == 0 {
			return Won
		}
		if s.spent() {
			return Unknown
		}
		lo := int32(len(s.moves))
		s.gen()
		s.frames = append(s.frames, frame{lo: lo, hi: int32(len(s.moves)), cur: lo, entry: entry})
	}
	return Unwinnable
}

// note keeps the count of the position just visited when it has the fewest
// cards left so far (Result.Left).
func (s *Solver) note() {
	s.bestLeft = min(s.bestLeft, s.st.left)
}

// spent reports whether the phase's budget is used up or Options.Yield
// stopped the search (the clock is read, and Yield called, every 1024
// positions).
func (s *Solver) spent() bool {
	if s.limit > 0 && s.visited >= s.limit {
		return true
	}
	if s.visited&1023 != 0 {
		return false
	}
	if s.opt.Yield != nil && !s.opt.Yield() {
		s.stopped = true
		return true
	}
	return s.phaseTime > 0 && time.Since(s.start) >= s.phaseTime
}

// outOfTime reports whether the whole search's time is spent.
func (s *Solver) outOfTime() bool {
	return s.opt.MaxTime > 0 && time.Since(s.start) >= s.opt.MaxTime
}

// undoTo undoes the logged moves down to length n.
func (s *Solver) undoTo(n int) {
	for len(s.log) > n {
		s.st.undo(s.log[len(s.log)-1])
		s.log = s.log[:len(s.log)-1]
	}
}

// autoPlay makes the safe foundation plays of column tops (see safeSlot)
// until there are none, logging them. Exact searches make none.
func (s *Solver) autoPlay() {
	if s.keys.exact {
		return
	}
	st := &s.st
	for changed := true; changed; {
		changed = false
		for i := 0; i < st.ncols; i++ {
			col := &st.cols[i]
			for col.N > col.Down {
				sl := st.safeSlot(col.Cards[col.N-1])
				if sl < 0 {
					break
				}
				s.log = append(s.log, st.do(move{kind: colToF, from: uint8(i), to: uint8(sl), count: 1}))
				changed = true
			}
		}
	}
}

// safeSlot returns the slot that a column's top card c may go to at once
// without losing a win, or -1. With r the rank of c, c is safe when
//
//	(a) every card of the other colour of rank up to r-1 is on a foundation,
//	(b) every card of c's colour of rank up to r-2 is on a foundation, and
//	(c) both slots of c's suit hold at least r-1 cards (so c fits on one).
//
// Proof. Call the cards of (a), (b) and (c) — both copies of c's suit's
// rank r-1 included — low; c itself is not low, and neither is any card of
// rank r or more. A low card can only ever host low cards: a card goes on one
// rank higher of the other colour, and one rank below a low card is low (the
// other colour's r-1 hosts c's colour's r-2; c's colour's r-2 or less, and
// c's suit's r-1, host the other colour's r-3 or r-2). So no card that is not
// low is ever placed on a low card, and only low cards are ever placed on c.
//
// Let P be the position, P' the position after c goes to a foundation, and L
// a winning line from P. Build L' from L by leaving out every action that
// moves a low card or c (recoveries of low cards, runs whose first card is
// low or c, low cards and c going to the foundations), and by shortening
// every run that carries c or low cards to its part below them. Follow L and
// L' side by side: the columns of L' are those of L without c and the low
// cards, which sit only at the tops of columns; the talon is the same; the
// foundations of L' are those of L with every low card back in place and c
// on its suit. Each action of L' is legal when L's is:
//
//   - a run whose first card x is not low goes onto a top y one rank above
//     x: y is neither low nor c (they host only low cards), so y is the same
//     top in L'; a king goes onto an empty column of L, which is empty in L'
//     too;
//   - a card that is not low goes to a slot whose height is its rank less
//     one, at least the highest low rank of its suit, so putting the low
//     cards back changes no such height. For c's suit, L has at most one
//     card of rank r up before c goes there (the other copy) and one slot
//     stays at r-1, so adding c keeps a valid pair of piles and every later
//     play or recovery in L finds its slot in L';
//   - a recovery of a card that is not low takes the top of a slot whose
//     height is not changed by the low cards or by c;
//   - draws, recycles and talon plays act on the same talon;
//   - L' turns over the card under c as soon as c leaves, which only adds
//     options: every face-up card of L is face up in L'.
//
// When L ends with every card on the foundations, so does L', which
// leaves out the action that put c there: a win from P' that is shorter
// than L. So a position with a safe play is won exactly when the position
// after the play is, and, since the line gets shorter, making safe plays
// first never leads the search round in circles.
//
// The rule is for column tops only: a waste card that leaves early changes
// which cards later draws of three turn up.
func (st *state) safeSlot(c cards.Card) int {
	r := c.Rank()
	su := int(c.Suit())
	a, b := int(st.f.N[2*su]), int(st.f.N[2*su+1])
	if min(a, b) != r-1 {
		return -1
	}
	for o := 0; o < 4; o++ {
		if o == su {
			continue
		}
		need := r - 2
		if cards.Suit(o).Red() != c.Red() {
			need = r - 1
		}
		if int(min(st.f.N[2*o], st.f.N[2*o+1])) < need {
			return -1
		}
	}
	if a == r-1 {
		return 2 * su
	}
	return 2*su + 1
}

// cardKey is 2·rank + red of each card, parentKey the key of the cards it
// builds on (kings: 28, none).
var cardKey, parentKey = func() (ck, pk [2 * 52]uint8) {
	for c := range ck {
		r := uint8(0)
		if cards.Card(c).Red() {
			r = 1
		}
		rank := uint8(cards.Card(c).Rank())
		ck[c], pk[c] = 2*rank+r, 2*(rank+1)+1-r
	}
	return ck, pk
}()

// gen appends the moves of the current position, most promising first:
// foundation plays, runs that turn a card over, talon cards to columns, runs
// that empty a column, other runs, recoveries. A narrow search leaves out
// the recoveries and the runs that leave a card that cannot go to a
// foundation.
func (s *Solver) gen() {
	st := &s.st
	n := st.ncols
	exact := s.keys.exact
	s.nByTop = [28]uint8{}
	s.nEmpties = 0
	for j := 0; j < n; j++ {
		col := &st.cols[j]
		switch {
		case col.N == 0:
			s.empties[s.nEmpties] = int8(j)
			s.nEmpties++
		case col.N > col.Down:
			key := cardKey[col.Cards[col.N-1]]
			s.byTop[key][s.nByTop[key]] = int8(j)
			s.nByTop[key]++
		}
	}
	nt := k.Reachable(st.tw, st.tn, st.draw, st.recycle, &s.tops)
	tops := s.tops[:nt]

	for i := 0; i < n; i++ {
		col := &st.cols[i]
		if col.N > col.Down {
			s.toFound(colToF, uint8(i), col.Cards[col.N-1], exact)
		}
	}
	for _, q := range tops {
		s.toFound(talToF, q, st.tal[q-1], exact)
	}
	for i := 0; i < n; i++ {
		col := &st.cols[i]
		if col.Down > 0 && col.N > col.Down {
			s.toCols(colToCol, uint8(i), col.N-col.Down, col.Cards[col.Down], i, exact)
		}
	}
	for _, q := range tops {
		s.toCols(talToCol, q, 1, st.tal[q-1], -1, exact)
	}
	for i := 0; i < n; i++ {
		col := &st.cols[i]
		if col.Down == 0 && col.N > 0 && (exact || col.Cards[0].Rank() != 13) {
			// (a king at the foot of a column only trades places with an
			// empty column: the same position up to the order of columns)
			s.toCols(colToCol, uint8(i), col.N, col.Cards[0], i, exact)
		}
	}
	for i := 0; i < n; i++ {
		col := &st.cols[i]
		for p := int(col.Down) + 1; p < int(col.N); p++ {
			if s.narrow && st.f.FirstSlot(col.Cards[p-1]) < 0 {
				continue
			}
			s.toCols(colToCol, uint8(i), col.N-uint8(p), col.Cards[p], i, exact)
		}
	}
	if s.narrow {
		return
	}
	for sl := 0; sl < 8; sl++ {
		if st.f.N[sl] > 0 {
			s.toCols(fToCol, uint8(sl), 1, st.f.Piles[sl][st.f.N[sl]-1], -1, exact)
		}
	}
}

// toFound appends the foundation plays of c: to the first slot that takes
// it, or with exact to each.
func (s *Solver) toFound(kind, from uint8, c cards.Card, exact bool) {
	f := &s.st.f
	su := 2 * int(c.Suit())
	h := uint8(c.Rank() - 1)
	if f.N[su] == h {
		s.moves = append(s.moves, move{kind: kind, from: from, to: uint8(su), count: 1})
		if !exact {
			return
		}
	}
	if f.N[su+1] == h {
		s.moves = append(s.moves, move{kind: kind, from: from, to: uint8(su + 1), count: 1})
	}
}

// toCols appends the moves of a run of count cards whose first card is c to
// every column that takes it other than column self: for a king, the first
// empty column (every one with exact).
func (s *Solver) toCols(kind, from, count uint8, c cards.Card, self int, exact bool) {
	if c.Rank() == 13 {
		for e := 0; e < s.nEmpties; e++ {
			j := s.empties[e]
			if int(j) == self {
				continue
			}
			s.moves = append(s.moves, move{kind: kind, from: from, to: uint8(j), count: count})
			if !exact {
				return
			}
		}
		return
	}
	key := parentKey[c]
	for e := uint8(0); e < s.nByTop[key]; e++ {
		j := s.byTop[key][e]
		if int(j) != self {
			s.moves = append(s.moves, move{kind: kind, from: from, to: uint8(j), count: count})
		}
	}
}
