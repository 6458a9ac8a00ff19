package klondike

import "dsol/internal/cards"

// A quick proof of blockedness, tried before the search. It over-approximates
// the cards that can ever become a top (of a column or of the waste) with a
// fixpoint over simple necessary conditions, ignoring when things happen:
//
//   - a column's top and the waste top can;
//   - a face-up card X under a card C can only if the run from C can move
//     away: onto a card of the target faces of C (rank C+1, the other colour)
//     that can be a top in another column, or into an empty column when C is
//     a king;
//   - with recycling, or while they are in the stock, talon cards can;
//     without recycling a waste card can only if the card above it can, and
//     can then move to a column.
//
// A column can become empty only if it has no face-down card and its base
// card can move away (a king base only trades one empty column for another,
// so it is left out). A foundation play needs a needed card that can be a
// top; a flip needs the base card of a column with face-down cards to move
// away. When neither is possible even in this relaxed game, no sequence of
// real moves reaches one, and the position is blocked. The converse does not
// hold: a "maybe" sends the position to the exact search.

const (
	locNone  = 0xFF // face down, on a foundation or on no board
	locTalon = MaxColumns
)

type relaxed struct {
	b      *Board
	loc    [2 * 52]uint8 // where each card is: column, talon or locNone
	top    [2 * 52]bool  // the card can become a top
	colTop [2 * 52]bool  // the card can become the top of a column
}

// hopeless reports whether the relaxed game proves b blocked.
func hopeless(b *Board, f *Foundations) bool {
	var r relaxed
	r.b = b
	for i := range r.loc {
		r.loc[i] = locNone
	}
	n := int(b.NCols)
	for i := 0; i < n; i++ {
		col := &b.Cols[i]
		for p := int(col.Down); p < int(col.N); p++ {
			r.loc[col.Cards[p]] = uint8(i)
		}
		if col.N > 0 {
			t := col.Cards[col.N-1]
			r.top[t], r.colTop[t] = true, true
		}
	}
	for _, c := range b.Stock[:b.NStock] {
		r.loc[c] = locTalon
		r.top[c] = true
	}
	for _, c := range b.Waste[:b.NWaste] {
		r.loc[c] = locTalon
		r.top[c] = b.CanRecycle
	}
	if b.NWaste > 0 {
		r.top[b.Waste[b.NWaste-1]] = true
	}
	for changed := true; changed; {
		changed = false
		for _, c := range b.Stock[:b.NStock] {
			changed = r.land(c) || changed
		}
		for i := int(b.NWaste) - 1; i >= 0; i-- {
			c := b.Waste[i]
			if !r.top[c] && i+1 < int(b.NWaste) && r.colTop[b.Waste[i+1]] {
				r.top[c], changed = true, true
			}
			changed = r.land(c) || changed
		}
		for i := 0; i < n; i++ {
			col := &b.Cols[i]
			for p := int(col.N) - 2; p >= int(col.Down); p-- {
				x := col.Cards[p]
				if !r.top[x] && r.movable(col.Cards[p+1], i) {
					r.top[x], r.colTop[x], changed = true, true, true
				}
			}
		}
	}
	for c := range r.top {
		if r.top[c] && f.FirstSlot(cards.Card(c)) >= 0 {
			return false
		}
	}
	for i := 0; i < n; i++ {
		col := &b.Cols[i]
		if col.Down > 0 && col.N > col.Down && r.movable(col.Cards[col.Down], i) {
			return false
		}
	}
	return true
}

// land marks a talon card that can be a top as able to reach a column, and
// reports whether that is new.
func (r *relaxed) land(c cards.Card) bool {
	if r.top[c] && !r.colTop[c] && r.movable(c, -1) {
		r.colTop[c] = true
		return true
	}
	return false
}

// movable reports whether a run starting with c may leave column from (or
// the waste, from = -1) for another column, in the relaxed game.
func (r *relaxed) movable(c cards.Card, from int) bool {
	if c.Rank() == 13 {
		for j := 0; j < int(r.b.NCols); j++ {
			if j != from && r.emptiable(j) {
				return true
			}
		}
		return false
	}
	rank := c.Rank() + 1
	for s := cards.Spades; s <= cards.Clubs; s++ {
		if s.Red() == c.Red() {
			continue
		}
		for deck := 0; deck < 2; deck++ {
			y := cards.New(deck, s, rank)
			if r.colTop[y] && int(r.loc[y]) != from {
				return true
			}
		}
	}
	return false
}

// emptiable reports whether column j is or can become empty.
func (r *relaxed) emptiable(j int) bool {
	col := &r.b.Cols[j]
	if col.N == 0 {
		return true
	}
	base := col.Cards[0]
	return col.Down == 0 && base.Rank() != 13 && r.movable(base, j)
}
