package solver

import (
	"fmt"

	k "dsol/internal/klondike"
)

// line spells the logged solver moves from the position (b, f) as engine
// actions: each talon move becomes the draws (and the recycle) that bring its
// card to the top of the waste, then the move from the waste. It plays every
// action on a copy with the klondike rules and panics if one is refused or
// does not move the card the search moved: that would be a solver bug.
func line(b *k.Board, f *k.Foundations, log []rec) []k.Action {
	bb, ff := *b, *f
	t := k.Table{B: &bb, F: &ff, AllowRecovery: true}
	out := make([]k.Action, 0, len(log)+len(log)/2)
	for _, r := range log {
		m := r.m
		var a k.Action
		switch m.kind {
		case colToF:
			a = k.NewMove(k.ColPile(int(m.from)), k.Slot(int(m.to)), 1)
		case colToCol:
			a = k.NewMove(k.ColPile(int(m.from)), k.ColPile(int(m.to)), int(m.count))
		case fToCol:
			a = k.NewMove(k.Slot(int(m.from)), k.ColPile(int(m.to)), 1)
		case talToF, talToCol:
			var err error
			if out, err = k.BringUp(&bb, int(m.from), out); err != nil {
				panic("solver: " + err.Error())
			}
			to := k.ColPile(int(m.to))
			if m.kind == talToF {
				to = k.Slot(int(m.to))
			}
			a = k.NewMove(k.Waste, to, 1)
		}
		from, to, count, err := t.Resolve(a)
		if err != nil {
			panic(fmt.Sprintf("solver: the line's move %s is refused: %v", a, err))
		}
		if st := t.DoMove(from, to, count); st.Card != r.card {
			panic(fmt.Sprintf("solver: the line's move %s moves %s, not %s", a, st.Card, r.card))
		}
		out = append(out, a)
	}
	return out
}
