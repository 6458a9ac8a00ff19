package solver

import (
	k "dsol/internal/klondike"
)

// shorten returns the shortest line, in engine actions (each talon move
// counted with the draws and recycle that bring its card up), from the
// position (b, f) to the same last position as log, that goes through
// positions of log's path by single moves: the path's own steps, and every
// move from one of its positions that lands on a later one. Positions are
// told apart exactly, waste boundary included, so a line may leave the
// path's order anywhere and play on from where it lands. A depth-first
// search's winning path wanders (runs shuffled between columns, cards taken
// up and put back); spelled out with its draws it can run to hundreds of
// thousands of actions, more than a game may have (klondike.MaxActions).
func (s *Solver) shorten(b *k.Board, f *k.Foundations, log []rec) []rec {
	keys, narrow := s.keys, s.narrow
	defer func() { s.keys, s.narrow, s.moves = keys, narrow, s.moves[:0] }()
	s.keys, s.narrow = &exact, false
	st := &s.st
	n := len(log)
	st.load(b, f, &exact)
	at := make(map[pair]int32, n+1)
	at[st.hash()] = 0
	for i, r := range log {
		st.do(r.m)
		at[st.hash()] = int32(i + 1)
	}
	type step struct {
		from int32
		m    move
	}
	cost := make([]int32, n+1)
	prev := make([]step, n+1)
	for i := 1; i <= n; i++ {
		cost[i] = -1
	}
	st.load(b, f, &exact)
	for i := 0; i < n; i++ {
		relax := func(m move, j int32) {
			c := cost[i] + int32(st.actions(m))
			if cost[j] < 0 || c < cost[j] {
				cost[j], prev[j] = c, step{from: int32(i), m: m}
			}
		}
		relax(log[i].m, int32(i+1))
		s.moves = s.moves[:0]
		s.gen()
		for _, m := range s.moves {
			r := st.do(m)
			j, ok := at[st.hash()]
			st.undo(r)
			if ok && int(j) > i+1 {
				relax(m, j)
			}
		}
		st.do(log[i].m)
	}
	var moves []move
	for j := int32(n); j > 0; j = prev[j].from {
		moves = append(moves, prev[j].m)
	}
	st.load(b, f, &exact)
	out := make([]rec, 0, len(moves))
	for i := len(moves) - 1; i >= 0; i-- {
		out = append(out, st.do(moves[i]))
	}
	return out
}

// actions is how many engine actions m takes from st: one, and for a talon
// move the draws and recycle before it that bring its card up
// (klondike.TalonDraws, as line spells them with klondike.BringUp).
func (st *state) actions(m move) int {
	if m.kind != talToF && m.kind != talToCol {
		return 1
	}
	before, recycle, after := k.TalonDraws(st.tw, st.tn, st.draw, int(m.from))
	if recycle {
		return before + 1 + after + 1
	}
	return after + 1
}
