package solo

import (
	"math/rand/v2"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// legalActions appends every accepted move of g to buf: moves of each run to
// each column and of each top to the foundation area, waste and recovery
// moves, draw or recycle. Taps and double taps are the same moves under
// another name, so they are not listed; the random player mixes them in.
func legalActions(g *Game, buf []k.Action) []k.Action {
	buf = buf[:0]
	if g.status == Won {
		return buf
	}
	b := &g.board
	for i := 0; i < Columns; i++ {
		col := &b.Cols[i]
		if col.N == 0 {
			continue
		}
		if g.found.FirstSlot(col.Top()) >= 0 {
			buf = append(buf, k.NewMove(k.Pile(i), k.AnyF, 1))
		}
		for n := 1; n <= int(col.N-col.Down); n++ {
			first := col.Cards[int(col.N)-n]
			for j := 0; j < Columns; j++ {
				if j != i && b.Cols[j].Accepts(first) {
					buf = append(buf, k.NewMove(k.Pile(i), k.Pile(j), n))
				}
			}
		}
	}
	if w := b.WasteTop(); w != cards.None {
		if g.found.FirstSlot(w) >= 0 {
			buf = append(buf, k.NewMove(k.Waste, k.AnyF, 1))
		}
		for j := 0; j < Columns; j++ {
			if b.Cols[j].Accepts(w) {
				buf = append(buf, k.NewMove(k.Waste, k.Pile(j), 1))
			}
		}
	}
	for s := 0; s < 8; s++ {
		if c := g.found.Top(s); c != cards.None {
			for j := 0; j < Columns; j++ {
				if b.Cols[j].Accepts(c) {
					buf = append(buf, k.NewMove(k.Slot(s), k.Pile(j), 1))
				}
			}
		}
	}
	if b.NStock > 0 {
		buf = append(buf, k.Simple(k.Draw))
	} else if b.NWaste > 0 && !g.code.Vegas {
		buf = append(buf, k.Simple(k.Recycle))
	}
	return buf
}

// randomAction picks a random legal action, now and then an undo, a tap or a
// double tap (which may be refused), or nothing when there is none.
func randomAction(g *Game, r *rand.Rand, buf []k.Action) (k.Action, []k.Action) {
	buf = legalActions(g, buf)
	switch x := r.IntN(20); {
	case x == 0:
		return k.Simple(k.Undo), buf
	case x == 1:
		return k.FromPile(k.Tap, k.Pile(r.IntN(10)), 1), buf
	case x == 2:
		return k.FromPile(k.DTap, k.Pile(r.IntN(10)), 1+r.IntN(3)), buf
	}
	if len(buf) == 0 {
		return k.Action{}, buf
	}
	return buf[r.IntN(len(buf))], buf
}

// greedy is a simple player that wins a fair share of games: foundation
// plays first, then moves that turn a card over (from the column with most
// face-down cards), waste cards to columns, moves that uncover a foundation
// card, and draws; it recycles while the previous pass made progress.
type greedy struct {
	r        *rand.Rand
	progress bool // a pass made a non-draw move
	passes   int
}

// next returns the greedy player's action, or ok = false when it gives up.
func (p *greedy) next(g *Game) (a k.Action, ok bool) {
	t := g.table()
	b := &g.board
	// 1. Foundation plays, from the waste or any column.
	if w := b.WasteTop(); w != cards.None && g.found.FirstSlot(w) >= 0 {
		return k.NewMove(k.Waste, k.AnyF, 1), true
	}
	start := p.r.IntN(Columns)
	for d := 0; d < Columns; d++ {
		i := (start + d) % Columns
		if c := b.Cols[i].Top(); c != cards.None && g.found.FirstSlot(c) >= 0 {
			return k.NewMove(k.Pile(i), k.AnyF, 1), true
		}
	}
	// 2. Moves that turn a card over, from the deepest column.
	best, bestDown := -1, 0
	var bestTo k.Pile
	for i := 0; i < Columns; i++ {
		col := &b.Cols[i]
		if col.Down == 0 || int(col.Down) <= bestDown || col.N == col.Down {
			continue
		}
		if to, err := t.DTapTarget(k.Pile(i), int(col.N-col.Down)); err == nil {
			best, bestDown, bestTo = i, int(col.Down), to
		}
	}
	if best >= 0 {
		col := &b.Cols[best]
		return k.NewMove(k.Pile(best), bestTo, int(col.N-col.Down)), true
	}
	// 3. The waste top to a column.
	if b.NWaste > 0 {
		if to, err := t.DTapTarget(k.Waste, 1); err == nil {
			return k.NewMove(k.Waste, to, 1), true
		}
	}
	// 4. Part of a run away to uncover a card that goes to a foundation.
	for i := 0; i < Columns; i++ {
		col := &b.Cols[i]
		for n := 1; n < int(col.N-col.Down); n++ {
			under := col.Cards[int(col.N)-n-1]
			if g.found.FirstSlot(under) < 0 {
				continue
			}
			first := col.Cards[int(col.N)-n]
			for j := 0; j < Columns; j++ {
				if j != i && b.Cols[j].N > 0 && b.Cols[j].Accepts(first) {
					return k.NewMove(k.Pile(i), k.Pile(j), n), true
				}
			}
		}
	}
	// 5. Draw, or recycle after a pass that made progress.
	if b.NStock > 0 {
		return k.Simple(k.Draw), true
	}
	if b.NWaste > 0 && !g.code.Vegas && p.progress && p.passes < 50 {
		p.progress = false
		p.passes++
		return k.Simple(k.Recycle), true
	}
	return k.Action{}, false
}

// played tells the greedy player what its action did.
func (p *greedy) played(a k.Action) {
	if a.Type != k.Draw && a.Type != k.Recycle {
		p.progress = true
	}
}
