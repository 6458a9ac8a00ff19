package klondike

import (
	"iter"

	"dsol/internal/cards"
)

// UsefulMove is the ranked move choice that the race bot plays and solo
// hints fall back on: the first of UsefulMoves; false when there is none.
func UsefulMove(b *Board, f *Foundations) (Action, bool) {
	for a := range UsefulMoves(b, f) {
		return a, true
	}
	return Action{}, false
}

// UsefulMoves yields the useful moves of a board best first: the
// foundation plays (columns with face-down cards first, then the waste);
// the moves that turn a face-down card over (the whole face-up run
// elsewhere); a waste card to a column; a run moved so that the card under
// it goes to a foundation. It reads the face-up cards and the waste only,
// so b may be masked (Seen). A foundation play's target is AnyF. The board
// must not change while the moves are yielded.
func UsefulMoves(b *Board, f *Foundations) iter.Seq[Action] {
	return func(yield func(Action) bool) {
		t := Table{B: b, F: f}
		n := int(b.NCols)
		// Foundation plays, columns with face-down cards first.
		for pass := 0; pass < 2; pass++ {
			for i := 0; i < n; i++ {
				col := &b.Cols[i]
				if col.N == 0 || (col.Down > 0) != (pass == 0) {
					continue
				}
				if f.FirstSlot(col.Top()) >= 0 {
					if !yield(NewMove(ColPile(i), AnyF, 1)) {
						return
					}
				}
			}
		}
		if w := b.WasteTop(); w != cards.None && f.FirstSlot(w) >= 0 {
			if !yield(NewMove(Waste, AnyF, 1)) {
				return
			}
		}
		// Moves that turn a face-down card over: the whole face-up run elsewhere.
		for i := 0; i < n; i++ {
			col := &b.Cols[i]
			if col.Down == 0 || col.N == col.Down {
				continue
			}
			count := int(col.N - col.Down)
			if to, err := t.DTapTarget(ColPile(i), count); err == nil {
				if !yield(NewMove(ColPile(i), to, count)) {
					return
				}
			}
		}
		// A waste card to a column.
		if b.NWaste > 0 {
			if to, err := t.DTapTarget(Waste, 1); err == nil {
				if !yield(NewMove(Waste, to, 1)) {
					return
				}
			}
		}
		// Part of a run moved so that the card under it goes to a foundation.
		for i := 0; i < n; i++ {
			col := &b.Cols[i]
			for j := int(col.Down) + 1; j < int(col.N); j++ {
				if f.FirstSlot(col.Cards[j-1]) < 0 {
					continue
				}
				count := int(col.N) - j
				if to, err := t.DTapTarget(ColPile(i), count); err == nil {
					if !yield(NewMove(ColPile(i), to, count)) {
						return
					}
				}
			}
		}
	}
}

// StepAction turns a step of Path into the action that plays it, if that is
// still legal on the board.
func StepAction(b *Board, f *Foundations, s Step) (Action, bool) {
	switch s.Type {
	case Draw:
		return Simple(Draw), b.NStock > 0
	case Recycle:
		return Simple(Recycle), b.NStock == 0 && b.NWaste > 0 && b.CanRecycle
	}
	if _, err := (Table{B: b, F: f}).CheckMove(s.From, s.To, int(s.Count)); err != nil {
		return Action{}, false
	}
	return NewMove(s.From, s.To, int(s.Count)), true
}
