package klondike

import "dsol/internal/cards"

// Capacity limits. A column holds at most 8 face-down cards (the solo deal) plus
// a descending run of 13; the stock and waste at most the 59 cards of a solo deal.
const (
	MaxColumns     = 9
	MaxColumnCards = 24
	MaxStock       = 59
)

// Column is one tableau column: Cards[:N], of which Cards[:Down] are face down.
type Column struct {
	Cards [MaxColumnCards]cards.Card
	N     uint8
	Down  uint8
}

// Top returns the top card, or cards.None when the column is empty.
func (c *Column) Top() cards.Card {
	if c.N == 0 {
		return cards.None
	}
	return c.Cards[c.N-1]
}

// Up returns the face-up cards, bottom first.
func (c *Column) Up() []cards.Card { return c.Cards[c.Down:c.N] }

// push adds cards on top.
func (c *Column) push(cs ...cards.Card) {
	c.N += uint8(copy(c.Cards[c.N:], cs))
}

// Accepts reports whether a run whose first card is first may be placed on
// the column: a king on an empty column, else opposite colour and one lower.
func (c *Column) Accepts(first cards.Card) bool {
	if c.N == 0 {
		return first.Rank() == 13
	}
	return c.N > c.Down && cards.Builds(first, c.Cards[c.N-1])
}

// Board is one player's side of the table: the columns, the stock (top =
// Stock[NStock-1], the next card drawn) and the waste (top = Waste[NWaste-1]).
type Board struct {
	Cols      [MaxColumns]Column
	NCols     uint8
	DrawCount uint8 // 1 or 3
	// CanRecycle allows turning the waste back into the stock (solo Normal,
	// races with unlimited redeals).
	CanRecycle bool
	Stock      [MaxStock]cards.Card
	NStock     uint8
	Waste      [MaxStock]cards.Card
	NWaste     uint8
}

// Deal lays out deck on n columns row by row (for r in 0..n-1, for c in
// r..n-1, column c gets the next card, face up iff c == r); the rest becomes
// the stock in draw order.
func (b *Board) Deal(deck []cards.Card, n, drawCount int, canRecycle bool) {
	*b = Board{NCols: uint8(n), DrawCount: uint8(drawCount), CanRecycle: canRecycle}
	i := 0
	for r := 0; r < n; r++ {
		for c := r; c < n; c++ {
			col := &b.Cols[c]
			col.Cards[col.N] = deck[i]
			col.N++
			if c != r {
				col.Down++
			}
			i++
		}
	}
	rest := deck[i:]
	b.NStock = uint8(len(rest))
	for k, c := range rest { // the first card after the deal is drawn first
		b.Stock[len(rest)-1-k] = c
	}
}

// WasteTop returns the playable waste card, or cards.None.
func (b *Board) WasteTop() cards.Card {
	if b.NWaste == 0 {
		return cards.None
	}
	return b.Waste[b.NWaste-1]
}

// StockCards returns the stock in draw order (next card first) — for deal
// listings only, never for players.
func (b *Board) StockCards() []cards.Card {
	out := make([]cards.Card, b.NStock)
	for i := range out {
		out[i] = b.Stock[int(b.NStock)-1-i]
	}
	return out
}

// DrawCards moves up to DrawCount cards from the stock to the waste and
// returns how many moved.
func (b *Board) DrawCards() int {
	n := min(int(b.DrawCount), int(b.NStock))
	for i := 0; i < n; i++ {
		b.NStock--
		b.Waste[b.NWaste] = b.Stock[b.NStock]
		b.NWaste++
	}
	return n
}

// UndrawCards moves n cards from the waste back onto the stock.
func (b *Board) UndrawCards(n int) {
	for i := 0; i < n; i++ {
		b.NWaste--
		b.Stock[b.NStock] = b.Waste[b.NWaste]
		b.NStock++
	}
}

// RecycleWaste turns the whole waste over into the stock, so that the first
// card drawn in the last pass is drawn first again. Its own inverse is
// UnrecycleWaste.
func (b *Board) RecycleWaste() {
	n := b.NWaste
	for i := uint8(0); i < n; i++ {
		b.Stock[n-1-i] = b.Waste[i]
	}
	b.NStock, b.NWaste = n, 0
}

// UnrecycleWaste undoes RecycleWaste.
func (b *Board) UnrecycleWaste() {
	n := b.NStock
	for i := uint8(0); i < n; i++ {
		b.Waste[i] = b.Stock[n-1-i]
	}
	b.NWaste, b.NStock = n, 0
}

// CardsLeft counts the cards still on the board (columns, stock, waste).
func (b *Board) CardsLeft() int {
	n := int(b.NStock) + int(b.NWaste)
	for i := 0; i < int(b.NCols); i++ {
		n += int(b.Cols[i].N)
	}
	return n
}

// FaceDown counts the face-down cards in the columns.
func (b *Board) FaceDown() int {
	n := 0
	for i := 0; i < int(b.NCols); i++ {
		n += int(b.Cols[i].Down)
	}
	return n
}

// Foundations are the 8 slots in 4 suit rows: slots 2s and 2s+1 take suit s.
type Foundations struct {
	Piles [numSlots][13]cards.Card
	N     [numSlots]uint8
}

// Top returns the top card of slot i, or cards.None.
func (f *Foundations) Top(i int) cards.Card {
	if f.N[i] == 0 {
		return cards.None
	}
	return f.Piles[i][f.N[i]-1]
}

// Accepts reports whether slot i takes c: its suit row, and one rank above
// the slot's top (an ace on an empty slot).
func (f *Foundations) Accepts(i int, c cards.Card) bool {
	return i/2 == int(c.Suit()) && int(f.N[i]) == c.Rank()-1
}

// FirstSlot returns the first slot of c's row that accepts it, or -1.
func (f *Foundations) FirstSlot(c cards.Card) int {
	s := 2 * int(c.Suit())
	switch {
	case f.Accepts(s, c):
		return s
	case f.Accepts(s+1, c):
		return s + 1
	}
	return -1
}

// Total counts the cards on all slots.
func (f *Foundations) Total() int {
	n := 0
	for _, k := range f.N {
		n += int(k)
	}
	return n
}

func (f *Foundations) push(i int, c cards.Card) {
	f.Piles[i][f.N[i]] = c
	f.N[i]++
}

func (f *Foundations) pop(i int) cards.Card {
	f.N[i]--
	return f.Piles[i][f.N[i]]
}
