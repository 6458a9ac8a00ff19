package klondike

import "dsol/internal/cards"

// Step records one applied change, with what is needed to undo it exactly.
type Step struct {
	Type    Type // Move, Draw or Recycle
	From    Pile // resolved source
	To      Pile // resolved target: a column or one slot
	Count   uint8
	Flipped bool       // the move turned a face-down card over
	Card    cards.Card // the first (lowest) card moved; for a draw, the new waste top
}

// Table is a board with the foundations it plays to. Solo tables allow
// recovery (a foundation top back to a column); races do not.
type Table struct {
	B             *Board
	F             *Foundations
	AllowRecovery bool
}

// runStart returns the first moved card of count cards from pile p, or an
// error when p cannot give that many.
func (t Table) source(p Pile, count int) (cards.Card, error) {
	switch {
	case p.IsColumn():
		if int(p) >= int(t.B.NCols) {
			return cards.None, Errorf(BadRequest, "there is no column %s", p)
		}
		col := &t.B.Cols[p]
		if col.N == 0 {
			return cards.None, Errorf(IllegalMove, "%s is empty", p)
		}
		if count > int(col.N-col.Down) {
			return cards.None, Errorf(IllegalMove, "%s has only %d face-up cards", p, col.N-col.Down)
		}
		return col.Cards[int(col.N)-count], nil
	case p == Waste:
		if count != 1 {
			return cards.None, Errorf(IllegalMove, "only the top card of the waste moves")
		}
		if t.B.NWaste == 0 {
			return cards.None, Errorf(IllegalMove, "the waste is empty")
		}
		return t.B.WasteTop(), nil
	case p.IsSlot():
		if !t.AllowRecovery {
			return cards.None, Errorf(IllegalMove, "foundation cards stay where they are")
		}
		if count != 1 {
			return cards.None, Errorf(IllegalMove, "only the top card of a foundation moves")
		}
		if t.F.N[p-F1] == 0 {
			return cards.None, Errorf(IllegalMove, "%s is empty", p)
		}
		return t.F.Top(int(p - F1)), nil
	case p == Stock:
		return cards.None, Errorf(IllegalMove, "stock cards are drawn, not moved")
	}
	return cards.None, Errorf(IllegalMove, "cards cannot move from %s", p)
}

// CheckMove validates moving count cards from one pile to another and returns
// the resolved target (AnyF becomes a slot). Nothing changes.
func (t Table) CheckMove(from, to Pile, count int) (Pile, error) {
	if count < 1 {
		count = 1
	}
	c, err := t.source(from, count)
	if err != nil {
		return NoPile, err
	}
	switch {
	case to.IsColumn():
		if int(to) >= int(t.B.NCols) {
			return NoPile, Errorf(BadRequest, "there is no column %s", to)
		}
		if to == from {
			return NoPile, Errorf(IllegalMove, "a card cannot move onto its own column")
		}
		col := &t.B.Cols[to]
		if !col.Accepts(c) {
			if col.N == 0 {
				return NoPile, Errorf(IllegalMove, "only a king goes to the empty column %s", to)
			}
			return NoPile, Errorf(IllegalMove, "%s does not go on %s in %s", c, col.Top(), to)
		}
		return to, nil
	case to.IsFoundation():
		if from.IsSlot() {
			return NoPile, Errorf(IllegalMove, "a foundation card goes back only to a column")
		}
		if count != 1 {
			return NoPile, Errorf(IllegalMove, "only single cards go to a foundation")
		}
		if to == AnyF {
			if s := t.F.FirstSlot(c); s >= 0 {
				return Slot(s), nil
			}
			return NoPile, Errorf(IllegalMove, "no foundation takes %s", c)
		}
		if !t.F.Accepts(int(to-F1), c) {
			return NoPile, Errorf(IllegalMove, "%s does not take %s", to, c)
		}
		return to, nil
	}
	return NoPile, Errorf(IllegalMove, "cards cannot move to %s", to)
}

// DoMove performs a move that CheckMove accepted (to already resolved) and
// turns over a face-down card it exposes.
func (t Table) DoMove(from, to Pile, count int) Step {
	if count < 1 {
		count = 1
	}
	st := Step{Type: Move, From: from, To: to, Count: uint8(count)}
	var run [MaxCount]cards.Card
	switch {
	case from.IsColumn():
		col := &t.B.Cols[from]
		col.N -= uint8(count)
		copy(run[:count], col.Cards[col.N:])
		if col.N > 0 && col.Down == col.N {
			col.Down--
			st.Flipped = true
		}
	case from == Waste:
		t.B.NWaste--
		run[0] = t.B.Waste[t.B.NWaste]
	default:
		run[0] = t.F.pop(int(from - F1))
	}
	st.Card = run[0]
	if to.IsColumn() {
		t.B.Cols[to].push(run[:count]...)
	} else {
		t.F.push(int(to-F1), run[0])
	}
	return st
}

// Undo reverses a step made by DoMove, DrawCards or RecycleWaste.
func (t Table) Undo(st Step) {
	switch st.Type {
	case Draw:
		t.B.UndrawCards(int(st.Count))
		return
	case Recycle:
		t.B.UnrecycleWaste()
		return
	}
	count := int(st.Count)
	var run [MaxCount]cards.Card
	if st.To.IsColumn() {
		col := &t.B.Cols[st.To]
		col.N -= uint8(count)
		copy(run[:count], col.Cards[col.N:])
	} else {
		run[0] = t.F.pop(int(st.To - F1))
	}
	switch {
	case st.From.IsColumn():
		col := &t.B.Cols[st.From]
		if st.Flipped {
			col.Down++
		}
		col.push(run[:count]...)
	case st.From == Waste:
		t.B.Waste[t.B.NWaste] = run[0]
		t.B.NWaste++
	default:
		t.F.push(int(st.From-F1), run[0])
	}
}

// Resolve turns a Move, Tap or DTap action into the move it makes: its source,
// its destination (a tap's or double tap's target, or the checked "to" of a
// move) and its number of cards (at least 1). It changes nothing.
func (t Table) Resolve(a Action) (from, to Pile, count int, err error) {
	from, to, count = a.From, a.To, int(a.Count)
	if count < 1 {
		count = 1
	}
	switch a.Type {
	case Tap:
		to, err = t.TapTarget(from)
		count = 1
	case DTap:
		to, err = t.DTapTarget(from, count)
	default:
		to, err = t.CheckMove(from, to, count)
	}
	return from, to, count, err
}

// TapTarget resolves a tap: the first foundation slot that takes the top card
// of a column or of the waste.
func (t Table) TapTarget(from Pile) (Pile, error) {
	if !from.IsColumn() && from != Waste {
		return NoPile, Errorf(IllegalMove, "tap a column's top card or the waste")
	}
	return t.CheckMove(from, AnyF, 1)
}

// DTapTarget resolves a double tap: among the other columns that accept the
// run, the one with the most cards (face-down included; ties: leftmost); else
// the leftmost empty column when the run starts with a king.
func (t Table) DTapTarget(from Pile, count int) (Pile, error) {
	if !from.IsColumn() && from != Waste {
		return NoPile, Errorf(IllegalMove, "double tap a column's cards or the waste")
	}
	c, err := t.source(from, count)
	if err != nil {
		return NoPile, err
	}
	best, bestN, empty := NoPile, -1, NoPile
	for i := 0; i < int(t.B.NCols); i++ {
		if Pile(i) == from {
			continue
		}
		col := &t.B.Cols[i]
		if col.N == 0 {
			if empty == NoPile {
				empty = Pile(i)
			}
			continue
		}
		if col.Accepts(c) && int(col.N) > bestN {
			best, bestN = Pile(i), int(col.N)
		}
	}
	if best != NoPile {
		return best, nil
	}
	if empty != NoPile && c.Rank() == 13 {
		return empty, nil
	}
	return NoPile, Errorf(IllegalMove, "no column takes %s", c)
}
