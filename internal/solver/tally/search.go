package tally

// frame is one position on the search path: its moves are s.moves[lo:hi],
// cur the next to try, entry the length of the log before the move that led
// to it (undoing down to entry leaves it), pend its recoveries not used yet
// (see gen).
type frame struct {
	lo, hi, cur, entry int32
	pend               uint64
}

// search is the depth-first search. It returns Won with the winning line in
// s.log, Unwinnable when every reachable position was visited, or Unknown
// when the budget ran out.
func (s *Solver) search() Verdict {
	st := &s.st
	s.moves, s.frames, s.log = s.moves[:0], s.frames[:0], s.log[:0]
	if v, _ := s.enter(0, 0); v != Unknown || s.stopped {
		return v
	}
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
		r := st.do(m)
		s.log = append(s.log, r)
		pend := uint64(0)
		if !s.opt.Exact {
			pend = after(m, r.card, fr.pend)
		}
		lo := int32(len(s.moves))
		v, ok := s.enter(pend, entry)
		if !ok {
			continue
		}
		if v != Unknown || s.stopped {
			return v
		}
		s.frames = append(s.frames, frame{lo: lo, hi: int32(len(s.moves)), cur: lo, entry: entry, pend: pend})
	}
	return Unwinnable
}

// enter arrives at a position (after the move that leads to it, whose log
// starts at entry): it makes the forced moves unless recoveries are pending, and
// reports ok = false, everything undone, when the position was visited
// before. Otherwise it counts the position and returns Won when it is won,
// Unknown with s.stopped set when the budget is spent, else Unknown with the
// position's moves appended to s.moves.
func (s *Solver) enter(pend uint64, entry int32) (Verdict, bool) {
	st := &s.st
	if pend == 0 && !s.opt.Exact {
		s.autoPlay()
	}
	if !s.tt.Insert(st.hash(pend)) {
		s.undoTo(int(entry))
		return Unknown, false
	}
	s.visited++
	s.left = min(s.left, st.left)
	if st.left == 0 {
		return Won, true
	}
	if s.spent() {
		s.stopped = true
		return Unknown, true
	}
	s.gen(pend)
	return Unknown, true
}

// spent reports whether the pass's budget is used up: its positions, or
// its share of Options.Spent (asked every 1024 positions; halted records
// that the whole budget is).
func (s *Solver) spent() bool {
	if s.opt.MaxPositions > 0 && s.visited >= s.opt.MaxPositions {
		return true
	}
	if s.visited&1023 == 0 && s.opt.Spent != nil {
		if used := s.opt.Spent(); used >= s.end {
			s.halted = used >= 1
			return true
		}
	}
	return false
}

// undoTo undoes the logged moves down to length n.
func (s *Solver) undoTo(n int) {
	for len(s.log) > n {
		s.st.undo(s.log[len(s.log)-1])
		s.log = s.log[:len(s.log)-1]
	}
}
