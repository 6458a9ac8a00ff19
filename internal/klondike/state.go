package klondike

import (
	"errors"
	"fmt"

	"dsol/internal/cards"
)

// CheckState reports whether boards and foundations read back from a
// stored state (a snapshot) can be a position of a game dealt with deck:
// every count within its array, face-down cards only under face-up ones,
// and exactly the deck's cards, each once, across the piles.
func CheckState(deck []cards.Card, f *Foundations, boards ...*Board) error {
	var seen [256]uint8
	put := func(c cards.Card) { seen[c]++ }
	for i := range f.N {
		if f.N[i] > 13 {
			return fmt.Errorf("klondike: foundation %d holds %d cards", i+1, f.N[i])
		}
		for _, c := range f.Piles[i][:f.N[i]] {
			put(c)
		}
	}
	for _, b := range boards {
		if b.NCols > MaxColumns || b.NStock > MaxStock || b.NWaste > MaxStock || (b.DrawCount != 1 && b.DrawCount != 3) {
			return errors.New("klondike: a board's counts are out of range")
		}
		for i := range b.Cols[:b.NCols] {
			col := &b.Cols[i]
			if col.N > MaxColumnCards || col.Down > col.N || (col.N > 0 && col.Down == col.N) {
				return fmt.Errorf("klondike: column %d holds %d cards, %d face down", i+1, col.N, col.Down)
			}
			for _, c := range col.Cards[:col.N] {
				put(c)
			}
		}
		for _, c := range b.Stock[:b.NStock] {
			put(c)
		}
		for _, c := range b.Waste[:b.NWaste] {
			put(c)
		}
	}
	for _, c := range deck {
		if seen[c] != 1 {
			return fmt.Errorf("klondike: card %s is in the piles %d times", c, seen[c])
		}
		seen[c] = 0
	}
	for c, n := range seen {
		if n != 0 {
			return fmt.Errorf("klondike: card %s is not of the deal", cards.Card(c))
		}
	}
	return nil
}

// CheckStep reports whether an undo step read back from a stored state
// names piles and counts a board of ncols columns has.
func CheckStep(st Step, ncols int) error {
	pile := func(p Pile) bool {
		return (p.IsColumn() && int(p) < ncols) || p == Waste || p == Stock || p.IsSlot()
	}
	switch st.Type {
	case Draw, Recycle, Finish:
		return nil
	case Move:
		if pile(st.From) && pile(st.To) && st.Count >= 1 && st.Count <= MaxCount {
			return nil
		}
	}
	return fmt.Errorf("klondike: undo step %+v is not one a game makes", st)
}
