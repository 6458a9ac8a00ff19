package klondike

import "dsol/internal/cards"

// Seen is what a player has seen of a board, and all that a fair player may
// decide from: the board with every card the player has never been shown
// replaced by cards.None — the face-down cards of the columns and, unless
// StockKnown, the cards of the stock. Places the board does not use (beyond
// a column's N, the stock's NStock, the waste's NWaste) are cards.None too.
// The hidden cards are not in a Seen at all, so code given one cannot peek.
// Everything else is real: the counts of every pile, the face-up column
// cards, the whole waste (a player is shown all of it, not only its top).
//
// cards.None is not a card: its Rank and Suit mean nothing, so code that
// reads a Seen must read only the face-up cards and, when StockKnown, the
// stock; Path panics on a masked stock.
//
// The stock is known card by card exactly when the player has turned the
// waste over (recycled) at least once, or it is empty; before that no card
// of it is known:
//
//   - Cards enter the stock only by a recycle (draws take them out; nothing
//     else touches it). After the first recycle, then, every stock card came
//     from the waste, which was in full view when it was turned over, and in
//     an order the recycle fixes (the waste turned over, so the first card
//     drawn in the last pass is drawn first again).
//   - Before the first recycle every stock card has been there since the
//     deal and has never been shown: a drawn card goes to the waste and
//     never comes back without a recycle.
//
// So whether the player has recycled is all that Seen needs of the past:
// apart from the stock, a card once shown stays in view wherever it goes
// (column, waste, foundation), and a face-up card never turns face down.
type Seen struct {
	Board      Board
	StockKnown bool
}

// Seen masks the board for its own player (or anyone watching it): recycled
// tells whether the waste has been turned over at least once since the deal.
func (b *Board) Seen(recycled bool) Seen {
	s := Seen{Board: noCards, StockKnown: recycled || b.NStock == 0}
	m := &s.Board
	m.NCols, m.DrawCount, m.CanRecycle = b.NCols, b.DrawCount, b.CanRecycle
	for i := range m.Cols {
		col, src := &m.Cols[i], &b.Cols[i]
		col.N, col.Down = src.N, src.Down
		copy(col.Cards[src.Down:src.N], src.Cards[src.Down:src.N])
	}
	m.NStock, m.NWaste = b.NStock, b.NWaste
	if s.StockKnown {
		copy(m.Stock[:b.NStock], b.Stock[:b.NStock])
	}
	copy(m.Waste[:b.NWaste], b.Waste[:b.NWaste])
	return s
}

// noCards is a board with cards.None in every place.
var noCards = func() (b Board) {
	for i := range b.Cols {
		for j := range b.Cols[i].Cards {
			b.Cols[i].Cards[j] = cards.None
		}
	}
	for j := range b.Stock {
		b.Stock[j], b.Waste[j] = cards.None, cards.None
	}
	return b
}()

// Place is a place of a board: card I of column Col, or card I of the
// stock when Col is -1.
type Place struct{ Col, I int }

// Of is the card at p on b.
func (p Place) Of(b *Board) *cards.Card {
	if p.Col < 0 {
		return &b.Stock[p.I]
	}
	return &b.Cols[p.Col].Cards[p.I]
}

// Scan calls seen on every card of the board that its player has seen (the
// face-up column cards, the waste, and the stock when StockKnown), which
// seen may relabel, and returns the places the player has not seen, in
// order: each column's face-down cards, then the stock unless StockKnown.
func (s *Seen) Scan(seen func(c *cards.Card)) []Place {
	b := &s.Board
	var holes []Place
	for i := range int(b.NCols) {
		col := &b.Cols[i]
		for j := range int(col.Down) {
			holes = append(holes, Place{Col: i, I: j})
		}
		for j := int(col.Down); j < int(col.N); j++ {
			seen(&col.Cards[j])
		}
	}
	for j := range int(b.NWaste) {
		seen(&b.Waste[j])
	}
	for j := range int(b.NStock) {
		if s.StockKnown {
			seen(&b.Stock[j])
		} else {
			holes = append(holes, Place{Col: -1, I: j})
		}
	}
	return holes
}
