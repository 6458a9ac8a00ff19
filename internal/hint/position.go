package hint

import (
	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// position is a seen position made ready for sampling. In a solo game every
// seen card is relabelled by its face alone (the first copy met is deck 0,
// the second deck 1), since a view shows faces, not which copy is which;
// the unseen cards are the rest of the two decks, in order.
type position struct {
	board  k.Board // relabelled; cards.None in the holes
	known  bool    // the stock is known
	found  k.Foundations
	unseen []cards.Card
	holes  []hole
	ok     bool // the unseen cards fill the holes exactly
}

// hole is a place of the board whose card the player has not seen: a
// column's face-down card, or a stock card.
type hole struct {
	col, i int // column (or -1 for the stock) and index
}

func (h hole) place(b *k.Board) *cards.Card {
	if h.col < 0 {
		return &b.Stock[h.i]
	}
	return &b.Cols[h.col].Cards[h.i]
}

// scan lists the holes of the board and calls seen on every card of it that
// the player has seen: the face-up column cards, the waste and the stock
// once it is known.
func (p *position) scan(seen func(c *cards.Card)) {
	b := &p.board
	for i := range int(b.NCols) {
		col := &b.Cols[i]
		for j := range int(col.Down) {
			p.holes = append(p.holes, hole{col: i, i: j})
		}
		for j := int(col.Down); j < int(col.N); j++ {
			seen(&col.Cards[j])
		}
	}
	for j := range int(b.NWaste) {
		seen(&b.Waste[j])
	}
	for j := range int(b.NStock) {
		if p.known {
			seen(&b.Stock[j])
		} else {
			p.holes = append(p.holes, hole{col: -1, i: j})
		}
	}
}

func newPosition(s k.Seen, f *k.Foundations) *position {
	p := &position{board: s.Board, known: s.StockKnown, found: *f}
	var used [52]uint8
	label := func(c *cards.Card) {
		face := c.Face()
		*c = face + 52*cards.Card(min(used[face], 1))
		used[face]++
	}
	for i := range p.found.Piles {
		for j := range p.found.N[i] {
			label(&p.found.Piles[i][j])
		}
	}
	p.scan(label)
	p.ok = true
	for face, u := range used {
		if u > 2 {
			p.ok = false
		}
		for d := int(u); d < 2; d++ {
			p.unseen = append(p.unseen, cards.Card(face+52*d))
		}
	}
	p.ok = p.ok && len(p.unseen) == len(p.holes)
	return p
}

// table is the seen position's board and foundations under the solo rules.
func (p *position) table() k.Table {
	return k.Table{B: &p.board, F: &p.found, AllowRecovery: true}
}

// canonical spells a solver's first action the same way whichever of two
// equal places it names: a card that goes to a foundation goes to the first
// slot that takes it (two slots of a suit at the same height are alike), a
// king to the first empty column.
func (p *position) canonical(a k.Action) k.Action {
	if a.Type != k.Move {
		return a
	}
	t := p.table()
	switch {
	case a.To.IsSlot():
		if to, err := t.CheckMove(a.From, k.AnyF, 1); err == nil {
			a.To = to
		}
	case a.To.IsColumn() && p.board.Cols[a.To].N == 0:
		for i := range int(p.board.NCols) {
			if k.ColPile(i) != a.From && p.board.Cols[i].N == 0 {
				a.To = k.ColPile(i)
				break
			}
		}
	}
	return a
}

// legal reports whether the engine would accept a now.
func (p *position) legal(a k.Action) bool {
	b := &p.board
	switch a.Type {
	case k.Draw:
		return b.NStock > 0
	case k.Recycle:
		return b.CanRecycle && b.NStock == 0 && b.NWaste > 0
	case k.Move:
		_, to, _, err := p.table().Resolve(a)
		return err == nil && to == a.To
	}
	return false
}

// heuristic is the hint when no arrangement was won: the race bot's ranked
// move choice (a foundation target resolved to its slot); else, once the
// stock is known, the first step of the way to a foundation play or a
// flip that klondike.Path finds; else a draw, while the stock is unknown
// (or while the search gave up before deciding). A known stock with no way
// out (klondike.Blocked) leaves nothing that helps.
func (p *position) heuristic() (k.Action, bool) {
	b, f := &p.board, &p.found
	if a, ok := k.UsefulMove(b, f); ok {
		if a = p.resolved(a); p.legal(a) {
			return a, true
		}
	}
	if !p.known {
		return k.Simple(k.Draw), true
	}
	path, found := k.Path(b, f, nil)
	if found && len(path) > 0 {
		if a, ok := k.StepAction(b, f, path[0]); ok && p.legal(a) {
			return a, true
		}
	}
	if found || k.Blocked(b, f) {
		return k.Action{}, false
	}
	// The search gave up before finding a way: keep turning the stock.
	for _, a := range []k.Action{k.Simple(k.Draw), k.Simple(k.Recycle)} {
		if p.legal(a) {
			return a, true
		}
	}
	return k.Action{}, false
}
