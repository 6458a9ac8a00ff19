package tally

import "slices"

// A beam search (Options.Beam) goes down the same moves as the depth-first
// search, a level at a time, and keeps at each level only the positions
// that look closest to a win: the fewest cards off the foundations, in
// place (face down, or holding face-down cards) and on the waste, the
// waste counting eight times. A single pass lets no card drawn past come
// back unless everything above it goes first, so a position that leaves
// the waste high is seldom won; and a depth-first search, which tries a
// position's moves in turn to the end, spends its budget under the first
// choices it made. The beam gives up completeness: when it runs dry it
// proves nothing.

// beamNode is a position of the current level: its state, its recoveries
// not used yet (see gen), and the last step of the line that led to it.
type beamNode struct {
	st   state
	pend uint64
	at   int32
}

// beamChild is a position of the next level before the cut: the move from
// its parent (an index into the current level) and its score.
type beamChild struct {
	parent int32
	m      move
	pend   uint64
	score  int32
}

// beamStep is one step of a line: a move and the forced moves after it,
// s.beamRecs[lo:hi], after step prev (−1 for the first).
type beamStep struct {
	prev, lo, hi int32
}

// beamScore is how far the position looks from a win (lower is closer).
func (st *state) beamScore() int32 {
	n := st.left + 8*st.tw
	for i := 0; i < st.ncols; i++ {
		n += int(st.e[i])
	}
	return int32(n)
}

// beam searches with a beam of width w from the loaded position. It
// returns Won with the winning line in s.log, or Unknown when the budget
// ran out or the beam emptied.
func (s *Solver) beam(w int) Verdict {
	st := &s.st
	s.log = s.log[:0]
	if v, _ := s.enter(0, 0); v != Unknown || s.stopped {
		return v
	}
	s.beamSteps = append(s.beamSteps[:0], beamStep{prev: -1, hi: int32(len(s.log))})
	s.beamRecs = append(s.beamRecs[:0], s.log...)
	cur := append(s.beamCur[:0], beamNode{st: *st, at: 0})
	next := s.beamNext[:0]
	defer func() { s.beamCur, s.beamNext = cur[:0], next[:0] }()
	kids := s.beamKids[:0]
	defer func() { s.beamKids = kids[:0] }()
	for len(cur) > 0 {
		kids = kids[:0]
		for i := range cur {
			n := &cur[i]
			*st = n.st
			s.moves = s.moves[:0]
			s.gen(n.pend)
			for _, m := range s.moves {
				*st = n.st
				s.log = s.log[:0]
				pend := s.step(m, n.pend)
				v, ok := s.enter(pend, 0)
				switch {
				case !ok:
					continue
				case v == Won:
					s.beamLine(n.at)
					return Won
				case s.stopped:
					return Unknown
				}
				kids = append(kids, beamChild{parent: int32(i), m: m, pend: pend, score: st.beamScore()})
			}
		}
		next = next[:0]
		for _, c := range s.best(kids, w) {
			p := &cur[c.parent]
			*st = p.st
			s.log = s.log[:0]
			s.settle(s.step(c.m, p.pend))
			lo := int32(len(s.beamRecs))
			s.beamRecs = append(s.beamRecs, s.log...)
			s.beamSteps = append(s.beamSteps, beamStep{prev: p.at, lo: lo, hi: int32(len(s.beamRecs))})
			next = append(next, beamNode{st: *st, pend: c.pend, at: int32(len(s.beamSteps) - 1)})
		}
		cur, next = next, cur
	}
	return Unknown
}

// best returns the w best children of a level, or all of them when there
// are fewer, lowest score first and those of one score in their order in
// kids: a stable counting sort that places only the first w.
func (s *Solver) best(kids []beamChild, w int) []beamChild {
	if len(kids) == 0 {
		return nil
	}
	lo, hi := kids[0].score, kids[0].score
	for _, c := range kids {
		lo, hi = min(lo, c.score), max(hi, c.score)
	}
	at := slices.Grow(s.beamAt[:0], int(hi-lo)+1)[:hi-lo+1]
	clear(at)
	for _, c := range kids {
		at[c.score-lo]++
	}
	var n int32
	for i, m := range at { // each score's first place
		at[i], n = n, n+m
	}
	out := slices.Grow(s.beamBest[:0], min(w, len(kids)))[:min(w, len(kids))]
	for _, c := range kids {
		if i := at[c.score-lo]; int(i) < len(out) {
			out[i] = c
		}
		at[c.score-lo]++
	}
	s.beamAt, s.beamBest = at, out
	return out
}

// beamLine puts in s.log the whole line to the position just reached: the
// steps up to step at, then the moves of s.log.
func (s *Solver) beamLine(at int32) {
	last := slices.Clone(s.log)
	var path []int32
	for ; at >= 0; at = s.beamSteps[at].prev {
		path = append(path, at)
	}
	s.log = s.log[:0]
	for i := len(path) - 1; i >= 0; i-- {
		sp := s.beamSteps[path[i]]
		s.log = append(s.log, s.beamRecs[sp.lo:sp.hi]...)
	}
	s.log = append(s.log, last...)
}
