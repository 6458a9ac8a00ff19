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
	s.moves, s.frames, s.log = s.moves[:0], s.frames[:0], s.log[:0]
	if v, _ := s.enter(0, 0); v != Unknown || s.stopped {
		return v
	}
	s.gen(0)
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
		pend := s.step(m, fr.pend)
		v, ok := s.enter(pend, entry)
		if !ok {
			continue
		}
		if v != Unknown || s.stopped {
			return v
		}
		lo := int32(len(s.moves))
		s.gen(pend)
		s.frames = append(s.frames, frame{lo: lo, hi: int32(len(s.moves)), cur: lo, entry: entry, pend: pend})
	}
	return Unwinnable
}

// step makes move m, logged, from a position whose recoveries not used yet
// are pend (see gen), and returns those of the position it leads to (none
// in an exact search).
func (s *Solver) step(m move, pend uint64) uint64 {
	r := s.st.do(m)
	s.log = append(s.log, r)
	if s.opt.Exact {
		return 0
	}
	return after(m, r.card, pend)
}

// settle makes the forced moves, logged, unless recoveries are pending or
// the search is exact.
func (s *Solver) settle(pend uint64) {
	if pend == 0 && !s.opt.Exact {
		s.autoPlay()
	}
}

// enter arrives at a position (after the move that leads to it, whose log
// starts at entry): it settles it (see settle), and reports ok = false,
// everything undone, when the position was visited before. Otherwise it
// counts the position and returns Won when it is won, Unknown with
// s.stopped set when the budget is spent, else Unknown.
func (s *Solver) enter(pend uint64, entry int32) (Verdict, bool) {
	st := &s.st
	s.settle(pend)
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
