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
	holes  []k.Place // the places the player has not seen (klondike.Seen.Scan)
	ok     bool      // the unseen cards fill the holes exactly
}

func newPosition(s k.Seen, f *k.Foundations) *position {
	p := &position{known: s.StockKnown, found: *f}
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
	p.holes = s.Scan(label)
	p.board = s.Board
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
